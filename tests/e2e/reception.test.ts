import pg from 'pg';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSessionCookie, createUser, type TestUser, uniqueEmail } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { facturXBatch } from '../support/factur-x';
import { insertTestOrder, orderState, type TestOrder } from '../support/orders';
import { payBySandboxCard } from '../support/payments';
import { type SharedServerWithSmtp, sharedServerWithSmtp } from '../support/server-with-smtp';

/*
 * « Colis reçu » in Chromium against the production server: the staff receive a paid order with 20
 * more photos than ordered; the customer gets the supplement e-mail on the real SMTP peer, follows
 * its link in a fresh browser, pays the 7,00 € supplement on the sandbox's card form and reads
 * « Supplément payé ». With 10 photos fewer, the difference is refunded through the gateway with
 * its credit note: « Partiellement remboursée ».
 * The test order: 100 paper photos at 0,35 € and 2 VHS tapes, 94,90 €.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };

let env: SharedServerWithSmtp;
let browser: Browser;
let admin: TestUser;

const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');

/** The outbox worker sends on its own schedule: the SMTP peer signals the arrival. */
function supplementEmail(to: string, timeoutMs = 20_000) {
  return env.smtp.waitForMail(to, (m) => m.subject.startsWith('Supplément'), timeoutMs);
}

/** A guest's order, paid by card on the sandbox's payment page. */
async function paidOrder(guestEmail: string): Promise<TestOrder> {
  const order = await insertTestOrder(env.server.databaseUrl, { guestEmail });
  await payBySandboxCard(env.server.url, order, guestEmail);
  expect((await orderState(env.server.databaseUrl, order.id)).paymentStatus).toBe('paid');
  return order;
}

async function receptionPanel(order: TestOrder): Promise<{ page: Page; panel: Locator }> {
  const page = await openPage(browser, undefined, DESKTOP);
  await addSessionCookie(page, env.server.url, admin.cookie);
  await page.goto(`${env.server.url}/admin?commande=${order.id}`);
  await page.locator('[data-hydrated="true"]').waitFor();
  const dialog = page.getByRole('dialog', { name: `Commande ${order.number}` });
  const panel = dialog.getByRole('region', { name: 'Réception des originaux' });
  await panel.getByRole('button', { name: 'Colis reçu' }).waitFor();
  return { page, panel };
}

async function receive(order: TestOrder, photos: number): Promise<Page> {
  const { page, panel } = await receptionPanel(order);
  await panel.getByRole('spinbutton', { name: /Photos papier/ }).fill(String(photos));
  await panel.getByLabel('Remarques — Photos papier').fill('Quelques moisissures');
  await panel.getByRole('button', { name: 'Colis reçu' }).click();
  // Fewer than ordered: the refund is shown first, and made only once the administrator confirms it.
  if (photos < 100) await panel.getByRole('button', { name: /^Confirmer et rembourser 3,50/ }).click();
  await panel.getByText(/Reçu le \d{2}\/\d{2}\/\d{4} par Ada Admin/).waitFor({ timeout: 20_000 });
  return page;
}

beforeAll(async () => {
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

// The supplement invoice and the credit note this file downloads, validated together once it is done.
const facturX = facturXBatch();
afterAll(() => facturX.expectAllValid(), 240_000);

describe('reception of the originals', () => {
  it('20 more photos: the customer is e-mailed, pays the supplement on the sandbox and sees it paid', async () => {
    const email = uniqueEmail('supplement');
    const order = await paidOrder(email);
    const staff = await receive(order, 120);
    const panel = staff.getByRole('region', { name: 'Réception des originaux' });
    expect(plain(await panel.innerText())).toContain('Supplément de 7,00 € : en attente du client');
    await expectNoSeriousA11yViolations(staff);

    const message = await supplementEmail(email);
    expect(plain(message.text)).toContain('7,00 €');
    const link = /href="([^"]*\/supplement\/[^"]+)"/.exec(message.html)?.[1]?.replace(/&amp;/g, '&');
    expect(link).toBeDefined();

    const customer = await openPage(browser);
    await customer.goto(link as string);
    await customer.locator('[data-hydrated="true"]').waitFor();
    await customer.getByRole('heading', { name: `Supplément de la commande ${order.number}` }).waitFor();
    expect(plain(await customer.locator('table').innerText())).toContain('Photos papier');
    await expectNoSeriousA11yViolations(customer);
    await customer.getByRole('button', { name: 'Payer le supplément' }).click();
    await customer.getByLabel('Titulaire de la carte').fill('Marie Curie');
    await customer.getByLabel('Numéro de carte').fill('4242 4242 4242 4242');
    await customer.getByLabel('Date d’expiration').fill('12/30');
    await customer.getByLabel('CVV').fill('123');
    await customer.getByRole('button', { name: 'Payer 7,00\u00A0€' }).click();
    await customer.getByText('Supplément payé').waitFor({ timeout: 20_000 });
    const invoice = customer.getByRole('link', { name: /Voir la facture/ });
    await invoice.waitFor();
    // The supplement's invoice is a Factur-X that passes the rules (checked in afterAll).
    const pdf = await customer.request.get(
      new URL((await invoice.getAttribute('href')) as string, env.server.url).href,
    );
    expect(pdf.status()).toBe(200);
    facturX.add(await pdf.body(), `supplement invoice of ${order.number}`);
  });

  it('10 photos fewer: 3,50 € refunded with a credit note, payment « Partiellement remboursée »', async () => {
    const order = await paidOrder(uniqueEmail('reduction'));
    const staff = await receive(order, 90);
    const dialog = staff.getByRole('dialog', { name: `Commande ${order.number}` });
    await dialog.getByText('Partiellement remboursée').first().waitFor({ timeout: 20_000 });
    expect(plain(await dialog.getByRole('region', { name: 'Réception des originaux' }).innerText())).toContain(
      'Réduction de 3,50 € : remboursé',
    );
    const client = new pg.Client({ connectionString: env.server.databaseUrl });
    await client.connect();
    const notes = await client.query('select number, amount from credit_notes where order_id = $1', [order.id]);
    await client.end();
    expect(notes.rows.map((row) => row.amount)).toEqual([350]);
    const creditNote = notes.rows[0]?.number as string;
    const pdf = await staff.request.get(`${env.server.url}/facture/${order.id}/pdf?avoir=${creditNote}`);
    expect(pdf.status()).toBe(200);
    facturX.add(await pdf.body(), creditNote);
  });

  it('a negative count: the French message under its field, the typed value kept, nothing received', async () => {
    const order = await paidOrder(uniqueEmail('recompte'));
    const { page, panel } = await receptionPanel(order);
    const count = panel.getByRole('spinbutton', { name: /Photos papier/ });
    await count.fill('-3');
    await panel.getByRole('button', { name: 'Colis reçu' }).click();
    await panel.getByText('Indiquez un nombre entier entre 0 et 100 000.').waitFor({ timeout: 20_000 });
    expect(await count.getAttribute('aria-invalid')).toBe('true');
    expect(await count.inputValue()).toBe('-3');
    const client = new pg.Client({ connectionString: env.server.databaseUrl });
    await client.connect();
    const receptions = await client.query('select id from receptions where order_id = $1', [order.id]);
    await client.end();
    expect(receptions.rows).toEqual([]);
    await page.close();
  });
});
