import { describe, expect, it } from 'vitest';
import { company } from '../company';
import {
  bankAccount,
  CHECKOUT_PAYMENT_METHOD_TEXT,
  GIFT_CARD_PAYMENT_METHOD_TEXT,
  isCheckoutPaymentMethod,
  isOfflinePaymentMethod,
  paymentInstructions,
} from './offline';

const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');
const order = { number: 'SV-2026-000042', amountDueCents: 9490 };

describe('payment methods of the checkout', () => {
  it.each([
    ['card', true, false],
    ['transfer', true, true],
    ['cheque', true, true],
    ['paypal', false, false],
    ['', false, false],
    [undefined, false, false],
  ])('%s', (value, checkout, offline) => {
    expect(isCheckoutPaymentMethod(value)).toBe(checkout);
    expect(isOfflinePaymentMethod(value)).toBe(offline);
  });

  it('describes each choice in French, with a narrow no-break space before the semicolon', () => {
    expect(CHECKOUT_PAYMENT_METHOD_TEXT.transfer.label).toBe('Virement bancaire');
    expect(CHECKOUT_PAYMENT_METHOD_TEXT.cheque.label).toBe('Chèque');
    expect(CHECKOUT_PAYMENT_METHOD_TEXT.transfer.description).toContain('bancaires\u202F;');
  });
});

describe('paymentInstructions', () => {
  it('gives the transfer’s account holder, IBAN, BIC, amount and the order reference for the label', () => {
    const instructions = paymentInstructions('transfer', order);
    expect(instructions.title).toBe('Paiement par virement bancaire');
    expect(plain(instructions.intro)).toBe(
      'Veuillez virer 94,90 € sur notre compte, en indiquant la référence SV-2026-000042 dans le libellé du virement.',
    );
    expect(Object.fromEntries(instructions.details.map((d) => [d.label, plain(d.value)]))).toEqual({
      'Titulaire du compte': company.legalName,
      IBAN: 'FR76 3000 4008 2800 0123 4567 841',
      BIC: 'BNPAFRPPXXX',
      Banque: bankAccount.bank,
      Montant: '94,90 €',
      'Libellé du virement': 'SV-2026-000042',
    });
  });

  it('has a valid IBAN (ISO 13616 check digits)', () => {
    const iban = plain(bankAccount.iban).replace(/ /g, '');
    const digits = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
    expect(BigInt(digits) % 97n).toBe(1n);
  });

  it('gives the cheque’s payee, the address to send it to, the amount and the reference', () => {
    const instructions = paymentInstructions('cheque', order);
    expect(instructions.title).toBe('Paiement par chèque');
    expect(Object.fromEntries(instructions.details.map((d) => [d.label, plain(d.value)]))).toEqual({
      'À l’ordre de': company.legalName,
      'Adresse d’envoi': `Soovenirs – Service comptabilité, ${company.street}, ${company.postalCode} ${company.city}`,
      Montant: '94,90 €',
      'Référence au dos du chèque': 'SV-2026-000042',
    });
    expect(instructions.outro).toContain('chèque\u202F;');
  });
});

describe('a gift card’s sale', () => {
  it('says the card is issued when the money comes, not that any digitisation starts', () => {
    for (const method of ['transfer', 'cheque'] as const) {
      expect(GIFT_CARD_PAYMENT_METHOD_TEXT[method].label).toBe(CHECKOUT_PAYMENT_METHOD_TEXT[method].label);
      expect(GIFT_CARD_PAYMENT_METHOD_TEXT[method].description).toContain('la carte cadeau est émise');
      expect(GIFT_CARD_PAYMENT_METHOD_TEXT[method].description).toContain('\u00A0;');
      const { outro, details } = paymentInstructions(method, order, { giftCard: true });
      expect(outro).toMatch(/^Votre carte cadeau est émise dès réception de votre (virement|chèque)/);
      expect(outro).not.toMatch(/numérisation|originaux/);
      expect(details).toEqual(paymentInstructions(method, order).details);
    }
  });
});
