import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateFr } from '~/domain/format';
import { workNotBefore } from '~/domain/orders/early-start';
import { addSessionCookie, createUser, TEST_PASSWORD, type TestUser, uniqueEmail } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { insertTestOrder, orderState, type TestOrder } from '../support/orders';
import { SANDBOX_ENV, type SharedServer, sharedServer } from '../support/shared-shop';
import { insertWorkshopOrder } from '../support/workshop-orders';

/*
 * Accounts at checkout and the early-start choice, in Chromium on the built app: signing in and
 * registering inside the checkout's tabs (with and without JavaScript) takes the guest order into
 * the account; an account's order links send a signed-out visitor to /login and back; a withdrawn
 * unpaid order asks for nothing; the early-start request is a choice, and without it the workshop
 * waits for the end of the withdrawal period.
 */

let server: SharedServer;
let browser: Browser;
let customer: TestUser;
let other: TestUser;
let admin: TestUser;
let client: pg.Client;

const PAY = 'Payer 94,90\u00A0€';
const plain = (text: string | null) => (text ?? '').replace(/[\u00A0\u202F]/g, ' ');

beforeAll(async () => {
  [server, browser] = await Promise.all([sharedServer(SANDBOX_ENV), launchBrowser()]);
  [customer, other, admin] = await Promise.all([
    createUser({ url: server.url, firstName: 'Marie', lastName: 'Curie' }),
    createUser({ url: server.url, firstName: 'Paul', lastName: 'Langevin' }),
    createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'admin' }),
  ]);
  client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  await browser?.close();
  await server?.dispose();
});

const checkoutPath = (order: { id: string }) => `/checkout?orderId=${order.id}`;
const confirmationPath = (order: { id: string }) => `/confirmation?orderId=${order.id}`;

async function guestPage(order: TestOrder, javaScriptEnabled = true): Promise<Page> {
  const page = await openPage(browser, undefined, { javaScriptEnabled });
  await addSessionCookie(page, server.url, order.cookie as string);
  return page;
}

async function attachment(orderId: string) {
  const { rows } = await client.query<{ user_id: string | null; attached: number }>(
    `select user_id, (select count(*)::int from order_events e
       where e.order_id = o.id and e.kind = 'attached_to_account') as attached
     from orders o where o.id = $1`,
    [orderId],
  );
  return rows[0];
}

/** The server's answer to a document request with these cookies (redirects not followed). */
async function status(path: string, cookies: string[] = []) {
  const response = await fetch(`${server.url}${path}`, {
    redirect: 'manual',
    headers: cookies.length ? { cookie: cookies.join('; ') } : {},
  });
  await response.body?.cancel();
  return { status: response.status, location: response.headers.get('location') };
}

/** « Mes commandes » lists the order. */
async function expectInMyOrders(page: Page, order: TestOrder) {
  await page.goto(`${server.url}/profile`);
  await expect.poll(() => page.getByText(order.number).first().isVisible()).toBe(true);
}

describe('signing in and registering inside the checkout', () => {
  it('signs in from the « Connexion » tab and takes the guest order into the account', async () => {
    const order = await insertTestOrder(server.databaseUrl, { guestEmail: 'invite@example.fr' });
    const page = await guestPage(order);
    await page.goto(`${server.url}${checkoutPath(order)}`);
    await page.getByRole('navigation', { name: 'Mode de commande' }).getByRole('link', { name: 'Connexion' }).click();
    await page.waitForURL(/compte=connexion/);
    // The order stays on screen while signing in.
    await page.getByRole('heading', { name: 'Récapitulatif de la commande' }).waitFor();
    const form = page.getByRole('form', { name: 'Se connecter' });
    await form.getByLabel('Email').fill(customer.email);
    // The password field of the sign-in page, with its « Afficher le mot de passe » toggle (hence
    // the label matched from its start: « Mot de passe * »).
    await form.getByRole('button', { name: 'Afficher le mot de passe' }).waitFor();
    await form.getByLabel(/^Mot de passe/).fill('mauvais-mot-de-passe');
    await form.getByRole('button', { name: 'Se connecter' }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'Erreur lors de la connexion' });
    await expect.poll(() => refused.textContent()).toContain('Email ou mot de passe incorrect');
    expect(await form.getByLabel('Email').inputValue()).toBe(customer.email);
    expect((await attachment(order.id))?.user_id).toBeNull();
    await expectNoSeriousA11yViolations(page);

    await form.getByLabel(/^Mot de passe/).fill(customer.password);
    await form.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL(`${server.url}${checkoutPath(order)}`);
    // Signed in: no account block, the account's details, and paying is open.
    await expect.poll(() => page.getByRole('navigation', { name: 'Mode de commande' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: PAY }).isEnabled()).toBe(true);
    expect(await attachment(order.id)).toEqual({ user_id: customer.id, attached: 1 });

    await page.goto(`${server.url}${confirmationPath(order)}`);
    await page.getByText('Commande rattachée à votre compte').waitFor();
    expect(plain(await page.getByText(customer.email).first().textContent())).toBe(customer.email);
    await expectInMyOrders(page, order);
  });

  it('registers from the « Inscription » tab without JavaScript, with the terms, and keeps the order', async () => {
    const order = await insertTestOrder(server.databaseUrl, { guestEmail: 'nouvelle@example.fr' });
    const page = await guestPage(order, false);
    await page.goto(`${server.url}${checkoutPath(order)}`);
    const tabs = page.getByRole('navigation', { name: 'Mode de commande' });
    await tabs.getByRole('link', { name: 'Inscription' }).click();
    await page.waitForURL(/compte=inscription/);
    const form = page.getByRole('form', { name: 'Créer un compte' });

    await form.getByRole('button', { name: 'Créer mon compte' }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'Erreur lors de la création du compte' });
    await expect.poll(() => refused.textContent()).toContain('Veuillez remplir tous les champs obligatoires');

    const email = uniqueEmail('inscrite');
    await form.getByLabel('Prénom').fill('Irène');
    await form.getByLabel('Nom', { exact: true }).fill('Joliot');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel(/^Mot de passe/).fill(TEST_PASSWORD);
    await form.getByRole('button', { name: 'Créer mon compte' }).click();
    await expect.poll(() => refused.textContent()).toContain('Vous devez accepter les conditions générales');
    // What was typed is still there (except the password).
    expect(await form.getByLabel('Prénom').inputValue()).toBe('Irène');
    expect(await form.getByLabel('Email').inputValue()).toBe(email);

    await form.getByLabel(/^Mot de passe/).fill(TEST_PASSWORD);
    // The terms offered are the /cgv text's version.
    await form.getByText('Version du 24/11/2026').waitFor();
    await form.getByRole('checkbox', { name: /J’accepte les conditions générales de vente/ }).check();
    await form.getByRole('button', { name: 'Créer mon compte' }).click();
    await page.waitForURL(`${server.url}${checkoutPath(order)}`);
    expect(await tabs.count()).toBe(0);

    const { rows } = await client.query<{ id: string; terms_version: string | null; first_name: string }>(
      'select id, terms_version, first_name from "user" where email = $1',
      [email],
    );
    expect(rows[0]?.terms_version).toBeTruthy();
    expect(rows[0]?.first_name).toBe('Irène');
    expect(await attachment(order.id)).toEqual({ user_id: rows[0]?.id, attached: 1 });
    await expectInMyOrders(page, order);
  });

  it('enables « Créer mon compte » once the terms box is ticked', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const page = await guestPage(order);
    await page.goto(`${server.url}${checkoutPath(order)}&compte=inscription`);
    // Disabled once the page runs (before that, the server checks the box).
    const button = page.getByRole('button', { name: 'Créer mon compte' });
    await expect.poll(() => button.isDisabled()).toBe(true);
    await page.getByRole('checkbox', { name: /J’accepte les conditions générales de vente/ }).check();
    await expect.poll(() => button.isEnabled()).toBe(true);
    await expectNoSeriousA11yViolations(page);
  });

  it('attaches the guest order of a customer already signed in, never another account’s order', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const page = await guestPage(order);
    await addSessionCookie(page, server.url, other.cookie);
    await page.goto(`${server.url}${checkoutPath(order)}`);
    await page.getByRole('heading', { name: 'Finaliser ma commande' }).waitFor();
    expect(await attachment(order.id)).toEqual({ user_id: other.id, attached: 1 });

    // Another account, even holding the old guest token, gets the 404 of an unknown order.
    const stranger = await status(checkoutPath(order), [order.cookie as string, customer.cookie]);
    expect(stranger.status).toBe(404);
    expect(await attachment(order.id)).toEqual({ user_id: other.id, attached: 1 });
  });
});

describe('an account’s order links while signed out', () => {
  it('sends to /login and back to the page after signing in', async () => {
    const order = await insertTestOrder(server.databaseUrl, { userId: customer.id });
    for (const path of [confirmationPath(order), checkoutPath(order)]) {
      const page = await openPage(browser);
      await page.goto(`${server.url}${path}`);
      await page.waitForURL(`${server.url}/login?${new URLSearchParams({ redirectTo: path })}`);
      await page.getByLabel('Email').fill(customer.email);
      await page.getByLabel('Mot de passe', { exact: true }).fill(customer.password);
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.waitForURL(`${server.url}${path}`);
      await page.getByText(order.number).first().waitFor();
      await page.close();
    }
  });

  it('says no more than « sign in » about an unknown id; a guest order without its token and a stranger get 404', async () => {
    const unknown = `/confirmation?orderId=${randomUUID()}`;
    expect(await status(unknown)).toEqual({
      status: 302,
      location: `/login?${new URLSearchParams({ redirectTo: unknown })}`,
    });
    const guestOrder = await insertTestOrder(server.databaseUrl);
    expect((await status(checkoutPath(guestOrder))).status).toBe(404);
    expect((await status(confirmationPath(guestOrder))).status).toBe(404);

    const owned = await insertTestOrder(server.databaseUrl, { userId: customer.id });
    expect((await status(confirmationPath(owned), [other.cookie])).status).toBe(404);
    expect((await status(checkoutPath(owned), [other.cookie])).status).toBe(404);
  });
});

describe('a withdrawn order that was never paid', () => {
  it('no longer asks for the transfer nor offers « Payer », and says what happened', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    await client.query(`update orders set payment_method = 'transfer', placed_at = now() where id = $1`, [order.id]);
    const page = await guestPage(order);
    await page.goto(`${server.url}${confirmationPath(order)}`);
    await page.getByText(/Veuillez virer 94,90/).waitFor();

    await page.goto(`${server.url}/retractation/${order.id}`);
    await page.locator('[data-hydrated="true"]').first().waitFor();
    await page.getByRole('button', { name: 'Confirmer la rétractation' }).click();
    await page.getByText('Votre rétractation est enregistrée.').waitFor();

    const said = `Commande annulée le ${formatDateFr(new Date())} à votre demande, rien ne vous sera demandé.`;
    for (const path of [confirmationPath(order), checkoutPath(order)]) {
      await page.goto(`${server.url}${path}`);
      await page.getByText(said).waitFor();
      expect(await page.getByText(/Veuillez virer/).count()).toBe(0);
      expect(await page.getByText(/IBAN/).count()).toBe(0);
      expect(await page.getByRole('button', { name: /Payer/ }).count()).toBe(0);
      expect(await page.getByRole('link', { name: /Payer/ }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Commencer une nouvelle commande' }).getAttribute('href')).toBe(
        '/configurateur',
      );
      await expectNoSeriousA11yViolations(page);
    }
    expect((await orderState(server.databaseUrl, order.id)).payments).toEqual([]);
  });
});

describe('the early-start request, a choice', () => {
  it('pays without it; the confirmation says when the work starts', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const page = await guestPage(order);
    await page.goto(`${server.url}${checkoutPath(order)}`);
    const { rows } = await client.query<{ created_at: Date }>('select created_at from orders where id = $1', [
      order.id,
    ]);
    const start = workNotBefore({ createdAt: rows[0]?.created_at as Date, earlyStartConsentAt: null }) as Date;
    const said = `Les travaux commenceront le ${formatDateFr(start)}, à la fin de votre délai de rétractation.`;
    expect(plain(await page.getByText(/Cette demande est facultative/).textContent())).toContain(
      said.replace('Les travaux', 'les travaux'),
    );

    await page.getByRole('button', { name: PAY }).click();
    await page.waitForURL(/\/paiement\/sandbox\//);
    await page.getByLabel('Titulaire de la carte').fill('Marie Curie');
    await page.getByLabel('Numéro de carte').fill('4242 4242 4242 4242');
    await page.getByLabel('Date d’expiration').fill('12/30');
    await page.getByLabel('CVV').fill('123');
    await page.getByRole('button', { name: PAY }).click();
    await page.waitForURL(new RegExp(`/confirmation\\?orderId=${order.id}`));
    await expect.poll(async () => (await orderState(server.databaseUrl, order.id)).paymentStatus).toBe('paid');
    await page.reload();
    await page.getByText(said).waitFor();
  });

  it('marks the workshop board and refuses to start digitising before the end of the period', async () => {
    const waiting = await insertWorkshopOrder(client, {
      stage: 'received',
      earlyStartConsent: false,
      lastName: 'Attente',
    });
    const over = await insertWorkshopOrder(client, { stage: 'received', earlyStartConsent: false, lastName: 'Passee' });
    // Ordered 20 days ago: the period is over, the work may start.
    await client.query(`update orders set created_at = now() - interval '20 days' where id = $1`, [over.id]);
    const { rows } = await client.query<{ created_at: Date }>('select created_at from orders where id = $1', [
      waiting.id,
    ]);
    const start = workNotBefore({ createdAt: rows[0]?.created_at as Date, earlyStartConsentAt: null }) as Date;

    const page = await openPage(browser);
    await addSessionCookie(page, server.url, admin.cookie);
    await page.goto(`${server.url}/admin/atelier`);
    const card = page.getByRole('article', { name: `Commande ${waiting.number}` });
    await card.getByText(`Ne pas commencer avant le ${formatDateFr(start)}`).waitFor();
    expect(
      await page
        .getByRole('article', { name: `Commande ${over.number}` })
        .getByText(/Ne pas commencer/)
        .count(),
    ).toBe(0);
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel(`Sélectionner la commande ${waiting.number}`).check();
    await page.getByLabel(`Sélectionner la commande ${over.number}`).check();
    await page.getByRole('button', { name: 'Passer à l’étape suivante' }).click();
    const summary = page.getByRole('status').filter({ hasText: 'à l’étape suivante' });
    await summary.waitFor();
    expect(plain(await summary.innerText())).toContain('1 commande sur 2');
    await page
      .getByText(
        `Le client n’a pas demandé à commencer avant la fin de son délai de rétractation. Ne pas commencer avant le ${formatDateFr(start)}.`,
      )
      .first()
      .waitFor();
    const stages = await client.query<{ id: string; stage: string }>(
      'select id, stage from orders where id = any($1)',
      [[waiting.id, over.id]],
    );
    expect(Object.fromEntries(stages.rows.map((r) => [r.id, r.stage]))).toEqual({
      [waiting.id]: 'received',
      [over.id]: 'digitising',
    });
  });
});
