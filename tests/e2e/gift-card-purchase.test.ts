import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseGiftCardCode } from '~/domain/vouchers/gift-cards';
import type { ReceivedMessage } from '~/server/email/testing/smtp-test-server';
import { createUser, randomIp, signIn, type TestUser } from '../support/auth';
import { fillBillingAddress } from '../support/billing';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { facturXBatch } from '../support/factur-x';
import { isPdf, pdfText } from '../support/pdf';
import { type SharedServerWithSmtp, sharedServerWithSmtp } from '../support/server-with-smtp';

/*
 * Buying a gift card (decision 037) in Chromium, on the worker's shared server with its SMTP peer:
 * a signed-in buyer chooses 50 € for Jeanne Martin, to print, pays by card at the sandbox, reaches
 * the confirmation that gives the card to download; the card arrives by e-mail with its PDF and its
 * code; « Mes cartes cadeaux » lists it « Active » with 50,00 € left, and its PDF opens for the
 * buyer only. A refused form keeps what was typed and makes no order; without JavaScript the plain
 * form still leads to the checkout.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const plain = (text: string | null) => (text ?? '').replace(/[\u00A0\u202F]/g, ' ');
const CODE = /\b[0-9A-Z]{4}(?:-[0-9A-Z]{4}){3}\b/;

let env: SharedServerWithSmtp;
let browser: Browser;
let buyer: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  [env, browser] = await Promise.all([sharedServerWithSmtp({ PAYMENT_SANDBOX: 'on' }), launchBrowser()]);
  [buyer, stranger] = await Promise.all([
    createUser({ url: env.server.url, firstName: 'Claire', lastName: 'Martin' }),
    createUser({ url: env.server.url, firstName: 'Paul', lastName: 'Durand' }),
  ]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await env?.dispose();
});

async function buyerPage(options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
  const page = await openPage(browser, undefined, { ...DESKTOP, ...options });
  await signIn({ url: env.server.url, email: buyer.email, page });
  return page;
}

async function ordersOf(user: TestUser): Promise<number> {
  const { rows } = await env.db.query<{ count: number }>(
    'select count(*)::int as count from orders where user_id = $1',
    [user.id],
  );
  return rows[0]?.count ?? 0;
}

/** The PDF attachments of a message: file name and bytes (nodemailer writes them in base64). */
function pdfAttachments(message: ReceivedMessage): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  for (const part of message.raw.split(/\r\n--[^\r\n]+\r\n/)) {
    if (!/^Content-Type: application\/pdf/im.test(part)) continue;
    const name = /filename="?([^";\r\n]+)"?/i.exec(part)?.[1] ?? '';
    const body = part.slice(part.indexOf('\r\n\r\n') + 4).replace(/\r\n--[\s\S]*$/, '');
    found.set(name, Buffer.from(body.replace(/\s+/g, ''), 'base64'));
  }
  return found;
}

/** A day (YYYY-MM-DD) `days` from now, as the Paris calendar has it. */
function dayFromNow(days: number): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Paris' }).format(
    new Date(Date.now() + days * 86_400_000),
  );
}

async function fillCardForm(
  page: Page,
  form: { amount: string; recipientName: string; recipientEmail: string; message: string } & (
    | { delivery: 'print' }
    | { delivery: 'email'; sendDate: string }
  ),
) {
  await page.getByRole('radio', { name: 'Un montant de mon choix' }).check();
  await page.getByLabel(/^Montant en euros/).fill(form.amount);
  await page.getByLabel('Son prénom et son nom').fill(form.recipientName);
  await page.getByLabel('Son adresse e-mail').fill(form.recipientEmail);
  await page.getByLabel('Votre message (facultatif)').fill(form.message);
  if (form.delivery === 'print') {
    await page.getByRole('radio', { name: /^Je l’imprime moi-même/ }).check();
  } else {
    await page.getByRole('radio', { name: /^Par e-mail, le jour de mon choix/ }).check();
    await page.getByLabel('Date d’envoi').fill(form.sendDate);
  }
}

// The invoices and credit notes this file downloads, validated together once it is done.
const facturX = facturXBatch();
afterAll(() => facturX.expectAllValid(), 240_000);

describe('buying a gift card', () => {
  it('a signed-in buyer buys a 50 € card to print, pays by card, gets it by e-mail, in the account and as a PDF', async () => {
    const page = await buyerPage();
    await page.goto(`${env.server.url}/carte-cadeau`);
    await expectNoSeriousA11yViolations(page);
    // The card says it is from the account's name unless the buyer changes it.
    expect(await page.getByLabel('De la part de').inputValue()).toBe('Claire Martin');
    await fillCardForm(page, {
      amount: '50',
      recipientName: 'Jeanne Martin',
      recipientEmail: 'jeanne.martin@example.fr',
      message: 'Joyeux Noël, maman !\nPour les cassettes de papa.',
      delivery: 'print',
    });
    await page.getByRole('button', { name: 'Continuer vers le paiement' }).click();
    await page.waitForURL(/\/checkout\?orderId=[0-9a-f-]{36}$/);
    const orderId = new URL(page.url()).searchParams.get('orderId') as string;
    // The address changes before the checkout is drawn.
    await page.getByRole('heading', { name: 'Finaliser ma commande' }).waitFor();

    // The checkout tells the card, not a digitisation's delivery, files or work.
    const main = plain(await page.locator('main').textContent());
    expect(main).toContain('Carte cadeau Soovenirs de 50,00 € pour Jeanne Martin, à imprimer');
    expect(main).not.toContain('Vos fichiers vous appartiennent');
    expect(main).not.toContain('Envoi de vos originaux');
    // Nothing about a digitisation: no work waits for the payment, no copies are sold.
    expect(main).not.toMatch(/numérisation|originaux|Copies/);
    expect(main).toContain('la carte cadeau est émise à réception du virement');
    expect(await page.getByRole('heading', { name: 'Livraison' }).count()).toBe(0);
    expect(await page.getByRole('checkbox', { name: /Je demande expressément/ }).count()).toBe(0);
    const recap = plain(await page.getByRole('region', { name: 'Récapitulatif de la commande' }).textContent());
    expect(recap).toMatch(/Carte cadeau\s*50,00 €/);
    await expectNoSeriousA11yViolations(page);

    await fillBillingAddress(page);
    await page.getByRole('button', { name: /^Payer 50,00/ }).click();
    await page.waitForURL(/\/paiement\/sandbox\//);
    await page.getByLabel('Titulaire de la carte').fill('Claire Martin');
    await page.getByLabel('Numéro de carte').fill('4242 4242 4242 4242');
    await page.getByLabel('Date d’expiration').fill('12/30');
    await page.getByLabel('CVV').fill('123');
    await page.getByRole('button', { name: /^Payer/ }).click();
    await page.waitForURL(/\/confirmation\?orderId=/);
    await expect.poll(() => page.getByText('Votre carte cadeau est émise').isVisible()).toBe(true);
    const confirmation = plain(await page.locator('main').textContent());
    expect(confirmation).toContain('Carte cadeau Soovenirs de 50,00 € pour Jeanne Martin, à imprimer');
    expect(confirmation).not.toContain('Les travaux commenceront');
    const download = page.getByRole('link', { name: 'Télécharger votre carte (PDF)' });
    expect(await download.getAttribute('href')).toBe(`/carte-cadeau/${orderId}/carte.pdf`);

    // The card itself, to the buyer at once: its code in the text and on the PDF attached.
    const mail = await env.smtp.waitForMail(buyer.email, (m) =>
      plain(m.subject).includes('Votre carte cadeau Soovenirs'),
    );
    expect(plain(mail.subject)).toBe('Votre carte cadeau Soovenirs de 50,00 €');
    const code = CODE.exec(mail.text)?.[0] as string;
    expect(code && normaliseGiftCardCode(code)).toBe(code?.replace(/-/g, ''));
    const attached = pdfAttachments(mail).get('carte-cadeau-soovenirs.pdf') as Buffer;
    expect(isPdf(attached)).toBe(true);
    // The PDF cuts its text into runs where the font kerns (« 5 VC7-… »): compare without the spaces.
    const textOf = (pdf: Buffer) => pdfText(pdf).replace(/\s+/g, '');
    expect(textOf(attached)).toContain(code);

    // « Mes cartes cadeaux »: the card, active, its code masked, its PDF to download again.
    await page.goto(`${env.server.url}/profile?tab=cartes-cadeaux`);
    await page.getByRole('heading', { name: 'Mes cartes cadeaux' }).waitFor();
    const row = page.getByRole('row', { name: /Jeanne Martin/ });
    const shown = plain(await row.textContent());
    expect(shown).toContain('Active');
    expect(shown).toMatch(/50,00 €.*50,00 €/);
    expect(shown).toContain(`••••-••••-••••-${code.slice(-4)}`);
    expect(shown).not.toContain(code);
    expect(shown).toContain('À imprimer');
    expect(
      await row
        .getByRole('link', { name: 'Télécharger la carte cadeau pour Jeanne Martin en PDF' })
        .getAttribute('href'),
    ).toBe(`/carte-cadeau/${orderId}/carte.pdf`);
    await expectNoSeriousA11yViolations(page);

    // The PDF: the buyer's, and nobody else's.
    const pdf = await page.request.get(`${env.server.url}/carte-cadeau/${orderId}/carte.pdf`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    const bytes = await pdf.body();
    expect(isPdf(bytes)).toBe(true);
    expect(textOf(bytes)).toContain(code);
    const other = await fetch(`${env.server.url}/carte-cadeau/${orderId}/carte.pdf`, {
      redirect: 'manual',
      headers: { cookie: stranger.cookie, 'x-forwarded-for': randomIp() },
    });
    expect(other.status).toBe(404);

    // The card's sale invoice (its VAT is due at the sale): a valid Factur-X.
    const invoice = await page.request.get(`${env.server.url}/facture/${orderId}/pdf`);
    expect(invoice.status()).toBe(200);
    facturX.add(await invoice.body(), 'gift card sale invoice');
  });

  it('refuses a wrong form with each French message, keeps what was typed and makes no order', async () => {
    const page = await buyerPage();
    const before = await ordersOf(buyer);
    await page.goto(`${env.server.url}/carte-cadeau`);
    const past = dayFromNow(-2);
    await fillCardForm(page, {
      amount: '5',
      recipientName: '',
      recipientEmail: 'jeanne.martin@example.fr',
      message: 'Bon anniversaire !',
      delivery: 'email',
      sendDate: past,
    });
    await page.getByRole('button', { name: 'Continuer vers le paiement' }).click();
    await page.getByRole('alert').waitFor();
    expect(plain(await page.getByRole('alert').textContent())).toBe(
      'La carte n’a pas été créée : vérifiez les champs indiqués.',
    );
    const main = plain(await page.locator('main').textContent());
    expect(main).toMatch(/Le montant doit être compris entre 20,00 € et 500,00 €\./);
    expect(main).toContain('Indiquez le nom de la personne à qui vous offrez la carte.');
    expect(main).toContain('Choisissez une date d’envoi entre aujourd’hui et dans un an.');
    expect(await page.getByLabel(/^Montant en euros/).inputValue()).toBe('5');
    expect(await page.getByRole('radio', { name: 'Un montant de mon choix' }).isChecked()).toBe(true);
    expect(await page.getByLabel('Son adresse e-mail').inputValue()).toBe('jeanne.martin@example.fr');
    expect(await page.getByLabel('Votre message (facultatif)').inputValue()).toBe('Bon anniversaire !');
    expect(await page.getByRole('radio', { name: /^Par e-mail, le jour de mon choix/ }).isChecked()).toBe(true);
    expect(await page.getByLabel('Date d’envoi').inputValue()).toBe(past);
    expect(await page.getByLabel(/^Montant en euros/).getAttribute('aria-invalid')).toBe('true');
    await expectNoSeriousA11yViolations(page);
    expect(await ordersOf(buyer)).toBe(before);
  });

  it('works without JavaScript: the plain form reaches the checkout of a card e-mailed on a chosen day', async () => {
    const page = await buyerPage({ javaScriptEnabled: false });
    const before = await ordersOf(buyer);
    await page.goto(`${env.server.url}/carte-cadeau`);
    const day = dayFromNow(10);
    await fillCardForm(page, {
      amount: '75',
      recipientName: 'Louise Martin',
      recipientEmail: 'louise.martin@example.fr',
      message: '',
      delivery: 'email',
      sendDate: day,
    });
    await page.getByRole('button', { name: 'Continuer vers le paiement' }).click();
    await page.waitForURL(/\/checkout\?orderId=[0-9a-f-]{36}$/);
    const [year, month, date] = day.split('-');
    expect(plain(await page.getByTestId('gift-card-sale').textContent())).toBe(
      `Carte cadeau Soovenirs de 75,00 € pour Louise Martin, envoyée par e-mail le ${date}/${month}/${year}`,
    );
    expect(await ordersOf(buyer)).toBe(before + 1);
  });
});
