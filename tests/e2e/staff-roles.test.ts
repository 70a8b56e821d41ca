import pg from 'pg';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSmtpServer } from '~/server/email/testing/smtp-test-server';
import { addSessionCookie, createUser, randomIp, type TestUser, uniqueEmail } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { insertTestOrder, orderState } from '../support/orders';
import { payBySandboxCard } from '../support/payments';
import { type ServerWithSmtp, startServerWithSmtp } from '../support/server-with-smtp';
import { totp } from '../support/totp';
import { insertWorkshopOrder } from '../support/workshop-orders';

/*
 * Staff and roles (docs/decisions/016), in Chromium against the production server: the
 * owner invites an operator and an accountant from « Équipe »; the invitations reach a real SMTP
 * peer; each accepts with their own password and lands on the dashboard with the tabs of their
 * role. The operator moves an order through the workshop but is refused the prices, a refund and
 * the settings; the accountant refunds an order but is refused the prices. The last administrator
 * cannot be demoted; a deactivated member is signed out and cannot sign in again. The owner turns
 * on two-factor sign-in and signs in with a TOTP code the test computes itself (RFC 6238).
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };
const PASSWORD = 'Graine-de-Lin-2026';

let env: ServerWithSmtp;
let browser: Browser;
let owner: TestUser;

function plain(text: string): string {
  return text.replace(/[\u00A0\u202F]/g, ' ');
}

/** The outbox worker sends on its own schedule: the SMTP peer signals the arrival. */
function receivedMessage(to: string, predicate: (message: TestSmtpServer['messages'][number]) => boolean) {
  return env.smtp.waitForMail(to, predicate);
}

async function pageAs(cookie: string, path: string, options = DESKTOP): Promise<Page> {
  const page = await openPage(browser, undefined, options);
  await addSessionCookie(page, env.server.url, cookie);
  await page.goto(`${env.server.url}${path}`);
  await page.locator('[data-hydrated="true"]').waitFor();
  return page;
}

const tabs = (page: Page) => page.getByRole('navigation', { name: 'Sections du tableau de bord' });

async function tabNames(page: Page): Promise<string[]> {
  return (await tabs(page).getByRole('link').allInnerTexts()).map((t) => t.trim());
}

/** The session cookie of a browser page, as a Cookie header. */
async function cookieOf(page: Page): Promise<string> {
  const cookies = await page.context().cookies(env.server.url);
  return cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

function post(path: string, cookie: string, body: Record<string, string>) {
  return fetch(`${env.server.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: env.server.url,
      cookie,
      'x-forwarded-for': randomIp(),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(body),
  });
}

function get(path: string, cookie: string) {
  return fetch(`${env.server.url}${path}`, { redirect: 'manual', headers: { cookie, 'x-forwarded-for': randomIp() } });
}

/** What each submit button of `root` would post, and every back-office link it offers. */
function offeredControls(root: Locator) {
  return root.evaluate((element) => ({
    // Attributes, not properties: a field named « method » or « action » hides the form's own.
    posts: [...element.querySelectorAll<HTMLButtonElement>('form button[type="submit"]')]
      .filter((button) => button.form?.getAttribute('method')?.toLowerCase() === 'post')
      .map((button) => {
        const form = button.form as HTMLFormElement;
        const fields = [...new FormData(form, button).entries()].filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        );
        const action = new URL(form.getAttribute('action') ?? '', location.href).href;
        return { label: button.textContent?.trim() ?? '', action, fields };
      }),
    links: [...element.querySelectorAll<HTMLAnchorElement>('a[href]')]
      .map((a) => a.href)
      .filter((href) => new URL(href).origin === location.origin && new URL(href).pathname.startsWith('/admin')),
  }));
}

/** Invites `email` as `roleLabel` from « Équipe » and returns the link the e-mail carries. */
async function invite(page: Page, email: string, roleLabel: string): Promise<string> {
  const form = page.getByRole('region', { name: 'Inviter un membre' });
  await form.getByLabel('Adresse e-mail').fill(email);
  await form.getByLabel('Rôle').selectOption({ label: roleLabel });
  await form.getByRole('button', { name: 'Envoyer l’invitation' }).click();
  await form.getByText(`Invitation envoyée à ${email}`).waitFor();
  const pending = page.getByRole('region', { name: 'Invitations en attente' });
  await pending.getByText(email).waitFor();
  const message = await receivedMessage(email, (m) => m.subject === 'Invitation à rejoindre l’équipe Soovenirs');
  expect(message.secure).toBe(true);
  expect(plain(message.text)).toContain(`rôle « ${roleLabel} »`);
  expect(message.text).toContain('valable 7 jours');
  const link = new RegExp(`${env.server.url}/invitation/[A-Za-z0-9_-]+`).exec(message.text)?.[0];
  expect(link).toBeTruthy();
  return link as string;
}

/** Accepts an invitation in a browser of its own; returns the page, signed in, on the dashboard. */
async function accept(link: string, firstName: string, lastName: string): Promise<Page> {
  const page = await openPage(browser, link, DESKTOP);
  await page.getByRole('heading', { name: 'Rejoindre l’équipe' }).waitFor();
  await page.getByLabel('Prénom').fill(firstName);
  await page.getByLabel('Nom', { exact: true }).fill(lastName);
  await page.getByLabel('Mot de passe', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirmer le mot de passe').fill(PASSWORD);
  await page.getByRole('button', { name: 'Créer mon compte' }).click();
  await page.waitForURL(/\/admin$/);
  await page.locator('[data-hydrated="true"]').waitFor();
  // Every role has « Sécurité »: the tabs are drawn once it is there.
  await tabs(page).getByRole('link', { name: 'Sécurité' }).waitFor();
  return page;
}

/**
 * The refusal in place, in a second tab of the same session: Chromium logs every 403 document as a
 * console error, which openPage's pages count as a failure.
 */
async function expectDeniedPage(page: Page, path: string) {
  const denied = await page.context().newPage();
  const response = await denied.goto(`${env.server.url}${path}`);
  expect(response?.status(), path).toBe(403);
  await denied.getByRole('heading', { name: 'Accès non autorisé' }).waitFor();
  await denied.getByRole('link', { name: 'Retour au tableau de bord' }).waitFor();
  await expectNoSeriousA11yViolations(denied);
  await denied.close();
}

function member(page: Page, name: string): Locator {
  return page.getByRole('region', { name: 'Membres de l’équipe' }).getByRole('listitem').filter({ hasText: name });
}

// Pages close at the end of each test: the members' sessions are kept as cookies.
let operatorCookie: string;

let accountantCookie: string;
let operatorEmail: string;
let operatorLink: string;

beforeAll(async () => {
  [env, browser] = await Promise.all([startServerWithSmtp({ PAYMENT_SANDBOX: 'on' }), launchBrowser()]);
  owner = await createUser({
    url: env.server.url,
    databaseUrl: env.server.databaseUrl,
    role: 'admin',
    firstName: 'Olivia',
    lastName: 'Patronne',
  });
});

afterAll(async () => {
  await browser?.close();
  await env?.dispose();
});

describe('a team in the back office', () => {
  it('the owner invites an operator and an accountant, who join with their own password', async () => {
    const page = await pageAs(owner.cookie, '/admin');
    await tabs(page).getByRole('link', { name: 'Équipe' }).click();
    await page.waitForURL(/\/admin\/equipe$/);
    await member(page, 'Olivia Patronne').getByText('Actif').waitFor();
    await expectNoSeriousA11yViolations(page);

    operatorEmail = uniqueEmail('atelier');
    const accountantEmail = uniqueEmail('compta');
    operatorLink = await invite(page, operatorEmail, 'Atelier');
    const accountantLink = await invite(page, accountantEmail, 'Comptabilité');

    const operatorPage = await accept(operatorLink, 'Oscar', 'Opérateur');
    expect(await tabNames(operatorPage)).toEqual(['Commandes', 'Atelier', 'Clients', 'Sécurité']);
    operatorCookie = await cookieOf(operatorPage);
    const accountantPage = await accept(accountantLink, 'Agathe', 'Comptable');
    expect(await tabNames(accountantPage)).toEqual([
      'Commandes',
      'Clients',
      'Rapports',
      'Comptabilité',
      'Exports comptables',
      'E-reporting',
      'Cartes cadeaux',
      'Codes promo',
      'Sécurité',
    ]);
    accountantCookie = await cookieOf(accountantPage);

    // The link served once.
    const again = await openPage(browser, operatorLink, DESKTOP);
    await again.getByText('Ce lien d’invitation n’est plus valable').waitFor();

    await page.reload();
    await member(page, 'Oscar Opérateur').getByText('Double authentification non activée').waitFor();
    expect(await page.getByRole('region', { name: 'Invitations en attente' }).innerText()).toContain(
      'Aucune invitation en attente',
    );
  });

  it('the operator moves an order through the workshop, and is refused prices, refunds and settings', async () => {
    const client = new pg.Client({ connectionString: env.server.databaseUrl });
    await client.connect();
    const order = await insertWorkshopOrder(client, { lastName: 'Bobines' }).finally(() => client.end());

    const operatorPage = await pageAs(operatorCookie, '/admin/atelier');
    await operatorPage.getByLabel(`Sélectionner la commande ${order.number}`).check();
    await operatorPage.getByRole('button', { name: 'Passer à l’étape suivante' }).click();
    await operatorPage.getByRole('status').filter({ hasText: '1 commande sur 1 passée à l’étape suivante' }).waitFor();
    const { rows } = await env.db.query('select stage from orders where id = $1', [order.id]);
    expect(rows[0]?.stage).toBe('digitising');

    await expectDeniedPage(operatorPage, '/admin/tarifs');
    const cookie = operatorCookie;
    const refund = await post('/admin?index', cookie, {
      intent: 'refund',
      orderId: order.id,
      amount: '10,00',
      method: 'transfer',
      reason: 'Essai',
    });
    expect(refund.status).toBe(403);
    expect(await get('/admin/api/configuration-paiement', cookie).then((r) => r.status)).toBe(403);
    expect(
      await post('/admin/tarifs', cookie, { intent: 'reset' }).then((r) => r.status),
      'the price list stays as it is',
    ).toBe(403);
    const refunds = await env.db.query('select count(*)::int as n from refunds where order_id = $1', [order.id]);
    expect(refunds.rows[0]).toEqual({ n: 0 });
  });

  it('the accountant refunds an order, and is refused the prices', async () => {
    const email = uniqueEmail('rembourse');
    const order = await insertTestOrder(env.server.databaseUrl, { guestEmail: email });
    await payBySandboxCard(env.server.url, order, email);

    const accountantPage = await pageAs(accountantCookie, `/admin?commande=${order.id}`);
    const dialog = accountantPage.getByRole('dialog', { name: `Commande ${order.number}` });
    await dialog.waitFor();
    // Only the forms the accountant may use: the refunds, not the status, the notes or the messages.
    for (const section of ['Changer le statut', 'Contacter le client', /^Notes internes/]) {
      expect(await dialog.getByRole('heading', { name: section }).count()).toBe(0);
    }
    expect(await dialog.getByRole('button', { name: /^Passer à l’étape/ }).count()).toBe(0);
    const form = dialog.getByRole('region', { name: 'Remboursements' }).getByRole('form', { name: 'Rembourser' });
    await form.getByLabel('Montant à rembourser (€)').fill('20,00');
    await form.getByLabel('Motif du remboursement').fill('Une cassette vierge');
    await form.getByRole('button', { name: 'Rembourser' }).click();
    await expect
      .poll(async () => (await orderState(env.server.databaseUrl, order.id)).paymentStatus)
      .toBe('partially_refunded');

    await expectDeniedPage(accountantPage, '/admin/tarifs');
    const cookie = accountantCookie;
    expect(await post('/admin/tarifs', cookie, { intent: 'reset' }).then((r) => r.status)).toBe(403);
    // Orders are read only for the accountant.
    expect(
      await post('/admin?index', cookie, { intent: 'status', orderId: order.id, status: 'shipped' }).then(
        (r) => r.status,
      ),
    ).toBe(403);
  });

  it('offers the operator and the accountant, in the order dialog, no control the server then refuses', async () => {
    // A paid card order with its invoice, awaiting its parcel: every panel of the dialog has something to offer.
    const email = uniqueEmail('controles');
    const order = await insertTestOrder(env.server.databaseUrl, { guestEmail: email });
    await payBySandboxCard(env.server.url, order, email);
    const fakeId = '00000000-0000-4000-8000-000000000000';
    const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

    for (const [role, cookie] of [
      ['atelier', operatorCookie],
      ['comptabilite', accountantCookie],
    ] as const) {
      // The newest order, on the list's first page; the selection's bar offers its links once it is selected.
      const page = await pageAs(cookie, '/admin');
      await page.getByRole('checkbox', { name: `Sélectionner la commande ${order.number}` }).check();
      const bar = page.getByRole('region', { name: 'Actions sur la sélection' });
      await bar.getByText('1 commande sélectionnée').waitFor();
      const barLinks = await offeredControls(bar);
      await page.goto(`${env.server.url}/admin?commande=${order.id}`);
      const dialog = page.getByRole('dialog', { name: `Commande ${order.number}` });
      await dialog.waitFor();
      await expect.poll(() => dialog.getByText('Chargement…').count()).toBe(0);
      const offered = await offeredControls(dialog);
      offered.links.push(...barLinks.links);
      await page.context().close();
      expect(offered.posts.length, role).toBeGreaterThan(0);
      expect(offered.links.length, role).toBeGreaterThan(0);
      for (const post of offered.posts) {
        // Aimed at an order that does not exist: the door answers first (403), else the action (404, 400…).
        const url = new URL(post.action.replace(uuid, fakeId));
        const body = new URLSearchParams(post.fields.map(([name, value]) => [name, value.replace(uuid, fakeId)]));
        const response = await fetch(`${env.server.url}${url.pathname}${url.search}`, {
          method: 'POST',
          redirect: 'manual',
          headers: { origin: env.server.url, cookie, 'x-forwarded-for': randomIp() },
          body,
        });
        expect(response.status, `${role}: « ${post.label} » → ${url.pathname}${url.search}`).not.toBe(403);
      }
      for (const link of offered.links) {
        const url = new URL(link);
        const response = await get(`${url.pathname}${url.search}`, cookie);
        expect([401, 403, 404], `${role}: ${url.pathname}${url.search}`).not.toContain(response.status);
      }
    }
  });

  it('shows the invitations, the operator’s stage and the accountant’s refund in the Journal, before and after', async () => {
    const page = await pageAs(owner.cookie, '/admin/journal');
    const rows = page.getByRole('table', { name: 'Journal des actions' }).locator('tbody tr');
    const row = async (who: string, kind: string) =>
      plain(await rows.filter({ hasText: who }).filter({ hasText: kind }).first().innerText());
    const invitation = await row('Olivia Patronne', 'Invitation d’un membre de l’équipe');
    expect(invitation).toMatch(/Rôle : .*(Atelier|Comptabilité)/);
    const stage = await row('Oscar Opérateur', 'Étape de l’atelier');
    expect(stage).toContain('Atelier');
    expect(stage).toMatch(/Étape : .+ → .+/);
    const refund = await row('Agathe Comptable', 'Remboursement');
    expect(refund).toContain('Comptabilité');
    expect(refund).toContain('20,00 €');
    await expectNoSeriousA11yViolations(page);
  });

  it('a working day: the operator receives short, uploads and publishes; the accountant approves what is owed and opens every document', {
    timeout: 120_000,
  }, async () => {
    // A paid card order of 100 photos and 2 tapes; its customer reads the e-mails on the SMTP peer.
    const email = uniqueEmail('journee');
    const order = await insertTestOrder(env.server.databaseUrl, { guestEmail: email });
    await payBySandboxCard(env.server.url, order, email);

    // The operator counts 90 photos: the 3,50 € owed back waits for the accountant, nothing is refunded.
    const operatorPage = await pageAs(operatorCookie, `/admin?commande=${order.id}`);
    const dialog = operatorPage.getByRole('dialog', { name: `Commande ${order.number}` });
    const reception = dialog.getByRole('region', { name: 'Réception des originaux' });
    await reception.getByRole('spinbutton', { name: /Photos papier/ }).fill('90');
    await reception.getByRole('button', { name: 'Colis reçu' }).click();
    await reception.getByText(/Reçu le \d{2}\/\d{2}\/\d{4} par Oscar Opérateur/).waitFor({ timeout: 20_000 });
    const owed = dialog.getByRole('region', { name: 'À rembourser' });
    await owed.getByText('En attente d’approbation par une personne habilitée aux remboursements.').waitFor();
    expect(plain(await owed.innerText())).toContain('3,50 €');
    expect(await owed.getByRole('button', { name: 'Approuver le remboursement' }).count()).toBe(0);
    expect((await orderState(env.server.databaseUrl, order.id)).paymentStatus).toBe('paid');

    // The operator uploads the photos' folder and publishes it: one « Vos fichiers sont prêts ».
    const files = dialog.getByRole('region', { name: 'Fichiers à livrer' });
    await files.scrollIntoViewIfNeeded();
    await files.getByLabel('Support des fichiers').selectOption({ label: 'Photos papier' });
    const folder = await Promise.all(
      (
        [
          ['Mariage 1972.jpg', '#8b5a2b'],
          ['Vacances 1975.jpg', '#2e8b57'],
          ['Baptême 1978.jpg', '#4169e1'],
        ] as const
      ).map(async ([name, background], index) => ({
        name,
        mimeType: 'image/jpeg',
        buffer: await sharp({
          create: {
            width: 320 + index * 16,
            height: 240,
            channels: 3,
            background,
          },
        })
          .jpeg()
          .toBuffer(),
      })),
    );
    await files.getByLabel('Choisir des fichiers').setInputFiles(folder);
    await expect
      .poll(async () => {
        const { rows } = await env.db.query('select count(*)::int as n from order_files where order_id = $1', [
          order.id,
        ]);
        return rows[0]?.n;
      })
      .toBe(3);
    await dialog.getByRole('button', { name: 'Publier la livraison' }).click();
    await dialog.getByRole('button', { name: 'Confirmer la publication' }).click();
    await expect.poll(async () => (await orderState(env.server.databaseUrl, order.id)).status).toBe('completed');
    await receivedMessage(email, (m) => m.subject.includes('fichiers sont prêts'));

    // The accountant approves the 3,50 €: refund, credit note, « Partiellement remboursée ».
    const accountantPage = await pageAs(accountantCookie, `/admin?commande=${order.id}`);
    const accountantDialog = accountantPage.getByRole('dialog', { name: `Commande ${order.number}` });
    await accountantDialog
      .getByRole('region', { name: 'À rembourser' })
      .getByRole('button', { name: 'Approuver le remboursement' })
      .click();
    await expect
      .poll(async () => (await orderState(env.server.databaseUrl, order.id)).paymentStatus)
      .toBe('partially_refunded');
    const { rows: notes } = await env.db.query('select number, amount from credit_notes where order_id = $1', [
      order.id,
    ]);
    expect(notes.map((n) => Number(n.amount))).toEqual([350]);

    // From « Comptabilité », every invoice and credit note of the order opens and downloads for her.
    await accountantPage.goto(`${env.server.url}/admin/comptabilite`);
    await accountantPage.locator('[data-hydrated="true"]').waitFor();
    const links = await accountantPage
      .locator(`a[href^="/facture/${order.id}"]`)
      .evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href') as string));
    expect(links.filter((href) => href.includes('avoir=')).length).toBeGreaterThan(0);
    expect(links.length).toBeGreaterThanOrEqual(4);
    for (const href of links) {
      const response = await get(href, accountantCookie);
      expect(response.status, href).toBe(200);
      if (href.endsWith('pdf') || href.includes('/pdf')) {
        expect(response.headers.get('content-type'), href).toContain('application/pdf');
        expect(
          Buffer.from(await response.arrayBuffer())
            .subarray(0, 5)
            .toString(),
          href,
        ).toBe('%PDF-');
      }
    }
    // The customer heard of the publication once, not also at « Prêt ».
    const ready = env.smtp.messages.filter(
      (m) => m.envelopeTo.includes(email) && m.subject.includes('fichiers sont prêts'),
    );
    expect(ready).toHaveLength(1);
  });

  it('keeps the last administrator, and a deactivated member is signed out for good', async () => {
    const page = await pageAs(owner.cookie, '/admin/equipe', PHONE);
    const self = member(page, 'Olivia Patronne');
    await self.getByLabel('Rôle de Olivia Patronne').selectOption({ label: 'Atelier' });
    await self.getByRole('button', { name: 'Changer' }).click();
    await self.getByText('Impossible de retirer le rôle d’administrateur au dernier administrateur actif.').waitFor();
    const { rows } = await env.db.query('select role from "user" where id = $1', [owner.id]);
    expect(rows[0]?.role).toBe('admin');

    const operator = member(page, 'Oscar Opérateur');
    await operator.getByRole('button', { name: 'Désactiver Oscar Opérateur' }).click();
    await page.getByText('Oscar Opérateur ne peut plus se connecter').waitFor();
    await member(page, 'Oscar Opérateur').getByText('Désactivé').waitFor();
    await expectNoSeriousA11yViolations(page);

    // Signed out at once, and the password no longer opens the back office.
    expect((await get('/admin/api/notifications', operatorCookie)).status).toBe(401);
    const signIn = await fetch(`${env.server.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { origin: env.server.url, 'content-type': 'application/json', 'x-forwarded-for': randomIp() },
      body: JSON.stringify({ email: operatorEmail, password: PASSWORD }),
    });
    expect(signIn.status).toBe(403);
  });

  it('an administrator turns on two-factor sign-in, then signs in with a TOTP code', async () => {
    const page = await pageAs(owner.cookie, '/admin/securite');
    // The team's rule cannot be turned on by an administrator without it: it would shut them out.
    const rule = page.getByRole('region', { name: 'Règle de l’équipe' });
    await rule.getByLabel(/Double authentification obligatoire pour les administrateurs/).check();
    await rule.getByRole('button', { name: 'Enregistrer la règle' }).click();
    await rule.getByText(/Activez d’abord la double authentification sur votre propre compte/).waitFor();
    await page.getByLabel('Votre mot de passe').fill(owner.password);
    await page.getByRole('button', { name: 'Activer la double authentification' }).click();
    await page.getByRole('img', { name: 'QR code de la double authentification' }).waitFor();
    const secret = await page.getByTestId('totp-secret').innerText();
    const backupCodes = await page
      .getByRole('list', { name: 'Codes de secours' })
      .getByRole('listitem')
      .allInnerTexts();
    expect(backupCodes.length).toBeGreaterThan(5);
    await expectNoSeriousA11yViolations(page);
    // A wrong code: said in French, nothing turned on.
    await page.getByLabel('3. Code de vérification').fill('000000' === totp(secret) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Confirmer' }).click();
    await page.getByText('Code de vérification incorrect').waitFor();
    await page.getByLabel('3. Code de vérification').fill(totp(secret));
    await page.getByRole('button', { name: 'Confirmer' }).click();
    await page.getByText('Double authentification activée').waitFor();

    const signIn = await openPage(browser, `${env.server.url}/login?redirectTo=%2Fadmin`, DESKTOP);
    await signIn.getByLabel('Email').fill(owner.email);
    await signIn.getByLabel('Mot de passe', { exact: true }).fill(owner.password);
    await signIn.getByRole('button', { name: 'Se connecter' }).click();
    await signIn.waitForURL(/\/connexion\/verification/);
    await signIn.getByRole('heading', { name: 'Code de vérification' }).waitFor();
    await expectNoSeriousA11yViolations(signIn);
    // The next step's code (the app's window accepts it): the one just typed to confirm served once.
    const signInCode = totp(secret, Date.now() + 30_000);
    await signIn.getByRole('textbox', { name: 'Code de vérification' }).fill(signInCode);
    await signIn.getByRole('button', { name: 'Vérifier' }).click();
    await signIn.waitForURL(/\/admin$/);
    await tabs(signIn).getByRole('link', { name: 'Équipe' }).waitFor();
    // A lost phone: a backup code opens the session once, and only once.
    const withBackup = async (code: string) => {
      const other = await openPage(browser, `${env.server.url}/login?redirectTo=%2Fadmin`, DESKTOP);
      await other.getByLabel('Email').fill(owner.email);
      await other.getByLabel('Mot de passe', { exact: true }).fill(owner.password);
      await other.getByRole('button', { name: 'Se connecter' }).click();
      await other.waitForURL(/\/connexion\/verification/);
      await other.getByRole('textbox', { name: 'Code de vérification' }).fill(code);
      await other.getByRole('button', { name: 'Vérifier' }).click();
      return other;
    };
    const rescued = await withBackup(backupCodes[0]?.trim() as string);
    await rescued.waitForURL(/\/admin$/);
    const reused = await withBackup(backupCodes[0]?.trim() as string);
    await reused.getByText('Code de vérification incorrect').waitFor();
    expect(new URL(reused.url()).pathname).toBe('/connexion/verification');

    // The password alone opens nothing.
    const passwordOnly = await fetch(`${env.server.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { origin: env.server.url, 'content-type': 'application/json', 'x-forwarded-for': randomIp() },
      body: JSON.stringify({ email: owner.email, password: owner.password }),
    });
    expect(await passwordOnly.json()).toMatchObject({ twoFactorRedirect: true });
    // The app's code serves once: the code that opened the session above, still within its window, opens nothing.
    const replayed = await fetch(`${env.server.url}/api/auth/two-factor/verify-totp`, {
      method: 'POST',
      headers: {
        origin: env.server.url,
        'content-type': 'application/json',
        'x-forwarded-for': randomIp(),
        cookie: passwordOnly.headers
          .getSetCookie()
          .map((c) => c.split(';')[0])
          .join('; '),
      },
      body: JSON.stringify({ code: signInCode }),
    });
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toMatchObject({
      code: 'INVALID_CODE',
      message: expect.stringContaining('incorrect'),
    });

    // Now compulsory for administrators: another administrator without it can only set it up.
    await signIn.goto(`${env.server.url}/admin/securite`);
    await signIn.locator('[data-hydrated="true"]').waitFor();
    const ownRule = signIn.getByRole('region', { name: 'Règle de l’équipe' });
    await ownRule.getByLabel(/Double authentification obligatoire pour les administrateurs/).check();
    await ownRule.getByRole('button', { name: 'Enregistrer la règle' }).click();
    await ownRule.getByText('La double authentification est désormais obligatoire pour les administrateurs.').waitFor();
    const second = await createUser({ url: env.server.url, databaseUrl: env.server.databaseUrl, role: 'admin' });
    const held = await pageAs(second.cookie, '/admin/clients');
    expect(new URL(held.url()).pathname).toBe('/admin/securite');
    await held.getByText(/La double authentification est obligatoire pour les administrateurs/).waitFor();
    await expectNoSeriousA11yViolations(held);
    expect(await tabs(held).count()).toBe(0);
    // An action is refused as well (not only the pages): sent back to « Sécurité », nothing done.
    const refused = uniqueEmail('refus');
    const invite = await fetch(`${env.server.url}/admin/equipe`, {
      method: 'POST',
      headers: { cookie: second.cookie, origin: env.server.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'invite', email: refused, role: 'atelier' }),
      redirect: 'manual',
    });
    expect([invite.status, invite.headers.get('location')]).toEqual([302, '/admin/securite']);
    const { rows } = await env.db.query('select 1 from staff_invitations where email = $1', [refused]);
    expect(rows).toEqual([]);
    // The accountant and the operator are not held by it.
    const accountant = await pageAs(accountantCookie, '/admin/comptabilite');
    expect(new URL(accountant.url()).pathname).toBe('/admin/comptabilite');
    // The invoices, not the payment settings (an administrator's).
    await accountant.getByRole('heading', { name: 'Avoirs' }).waitFor();
    expect(await accountant.getByRole('heading', { name: 'Paiement en ligne' }).count()).toBe(0);

    // A new phone: the owner turns it off with the password, and is held by the rule until it is back on.
    await signIn.getByText('Changer de téléphone ou désactiver').click();
    await signIn.getByLabel('Votre mot de passe').fill('pas le bon');
    await signIn.getByRole('button', { name: 'Désactiver la double authentification' }).click();
    await signIn.getByText('Le mot de passe actuel est incorrect').waitFor();
    await signIn.getByLabel('Votre mot de passe').fill(owner.password);
    await signIn.getByRole('button', { name: 'Désactiver la double authentification' }).click();
    await signIn.getByText('Double authentification désactivée').waitFor();
    await signIn.getByText(/La double authentification est obligatoire pour les administrateurs/).waitFor();
    expect(await tabs(signIn).count()).toBe(0);
    await signIn.getByRole('button', { name: 'Activer la double authentification' }).waitFor();
  });
});
