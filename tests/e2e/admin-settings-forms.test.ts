import pg from 'pg';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_CONFIG_MESSAGES } from '~/domain/email/email-config';
import { PAYMENT_CONFIG_MESSAGES } from '~/domain/payments/payment-config';
import { createUser, signIn } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openStaffPage, waitForToast } from '../support/browser';
import { startServer, type TestServer } from '../support/server';

/*
 * The back office's settings forms (one way to build a form: Conform, a zod schema and the fields
 * of app/components/forms) in Chromium, against the real production server: a wrong value is
 * answered in French under its field and nothing is saved; once corrected, the settings are saved.
 * The e-mail settings in their dialog, the payment settings in the Comptabilité tab on a phone.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true };

let server: TestServer;
let browser: Browser;
let adminCookie: string;

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** The stored option, as JSON (null when never saved). */
async function storedOption(name: string): Promise<Record<string, unknown> | null> {
  const [row] = await query<{ value: string }>(
    'select option_value as value from config_options where option_name = $1',
    [name],
  );
  return row ? (JSON.parse(row.value) as Record<string, unknown>) : null;
}

function adminPage(path: string, options = DESKTOP): Promise<Page> {
  return openStaffPage(browser, server.url, adminCookie, path, options);
}

/** The field's error, as a screen reader reads it: the text of its description. */
async function descriptionOf(field: Locator): Promise<string> {
  return field.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  const admin = await createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'admin' });
  adminCookie = await signIn({ url: server.url, email: admin.email });
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe('the e-mail settings', () => {
  it('refuses a wrong sender address under its field, saves nothing, then saves once corrected', async () => {
    const page = await adminPage('/admin');
    await page.getByRole('button', { name: 'Paramètres' }).click();
    await page.getByRole('menuitem', { name: 'Configuration Email' }).click();
    const dialog = page.getByRole('dialog', { name: 'Configuration Email' });
    const sender = dialog.getByLabel('Adresse de l’expéditeur');
    await sender.waitFor();
    expect(await dialog.getByLabel('Port SMTP').inputValue()).toBe('587');

    await sender.fill('pas-une-adresse');
    await dialog.getByLabel('Serveur SMTP').fill('smtp.soovenirs.test');
    await dialog.getByLabel('Port SMTP').selectOption('465');
    await dialog.getByLabel('Nom d’utilisateur SMTP').fill('no-reply@soovenirs.fr');
    await dialog.getByLabel('Mot de passe SMTP').fill('mot-de-passe');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await waitForToast(page, 'Veuillez corriger les champs signalés');
    expect(await sender.getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(sender)).toContain(EMAIL_CONFIG_MESSAGES.senderEmail);
    expect(await storedOption('email_config')).toBeNull();
    // What was typed is still there, to be corrected.
    expect(await dialog.getByLabel('Serveur SMTP').inputValue()).toBe('smtp.soovenirs.test');
    await expectNoSeriousA11yViolations(page);

    await sender.fill('atelier@soovenirs.fr');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await waitForToast(page, 'Configuration email enregistrée');
    const saved = await storedOption('email_config');
    expect(saved).toMatchObject({
      senderEmail: 'atelier@soovenirs.fr',
      smtpHost: 'smtp.soovenirs.test',
      smtpPort: 465,
      smtpUsername: 'no-reply@soovenirs.fr',
    });
    // The password is stored encrypted, and the form only says that one is stored.
    expect(saved?.smtpPassword).not.toBe('mot-de-passe');
    await dialog.getByText('Laissez vide pour conserver le mot de passe enregistré').waitFor();
  });
});

describe('the payment settings', () => {
  it('on a phone: refuses a wrong Monetico terminal under its field, saves nothing, then saves', async () => {
    const page = await adminPage('/admin/comptabilite', PHONE);
    const section = page.getByRole('region', { name: 'Paiement en ligne' });
    const testMode = section.getByRole('radio', { name: 'Mode test (aucun paiement réel)' });
    await testMode.waitFor();
    expect(await testMode.isChecked()).toBe(true);

    // The specification: switching the solution puts test mode back on.
    await section.getByRole('radio', { name: 'Production (paiements réels encaissés)' }).check();
    await section.getByRole('radio', { name: 'Monetico' }).check();
    await expect.poll(() => testMode.isChecked()).toBe(true);

    const terminal = section.getByLabel('Numéro de TPE');
    await terminal.fill('12');
    await section.getByLabel('Code société').fill('soovenirs');
    await section.getByLabel('Clé de sécurité Monetico').fill('0123456789abcdef0123456789abcdef01234567');
    await section.getByRole('button', { name: 'Enregistrer' }).click();
    await waitForToast(page, PAYMENT_CONFIG_MESSAGES.invalid);
    expect(await terminal.getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(terminal)).toContain(PAYMENT_CONFIG_MESSAGES.merchantIdFormat);
    expect(await storedOption('payment_config')).toBeNull();
    // Usable at 375 px: nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousA11yViolations(page);

    await terminal.fill('1234567');
    await section.getByRole('button', { name: 'Enregistrer' }).click();
    await waitForToast(page, 'Configuration de paiement enregistrée');
    expect(await storedOption('payment_config')).toMatchObject({
      type: 'monetico',
      testMode: true,
      merchantId: '1234567',
      companyCode: 'soovenirs',
    });
    await section.getByText('Clé enregistrée : laissez vide pour la conserver.').waitFor();
  });
});
