import { describe, expect, it } from 'vitest';
import { isPdf, pdfText, popplerText } from '../../../tests/support/pdf';
import { qrCodeOnFirstPage } from '../../../tests/support/qr-code';
import { type GiftCardDocument, renderGiftCardPdf } from './gift-card-pdf';

const B = '\u00A0'; // no-break space (the PDF's standard fonts have no narrow one)

/** The page as pdftotext lays it out, each line trimmed: the words where a reader sees them. */
function pageText(pdf: Buffer): string {
  return popplerText(pdf, { layout: true })
    .split('\n')
    .map((line) => line.trim())
    .join('\n');
}

/** The same, whitespace collapsed: sentences however they wrap. */
function words(pdf: Buffer): string {
  return popplerText(pdf).replace(/\s+/g, ' ');
}

const card: GiftCardDocument = {
  code: '7KQM-4XRT-9BWN-AB12',
  amountCents: 5000,
  recipientName: 'Élodie Lefèvre',
  buyerName: 'Jean-Noël Dupont',
  message: 'Joyeux anniversaire !\r\nPour que les films de papa revivent.\n\nBises, Jean',
  // 00:30 on 29 November in Paris, still the 28th in UTC: the card shows the Paris date.
  expiresAt: new Date('2027-11-28T23:30:00Z'),
  redeemUrl: 'https://www.soovenirs.fr/carte-cadeau?code=7KQM-4XRT-9BWN-AB12',
};

describe('the printable gift card', () => {
  it('shows the amount, for whom and from whom, the message as typed, the code and the last day', async () => {
    const pdf = await renderGiftCardPdf(card);
    expect(isPdf(pdf)).toBe(true);
    // One page: the card is printed on a single sheet.
    expect(
      popplerText(pdf)
        .split('\f')
        .filter((page) => page.trim()),
    ).toHaveLength(1);
    const text = words(pdf);
    expect(text).toContain('Carte cadeau Soovenirs');
    expect(text).toContain('50,00 €');
    expect(text).toContain('Pour Élodie Lefèvre');
    expect(text).toContain('De la part de Jean-Noël Dupont');
    expect(text).toContain('7KQM-4XRT-9BWN-AB12');
    expect(text).toContain('Valable jusqu’au 29/11/2027');
    expect(text).toContain(
      'Saisissez ce code au moment de payer votre commande sur soovenirs.fr, ou scannez le QR code.',
    );
    expect(text).toContain('Soovenirs SAS');
    // The message's line breaks are kept: three lines, the blank one between the last two too.
    expect(pageText(pdf)).toContain('Joyeux anniversaire !\nPour que les films de papa revivent.\n\nBises, Jean');
    // French typography: no-break spaces, so that « € » and « ? » never start a line.
    expect(pdfText(pdf)).toContain(`50,00${B}€`);
    expect(pdfText(pdf)).toContain(`Comment l’utiliser${B}?`);
  });

  it('carries a QR code that a reader decodes to the redeem address', async () => {
    const pdf = await renderGiftCardPdf(card);
    expect(await qrCodeOnFirstPage(pdf)).toBe(card.redeemUrl);
    // Drawn from the card's own address: another card, another code.
    const other = 'https://www.soovenirs.fr/carte-cadeau?code=ZZZZ-YYYY-XXXX-0000';
    expect(await qrCodeOnFirstPage(await renderGiftCardPdf({ ...card, redeemUrl: other }))).toBe(other);
  });

  it('stays on one page with a long message: 1,000 characters over a dozen lines', async () => {
    const lines = Array.from({ length: 12 }, (_, index) => `Ligne ${index + 1}`);
    const message = `${'Un long message, écrit avec beaucoup d’amour. '.repeat(25).slice(0, 1000 - 100)}\n${lines.join('\n')}`;
    const pdf = await renderGiftCardPdf({ ...card, message });
    const text = popplerText(pdf);
    expect(text.split('\f').filter((page) => page.trim())).toHaveLength(1);
    expect(text).toContain('Ligne 12');
    expect(text.replace(/\s+/g, ' ')).toContain('ou scannez le QR code.');
    expect(await qrCodeOnFirstPage(pdf)).toBe(card.redeemUrl);
  });

  it('without a message, and with a larger amount: no empty quote, thousands in French', async () => {
    const pdf = await renderGiftCardPdf({ ...card, message: null, amountCents: 125_000 });
    const text = words(pdf);
    expect(pdfText(pdf)).toContain(`1${B}250,00${B}€`);
    expect(text).not.toContain('Joyeux');
    expect(text).toContain('Pour Élodie Lefèvre');
    expect(text).toContain('7KQM-4XRT-9BWN-AB12');
  });
});
