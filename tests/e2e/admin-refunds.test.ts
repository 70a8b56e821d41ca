import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSmtpServer } from '~/server/email/testing/smtp-test-server';
import { addSessionCookie, createUser, type TestUser, uniqueEmail } from '../support/auth';
import {
  expectNoSeriousA11yViolations,
  launchBrowser,
  openPage,
  openStaffPage,
  waitForToast,
} from '../support/browser';
import { facturXBatch } from '../support/factur-x';
import { insertTestOrder, orderState, type TestOrder } from '../support/orders';
import { payBySandboxCard } from '../support/payments';
import { type SharedServerWithSmtp, sharedServerWithSmtp } from '../support/server-with-smtp';

/*
 * Refunds in the back office, in Chromium, against the real production server: orders paid by card
 * through the sandbox gateway (its signed notification pays them and issues their TEST-FA
 * invoice), then a cancellation refunded through the gateway with its credit note, whose e-mail
 * reaches a real SMTP peer and whose link opens the credit note in the customer's browser; and a
 * refund in two parts through the « Rembourser » form, with an amount above what remains refused.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const CREDIT_NOTE = /\b(?:TEST-)?AV-\d{4}-\d{6}\b/;

let env: SharedServerWithSmtp;
let browser: Browser;
let admin: TestUser;

/** The text as a person reads it: French no-break spaces count as spaces. */
function plain(text: string): string {
  return text.replace(/[\u00A0\u202F]/g, ' ');
}

async function textOf(locator: Locator): Promise<string> {
  return plain(await locator.innerText());
}

function receivedMessage(to: string, predicate: (message: TestSmtpServer['messages'][number]) => boolean) {
  return env.smtp.waitForMail(to, predicate);
}

/** A guest's order, paid by card on the sandbox's payment page (a plain form post, as without JavaScript). */
async function paidOrder(guestEmail: string): Promise<TestOrder & { invoice: string }> {
  const url = env.server.url;
  const order = await insertTestOrder(env.server.databaseUrl, { guestEmail });
  await payBySandboxCard(url, order, guestEmail);
  const state = await orderState(env.server.databaseUrl, order.id);
  expect(state).toMatchObject({ paymentStatus: 'paid', payments: [{ provider: 'sandbox', status: 'paid' }] });
  expect(state.invoices).toEqual([expect.stringMatching(/^TEST-FA-\d{4}-\d{6}$/)]);
  return { ...order, invoice: state.invoices[0] as string };
}

function adminPage(path: string): Promise<Page> {
  return openStaffPage(browser, env.server.url, admin.cookie, path, DESKTOP);
}

async function orderDialog(page: Page, order: TestOrder): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name: `Commande ${order.number}` });
  await dialog.waitFor();
  return dialog;
}

/** The « Paiement » line of the dialog's summary. */
async function paymentStatus(dialog: Locator): Promise<string> {
  return textOf(
    dialog
      .getByRole('region', { name: 'Résumé' })
      .locator('div')
      .filter({ hasText: /^Paiement/ }),
  );
}

/** The history reads in French: no raw event code (snake_case) and no identifier. */
function expectHumanHistory(history: string) {
  expect(history).not.toMatch(/\b[a-z]+_[a-z_]+\b/);
  expect(history).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i);
}

beforeAll(async () => {
  // Payments through the sandbox: a production server takes them only as a demo shop.
  [env, browser] = await Promise.all([sharedServerWithSmtp({ PAYMENT_SANDBOX: 'on' }), launchBrowser()]);
  admin = await createUser({
    url: env.server.url,
    databaseUrl: env.server.databaseUrl,
    role: 'admin',
    firstName: 'Ada',
    lastName: 'Admin',
  });
});

afterAll(async () => {
  await browser?.close();
  await env?.dispose();
});

// The invoices and credit notes this file downloads, validated together once it is done.
const facturX = facturXBatch();
afterAll(() => facturX.expectAllValid(), 240_000);

describe('cancelling a paid order', () => {
  it('refunds it through the sandbox, issues a credit note and e-mails it to the customer', async () => {
    const email = uniqueEmail('rembourse');
    const order = await paidOrder(email);

    const page = await adminPage(`/admin?commande=${order.id}`);
    let dialog = await orderDialog(page, order);
    expect(await paymentStatus(dialog)).toContain('Payée');
    await dialog.getByLabel('Nouveau statut').selectOption({ label: 'Annulé' });
    const amount = dialog.getByLabel('Montant remboursé (€)');
    await amount.waitFor();
    expect(await amount.inputValue()).toBe('94,90');
    const statusForm = dialog.getByRole('region', { name: 'Changer le statut' });
    const gateway = statusForm.getByRole('radio', { name: /^Par Paiement de démonstration/ });
    expect(await gateway.isChecked()).toBe(true);
    expect(await statusForm.getByRole('radio', { name: 'Par virement (fait à la main)' }).isChecked()).toBe(false);
    expect(await statusForm.getByRole('radio', { name: 'Par chèque (fait à la main)' }).isChecked()).toBe(false);
    await expectNoSeriousA11yViolations(page);

    await statusForm.getByLabel('Motif', { exact: true }).fill('Bobines illisibles, commande annulée');
    await dialog.getByRole('button', { name: 'Mettre à jour le statut' }).click();
    await waitForToast(page, 'Statut de la commande mis à jour');
    await waitForToast(page, CREDIT_NOTE);

    // The dialog again, from the server.
    await page.reload();
    dialog = await orderDialog(page, order);
    const summary = await textOf(dialog.getByRole('region', { name: 'Résumé' }));
    expect(summary).toContain('Annulé');
    expect(await paymentStatus(dialog)).toContain('Remboursée');
    expect(await paymentStatus(dialog)).not.toContain('Partiellement');
    const creditNote = CREDIT_NOTE.exec(summary)?.[0] as string;
    expect(creditNote).toBeTruthy();
    const money = await textOf(dialog.getByRole('region', { name: 'Remboursements' }));
    expect(money).toContain('94,90 €');
    expect(money).toContain('Bobines illisibles, commande annulée');
    // Nothing left to refund: no form.
    expect(await dialog.getByRole('button', { name: 'Rembourser', exact: true }).count()).toBe(0);

    const history = await textOf(dialog.getByRole('region', { name: 'Historique' }));
    expect(history).toMatch(/Remboursement/);
    expect(history).toContain('Avoir émis');
    expect(history).toContain(creditNote);
    expectHumanHistory(history);

    // Comptabilité lists the credit note, to see and to download.
    await page.keyboard.press('Escape');
    await page
      .getByRole('navigation', { name: 'Sections du tableau de bord' })
      .getByRole('link', { name: 'Comptabilité' })
      .click();
    const notes = page.getByRole('region', { name: 'Avoirs' });
    const row = notes.getByRole('row').filter({ hasText: creditNote });
    await row.waitFor();
    expect(await textOf(row)).toContain(order.number);
    expect(await textOf(row)).toContain('94,90 €');
    const see = row.getByRole('link', { name: `Voir l’avoir ${creditNote}` });
    expect(await see.getAttribute('href')).toBe(`/facture/${order.id}?avoir=${creditNote}`);
    expect(await row.getByRole('link', { name: `PDF de l’avoir ${creditNote}` }).getAttribute('href')).toContain(
      `/facture/${order.id}/pdf?avoir=${creditNote}`,
    );
    // The credit note's PDF is a Factur-X that passes the rules (checked in afterAll).
    const creditNotePdf = await page.request.get(`${env.server.url}/facture/${order.id}/pdf?avoir=${creditNote}`);
    expect(creditNotePdf.status()).toBe(200);
    facturX.add(await creditNotePdf.body(), creditNote);

    // The customer's e-mail, at the SMTP peer, with the credit note and its link.
    const message = await receivedMessage(
      email,
      (m) => m.subject === `Remboursement de votre commande ${order.number}`,
    );
    expect(message.secure).toBe(true);
    const text = plain(message.text);
    expect(text).toContain(creditNote);
    expect(text).toContain('94,90 €');
    const link = `${env.server.url}/facture/${order.id}?avoir=${creditNote}`;
    expect(message.text).toContain(link);

    // The link, in the customer's browser (the guest's order cookie), shows the credit note.
    const customerPage = await openPage(browser, undefined, DESKTOP);
    await addSessionCookie(customerPage, env.server.url, order.cookie as string);
    await customerPage.goto(link);
    const body = await textOf(customerPage.locator('main'));
    expect(body).toContain(creditNote);
    expect(body).toContain(order.invoice);
  });
});

describe('refunding part of a paid order', () => {
  it('refunds 20,00 €, refuses more than what remains, then refunds the rest', async () => {
    const email = uniqueEmail('partiel');
    const order = await paidOrder(email);
    const page = await adminPage(`/admin?commande=${order.id}`);
    const dialog = await orderDialog(page, order);
    const money = dialog.getByRole('region', { name: 'Remboursements' });
    const form = money.getByRole('form', { name: 'Rembourser' });

    await form.getByLabel('Montant à rembourser (€)').fill('20,00');
    expect(await form.getByRole('radio', { name: /^Par Paiement de démonstration/ }).isChecked()).toBe(true);
    await form.getByLabel('Motif du remboursement').fill('Une cassette VHS vierge');
    await form.getByRole('button', { name: 'Rembourser' }).click();
    await waitForToast(page, /Remboursement de 20,00\s€ enregistré/);
    await expect.poll(() => paymentStatus(dialog)).toContain('Partiellement remboursée');
    await expect.poll(() => textOf(money)).toContain('Jusqu’à 74,90 €');
    const partial = await receivedMessage(
      email,
      (m) => m.subject === `Remboursement de votre commande ${order.number}`,
    );
    expect(plain(partial.text)).toContain('20,00 €');

    // More than what remains: refused in French, nothing changes.
    const before = await orderState(env.server.databaseUrl, order.id);
    await form.getByLabel('Montant à rembourser (€)').fill('80,00');
    await form.getByLabel('Motif du remboursement').fill('Trop');
    await form.getByRole('button', { name: 'Rembourser' }).click();
    await waitForToast(page, /Le montant à rembourser doit être compris entre 0,01\s€ et 74,90\s€/);
    expect(await orderState(env.server.databaseUrl, order.id)).toEqual(before);
    expect(await paymentStatus(dialog)).toContain('Partiellement remboursée');

    await form.getByLabel('Montant à rembourser (€)').fill('74,90');
    await form.getByLabel('Motif du remboursement').fill('Le reste de la commande');
    await form.getByRole('button', { name: 'Rembourser' }).click();
    await waitForToast(page, /Remboursement de 74,90\s€ enregistré/);
    await expect.poll(() => paymentStatus(dialog)).toMatch(/Paiement\s*Remboursée/);
    expect(await dialog.getByRole('button', { name: 'Rembourser', exact: true }).count()).toBe(0);

    const history = await textOf(dialog.getByRole('region', { name: 'Historique' }));
    expect(history).toMatch(/Remboursement/);
    expect(history).toContain('Avoir émis');
    expectHumanHistory(history);
    const state = await orderState(env.server.databaseUrl, order.id);
    expect(state.paymentStatus).toBe('refunded');
    expect(state.outbox.filter((m) => m.template === 'refund-issued')).toHaveLength(2);

    // A request the router aborted on purpose (a fetcher superseded while its revalidation ran)
    // is no error for the person at the desk: the page does not report its rejection, which
    // reached the console under load (app/entry.client.tsx).
    const prevented = await page.evaluate(
      () =>
        new Promise<boolean>((resolve) => {
          // Registered after the page's own listener: it sees whether that one prevented the report.
          window.addEventListener('unhandledrejection', (event) => resolve(event.defaultPrevented), { once: true });
          const superseded = new AbortController();
          superseded.abort();
          void Promise.reject(superseded.signal.reason);
        }),
    );
    expect(prevented).toBe(true);
  });
});
