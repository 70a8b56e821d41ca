import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IBAN_MESSAGES } from '~/domain/orders/iban';
import type { TestSmtpServer } from '~/server/email/testing/smtp-test-server';
import { createUser, randomIp, type TestUser, uniqueEmail } from '../support/auth';
import {
  expectNoSeriousA11yViolations,
  launchBrowser,
  openPage,
  openStaffPage,
  waitForToast,
} from '../support/browser';
import { insertTestOrder, orderState, type TestOrder } from '../support/orders';
import { type SharedServerWithSmtp, sharedServerWithSmtp } from '../support/server-with-smtp';

/*
 * A refund on an order paid by bank transfer (decision 025), in Chromium against the production
 * server and a real SMTP peer: the workshop counts 10 photos fewer than ordered, the 3,50 € owed
 * back cannot go back to a card, so the customer is e-mailed « Indiquez-nous votre IBAN »; in a
 * fresh browser they follow the link, type a wrong IBAN (a French message, nothing stored), then a
 * right one (stored encrypted). The accountant sees « IBAN reçu le … », shows it in full, makes the
 * transfer and marks the refund paid: the credit note is issued and the IBAN is gone from the
 * database. The test order: 100 paper photos at 0,35 € and 2 VHS tapes, 94,90 €.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const GOOD_IBAN = 'FR76 3000 6000 0112 3456 7890 189';
const BAD_IBAN = 'FR76 3000 6000 0112 3456 7890 188';

let env: SharedServerWithSmtp;
let browser: Browser;
let workshop: TestUser;
let accountant: TestUser;

const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');

/** The outbox worker sends on its own schedule: the SMTP peer signals the arrival. */
function receivedMessage(to: string, predicate: (message: TestSmtpServer['messages'][number]) => boolean) {
  return env.smtp.waitForMail(to, predicate);
}

/** A guest's order paid by bank transfer: the accountant validates the transfer in the back office. */
async function paidByTransfer(guestEmail: string): Promise<TestOrder> {
  const order = await insertTestOrder(env.server.databaseUrl, { guestEmail });
  await env.db.query(`update orders set payment_method = 'transfer' where id = $1`, [order.id]);
  const response = await fetch(`${env.server.url}/admin/api/paiements`, {
    method: 'POST',
    headers: {
      origin: env.server.url,
      cookie: accountant.cookie,
      'x-forwarded-for': randomIp(),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ decision: 'validate', id: `o:${order.id}` }),
  });
  expect(response.status).toBe(200);
  expect((await orderState(env.server.databaseUrl, order.id)).paymentStatus).toBe('paid');
  return order;
}

async function bankRow(orderId: string) {
  const { rows } = await env.db.query<{ details: string | null; masked: string | null }>(
    'select details, masked from refund_bank_details where order_id = $1',
    [orderId],
  );
  return rows[0] ?? null;
}

/** The workshop (no refund right) counts 90 photos: 3,50 € « à rembourser ». */
async function receiveShort(order: TestOrder): Promise<Page> {
  const page = await openStaffPage(browser, env.server.url, workshop.cookie, `/admin?commande=${order.id}`, DESKTOP);
  const dialog = page.getByRole('dialog', { name: `Commande ${order.number}` });
  const panel = dialog.getByRole('region', { name: 'Réception des originaux' });
  await panel.getByRole('spinbutton', { name: /Photos papier/ }).fill('90');
  await panel.getByRole('button', { name: 'Colis reçu' }).click();
  await panel.getByText(/Reçu le \d{2}\/\d{2}\/\d{4} par Camille Atelier/).waitFor({ timeout: 20_000 });
  return page;
}

beforeAll(async () => {
  [env, browser] = await Promise.all([sharedServerWithSmtp(), launchBrowser()]);
  [workshop, accountant] = await Promise.all([
    createUser({
      url: env.server.url,
      databaseUrl: env.server.databaseUrl,
      role: 'atelier',
      firstName: 'Camille',
      lastName: 'Atelier',
    }),
    createUser({
      url: env.server.url,
      databaseUrl: env.server.databaseUrl,
      role: 'comptabilite',
      firstName: 'Paul',
      lastName: 'Compta',
    }),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await env?.dispose();
});

describe('a refund on an order paid by transfer', () => {
  it('asks the customer’s IBAN on a secure page, refuses a wrong one, and deletes it once the refund is paid', async () => {
    const email = uniqueEmail('virement');
    const order = await paidByTransfer(email);
    await receiveShort(order);

    // The customer's e-mail, on the SMTP peer.
    const message = await receivedMessage(email, (m) => /IBAN/.test(m.subject));
    expect(plain(message.subject)).toBe(
      `Votre remboursement de 3,50 € (commande ${order.number}) : indiquez-nous votre IBAN`,
    );
    expect(plain(message.text)).toContain('Indiquez-nous votre IBAN pour recevoir votre remboursement de 3,50 €');
    expect(message.text).not.toMatch(/FR76/);
    const link = /href="([^"]*\/remboursement\/[^"]+)"/.exec(message.html)?.[1]?.replace(/&amp;/g, '&');
    expect(link).toContain('token=');

    // A fresh browser, on a phone: the link opens the page (the token leaves the address bar).
    const customer = await openPage(browser, undefined, PHONE);
    await customer.goto(link as string);
    await customer.getByRole('heading', { name: 'Votre remboursement' }).waitFor();
    expect(customer.url()).not.toContain('token=');
    expect(plain(await customer.locator('main').innerText())).toContain(
      'Indiquez-nous votre IBAN pour recevoir votre remboursement de 3,50 €.',
    );
    await expectNoSeriousA11yViolations(customer);

    // A wrong IBAN (one digit): the French message under the field, what was typed kept, nothing stored.
    await customer.getByLabel('Titulaire du compte').fill('Marie Curie');
    const iban = customer.getByLabel('IBAN', { exact: true });
    await iban.fill(BAD_IBAN);
    await customer.getByRole('button', { name: 'Enregistrer mon IBAN' }).click();
    await customer.getByText(IBAN_MESSAGES.ibanChecksum).waitFor();
    expect(await iban.getAttribute('aria-invalid')).toBe('true');
    expect(await iban.inputValue()).toBe(BAD_IBAN);
    expect(await bankRow(order.id)).toEqual({ details: null, masked: null });
    await expectNoSeriousA11yViolations(customer);

    // The right one: stored encrypted, shown back masked only.
    await iban.fill(GOOD_IBAN);
    await customer.getByRole('button', { name: 'Enregistrer mon IBAN' }).click();
    await customer.getByText(/IBAN reçu le \d{2}\/\d{2}\/\d{4}/).waitFor();
    const page = plain(await customer.locator('main').innerText());
    expect(page).toContain('FR76 •••• •••• 0189');
    expect(page).not.toContain('3000 6000');
    const stored = await bankRow(order.id);
    expect(stored?.details).toMatch(/^v1\./);
    expect(stored?.details).not.toContain('FR7630006000011234567890189');
    expect(stored?.details).not.toContain('Marie Curie');

    // The accountant: « IBAN reçu le … », the full IBAN to copy, then « Virement fait ».
    const office = await openStaffPage(
      browser,
      env.server.url,
      accountant.cookie,
      `/admin?commande=${order.id}`,
      DESKTOP,
    );
    const dialog = office.getByRole('dialog', { name: `Commande ${order.number}` });
    const due = dialog.getByRole('region', { name: 'À rembourser' });
    await due.getByText(/IBAN reçu le \d{2}\/\d{2}\/\d{4}/).waitFor();
    expect(plain(await due.innerText())).toContain('FR76 •••• •••• 0189');
    await due.getByRole('button', { name: 'Afficher l’IBAN complet' }).click();
    await due.getByTestId('refund-iban-full').waitFor();
    expect(await due.getByTestId('refund-iban-full').innerText()).toBe(GOOD_IBAN);
    expect(plain(await due.innerText())).toContain('Marie Curie');
    await expectNoSeriousA11yViolations(office);
    expect(await due.getByLabel('Comment rembourser').inputValue()).toBe('transfer');
    await due.getByRole('button', { name: 'Virement fait : marquer payé' }).click();
    await waitForToast(office, /Remboursement de 3,50\s€ effectué — avoir/);

    // Paid: the credit note, the refund e-mail, and the IBAN gone from the database.
    expect(await bankRow(order.id)).toBeNull();
    const state = await orderState(env.server.databaseUrl, order.id);
    expect(state.paymentStatus).toBe('partially_refunded');
    const refund = await receivedMessage(email, (m) => m.subject.startsWith('Remboursement'));
    expect(plain(refund.text)).toContain('par virement bancaire');
    const { rows: journal } = await env.db.query<{ kind: string; before: unknown; after: unknown }>(
      `select kind, before, after from audit_log where subject = $1 and kind like 'order.iban%' order by id`,
      [order.id],
    );
    expect(journal.map((entry) => entry.kind)).toEqual(['order.iban_viewed', 'order.iban_used']);
    expect(JSON.stringify(journal)).not.toMatch(/FR76|3000|Curie/);
    // Several pages and two e-mails on a loaded 2-core machine: more than one page's default minute.
  }, 180_000);
});
