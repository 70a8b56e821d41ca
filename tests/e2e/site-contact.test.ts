import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { TestSmtpServer } from '~/server/email/testing/smtp-test-server';
import { randomIp } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage, waitForHydrationOnLoad } from '../support/browser';
import type { TestServer } from '../support/server';
import { type ServerWithSmtp, startServerWithSmtp } from '../support/server-with-smtp';

/*
 * The contact form in Chromium against the real server: validation, success (stored, e-mailed to
 * the shop through a real SMTP peer, acknowledged, notified), the professional request, the form
 * without JavaScript, the error state, the honeypot, the rate limit and the map loaded on demand.
 */

const DESKTOP = { viewport: { width: 1280, height: 900 } };
const SHOP_MAILBOX = 'contact@soovenirs.fr';

const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');

/** The text as a person reads it: French no-break spaces count as spaces. */
async function textOf(locator: Locator): Promise<string> {
  return plain(await locator.innerText());
}

describe('the contact page', () => {
  let server: TestServer;
  let browser: Browser;
  let smtp: TestSmtpServer;
  let db: pg.Client;

  let shop: ServerWithSmtp;

  beforeAll(async () => {
    [shop, browser] = await Promise.all([startServerWithSmtp(), launchBrowser()]);
    ({ server, smtp, db } = shop);
  });

  afterAll(async () => {
    await browser?.close();
    await shop?.dispose();
  });

  /** A visitor of their own (a client address of their own, for the rate limit). */
  function visitor(options: BrowserContextOptions = {}) {
    return openPage(browser, undefined, {
      ...DESKTOP,
      extraHTTPHeaders: { 'x-forwarded-for': randomIp() },
      ...options,
    });
  }

  /**
   * A page whose console may report the document's own 4xx/5xx status (a form posted without
   * JavaScript, or a failing fetch): only those lines are expected, anything else fails the test.
   */
  async function lenientVisitor(options: BrowserContextOptions = {}): Promise<Page> {
    const context = await browser.newContext({
      locale: 'fr-FR',
      ...DESKTOP,
      extraHTTPHeaders: { 'x-forwarded-for': randomIp() },
      ...options,
    });
    const page = await context.newPage();
    waitForHydrationOnLoad(page);
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of (400|429|500)/.test(m.text())) errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    onTestFinished(async () => {
      await context.close();
      expect(errors).toEqual([]);
    });
    return page;
  }

  const form = (page: Page) => page.getByRole('form', { name: 'Formulaire de contact' });

  async function fill(
    page: Page,
    values: Partial<Record<'Nom' | 'Adresse email' | 'Téléphone' | 'Sujet' | 'Message', string>>,
  ) {
    for (const [label, value] of Object.entries(values))
      await form(page).getByLabel(label, { exact: false }).first().fill(value);
  }

  async function messagesFrom(email: string) {
    const { rows } = await db.query('select * from contact_messages where email = $1', [email]);
    return rows;
  }

  it('says which required fields are missing, in French, and sends nothing', async () => {
    // The server checks the form (zod is not shipped to the browser): its refusal is a 400.
    const page = await lenientVisitor();
    await page.goto(`${server.url}/contact`);
    await form(page).getByRole('button', { name: 'Envoyer le message' }).click();
    for (const message of [
      'Veuillez indiquer votre nom',
      'Veuillez indiquer votre adresse email',
      'Veuillez indiquer le sujet de votre message',
      'Veuillez écrire votre message',
    ]) {
      await form(page).getByText(message).waitFor();
    }
    expect(await form(page).getByLabel('Nom').getAttribute('aria-invalid')).toBe('true');
    // Required fields are announced as such (the HTML attribute, written without zod).
    expect(await form(page).getByLabel('Nom').getAttribute('required')).not.toBeNull();
    await fill(page, { 'Adresse email': 'pas-une-adresse' });
    await form(page).getByRole('button', { name: 'Envoyer le message' }).click();
    await form(page).getByText('Veuillez saisir une adresse email valide').waitFor();
    expect(await form(page).getByLabel('Adresse email').inputValue()).toBe('pas-une-adresse');
    await expectNoSeriousA11yViolations(page);
    const { rows } = await db.query('select count(*)::int as n from contact_messages');
    expect(rows[0].n).toBe(0);
  });

  it('sends a message: stored, e-mailed to the shop and acknowledged, then the form is cleared', async () => {
    const page = await visitor();
    await page.goto(`${server.url}/contact`);
    const email = `jeanne-${randomBytes(3).toString('hex')}@example.fr`;
    await fill(page, {
      Nom: 'Jeanne Martin',
      'Adresse email': email,
      Téléphone: '06 12 34 56 78',
      Sujet: 'Quarante cassettes VHS',
      Message: 'Bonjour,\nje voudrais numériser quarante cassettes de mariage.',
    });
    await form(page).getByLabel('Prestation concernée').selectOption('vhs');
    await form(page).getByRole('button', { name: 'Envoyer le message' }).click();

    const status = page.getByRole('status').filter({ hasText: 'Message envoyé avec succès' });
    await status.waitFor();
    expect(await textOf(status)).toContain(email);
    // The form is cleared.
    expect(await form(page).getByLabel('Nom').inputValue()).toBe('');
    expect(await form(page).getByLabel('Message').inputValue()).toBe('');
    expect(await form(page).getByLabel('Prestation concernée').inputValue()).toBe('');

    const [stored] = await messagesFrom(email);
    expect(stored).toMatchObject({
      name: 'Jeanne Martin',
      subject: 'Quarante cassettes VHS',
      service: 'vhs',
      is_pro: false,
    });
    const { rows: notes } = await db.query('select kind, title from notifications where contact_message_id = $1', [
      stored.id,
    ]);
    expect(notes).toEqual([{ kind: 'contact', title: 'Nouveau message de Jeanne Martin' }]);

    // Both e-mails reach the real SMTP peer.
    const [toShop, acknowledgement] = await Promise.all([
      smtp.waitForMail(SHOP_MAILBOX, (m) => m.raw.includes(email)),
      smtp.waitForMail(email),
    ]);
    expect(plain(toShop?.subject ?? '')).toBe('Nouveau message de contact : Quarante cassettes VHS');
    expect(toShop?.headers.get('reply-to')).toContain(email);
    expect(toShop?.secure).toBe(true);
    expect(toShop?.text).toContain('je voudrais numériser quarante cassettes');
    expect(toShop?.text).toContain('Cassettes VHS');
    expect(acknowledgement?.subject).toBe('Nous avons bien reçu votre message');
    // Neutral: the visitor's text goes only to the shop's inbox, never back to the typed address.
    expect(acknowledgement?.text).toContain('Nous avons bien reçu votre message.');
    expect(acknowledgement?.text).not.toContain('quarante cassettes');
    expect(acknowledgement?.raw).not.toContain('Quarante cassettes');
    // The worker marks a row sent just after the SMTP answer: wait for that write too.
    await expect
      .poll(async () => {
        const { rows: outbox } = await db.query(`select status from email_outbox where dedupe_key like $1`, [
          `contact:${stored.id}:%`,
        ]);
        return outbox.map((r) => r.status);
      })
      .toEqual(['sent', 'sent']);
  });

  it('preselects a professional request with ?pro=true', async () => {
    const page = await visitor();
    await page.goto(`${server.url}/contact?pro=true`);
    expect(await textOf(page.getByRole('heading', { level: 1 }))).toBe('Demande de devis professionnel');
    expect(await form(page).getByLabel('Demande professionnelle').isChecked()).toBe(true);
    expect(await form(page).getByLabel('Sujet').inputValue()).toBe('Demande de devis professionnel');
    const email = `archives-${randomBytes(3).toString('hex')}@mairie.example.fr`;
    await fill(page, { Nom: 'Mairie de Gien', 'Adresse email': email, Message: '3 000 plaques de verre à numériser.' });
    await form(page).getByRole('button', { name: 'Envoyer le message' }).click();
    await page.getByRole('status').filter({ hasText: 'Message envoyé avec succès' }).waitFor();
    expect((await messagesFrom(email))[0]).toMatchObject({ is_pro: true, subject: 'Demande de devis professionnel' });
  });

  it('works without JavaScript: the server validates, then sends', async () => {
    const page = await lenientVisitor({ javaScriptEnabled: false });
    await page.goto(`${server.url}/contact`);
    await fill(page, { Nom: 'Paul', 'Adresse email': 'paul-sans-js@example.fr' });
    await form(page).getByRole('button', { name: 'Envoyer le message' }).click();
    await form(page).getByText('Veuillez indiquer le sujet de votre message').waitFor();
    // What was typed is kept.
    expect(await form(page).getByLabel('Nom').inputValue()).toBe('Paul');
    await fill(page, { Sujet: 'Sans JavaScript', Message: 'Le formulaire marche aussi comme ça.' });
    await form(page).getByRole('button', { name: 'Envoyer le message' }).click();
    await page.getByText('Message envoyé avec succès').waitFor();
    expect(await form(page).getByLabel('Nom').inputValue()).toBe('');
    expect(await messagesFrom('paul-sans-js@example.fr')).toHaveLength(1);
  });

  it('says "Erreur lors de l’envoi" with advice when the message cannot be stored, keeps the text, and lets the visitor retry', async () => {
    const page = await lenientVisitor();
    await page.goto(`${server.url}/contact`);
    const email = `retry-${randomBytes(3).toString('hex')}@example.fr`;
    await fill(page, { Nom: 'Lucie', 'Adresse email': email, Sujet: 'Réessayer', Message: 'Premier essai.' });
    // Renaming a table takes its owner: the shop's own role cannot (docs/decisions/020).
    const owner = new pg.Client({ connectionString: server.ownerDatabaseUrl });
    await owner.connect();
    await owner.query('alter table contact_messages rename to contact_messages_off');
    try {
      await form(page).getByRole('button', { name: 'Envoyer le message' }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'Erreur lors de l’envoi'.replace('’', "'") });
      await alert.waitFor();
      const text = await textOf(alert);
      expect(text).toContain('réessayez dans quelques instants');
      expect(text).toContain('contact@soovenirs.fr');
      expect(text).toMatch(/Détails techniques : incident [0-9A-F]{8}/);
      expect(await form(page).getByLabel('Message').inputValue()).toBe('Premier essai.');
    } finally {
      await owner.query('alter table contact_messages_off rename to contact_messages');
      await owner.end();
    }
    await form(page).getByRole('button', { name: 'Envoyer le message' }).click();
    await page.getByRole('status').filter({ hasText: 'Message envoyé avec succès' }).waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'envoi' }).count()).toBe(0);
    expect(await messagesFrom(email)).toHaveLength(1);
  });

  it('drops a message whose hidden field was filled (a robot), while answering as if sent', async () => {
    const body = new URLSearchParams({
      name: 'Robot',
      email: 'robot@example.fr',
      subject: 'Offre',
      message: 'Achetez',
      site_web: 'https://spam.example',
    });
    const response = await fetch(`${server.url}/contact`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: server.url,
        'x-forwarded-for': randomIp(),
      },
      body,
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Message envoyé avec succès');
    expect(await messagesFrom('robot@example.fr')).toHaveLength(0);
  });

  it('refuses the sixth message from one address within ten minutes', async () => {
    const ip = randomIp();
    const post = (n: number) =>
      fetch(`${server.url}/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, 'x-forwarded-for': ip },
        body: new URLSearchParams({ name: 'Flood', email: `flood-${n}@example.fr`, subject: 'S', message: 'M' }),
      });
    for (let n = 1; n <= 5; n++) expect((await post(n)).status).toBe(200);
    const sixth = await post(6);
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('cache-control')).toBe('no-store');
    expect(plain(await sixth.text())).toContain('Vous avez envoyé plusieurs messages en peu de temps');
    expect(await messagesFrom('flood-6@example.fr')).toHaveLength(0);
  });

  it('gives the contact details, the shipping address, the hours and the configurator', async () => {
    const page = await visitor();
    await page.goto(`${server.url}/contact`);
    const main = await textOf(page.getByRole('main'));
    for (const expected of [
      '01 84 60 12 34',
      'contact@soovenirs.fr',
      'Adresse d’envoi de vos souvenirs',
      '12 rue des Archives',
      '75004 Paris',
      'Lundi–vendredi',
      '9h–20h30',
      'Samedi',
      '10h–15h',
      'Dimanche',
      'Fermé',
    ]) {
      expect(main, expected).toContain(expected);
    }
    expect(await page.getByRole('main').getByRole('link', { name: 'Estimer ma commande' }).getAttribute('href')).toBe(
      '/configurateur',
    );
  });

  it('loads nothing from OpenStreetMap until the visitor asks for the map', async () => {
    const page = await visitor();
    const thirdParty: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url)) thirdParty.push(request.url());
    });
    await page.route('https://www.openstreetmap.org/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Carte</title><p>Carte</p>' }),
    );
    await page.goto(`${server.url}/contact`);
    await page.waitForLoadState('networkidle');
    expect(thirdParty).toEqual([]);
    expect(await page.locator('iframe').count()).toBe(0);

    const mapServed = page.waitForResponse((response) => response.url().startsWith('https://www.openstreetmap.org/'));
    await page.getByRole('link', { name: 'Afficher la carte interactive' }).click();
    const frame = page.locator('iframe[title^="Carte OpenStreetMap"]');
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toMatch(/^https:\/\/www\.openstreetmap\.org\/export\/embed\.html\?/);
    await mapServed;
    expect(thirdParty.every((url) => url.startsWith('https://www.openstreetmap.org/'))).toBe(true);
    expect(thirdParty.length).toBeGreaterThan(0);
  });
});
