import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { expect } from 'vitest';
import { DEFAULT_ACCOUNTING_SETTINGS } from '~/domain/accounting/accounts';
import { FEC_COLUMNS } from '~/domain/accounting/fec';
import { PERIOD_MESSAGES } from '~/domain/accounting/period';
import { buildDocumentSnapshot } from '~/domain/invoices/snapshot';
import { createUser } from '../support/auth';
import { downloadedBytes, expectNoSeriousA11yViolations, openStaffPage } from '../support/browser';
import { fecBalances, readFec } from '../support/fec';
import { insertTestOrder } from '../support/orders';
import { test } from '../support/shared-shop';

/*
 * « Exports comptables » in Chromium on the built app, on the worker's shared server: the
 * accountant corrects a wrong account number (a French message under the field, nothing saved),
 * then downloads the FEC of today from the form: its name is <SIREN>FEC<closing day>.txt, its
 * first line the 18 fields of A47 A-1, every line 18 tab-separated fields, every entry balanced.
 * The shared database holds other files' documents: all of them must balance too. This file's own
 * invoice (42,00 € paid through Stripe, written as the issuing would leave it) is there with its
 * receipt; its demonstration twin is not.
 */

/** A paid invoice of 42,00 € on a new order, its snapshot made by the shop's own builder. */
async function insertInvoice(databaseUrl: string, demo: boolean): Promise<string> {
  const order = await insertTestOrder(databaseUrl);
  const number = `${demo ? 'TEST-' : ''}FA-E2E-${randomUUID().slice(0, 8)}`;
  const now = new Date();
  const snapshot = buildDocumentSnapshot({
    kind: 'invoice',
    number,
    issuedAt: now,
    order: {
      id: order.id,
      number: order.number,
      createdAt: now,
      deliveryMethod: 'digital',
      deliveryCostCents: 0,
      sendShippingCostCents: 0,
      returnShippingCostCents: 0,
      totalPriceCents: 4200,
      items: [],
    },
    buyer: null,
    payment: { method: 'card', paidAt: now, provider: 'stripe' },
    demo,
  });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into invoices (number, order_id, issued_at, amount, vat, snapshot, is_paid, is_demo)
       values ($1, $2, $3, 4200, 700, $4, true, $5)`,
      [number, order.id, now, JSON.stringify(snapshot), demo],
    );
  } finally {
    await client.end();
  }
  return number;
}

/** An invoice whose snapshot is in no shape the shop writes (a fault the export must name). */
async function insertUnreadableInvoice(databaseUrl: string, issuedAt: string): Promise<string> {
  const order = await insertTestOrder(databaseUrl);
  const number = `FA-E2E-${randomUUID().slice(0, 8)}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into invoices (number, order_id, issued_at, amount, vat, snapshot, is_paid)
       values ($1, $2, $3, 4200, 700, '{}', true)`,
      [number, order.id, issuedAt],
    );
  } finally {
    await client.end();
  }
  return number;
}

const parisDay = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());

test('the accountant sets the accounts and downloads the FEC of a period', async ({ shop, browser }) => {
  const accountant = await createUser({ url: shop.url, databaseUrl: shop.databaseUrl, role: 'comptabilite' });
  const invoice = await insertInvoice(shop.databaseUrl, false);
  const demo = await insertInvoice(shop.databaseUrl, true);
  const page = await openStaffPage(browser, shop.url, accountant.cookie, '/admin/exports-comptables');
  await page.getByRole('heading', { name: 'Comptes et journaux' }).waitFor();
  await expectNoSeriousA11yViolations(page);

  // A letter in an account number: refused in French, under its field.
  const services = page.getByLabel('Prestations de services');
  expect(await services.inputValue()).toBe(DEFAULT_ACCOUNTING_SETTINGS.services);
  await services.fill('706A');
  await page.getByRole('button', { name: 'Enregistrer les comptes' }).click();
  await page.getByText('Un numéro de compte s’écrit en chiffres seulement').waitFor();
  await page.reload();
  expect(await page.getByLabel('Prestations de services').inputValue()).toBe(DEFAULT_ACCOUNTING_SETTINGS.services);

  // The FEC of today, as two dates.
  const day = parisDay();
  await page.getByLabel(/^FEC/).check();
  await page.getByLabel('Du', { exact: true }).check();
  await page.getByLabel('Du (premier jour)').fill(day);
  await page.getByLabel('Au (dernier jour, date de clôture)').fill(day);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Télécharger', exact: true }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`912345678FEC${day.replaceAll('-', '')}.txt`);
  const { text, header, rows } = readFec(await downloadedBytes(download));
  expect(header).toBe(FEC_COLUMNS.join('\t'));
  for (const fields of rows) expect(fields).toHaveLength(18);
  for (const [number, balance] of fecBalances(rows).perEntry) expect(balance, `entry ${number}`).toBe(0);
  const ours = rows.filter((fields) => fields[8] === invoice);
  expect(ours.map((fields) => [fields[0], fields[4], fields[11], fields[12]])).toEqual([
    ['VE', '411000', '42,00', '0,00'],
    ['VE', '706000', '0,00', '35,00'],
    ['VE', '445710', '0,00', '7,00'],
    ['BQ', '467100', '42,00', '0,00'],
    ['BQ', '411000', '0,00', '42,00'],
  ]);
  expect(text).not.toContain(demo);

  // A document of another day whose content does not read: nothing is downloaded, and the page
  // names it in French instead of a download that stops halfway.
  const broken = await insertUnreadableInvoice(shop.databaseUrl, '2021-06-15T10:00:00+02:00');
  await page.getByLabel('Du', { exact: true }).check();
  await page.getByLabel('Du (premier jour)').fill('2021-06-15');
  await page.getByLabel('Au (dernier jour, date de clôture)').fill('2021-06-15');
  await page.getByRole('button', { name: 'Télécharger', exact: true }).click();
  const refusal = page
    .getByRole('alert')
    .filter({ hasText: `Le document ${broken} ne peut pas être écrit dans l’export` });
  await refusal.waitFor();
  // Carried by a cookie, shown once: never words an address could carry.
  expect(new URL(page.url()).search).toBe('');
  await page.reload();
  await page.getByRole('heading', { name: 'Comptes et journaux' }).waitFor();
  expect(await refusal.count()).toBe(0);
  await page.goto(`${shop.url}/admin/exports-comptables?erreur=${encodeURIComponent('Appelez le 01 02 03 04 05')}`);
  await page.getByRole('heading', { name: 'Comptes et journaux' }).waitFor();
  expect(await page.getByText('Appelez le 01 02 03 04 05').count()).toBe(0);
  // A wrong request (the last day before the first) comes back the same way.
  await page.goto(`${shop.url}/admin/export-comptable?fichier=fec&periode=dates&du=2026-02-10&au=2026-02-01`);
  await page.getByRole('alert').filter({ hasText: PERIOD_MESSAGES.order }).waitFor();
}, 120_000);
