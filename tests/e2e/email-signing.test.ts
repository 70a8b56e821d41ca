import pg from 'pg';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DKIM_MESSAGES } from '~/server/email/dkim.server';
import { addSessionCookie, createUser, type TestUser } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage, openStaffPage } from '../support/browser';
import { type SharedServer, sharedServer } from '../support/shared-shop';

/*
 * « Signature DKIM » (docs/operations.md, « E-mail authentication »), as an administrator uses it
 * with JavaScript off: wrong input answered in French under each field, a key generated, the DNS
 * record shown, the private key stored encrypted; the page is accessible with JavaScript on. The
 * shared server is left as found: the signature is turned off at the end.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
let server: SharedServer;
let browser: Browser;
let admin: TestUser;
let client: pg.Client;

/** The field's error, as a screen reader reads it: the text of its description. */
async function descriptionOf(field: Locator): Promise<string> {
  const ids = (await field.getAttribute('aria-describedby')) ?? '';
  const page = field.page();
  const texts = await Promise.all(
    ids
      .split(' ')
      .filter(Boolean)
      .map((id) => page.locator(`[id="${id}"]`).innerText()),
  );
  return texts.join(' ');
}

beforeAll(async () => {
  [server, browser] = await Promise.all([sharedServer(), launchBrowser()]);
  client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  admin = await createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'admin' });
}, 60_000);

afterAll(async () => {
  await client?.query(`delete from config_options where option_name = 'email_dkim'`);
  await client?.end();
  await browser?.close();
  await server?.dispose();
});

describe('the DKIM settings page', () => {
  it('refuses bad input in French, generates a key and shows the record, without JavaScript', async () => {
    const page = await openPage(browser, undefined, { ...DESKTOP, javaScriptEnabled: false });
    await addSessionCookie(page, server.url, admin.cookie);
    await page.goto(`${server.url}/admin/signature-email`);
    await page.getByRole('heading', { name: 'Signature DKIM des e-mails' }).waitFor();
    await page.getByText('Aucune clé DKIM').waitFor();

    const domain = page.getByLabel('Domaine signataire');
    const selector = page.getByLabel('Sélecteur');
    const key = page.getByLabel('Clé privée fournie par votre prestataire (facultatif)');
    await domain.fill('https://soovenirs');
    await selector.fill('mauvais sélecteur');
    await key.fill('bonjour');
    await page.getByRole('button', { name: 'Enregistrer la clé collée' }).click();
    await page.getByText('Veuillez corriger les champs signalés.').waitFor();
    expect(await descriptionOf(page.getByLabel('Domaine signataire'))).toBe(DKIM_MESSAGES.domain);
    expect(await descriptionOf(page.getByLabel('Sélecteur'))).toBe(DKIM_MESSAGES.selector);
    expect(await descriptionOf(page.getByLabel(/Clé privée/))).toBe(DKIM_MESSAGES.keyInvalid);
    // What was typed is kept (the key is not sent back), nothing is saved.
    expect(await page.getByLabel('Domaine signataire').inputValue()).toBe('https://soovenirs');
    const none = await client.query(`select 1 from config_options where option_name = 'email_dkim'`);
    expect(none.rowCount).toBe(0);

    await page.getByLabel('Domaine signataire').fill('soovenirs.test');
    await page.getByLabel('Sélecteur').fill('e2e2026');
    await page.getByRole('button', { name: 'Générer une clé RSA 2048' }).click();
    await page.getByText('Clé générée et enregistrée').waitFor();
    expect(await page.getByTestId('dkim-record-name').innerText()).toBe('e2e2026._domainkey.soovenirs.test');
    expect(await page.getByTestId('dkim-record-value').innerText()).toMatch(/^v=DKIM1; k=rsa; p=MIIBIjANBg[\w+/=]+$/);
    const stored = await client.query<{ v: string }>(
      `select option_value as v from config_options where option_name = 'email_dkim'`,
    );
    expect(stored.rows[0]?.v).not.toContain('PRIVATE KEY');
    await page.context().close();

    // With JavaScript: the same page, accessible; then the signature is turned off.
    const live = await openStaffPage(browser, server.url, admin.cookie, '/admin/signature-email', DESKTOP);
    await live.getByTestId('dkim-record-name').waitFor();
    await expectNoSeriousA11yViolations(live);
    await live.getByRole('button', { name: 'Désactiver la signature' }).click();
    await live.getByText('Signature DKIM désactivée').waitFor();
    await live.getByText('Aucune clé DKIM').waitFor();
    await live.context().close();
  });
});
