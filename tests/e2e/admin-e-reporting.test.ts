import { randomInt, randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { addSessionCookie, createUser, type TestUser } from '../support/auth';
import { expectNoSeriousA11yViolations, openPage, openStaffPage } from '../support/browser';
import { sharedServer, test } from '../support/shared-shop';

/*
 * « E-reporting » in Chromium on the built app (decision 051), on the worker's shared server: the
 * accountant reads the transmissions (period, figures, deadline, status), downloads a file as it was
 * prepared, marks one as deposited by hand and is told that « Envoyer » needs a plateforme agréée,
 * all without JavaScript; the regime's form is the administrator's only; axe finds nothing serious.
 * The transmissions are written in the database as the housekeeping prepares them (its assembly is
 * covered by app/server/e-reporting/transmissions.server.test.ts), in a year of their own.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PATH = '/admin/e-reporting';
const plain = (text: string | null) => (text ?? '').replace(/[\u00A0\u202F]/g, ' ');

let client: pg.Client;
let admin: TestUser;
let accountant: TestUser;
const year = 2100 + randomInt(0, 800);
const exportedFile = `EREPORTING_TRANSACTIONS_${year}0901_${year}0910.xml`;
const failedFile = `EREPORTING_PAYMENTS_${year}0901_${year}0930.xml`;
const content = `<?xml version="1.0" encoding="UTF-8"?>\n<Report><Id>${randomUUID()}</Id></Report>\n`;

beforeAll(async () => {
  const server = await sharedServer();
  client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  [admin, accountant] = await Promise.all([
    createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'admin' }),
    createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'comptabilite' }),
  ]);
  await client.query(
    `insert into e_reporting_transmissions (kind, period_start, period_end, deadline, regime, totals, file_name,
       file_content, status, last_error, attempts)
     values ('transactions', $1, $2, $3, 'normal-monthly', $4, $5, $6, 'exported', null, 0),
            ('payments', $1, $7, $8, 'normal-monthly', $9, $10, $6, 'failed', 'PA indisponible (503)', 3)`,
    [
      `${year}-09-01`,
      `${year}-09-10`,
      `${year}-09-20`,
      JSON.stringify({ excludingVatCents: 26_492, vatCents: 5298, totalCents: 31_790, entries: 2 }),
      exportedFile,
      content,
      `${year}-09-30`,
      `${year}-10-10`,
      JSON.stringify({ excludingVatCents: 18_167, vatCents: 3633, totalCents: 21_800, entries: 1 }),
      failedFile,
    ],
  );
}, 120_000);

afterAll(async () => {
  await client?.end();
});

const row = (page: Page, file: string) => page.locator(`[data-testid="transmission-row"][data-file="${file}"]`);

test('the accountant reads, downloads and marks a transmission as deposited, without JavaScript', async ({
  shop,
  browser,
}) => {
  const page = await openPage(browser, undefined, { ...DESKTOP, javaScriptEnabled: false });
  await addSessionCookie(page, shop.url, accountant.cookie);
  await page.goto(`${shop.url}${PATH}`);

  const exported = row(page, exportedFile);
  expect(plain(await exported.innerText())).toMatch(
    new RegExp(
      `du 01/09/${year} au 10/09/${year}\\s+Ventes aux particuliers\\s+264,92 €\\s+52,98 €\\s+317,90 €\\s+20/09/${year}\\s+À déposer`,
    ),
  );
  const failed = row(page, failedFile);
  expect(plain(await failed.innerText())).toContain('Paiements des services');
  expect(plain(await failed.innerText())).toContain('Échec');
  expect(plain(await failed.innerText())).toContain('3 essais : PA indisponible (503)');
  // The regime is the administrators' setting: the accountant reads it, without a form.
  expect(plain(await page.getByTestId('ereporting-regime').innerText())).toMatch(/^Non choisi/);
  await expect(page.getByRole('combobox', { name: 'Régime' }).count()).resolves.toBe(0);

  // The file, as it was prepared.
  const href = await exported.getByRole('link', { name: /Télécharger/ }).getAttribute('href');
  const download = await fetch(`${shop.url}${href}`, { headers: { cookie: accountant.cookie } });
  expect(download.status).toBe(200);
  expect(download.headers.get('content-type')).toMatch(/^application\/xml/);
  expect(download.headers.get('content-disposition')).toBe(`attachment; filename="${exportedFile}"`);
  expect(await download.text()).toBe(content);
  // Not for anyone signed out.
  expect((await fetch(`${shop.url}${href}`, { redirect: 'manual' })).status).not.toBe(200);

  // « Envoyer » without a platform: told what to do instead.
  await failed.getByRole('button', { name: 'Envoyer' }).click();
  await page.getByRole('alert').filter({ hasText: 'Aucune plateforme agréée' }).waitFor();

  await row(page, exportedFile).getByRole('button', { name: 'Marquer comme déposé manuellement' }).click();
  await page.getByText('Transmission marquée comme déposée manuellement.').waitFor();
  expect(plain(await row(page, exportedFile).innerText())).toContain('Déposée manuellement');
  await expect(row(page, exportedFile).getByRole('button', { name: 'Envoyer' }).count()).resolves.toBe(0);

  const { rows } = await client.query<{ actor_id: string; subject_label: string }>(
    `select actor_id, subject_label from audit_log where kind = 'ereporting.deposit' and subject_label = $1`,
    [exportedFile],
  );
  expect(rows).toEqual([{ actor_id: accountant.id, subject_label: exportedFile }]);
  await page.context().close();
});

test('the administrator sees the regime’s form; axe finds nothing serious', async ({ shop, browser }) => {
  const page = await openStaffPage(browser, shop.url, admin.cookie, PATH, DESKTOP);
  await page.getByRole('link', { name: 'E-reporting' }).first().waitFor();
  expect(await page.getByRole('combobox', { name: 'Régime' }).inputValue()).toBe('');
  expect(await page.getByLabel('Premier jour à transmettre').inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  await expectNoSeriousA11yViolations(page);
  await page.context().close();
});
