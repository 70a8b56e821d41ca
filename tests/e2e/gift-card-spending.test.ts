import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitVat } from '~/domain/invoices/vat';
import { OUTBOX_CHANNEL } from '~/server/email/constants.server';
import type { ReceivedMessage } from '~/server/email/testing/smtp-test-server';
import { parisMorning } from '~/server/vouchers/gift-cards.server';
import { createUser, signIn, type TestUser } from '../support/auth';
import { fillBillingAddress } from '../support/billing';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { isPdf, pdfText } from '../support/pdf';
import { type SharedServerWithSmtp, sharedServerWithSmtp } from '../support/server-with-smtp';

/*
 * A gift card from its purchase to its last cent (decision 037), in Chromium on the worker's shared
 * server with its SMTP peer: Claire buys a 50 € card for Jeanne, to be e-mailed tomorrow; the e-mail
 * waits for that morning in the outbox (the test brings the morning forward and wakes the worker);
 * Jeanne gets it with its PDF, uses 35 € of it on a first order paid the rest by card, then the
 * last 15 € on a second one. The three invoices add up (the card's VAT counted once, at its sale);
 * Jeanne withdraws from the first order and the card gets its 35 € back.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const plain = (text: string | null) => (text ?? '').replace(/[\u00A0\u202F]/g, ' ');
const CODE = /\b[0-9A-Z]{4}(?:-[0-9A-Z]{4}){3}\b/;

let env: SharedServerWithSmtp;
let browser: Browser;
let buyer: TestUser;
let recipient: TestUser;

beforeAll(async () => {
  [env, browser] = await Promise.all([sharedServerWithSmtp({ PAYMENT_SANDBOX: 'on' }), launchBrowser()]);
  [buyer, recipient] = await Promise.all([
    createUser({ url: env.server.url, firstName: 'Claire', lastName: 'Martin' }),
    createUser({ url: env.server.url, firstName: 'Jeanne', lastName: 'Martin' }),
  ]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await env?.dispose();
});

async function pageOf(user: TestUser): Promise<Page> {
  const page = await openPage(browser, undefined, DESKTOP);
  await signIn({ url: env.server.url, email: user.email, page });
  return page;
}

/** A day (YYYY-MM-DD) `days` from now, as the Paris calendar has it. */
function dayFromNow(days: number): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Paris' }).format(
    new Date(Date.now() + days * 86_400_000),
  );
}

async function payAtSandbox(page: Page, holder: string) {
  await page.waitForURL(/\/paiement\/sandbox\//);
  await page.getByLabel('Titulaire de la carte').fill(holder);
  await page.getByLabel('Numéro de carte').fill('4242 4242 4242 4242');
  await page.getByLabel('Date d’expiration').fill('12/30');
  await page.getByLabel('CVV').fill('123');
  await page.getByRole('button', { name: /^Payer/ }).click();
  await page.waitForURL(/\/confirmation\?orderId=/);
}

/** An order of `slides` slides from the configurator (0,45 € each), at its checkout. */
async function orderSlides(page: Page, slides: number): Promise<string> {
  await page.goto(`${env.server.url}/configurateur`);
  const row = page.getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: /^Diapositives\s/ }) });
  await row.getByRole('checkbox').check();
  await row.getByLabel('Quantité').fill(String(slides));
  await page.getByRole('button', { name: 'Commander' }).click();
  await page.waitForURL(/\/checkout\?orderId=[0-9a-f-]{36}$/);
  await page.getByRole('heading', { name: 'Finaliser ma commande' }).waitFor();
  return new URL(page.url()).searchParams.get('orderId') as string;
}

/** Types the card's code (and the amount to use) and presses « Appliquer »: the form answers in place. */
async function applyCard(page: Page, code: string, amount: string): Promise<string> {
  await page.getByLabel('Code de la carte (facultatif)').fill(code);
  await page.getByLabel('Montant à utiliser (facultatif)').fill(amount);
  await page.getByRole('group', { name: 'Carte cadeau' }).getByRole('button', { name: 'Appliquer' }).click();
  const status = page.getByRole('status').filter({ hasText: 'Votre carte cadeau' });
  await status.waitFor();
  return plain(await status.textContent());
}

async function balanceOf(code: string): Promise<number> {
  const { rows } = await env.db.query<{ balance: number }>(
    `select coalesce(sum(case when e.kind in ('issued', 'restored') then e.amount else -e.amount end), 0)::int as balance
     from gift_card_ledger e join gift_cards c on c.id = e.card_id where c.code_last4 = $1`,
    [code.slice(-4)],
  );
  return Number(rows[0]?.balance);
}

async function invoiceOf(orderId: string) {
  const { rows } = await env.db.query<{
    amount: number;
    vat: number;
    lines: Array<{ label: string; totalCents: number }>;
  }>(`select amount, vat, snapshot->'lines' as lines from invoices where order_id = $1 and adjustment_id is null`, [
    orderId,
  ]);
  return rows[0];
}

function pdfAttachment(message: ReceivedMessage): Buffer | null {
  for (const part of message.raw.split(/\r\n--[^\r\n]+\r\n/)) {
    if (!/^Content-Type: application\/pdf/im.test(part)) continue;
    const body = part.slice(part.indexOf('\r\n\r\n') + 4).replace(/\r\n--[\s\S]*$/, '');
    return Buffer.from(body.replace(/\s+/g, ''), 'base64');
  }
  return null;
}

describe('a gift card from its purchase to its last cent', () => {
  // A whole journey (two buyers, three orders, an e-mail, a withdrawal): more than the default minute
  // on a loaded machine.
  it('is e-mailed on its day, pays 35 € then 15 € of two orders, invoices add up, a withdrawal gives the card back', async () => {
    // Claire buys a 50 € card for Jeanne, e-mailed tomorrow morning.
    const claire = await pageOf(buyer);
    await claire.goto(`${env.server.url}/carte-cadeau`);
    await claire.getByRole('radio', { name: 'Un montant de mon choix' }).check();
    await claire.getByLabel(/^Montant en euros/).fill('50');
    await claire.getByLabel('Son prénom et son nom').fill('Jeanne Martin');
    await claire.getByLabel('Son adresse e-mail').fill(recipient.email);
    await claire.getByRole('radio', { name: /^Par e-mail, le jour de mon choix/ }).check();
    const tomorrow = dayFromNow(1);
    await claire.getByLabel('Date d’envoi').fill(tomorrow);
    await claire.getByRole('button', { name: 'Continuer vers le paiement' }).click();
    await claire.waitForURL(/\/checkout\?orderId=/);
    const saleId = new URL(claire.url()).searchParams.get('orderId') as string;
    // A card's sale is not paid with a card: no code field on its checkout.
    expect(await claire.getByLabel('Code de la carte (facultatif)').count()).toBe(0);
    await fillBillingAddress(claire);
    await claire.getByRole('button', { name: /^Payer 50,00/ }).click();
    await payAtSandbox(claire, 'Claire Martin');

    // The card's e-mail waits in the outbox for tomorrow, 08:00 in Paris.
    const held = async () =>
      (
        await env.db.query<{ id: string; next_at: Date }>(
          `select id, next_at from email_outbox where "to" = $1 and template = 'gift-card'`,
          [recipient.email],
        )
      ).rows[0];
    await expect.poll(async () => (await held())?.next_at.getTime()).toBe(parisMorning(tomorrow).getTime());
    // Tomorrow morning comes: the scheduler's hour is brought forward, the worker woken.
    const message = await held();
    await env.db.query('update email_outbox set next_at = now() where id = $1', [message?.id]);
    await env.db.query(`select pg_notify('${OUTBOX_CHANNEL}', '')`);
    const mail = await env.smtp.waitForMail(recipient.email, (m) => plain(m.subject).includes('carte cadeau'));
    const code = CODE.exec(mail.text)?.[0] as string;
    expect(code).toMatch(CODE);
    expect(mail.text).toContain('/carte-cadeau/utiliser#code=');
    const pdf = pdfAttachment(mail) as Buffer;
    expect(isPdf(pdf)).toBe(true);
    expect(pdfText(pdf).replace(/\s+/g, '')).toContain(code);

    // Jeanne uses 35 € of it on 200 slides (90,00 €), the rest by card.
    const jeanne = await pageOf(recipient);
    const first = await orderSlides(jeanne, 200);
    expect(await applyCard(jeanne, code.toLowerCase(), '35')).toContain(
      'Votre carte cadeau règle 35,00 € ; reste à payer : 55,00 €.',
    );
    await expectNoSeriousA11yViolations(jeanne);
    await fillBillingAddress(jeanne);
    await jeanne.getByRole('button', { name: 'Payer 55,00\u00A0€' }).click();
    await payAtSandbox(jeanne, 'Jeanne Martin');
    await expect
      .poll(() => jeanne.getByText('Votre paiement a bien été reçu').isVisible(), { timeout: 15_000 })
      .toBe(true);
    const paidFirst = plain(await jeanne.locator('main').textContent());
    expect(paidFirst).toContain(`Réglé par carte cadeau ••••-••••-••••-${code.slice(-4)}−35,00 €`);
    expect(await balanceOf(code)).toBe(1500);

    // The last 15 € on 100 slides (45,00 €): the card pays what it has left.
    const second = await orderSlides(jeanne, 100);
    expect(await applyCard(jeanne, code, '')).toContain('Votre carte cadeau règle 15,00 € ; reste à payer : 30,00 €.');
    await fillBillingAddress(jeanne);
    await jeanne.getByRole('button', { name: 'Payer 30,00\u00A0€' }).click();
    await payAtSandbox(jeanne, 'Jeanne Martin');
    await expect
      .poll(() => jeanne.getByText('Votre paiement a bien été reçu').isVisible(), { timeout: 15_000 })
      .toBe(true);
    expect(await balanceOf(code)).toBe(0);

    // The invoices: the card's 50 € with its VAT at the sale; each order's without the card's part.
    const [sale, one, two] = await Promise.all([invoiceOf(saleId), invoiceOf(first), invoiceOf(second)]);
    expect([sale?.amount, one?.amount, two?.amount]).toEqual([5000, 5500, 3000]);
    for (const invoice of [sale, one, two]) expect(invoice?.vat).toBe(splitVat(invoice?.amount ?? 0).vatCents);
    expect(one?.lines.find((line) => line.label.startsWith('Carte cadeau'))?.totalCents).toBe(-3500);
    expect(two?.lines.find((line) => line.label.startsWith('Carte cadeau'))?.totalCents).toBe(-1500);
    // Money invoiced once: 135 € of services, of which the card's 50 € at its sale.
    expect((sale?.amount ?? 0) + (one?.amount ?? 0) + (two?.amount ?? 0)).toBe(9000 + 4500);

    // Jeanne withdraws from the first order: the card gets its 35 € back, the 55 € go back to her bank card.
    await jeanne.goto(`${env.server.url}/retractation/${first}`);
    await jeanne.getByRole('button', { name: 'Confirmer la rétractation' }).click();
    await expect.poll(() => balanceOf(code), { timeout: 15_000 }).toBe(3500);
    // The bank card's refund goes to the gateway once the withdrawal is committed: until it answers.
    const refunds = async () =>
      (
        await env.db.query<{ method: string; amount: number; status: string }>(
          'select method, amount, status from refunds where order_id = $1 order by amount',
          [first],
        )
      ).rows;
    await expect.poll(refunds, { timeout: 15_000 }).toEqual([
      { method: 'gift_card', amount: 3500, status: 'succeeded' },
      { method: 'gateway', amount: 5500, status: 'succeeded' },
    ]);
    const back = await env.smtp.waitForMail(recipient.email, (m) =>
      plain(m.text).includes('recrédité sur la carte cadeau'),
    );
    expect(plain(back.text)).toContain('35,00 €');

    // The card's page tells its balance again.
    await jeanne.goto(`${env.server.url}/carte-cadeau/utiliser`);
    await jeanne.getByLabel('Code de la carte').fill(code);
    await jeanne.getByRole('button', { name: 'Voir le solde' }).click();
    await expect.poll(async () => plain(await jeanne.locator('main').textContent())).toContain('35,00 €');
  }, 150_000);

  it('refuses a wrong code in French and keeps what was typed; nothing is taken before « Payer »', async () => {
    const page = await pageOf(recipient);
    const orderId = await orderSlides(page, 20);
    await page.getByLabel('Code de la carte (facultatif)').fill('ABCD-EFGH');
    await page.getByRole('group', { name: 'Carte cadeau' }).getByRole('button', { name: 'Appliquer' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'carte cadeau' });
    await alert.waitFor();
    expect(plain(await alert.textContent())).toContain('Ce code n’est pas celui d’une carte cadeau Soovenirs');
    expect(await page.getByLabel('Code de la carte (facultatif)').inputValue()).toBe('ABCD-EFGH');
    const { rows } = await env.db.query('select 1 from gift_card_ledger where order_id = $1', [orderId]);
    expect(rows).toHaveLength(0);
  });
});
