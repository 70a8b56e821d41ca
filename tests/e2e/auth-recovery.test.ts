import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase } from '~/server/db/client.server';
import { configureSmtpFor } from '~/server/email/testing/fixtures';
import {
  type ReceivedMessage,
  startTestSmtpServer,
  type TestSmtpServer,
} from '~/server/email/testing/smtp-test-server';
import { createUser, randomIp, signIn, TEST_PASSWORD, uniqueEmail } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { startServer, type TestServer } from '../support/server';

/*
 * Password recovery end to end: the form on /login, the e-mail delivered over SMTP (STARTTLS,
 * authenticated) to a real SMTP server running in this test, the link followed in Chromium, the new
 * password chosen on /login, and the sign-in with it. The shop's e-mail settings are saved in the
 * server's database exactly as the back office saves them (saveEmailConfig); the server connects to
 * the test server's port (SMTP_CONNECT_PORT) and trusts its self-signed certificate.
 */

const NEW_PASSWORD = 'Lavande-Sauvage-58';
const RESET_SUBJECT = 'Réinitialisation de votre mot de passe Soovenirs';

let smtp: TestSmtpServer;
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  smtp = await startTestSmtpServer({ mode: 'starttls' });
  const secret = randomBytes(32).toString('hex');
  [server, browser] = await Promise.all([
    startServer({
      env: { APP_SECRET: secret, SMTP_CONNECT_PORT: String(smtp.port), SMTP_TLS_REJECT_UNAUTHORIZED: 'false' },
    }),
    launchBrowser(),
  ]);
  // This process writes the settings into the server's database, encrypted with the server's secret.
  process.env.DATABASE_URL = server.databaseUrl;
  process.env.APP_SECRET = secret;
  await configureSmtpFor(smtp, 'starttls');
});

afterAll(async () => {
  await closeDatabase();
  await browser?.close();
  await server?.dispose();
  await smtp?.stop();
});

function as(ip = randomIp()): BrowserContextOptions {
  return { viewport: { width: 1280, height: 800 }, extraHTTPHeaders: { 'x-forwarded-for': ip } };
}

async function hydrated(page: Page): Promise<void> {
  await page.locator('[data-hydrated="true"]').first().waitFor();
}

function toast(page: Page, text: string) {
  return page.locator('[data-sonner-toast]').filter({ hasText: text }).first();
}

function messageFor(to: string, subject: string, timeoutMs = 15_000): Promise<ReceivedMessage> {
  return smtp.waitForMail(to, (m) => m.subject === subject, timeoutMs);
}

function resetLink(message: ReceivedMessage): string {
  const match = /https?:\/\/[^\s"'<>\]]+\/api\/auth\/reset-password\/[^\s"'<>\]]+/.exec(message.text);
  if (!match) throw new Error(`no reset link in:\n${message.text}`);
  return match[0];
}

describe('forgot password', () => {
  it('e-mails a link over SMTP that leads to a new password, then to the account', async () => {
    const { email } = await createUser({ url: server.url });
    const page = await openPage(browser, `${server.url}/login?mode=forgot-password`, as());
    await hydrated(page);
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Envoyer le lien de récupération' }).click();
    await toast(page, 'Email de récupération envoyé').waitFor();
    await page.getByText('Vérifiez votre boîte mail pour réinitialiser votre mot de passe').waitFor();

    const message = await messageFor(email, RESET_SUBJECT);
    expect(message.secure).toBe(true);
    expect(message.user).toBe(smtp.username);
    const link = resetLink(message);
    expect(link.startsWith(`${server.url}/api/auth/reset-password/`)).toBe(true);

    // The link lands on /login in new-password mode; the token is no longer in the address.
    await page.goto(link);
    await page.waitForURL((url) => url.searchParams.get('mode') === 'new-password');
    expect(page.url()).not.toContain('token');
    await toast(page, 'Lien de récupération validé').waitFor();
    await hydrated(page);
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel('Nouveau mot de passe').fill(NEW_PASSWORD);
    await page.getByLabel('Confirmer le mot de passe').fill(`${NEW_PASSWORD}!`);
    await page.getByRole('button', { name: 'Mettre à jour le mot de passe' }).click();
    await page.getByText('Les mots de passe ne correspondent pas').waitFor();
    await page.getByLabel('Nouveau mot de passe').fill('abc');
    await page.getByLabel('Confirmer le mot de passe').fill('abc');
    await page.getByRole('button', { name: 'Mettre à jour le mot de passe' }).click();
    await page.getByText('Le mot de passe doit contenir au moins 6 caractères').waitFor();

    await page.getByLabel('Nouveau mot de passe').fill(NEW_PASSWORD);
    await page.getByLabel('Confirmer le mot de passe').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Mettre à jour le mot de passe' }).click();
    await toast(page, 'Mot de passe mis à jour').waitFor();
    await page.waitForURL((url) => url.pathname === '/profile');
    await page.getByText(email).waitFor();

    // The new password opens the account, the old one no longer does.
    await expect(signIn({ url: server.url, email, password: NEW_PASSWORD })).resolves.toMatch(/session_token=/);
    await expect(signIn({ url: server.url, email, password: TEST_PASSWORD })).rejects.toThrow(/401/);

    // A used link is refused, in French.
    const again = await openPage(browser, undefined, as());
    await again.goto(link);
    await again.waitForURL((url) => url.searchParams.get('mode') === 'forgot-password');
    await toast(again, 'Erreur de récupération').waitFor();
    await again.getByText('Le lien de récupération est invalide ou a expiré').waitFor();
  });

  it('answers an unknown address exactly like a known one, and sends nothing to it', async () => {
    const email = uniqueEmail('personne');
    const page = await openPage(browser, `${server.url}/login?mode=forgot-password`, as());
    await hydrated(page);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Envoyer le lien de récupération' }).click();
    await toast(page, 'Email de récupération envoyé').waitFor();
    await expect(messageFor(email, RESET_SUBJECT, 1500)).rejects.toThrow();
  });

  it('refuses the new-password form without a valid link', async () => {
    const page = await openPage(browser, `${server.url}/login?mode=new-password`, as());
    await page.waitForURL((url) => url.searchParams.get('mode') === 'forgot-password');
    await toast(page, 'Erreur de récupération').waitFor();
    await page.goto(`${server.url}/login?type=recovery&token=forged-token-value`);
    await page.waitForURL((url) => url.searchParams.get('mode') === 'forgot-password');
    expect(page.url()).not.toContain('forged');
  });
});
