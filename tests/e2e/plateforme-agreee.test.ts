import pg from 'pg';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { createUser, type TestUser, uniqueEmail } from '../support/auth';
import { openStaffPage } from '../support/browser';
import { facturXBatch } from '../support/factur-x';
import { type FakePa, fakePaSettings, startFakePa } from '../support/fake-pa';
import { insertTestOrder, type TestOrder } from '../support/orders';
import { payBySandboxCard } from '../support/payments';
import { test } from '../support/shared-shop';

/*
 * A business order's invoice on the plateforme agréée, in Chromium against the worker's shared
 * production server (sandbox payments) and a fake PA started for this file: the PA configured on
 * the back office's page, the order paid in the sandbox, its invoice deposited by the server's
 * worker, « Rejetée » read back and shown with its reason, the buyer corrected and the invoice
 * re-issued (deposited again), then « Reçue » and the shop's « Encaissée », each in the history.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const WRONG_SIREN = '732829321';
const FIXED_SIREN = '732829320';

let pa: FakePa;
let admin: TestUser | undefined;

beforeAll(async () => {
  pa = await startFakePa();
});

afterAll(async () => {
  await pa?.close();
});

async function query<T extends pg.QueryResultRow>(databaseUrl: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A guest's order whose buyer is a company. Until the checkout asks for the business fields, the
 * test writes `orders.business` as the checkout will: this one function is what to replace then.
 */
async function businessOrder(databaseUrl: string, guestEmail: string): Promise<TestOrder> {
  const order = await insertTestOrder(databaseUrl, { guestEmail });
  const business = {
    companyName: 'Archives de Saint-Test',
    siren: WRONG_SIREN,
    vatNumber: null,
    purchaseOrderReference: 'BC-2026-17',
    publicBody: false,
    chorusServiceCode: null,
    engagementNumber: null,
  };
  await query(databaseUrl, 'update orders set business = $1::jsonb where id = $2', [
    JSON.stringify(business),
    order.id,
  ]);
  return order;
}

async function invoicesOf(databaseUrl: string, orderId: string): Promise<string[]> {
  const rows = await query<{ number: string }>(
    databaseUrl,
    'select number from invoices where order_id = $1 order by issued_at',
    [orderId],
  );
  return rows.map((row) => row.number);
}

function plain(text: string): string {
  return text.replace(/[\u00A0\u202F]/g, ' ');
}

/** The fake PA's settings typed in the back office's page, as the staff would. */
async function configurePa(page: Page): Promise<void> {
  const settings = fakePaSettings(pa);
  await page.getByLabel('Activer le dépôt sur la plateforme').check();
  await page.getByLabel('Environnement de test de la plateforme').check();
  await page.getByLabel('Adresse du service de flux (Flow Service)').fill(settings.flowUrl);
  await page.getByLabel('Adresse du service d’annuaire (Directory Service)').fill(settings.directoryUrl);
  await page.getByLabel('Adresse du jeton OAuth2 (token endpoint)').fill(settings.tokenUrl);
  await page.getByLabel('Identifiant du client (client_id)').fill(settings.clientId);
  await page.getByLabel('Secret du client (client_secret)').fill(settings.clientSecret);
  await page.getByLabel('SIREN de la boutique').fill(settings.sellerSiren);
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await page.getByText('Configuration de la plateforme agréée enregistrée.').waitFor();
  // The secret is never sent back: the field is empty, its placeholder masked.
  expect(await page.content()).not.toContain(pa.clientSecret);
  await page.getByRole('button', { name: 'Tester la connexion' }).click();
  await page.getByText(/Connexion réussie/).waitFor();
}

/** « Relever les statuts maintenant », then the section's confirmation. */
async function readStatuses(section: Locator): Promise<void> {
  await section.getByRole('button', { name: 'Relever les statuts maintenant' }).click();
  await section.getByText(/statut\(s\) reçu\(s\)|Aucun nouveau statut/).waitFor();
}

const facturX = facturXBatch();
afterAll(() => facturX.expectAllValid(), 240_000);

test('a business invoice through the PA: deposited, rejected, corrected and re-issued, then « Encaissée »', async ({
  sandboxShop,
  browser,
}) => {
  admin ??= await createUser({ url: sandboxShop.url, databaseUrl: sandboxShop.databaseUrl, role: 'admin' });
  const settings = await openStaffPage(browser, sandboxShop.url, admin.cookie, '/admin/plateforme-agreee', DESKTOP);
  try {
    await configurePa(settings);
  } finally {
    await settings.context().close();
  }

  const email = uniqueEmail('entreprise');
  const order = await businessOrder(sandboxShop.databaseUrl, email);
  await payBySandboxCard(sandboxShop.url, order, email);
  const [first] = await invoicesOf(sandboxShop.databaseUrl, order.id);
  expect(first).toMatch(/^TEST-FA-\d{4}-\d{6}$/);
  // The server's worker deposits it (a pass every few seconds).
  await pa.waitFor(() => pa.depositsOf(first as string).length === 1, 30_000);
  pa.setStatus(first as string, 213, 'SIREN de l’acheteur inconnu de l’annuaire');

  const page = await openStaffPage(browser, sandboxShop.url, admin.cookie, `/admin?commande=${order.id}`, DESKTOP);
  try {
    const dialog = page.getByRole('dialog', { name: `Commande ${order.number}` });
    const section = dialog.getByRole('region', { name: 'Facture électronique (plateforme agréée)' });
    const history = dialog.getByRole('region', { name: 'Historique' });
    await readStatuses(section);
    await section.getByText('SIREN de l’acheteur inconnu de l’annuaire').first().waitFor();
    expect(plain(await section.innerText())).toContain(`Facture ${first} : Rejetée`);
    await history.getByText('Facture rejetée par la plateforme').waitFor();
    expect(plain(await history.innerText())).toContain('Facture déposée sur la plateforme agréée');

    await section.getByLabel('SIREN').fill(FIXED_SIREN);
    await section.getByRole('button', { name: 'Corriger et réémettre' }).click();
    await section.getByText(/Facture réémise/).waitFor();
    const numbers = await invoicesOf(sandboxShop.databaseUrl, order.id);
    expect(numbers).toHaveLength(2);
    const second = numbers[1] as string;
    expect(plain(await section.innerText())).toContain(`Facture réémise : ${second}`);
    await pa.waitFor(() => pa.depositsOf(second).length === 1, 30_000);
    // What the platform received are Factur-X files that pass the rules (checked in afterAll).
    for (const number of [first as string, second]) {
      for (const deposit of pa.depositsOf(number)) facturX.add(deposit.file, `deposited ${number}`);
    }
    await history.getByText('Facture rejetée corrigée et réémise').waitFor();
    // The correction is an edit of the order: its own line in the history, with the SIREN changed.
    await history.getByText('Acheteur professionnel corrigé').waitFor();
    expect(plain(await history.innerText())).toContain(`SIREN : ${WRONG_SIREN} → ${FIXED_SIREN}`);

    pa.setStatus(second, 202);
    await readStatuses(section);
    await pa.waitFor(() => pa.statusesSent.find((s) => s.invoiceNumber === second && s.code === 212), 30_000);
    const sent = pa.statusesSent.filter((s) => s.invoiceNumber === second);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.amount).toBe('94.90');

    await page.reload();
    await dialog.waitFor();
    const text = plain(await history.innerText());
    expect(text).toContain('Plateforme agréée : Reçue');
    expect(text).toContain('Statut transmis à la plateforme : Encaissée');
    expect(text.match(/Facture déposée sur la plateforme agréée/g)).toHaveLength(2);
  } finally {
    await page.context().close();
    // The worker's other files find the shop as they expect it: no PA.
    await query(
      sandboxShop.databaseUrl,
      "delete from config_options where option_name in ('pa_config', 'pa_status_cursor')",
    );
  }
});
