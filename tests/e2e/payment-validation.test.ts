import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSessionCookie, createUser, type TestUser } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { insertTestOrder, type TestOrder } from '../support/orders';
import { type SharedServerWithSmtp, sharedServerWithSmtp } from '../support/server-with-smtp';
import type { SharedServer } from '../support/shared-shop';

/*
 * « Validation Paiements » in Chromium against the production server: the selection's buttons ask
 * first. Three bank transfers awaited (94,90 € each): « Valider la sélection » opens a confirmation
 * that names them and their total; « Annuler » changes nothing; confirming validates the three
 * (paid, one invoice each). A row's ✓ and ✗ ask first too (docs/decisions/021), naming the order,
 * the customer and the amount; a rejection needs its reason, which the customer reads in the
 * « Paiement non validé » e-mail received by the real SMTP peer.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };

let env: SharedServerWithSmtp;
let server: SharedServer;
let browser: Browser;
let admin: TestUser;
let transfers: TestOrder[];

const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

async function paymentsDialog(): Promise<Page> {
  const page = await openPage(browser, undefined, DESKTOP);
  await addSessionCookie(page, server.url, admin.cookie);
  await page.goto(`${server.url}/admin`);
  await page.locator('[data-hydrated="true"]').waitFor();
  await page.getByRole('button', { name: 'Paramètres' }).click();
  await page.getByRole('menuitem', { name: 'Validation Paiements' }).click();
  return page;
}

const paymentStatuses = async () =>
  (
    await query<{ payment_status: string }>('select payment_status from orders where id = any($1)', [
      transfers.map((order) => order.id),
    ])
  ).map((row) => row.payment_status);

beforeAll(async () => {
  [env, browser] = await Promise.all([sharedServerWithSmtp(), launchBrowser()]);
  server = env.server;
  admin = await createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'admin' });
  transfers = [];
  for (let i = 0; i < 3; i++) {
    const order = await insertTestOrder(server.databaseUrl, { guestEmail: `virement-${i}@example.fr` });
    await query(`update orders set payment_method = 'transfer' where id = $1`, [order.id]);
    transfers.push(order);
  }
});

afterAll(async () => {
  await browser?.close();
  await env?.dispose();
});

describe('validating a selection of payments', () => {
  it('asks first with the payments and their total; « Annuler » changes nothing, confirming validates them', async () => {
    const page = await paymentsDialog();
    const dialog = page.getByRole('dialog', { name: 'Validation Paiements' });
    for (const order of transfers) await dialog.getByText(order.number).first().waitFor();
    await dialog.getByRole('checkbox', { name: 'Tout sélectionner' }).click();
    await dialog.getByRole('button', { name: 'Valider la sélection' }).click();

    const confirmation = page.getByRole('dialog', { name: /^Valider la sélection/ });
    await confirmation.waitFor();
    const summary = plain(await confirmation.innerText());
    expect(summary).toContain('3 paiements seront validés : ');
    for (const order of transfers) expect(summary).toContain(order.number);
    expect(summary).toContain('total 284,70 €');
    await expectNoSeriousA11yViolations(page);

    await confirmation.getByRole('button', { name: 'Annuler' }).click();
    await confirmation.waitFor({ state: 'hidden' });
    expect(await paymentStatuses()).toEqual(['pending', 'pending', 'pending']);
    expect(await query('select id from invoices where order_id = any($1)', [transfers.map((o) => o.id)])).toEqual([]);
    await dialog.getByText('3 sélectionné(s)').waitFor();

    await dialog.getByRole('button', { name: 'Valider la sélection' }).click();
    await confirmation.getByRole('button', { name: 'Valider les 3 paiements' }).click();
    await page
      .getByRole('region', { name: /Notifications/ })
      .getByText('3 paiements validés avec succès')
      .waitFor({ timeout: 20_000 });
    await confirmation.waitFor({ state: 'hidden' });
    await dialog.getByText('Aucun paiement en attente.').waitFor();
    expect(await paymentStatuses()).toEqual(['paid', 'paid', 'paid']);
    const invoices = await query('select number from invoices where order_id = any($1)', [transfers.map((o) => o.id)]);
    expect(invoices).toHaveLength(3);
    await page.close();
  });
});

describe('a row’s own buttons', () => {
  it('asks before validating one payment, naming the order, the customer and the amount', async () => {
    const order = await insertTestOrder(server.databaseUrl, { guestEmail: 'cheque@example.fr', extraCents: 51_165 });
    await query(`update orders set payment_method = 'cheque' where id = $1`, [order.id]);
    const page = await paymentsDialog();
    const dialog = page.getByRole('dialog', { name: 'Validation Paiements' });
    await dialog.getByRole('button', { name: `Valider le paiement ${order.number}` }).click();
    const confirmation = page.getByRole('dialog', { name: /^Valider le paiement/ });
    await confirmation.waitFor();
    expect(plain(await confirmation.innerText())).toContain(`Commande ${order.number} · Marie Curie · 606,55 €`);
    await confirmation.getByRole('button', { name: 'Annuler' }).click();
    await confirmation.waitFor({ state: 'hidden' });
    expect(await query('select payment_status from orders where id = $1', [order.id])).toEqual([
      { payment_status: 'pending' },
    ]);
    await page.close();
  });

  it('asks for the reason of a rejection, which reaches the customer’s e-mail', async () => {
    const order = await insertTestOrder(server.databaseUrl, { guestEmail: 'rejet@example.fr', extraCents: 51_165 });
    await query(`update orders set payment_method = 'transfer' where id = $1`, [order.id]);
    const page = await paymentsDialog();
    const dialog = page.getByRole('dialog', { name: 'Validation Paiements' });
    await dialog.getByRole('button', { name: `Rejeter le paiement ${order.number}` }).click();
    const confirmation = page.getByRole('dialog', { name: /^Rejeter le paiement/ });
    await confirmation.waitFor();
    expect(plain(await confirmation.innerText())).toContain(`Commande ${order.number} · Marie Curie · 606,55 €`);

    // Without a reason: refused in French, nothing changes, nobody is e-mailed.
    await confirmation.getByRole('button', { name: 'Rejeter le paiement' }).click();
    await confirmation.getByText('Indiquez le motif du rejet : le client le lira dans son e-mail.').waitFor();
    expect(await query('select payment_status from orders where id = $1', [order.id])).toEqual([
      { payment_status: 'pending' },
    ]);
    await expectNoSeriousA11yViolations(page);

    const reason = 'Le virement reçu ne porte pas la référence de la commande.';
    await confirmation.getByLabel('Motif du rejet (envoyé au client)').fill(reason);
    await confirmation.getByRole('button', { name: 'Rejeter le paiement' }).click();
    await confirmation.waitFor({ state: 'hidden' });
    await expect
      .poll(async () => (await query('select payment_status from orders where id = $1', [order.id]))[0])
      .toEqual({ payment_status: 'failed' });

    let email: (typeof env.smtp.messages)[number] | undefined;
    await expect
      .poll(
        () => {
          email = env.smtp.messages.find((m) => (m.headers.get('to') ?? '').includes('rejet@example.fr'));
          return email !== undefined;
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    expect(email?.subject).toBe(`Paiement non validé pour la commande ${order.number}`);
    expect(plain(email?.text ?? '')).toContain(`Motif : ${reason}`);
    await page.close();
  });
});
