import pg from 'pg';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { TERMS_VERSION } from '~/domain/terms';
import { authEmailLink, createUser, randomIp, signIn, TEST_PASSWORD, uniqueEmail } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { printedSetupCode, startServer, type TestServer } from '../support/server';

/*
 * The sign-in pages in Chromium against the production build: /setup-super-admin, /login (its
 * modes, subtitles, messages, spinner, limits), /register with the terms dialog, sign-out, the
 * magic link and the redirects by role. Each browser context claims its own client address, so
 * that the per-address rate limits of one test do not spill into the next.
 */

const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true };
const NEW_PASSWORD = 'Lavande-Sauvage-58';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

function as(ip = randomIp(), options: BrowserContextOptions = DESKTOP): BrowserContextOptions {
  return { ...options, extraHTTPHeaders: { 'x-forwarded-for': ip } };
}

async function open(path: string, options: BrowserContextOptions = as()): Promise<Page> {
  const page = await openPage(browser, undefined, options);
  await page.goto(`${server.url}${path}`);
  return page;
}

/** Waits until React runs the page (enhanced controls: dialog, toggle, toasts). */
async function hydrated(page: Page): Promise<void> {
  await page.locator('[data-hydrated="true"]').first().waitFor();
}

function toast(page: Page, text: string) {
  return page.locator('[data-sonner-toast]').filter({ hasText: text }).first();
}

function pathOf(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

async function fillSignIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(password);
}

/**
 * A page whose console may show the browser's own "404" line: /admin belongs to the back office
 * and may not exist yet; every other console error still fails the test.
 */
async function pageTolerating404(options: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext({ locale: 'fr-FR', timezoneId: 'Europe/Paris', ...options });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 404/.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  onTestFinished(async () => {
    await context.close();
    expect(errors, 'errors in the browser console').toEqual([]);
  });
  return page;
}

describe('/setup-super-admin', () => {
  it('creates the first administrator once, with the setup code the server printed, then says the setup is closed', async () => {
    const code = await printedSetupCode(server.output);
    const usersBefore = await query<{ n: number }>('select count(*)::int as n from "user"');
    const page = await open('/setup-super-admin');
    await hydrated(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Premier administrateur');
    await expectNoSeriousA11yViolations(page);

    const email = uniqueEmail('patronne');
    // Whoever reaches the port first, without the code printed in the server's terminal, gets nothing.
    await page.getByLabel('Code d’installation').fill('ABCD-EFGH-JKMN');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Mot de passe', { exact: true }).fill('Phare-Breton-Nocturne-2026');
    await page.getByLabel('Confirmer le mot de passe').fill('Phare-Breton-Nocturne-2026');
    await page.getByRole('button', { name: 'Créer l’administrateur' }).click();
    await page.getByText('Code d’installation incorrect.', { exact: false }).first().waitFor();
    expect(await query('select 1 from "user" where email = $1', [email])).toEqual([]);

    await page.getByLabel('Code d’installation').fill(code);
    await page.getByLabel('Mot de passe', { exact: true }).fill('motdepasse123');
    await page.getByLabel('Confirmer le mot de passe').fill('motdepasse123');
    await page.getByRole('button', { name: 'Créer l’administrateur' }).click();
    await page.getByText('Ce mot de passe fait partie des plus courants : choisissez-en un autre.').waitFor();

    await page.getByLabel('Mot de passe', { exact: true }).fill('Phare-Breton-Nocturne-2026');
    await page.getByLabel('Confirmer le mot de passe').fill('Phare-Breton-Nocturne-2026');
    await page.getByRole('button', { name: 'Créer l’administrateur' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(pathOf(page)).toBe('/login?redirectTo=%2Fadmin');
    await toast(page, 'Administrateur créé').waitFor();
    await page.getByText('Cette zone est réservée aux administrateurs.').waitFor();
    expect(await query('select role, email_verified from "user" where email = $1', [email])).toEqual([
      { role: 'admin', email_verified: true },
    ]);

    // Closed from now on, in the page and for a direct POST; nothing was deleted.
    await page.goto(`${server.url}/setup-super-admin`);
    await page.getByText('La configuration initiale est terminée : un administrateur existe déjà.').waitFor();
    expect(await page.getByRole('button', { name: 'Créer l’administrateur' }).count()).toBe(0);
    const again = await fetch(`${server.url}/setup-super-admin`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams({
        setupCode: code,
        email: uniqueEmail('intrus'),
        password: 'Autre-Phare-Breton-99',
        confirmPassword: 'Autre-Phare-Breton-99',
      }),
    });
    expect(again.status).toBe(403);
    // The code was spent with the creation.
    expect(await query('select count(*)::int as n from setup_code')).toEqual([{ n: 0 }]);
    expect(await query('select count(*)::int as n from "user" where role = $1', ['admin'])).toEqual([{ n: 1 }]);
    const usersAfter = await query<{ n: number }>('select count(*)::int as n from "user"');
    expect(usersAfter[0]?.n).toBe((usersBefore[0]?.n ?? 0) + 1);
  });
});

describe('/login', () => {
  it('is accessible on a computer and on a phone', async () => {
    for (const options of [DESKTOP, PHONE]) {
      const page = await open('/login', as(randomIp(), options));
      await hydrated(page);
      await expectNoSeriousA11yViolations(page);
    }
  });

  it('says where the visitor comes from, and keeps the origin on the way to /register', async () => {
    const page = await open('/login');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Connexion');
    await page.getByText('Connectez-vous pour accéder à votre compte').waitFor();
    expect(await page.getByText('Cette zone est réservée aux administrateurs.').count()).toBe(0);

    await page.goto(`${server.url}/login?redirectTo=${encodeURIComponent('/checkout?orderId=42')}`);
    await page.getByText('Connectez-vous pour finaliser votre commande').waitFor();
    expect(await page.getByRole('link', { name: 'Créer un compte' }).getAttribute('href')).toBe(
      '/register?redirectTo=%2Fcheckout%3ForderId%3D42',
    );

    await page.goto(`${server.url}/login?redirectTo=%2Fadmin`);
    await page.getByText('Connectez-vous pour accéder au tableau de bord d’administration').waitFor();
    await page.getByText('Cette zone est réservée aux administrateurs.').waitFor();

    // A foreign origin is dropped.
    await page.goto(`${server.url}/login?redirectTo=${encodeURIComponent('https://pirate.example/admin')}`);
    await page.getByText('Connectez-vous pour accéder à votre compte').waitFor();
    expect(await page.getByRole('link', { name: 'Créer un compte' }).getAttribute('href')).toBe('/register');
  });

  it('shows the password on demand, and the specification’s messages', async () => {
    const page = await open('/login');
    await hydrated(page);
    const password = page.getByLabel('Mot de passe', { exact: true });
    await password.fill('secret-42');
    expect(await password.getAttribute('type')).toBe('password');
    const toggle = page.getByRole('button', { name: 'Afficher le mot de passe' });
    await toggle.click();
    expect(await password.getAttribute('type')).toBe('text');
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    await toggle.click();
    expect(await password.getAttribute('type')).toBe('password');

    await password.fill('');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.getByRole('alert').getByText('Veuillez remplir tous les champs').waitFor();

    const { email } = await createUser({ url: server.url });
    await fillSignIn(page, email, 'pas-le-bon-mot');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.getByRole('alert').getByText('Email ou mot de passe incorrect').waitFor();
    await toast(page, 'Échec de la connexion').waitFor();

    await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
    await page.waitForURL((url) => url.searchParams.get('mode') === 'forgot-password');
    await page.getByRole('button', { name: 'Envoyer le lien de récupération' }).click();
    await page.getByText('Veuillez saisir votre email').waitFor();
    await page.getByRole('link', { name: 'Retour à la connexion' }).click();
    await page.waitForURL((url) => url.search === '');
  });

  it('shows "Vérification de l\'authentification..." while the server checks', async () => {
    const { email } = await createUser({ url: server.url });
    const page = await open('/login');
    await hydrated(page);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/login.data*', async (route) => {
      await held;
      await route.continue();
    });
    await fillSignIn(page, email, TEST_PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.getByText("Vérification de l'authentification...").waitFor();
    release();
    await page.waitForURL((url) => url.pathname === '/profile');
  });

  it('signs in before JavaScript runs (a plain form post)', async () => {
    const { email } = await createUser({ url: server.url });
    const page = await open('/login', { ...as(), javaScriptEnabled: false });
    await fillSignIn(page, email, TEST_PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL((url) => url.pathname === '/profile');
    await page.getByRole('heading', { name: 'Mon compte' }).waitFor();
  });

  it('refuses the 11th attempt in a minute from one address, in French', async () => {
    const { email } = await createUser({ url: server.url });
    const page = await open('/login', as('10.99.0.1'));
    await hydrated(page);
    for (let attempt = 1; attempt <= 10; attempt++) {
      await fillSignIn(page, email, `mauvais-${attempt}`);
      const answered = page.waitForResponse((r) => r.request().method() === 'POST');
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await answered;
      await page.getByRole('alert').getByText('Email ou mot de passe incorrect').waitFor();
    }
    await fillSignIn(page, email, TEST_PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.getByRole('alert').getByText('Trop de tentatives. Veuillez patienter avant de réessayer.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });
});

describe('registration, sign-out, sign-in and profile', () => {
  it('registers through the terms dialog, signs out, signs back in and updates the profile', async () => {
    const page = await open('/register');
    await hydrated(page);
    await expectNoSeriousA11yViolations(page);
    const email = uniqueEmail('jeanne');

    await page.getByLabel('Prénom').fill('Jeanne');
    await page.getByLabel('Nom', { exact: true }).fill('Martin');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Mot de passe', { exact: true }).fill(TEST_PASSWORD);
    await page.getByLabel('Confirmer le mot de passe').fill(`${TEST_PASSWORD}x`);
    await page.getByRole('button', { name: 'Créer mon compte' }).click();
    await page.getByText('Les mots de passe ne correspondent pas').waitFor();
    await page.getByText('Vous devez accepter les conditions générales').waitFor();
    await page.getByLabel('Confirmer le mot de passe').fill(TEST_PASSWORD);

    // The terms open in a dialog; "J'ai lu et j'accepte" ticks the box.
    await page.locator('form#register').getByRole('link', { name: 'conditions générales de vente' }).click();
    const dialog = page.getByRole('dialog', { name: 'Conditions générales de vente' });
    await dialog.waitFor();
    // The /cgv text itself, whole, under its version (one terms text, the page's and the dialog's).
    for (const section of ['1. Le vendeur', '10. Le droit de rétractation', '16. Droit applicable']) {
      await dialog.getByRole('heading', { name: section }).waitFor();
    }
    await dialog.getByText('Version du 24/11/2026').waitFor();
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: "J'ai lu et j'accepte" }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByRole('checkbox', { name: /J’accepte les conditions générales de vente/ }).isChecked()).toBe(
      true,
    );

    await page.getByRole('button', { name: 'Créer mon compte' }).click();
    await toast(page, 'Inscription réussie').waitFor();
    await page.waitForURL((url) => url.pathname === '/profile');
    await page.getByText(`Bonjour Jeanne · ${email}`).waitFor();
    expect(
      await query('select first_name, last_name, role, terms_version from "user" where email = $1', [email]),
    ).toEqual([{ first_name: 'Jeanne', last_name: 'Martin', role: 'customer', terms_version: TERMS_VERSION }]);
    // One e-mail: the welcome, with the link that confirms the address (asked for on /profile meanwhile).
    expect(await query('select template from email_outbox where "to" = $1 order by template', [email])).toEqual([
      { template: 'welcome' },
    ]);
    await page.getByText('Confirmez votre adresse e-mail').waitFor();

    // Sign out: back to /login with "Déconnexion réussie"; /profile now asks to sign in.
    await page.getByRole('button', { name: 'Se déconnecter' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await toast(page, 'Déconnexion réussie').waitFor();
    await page.goto(`${server.url}/profile`);
    expect(pathOf(page)).toBe('/login?redirectTo=%2Fprofile');

    await hydrated(page);
    await fillSignIn(page, email, TEST_PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL((url) => url.pathname === '/profile');

    await page.getByRole('tab', { name: 'Profil' }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'profil');
    const form = page.locator('form#profile');
    expect(await form.getByLabel('Email').isDisabled()).toBe(true);
    expect(await form.getByLabel('Email').inputValue()).toBe(email);
    await form.getByLabel('Prénom').fill('Jeanne-Marie');
    await form.getByLabel('Téléphone').fill('06 12 34 56 78');
    await form.getByLabel('Adresse').fill('3 rue des Lilas');
    await form.getByLabel('Code postal').fill('4500');
    await form.getByLabel('Ville').fill('Orléans');
    await form.getByRole('button', { name: 'Mettre à jour' }).click();
    await page.getByText('Le code postal doit contenir 5 chiffres').waitFor();
    await form.getByLabel('Code postal').fill('45000');
    await form.getByRole('button', { name: 'Mettre à jour' }).click();
    await toast(page, 'Profil mis à jour').waitFor();

    await page.reload();
    await hydrated(page);
    expect(await page.locator('form#profile').getByLabel('Code postal').inputValue()).toBe('45000');
    expect(
      await query('select first_name, phone, street, postal_code, city from "user" where email = $1', [email]),
    ).toEqual([
      {
        first_name: 'Jeanne-Marie',
        phone: '06 12 34 56 78',
        street: '3 rue des Lilas',
        postal_code: '45000',
        city: 'Orléans',
      },
    ]);
  });

  it('says the same thing when the address is taken, without saying so', async () => {
    const { email } = await createUser({ url: server.url });
    const page = await open('/register');
    await hydrated(page);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Mot de passe', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirmer le mot de passe').fill(NEW_PASSWORD);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Créer mon compte' }).click();
    await toast(page, "Échec de l'inscription").waitFor();
    const alert = await page.getByRole('alert').first().textContent();
    expect(alert).toContain("Une erreur est survenue lors de l'inscription");
    expect(alert).not.toMatch(/existe/);
  });
});

describe('redirects by role', () => {
  it('takes a customer to /profile and an administrator to /admin', async () => {
    const customer = await createUser({ url: server.url });
    const page = await open('/login');
    await fillSignIn(page, customer.email, TEST_PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL((url) => url.pathname === '/profile');
    // Signed in, /login and /register lead away: a customer to / (or back to a checkout).
    const cookie = (await page.context().cookies()).find((c) => c.name.endsWith('session_token'));
    const signedIn = { cookie: `${cookie?.name}=${cookie?.value}` };
    const away = async (path: string) =>
      (await fetch(`${server.url}${path}`, { redirect: 'manual', headers: signedIn })).headers.get('location');
    expect(await away('/login')).toBe('/');
    expect(await away(`/login?redirectTo=${encodeURIComponent('/checkout?orderId=9')}`)).toBe('/checkout?orderId=9');
    expect(await away('/register')).toBe('/');
    expect(await away(`/register?redirectTo=${encodeURIComponent('/checkout?orderId=9')}`)).toBe('/checkout?orderId=9');

    const admin = await createUser({ ...server, role: 'admin' });
    const adminPage = await pageTolerating404(as());
    await adminPage.goto(`${server.url}/login`);
    await fillSignIn(adminPage, admin.email, TEST_PASSWORD);
    await adminPage.getByRole('button', { name: 'Se connecter' }).click();
    await adminPage.waitForURL((url) => url.pathname === '/admin');
    await adminPage.goto(`${server.url}/login`);
    expect(new URL(adminPage.url()).pathname).toBe('/admin');
    // An administrator's account page offers the back office.
    await adminPage.goto(`${server.url}/profile`);
    expect(await adminPage.getByRole('link', { name: 'Administration' }).last().getAttribute('href')).toBe('/admin');
  });

  it('brings a customer sent from /profile back there after signing in', async () => {
    const { email } = await createUser({ url: server.url });
    const page = await open('/profile?tab=factures');
    expect(pathOf(page)).toBe(`/login?redirectTo=${encodeURIComponent('/profile?tab=factures')}`);
    await fillSignIn(page, email, TEST_PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL((url) => url.pathname === '/profile');
    expect(pathOf(page)).toBe('/profile?tab=factures');
    await page.getByRole('heading', { name: 'Mes factures' }).waitFor();
  });
});

describe('magic link', () => {
  it('signs in through the e-mailed link, then leads on by role', async () => {
    const { email } = await createUser({ url: server.url });
    const page = await open('/login');
    await hydrated(page);
    await page.getByRole('link', { name: 'Recevoir un lien de connexion par email' }).click();
    await page.waitForURL((url) => url.searchParams.get('mode') === 'magic-link');
    // The address changes before React swaps the sign-in form for this one, both with « Email ».
    const send = page.getByRole('button', { name: 'Recevoir le lien de connexion' });
    await send.waitFor();
    await page.getByLabel('Email').fill(email);
    await send.click();
    await toast(page, 'Lien de connexion envoyé').waitFor();

    const link = await authEmailLink(server, email, 'magic-link');
    await page.goto(link);
    await toast(page, 'Connexion réussie').waitFor();
    await page.getByText('Vous êtes maintenant connecté via le lien magique').waitFor();
    await page.waitForURL((url) => url.pathname === '/profile');
    await page.getByText(email).waitFor();

    // The link works once: a second use says so.
    const other = await open('/login');
    await other.goto(link);
    await other.waitForURL((url) => url.searchParams.get('mode') === 'magic-link');
    await toast(other, 'Erreur de connexion').waitFor();
    await other.getByText('Le lien de connexion est invalide ou a expiré').waitFor();
  });

  it('answers an unknown address like a known one, and sends nothing', async () => {
    const email = uniqueEmail('inconnu');
    const page = await open('/login?mode=magic-link');
    await hydrated(page);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Recevoir le lien de connexion' }).click();
    await toast(page, 'Lien de connexion envoyé').waitFor();
    await expect(authEmailLink(server, email, 'magic-link', 300)).rejects.toThrow();
  });
});

describe('sessions', () => {
  it('forgets the session in the browser even when the server had already ended it', async () => {
    const { email } = await createUser({ url: server.url });
    const page = await open('/login');
    await fillSignIn(page, email, TEST_PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL((url) => url.pathname === '/profile');
    await hydrated(page);
    // The session disappears on the server (e.g. revoked elsewhere): sign-out still clears the browser.
    await query('delete from session where user_id = (select id from "user" where email = $1)', [email]);
    await page.getByRole('button', { name: 'Se déconnecter' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await toast(page, 'Déconnexion réussie').waitFor();
    const cookies = await page.context().cookies();
    expect(cookies.filter((c) => c.name.includes('session_token'))).toEqual([]);
    // And a new sign-in works.
    await expect(signIn({ url: server.url, email })).resolves.toMatch(/session_token=/);
  });
});
