import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSessionCookie, createUser, randomIp, type TestUser } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { insertTestOrder, orderState, type TestOrder } from '../support/orders';
import { SANDBOX_ENV, type SharedServer, sharedServer } from '../support/shared-shop';

/*
 * /checkout?orderId= in Chromium on the built app: the guest's information, the express request to
 * start early, `Payer {total}` through the sandbox gateway, the return to /confirmation once the
 * signed notification has paid the order, the cancelled payment's banner and its retry, and who may
 * open an order's checkout (others: 404).
 */

let server: SharedServer;
let browser: Browser;
let customer: TestUser;
let other: TestUser;
let client: pg.Client;

const PAY = 'Payer 94,90\u00A0€';
const CONSENT = /Je demande expressément que la numérisation de ma commande commence/;

beforeAll(async () => {
  // The shop pays through the sandbox: a production server allows it only as a demo shop.
  [server, browser] = await Promise.all([sharedServer(SANDBOX_ENV), launchBrowser()]);
  [customer, other] = await Promise.all([
    createUser({ url: server.url }),
    createUser({ url: server.url, firstName: 'Paul', lastName: 'Langevin' }),
  ]);
  client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  await browser?.close();
  await server?.dispose();
});

function checkoutUrl(order: { id: string }, extra = ''): string {
  return `${server.url}/checkout?orderId=${order.id}${extra}`;
}

/** A browser page holding the guest's access cookie of the order. */
async function guestPage(order: TestOrder): Promise<Page> {
  const page = await openPage(browser);
  await addSessionCookie(page, server.url, order.cookie as string);
  return page;
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Titulaire de la carte').fill('Marie Curie');
  await page.getByLabel('Numéro de carte').fill(number);
  await page.getByLabel('Date d’expiration').fill('12/30');
  await page.getByLabel('CVV').fill('123');
}

async function payOnSandbox(page: Page, order: { id: string }) {
  await page.waitForURL(/\/paiement\/sandbox\//);
  await fillCard(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: PAY }).click();
  await page.waitForURL(`${server.url}/confirmation?orderId=${order.id}&paiement=retour`);
  // The notification is server to server: the page shows what the database says.
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByText('Votre paiement a bien été reçu').isVisible();
      },
      { timeout: 30_000 },
    )
    .toBe(true);
}

describe('guest checkout', () => {
  it('asks the missing e-mail on its field, records it with the request to start early, pays with 4242 and invoices', async () => {
    const order = await insertTestOrder(server.databaseUrl, { guestEmail: null });
    const page = await guestPage(order);
    await page.goto(checkoutUrl(order));
    await expect.poll(() => page.getByRole('heading', { name: 'Finaliser ma commande' }).isVisible()).toBe(true);

    // The lines at their real prices, the breakdown, the delivery.
    const recap = page.getByRole('region', { name: 'Récapitulatif de la commande' });
    const recapText = ((await recap.textContent()) ?? '').replace(/[\u00A0\u202F]/g, ' ');
    expect(recapText).toContain('0,35 €');
    expect(recapText).toContain('35,00 €');
    // The tapes (2 × 17,00 €) and their denoising (2 × 5,00 €) on rows of their own.
    expect(recapText).toContain('34,00 €');
    expect(recapText).toContain('Débruitage');
    expect(recapText).toContain('10,00 €');
    expect(recapText).toContain('94,90 €');
    expect(recapText).not.toContain('12,99');
    expect(await page.getByRole('region', { name: 'Livraison' }).textContent()).toContain('3 à 5 jours ouvrés');
    // Signing in and registering happen in the page's own tabs (tested in checkout-accounts.test.ts).
    expect(await page.getByRole('link', { name: 'Connexion' }).getAttribute('href')).toBe(
      `/checkout?orderId=${order.id}&compte=connexion`,
    );

    // No e-mail address yet: « Payer » says so under the field, headed as the form's mistake.
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: PAY }).click();
    await expect.poll(() => page.getByText('L’adresse e-mail est requise').isVisible()).toBe(true);
    expect(await page.getByRole('alert').filter({ hasText: 'Vérifiez vos coordonnées' }).count()).toBe(1);
    expect((await orderState(server.databaseUrl, order.id)).events).not.toContain('guest_info_updated');

    // The order's address is frozen already (placed): only the e-mail is asked, once.
    await page.getByLabel('Adresse e-mail').fill('Irene.Joliot@Example.fr');
    // The request to start early, ticked here (it is optional: see the next test).
    await page.getByRole('checkbox', { name: CONSENT }).check();
    await page.getByRole('button', { name: PAY }).click();
    await page.waitForURL(/\/paiement\/sandbox\//);
    const [saved] = (await client.query('select guest_email, search_text from orders where id = $1', [order.id])).rows;
    expect(saved).toEqual({
      guest_email: 'irene.joliot@example.fr',
      search_text: 'marie curie irene.joliot@example.fr',
    });

    // A declined card: a French error on the gateway's page, nothing changes.
    const before = await orderState(server.databaseUrl, order.id);
    await fillCard(page, '4000 0000 0000 0002');
    await page.getByRole('button', { name: PAY }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Erreur de paiement' });
    await expect.poll(() => alert.textContent()).toContain('Votre carte a été refusée');
    expect(await orderState(server.databaseUrl, order.id)).toEqual(before);

    await payOnSandbox(page, order);
    const state = await orderState(server.databaseUrl, order.id);
    expect(state.paymentStatus).toBe('paid');
    // The sandbox took no money: a demonstration invoice, in its own series (the shared server's
    // other files may have numbered some before).
    expect(state.invoices).toEqual([expect.stringMatching(new RegExp(`^TEST-FA-${new Date().getFullYear()}-\\d{6}$`))]);
    expect(state.events).toContain('early_start_consent');
    const [consent] = (await client.query('select early_start_consent_at from orders where id = $1', [order.id])).rows;
    expect(consent.early_start_consent_at).toBeInstanceOf(Date);

    // Paid: the checkout sends to the confirmation.
    await page.goto(checkoutUrl(order));
    await page.waitForURL(`${server.url}/confirmation?orderId=${order.id}`);
  });

  it('pays without the request to start early, which is a choice: the work waits for the 14 days', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const page = await guestPage(order);
    await page.goto(checkoutUrl(order));
    const choice = page.getByText(/Cette demande est facultative/);
    await expect.poll(() => choice.isVisible()).toBe(true);
    expect(await choice.textContent()).toMatch(
      /sans elle, les travaux commenceront le \d{2}\/\d{2}\/\d{4}, à la fin de votre délai de rétractation\./,
    );
    expect(await page.getByRole('checkbox', { name: CONSENT }).isChecked()).toBe(false);
    await page.getByRole('button', { name: PAY }).click();
    await payOnSandbox(page, order);
    const state = await orderState(server.databaseUrl, order.id);
    expect(state.paymentStatus).toBe('paid');
    expect(state.events).not.toContain('early_start_consent');
    const [consent] = (await client.query('select early_start_consent_at from orders where id = $1', [order.id])).rows;
    expect(consent.early_start_consent_at).toBeNull();
  });

  it('shows the amber banner after a cancelled payment, and a retry succeeds', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const page = await guestPage(order);
    await page.goto(checkoutUrl(order));
    await page.getByRole('checkbox', { name: CONSENT }).check();
    await page.getByRole('button', { name: PAY }).click();
    await page.waitForURL(/\/paiement\/sandbox\//);
    await page.getByRole('button', { name: 'Annuler et revenir à la boutique' }).click();
    await page.waitForURL(checkoutUrl(order, '&canceled=true'));
    const banner = page.getByRole('status').filter({ hasText: 'Paiement annulé' });
    await expect.poll(() => banner.textContent()).toContain('Vous pouvez réessayer');
    await expectNoSeriousA11yViolations(page);
    expect(await orderState(server.databaseUrl, order.id)).toMatchObject({ paymentStatus: 'pending', invoices: [] });

    // The request to start early is remembered.
    expect(await page.getByRole('checkbox', { name: CONSENT }).isChecked()).toBe(true);
    await page.getByRole('button', { name: PAY }).click();
    await payOnSandbox(page, order);
    expect(await orderState(server.databaseUrl, order.id)).toMatchObject({
      paymentStatus: 'paid',
      invoices: [expect.stringMatching(/^TEST-FA-\d{4}-\d{6}$/)],
    });
  });
});

describe('guest checkout without JavaScript', () => {
  it('orders in the configurator and pays with one press, the guest’s information with it, with plain forms', async () => {
    const page = await openPage(browser, undefined, { javaScriptEnabled: false });
    await page.goto(`${server.url}/configurateur`);
    const slides = page.getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: /^Diapositives\s/ }) });
    await slides.getByRole('checkbox').check();
    await slides.getByLabel('Quantité').fill('200');
    await page.getByRole('button', { name: 'Mettre à jour l’estimation' }).click();
    await page.waitForURL(/support=slides/);
    await page.getByRole('button', { name: 'Commander' }).click();
    await page.waitForURL(/\/checkout\?orderId=[0-9a-f-]{36}$/);
    const orderId = new URL(page.url()).searchParams.get('orderId') as string;
    const pay = 'Payer 90,00\u00A0€'; // 200 x 0,45 €

    // One block, one press: the e-mail and the billing address go with « Payer ».
    await page.getByLabel('Adresse e-mail').fill('sans-js@example.fr');
    await page.getByLabel('Prénom', { exact: true }).fill('Jeanne');
    await page.getByLabel('Nom', { exact: true }).fill('Sansjs');
    await page.getByLabel('Numéro et rue', { exact: true }).fill('3 rue Jeanne d’Arc');
    await page.getByLabel('Code postal', { exact: true }).fill('45000');
    await page.getByLabel('Ville', { exact: true }).fill('Orléans');
    await page.getByRole('checkbox', { name: CONSENT }).check();
    await page.getByRole('button', { name: pay }).click();
    await page.waitForURL(/\/paiement\/sandbox\//);
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: pay }).click();
    await page.waitForURL(`${server.url}/confirmation?orderId=${orderId}&paiement=retour`);
    await expect.poll(async () => (await orderState(server.databaseUrl, orderId)).paymentStatus).toBe('paid');
    const [row] = (await client.query('select guest_email, search_text from orders where id = $1', [orderId])).rows;
    // The back office finds the order by the buyer's name too, taken from the billing address.
    expect(row).toEqual({ guest_email: 'sans-js@example.fr', search_text: 'jeanne sansjs sans-js@example.fr' });
    // The billing address is frozen on the order: its invoice names the buyer where they live.
    const [billing] = (
      await client.query(`select postal_code, city from order_addresses where order_id = $1 and kind = 'billing'`, [
        orderId,
      ])
    ).rows;
    expect(billing).toEqual({ postal_code: '45000', city: 'Orléans' });
  });
});

describe('who may open a checkout', () => {
  it('answers 404 to wrong tokens and other customers, and sends the signed out to /login', async () => {
    const guest = await insertTestOrder(server.databaseUrl);
    const owned = await insertTestOrder(server.databaseUrl, { userId: customer.id });
    // An account's order, signed out: sign in first, then back to this page.
    for (const cookie of [null, guest.cookie]) {
      const response = await fetch(`${server.url}/checkout?orderId=${owned.id}`, {
        redirect: 'manual',
        headers: cookie ? { cookie } : undefined,
      });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(
        `/login?${new URLSearchParams({ redirectTo: `/checkout?orderId=${owned.id}` })}`,
      );
    }
    for (const [id, cookie] of [
      [guest.id, null],
      [guest.id, `sv_order_${guest.id}=not-the-token`],
      [guest.id, other.cookie],
      [owned.id, other.cookie],
      ['00000000-0000-4000-8000-000000000000', customer.cookie],
      ['not-a-uuid', customer.cookie],
    ] as const) {
      const headers = cookie ? { cookie } : undefined;
      const response = await fetch(`${server.url}/checkout?orderId=${id}`, { headers });
      expect(response.status, `${id} with ${cookie}`).toBe(404);
      expect(await response.text()).toContain('Commande introuvable');
      const post = await fetch(`${server.url}/checkout?orderId=${id}`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          ...headers,
          origin: server.url,
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': randomIp(),
        },
        body: new URLSearchParams({ intent: 'pay', earlyStartConsent: 'on' }),
      });
      expect(post.status, `POST ${id} with ${cookie}`).toBe(404);
    }
    expect((await orderState(server.databaseUrl, guest.id)).payments).toEqual([]);
    expect((await orderState(server.databaseUrl, owned.id)).payments).toEqual([]);

    const mine = await fetch(`${server.url}/checkout?orderId=${owned.id}`, { headers: { cookie: customer.cookie } });
    expect(mine.status).toBe(200);
    const none = await fetch(`${server.url}/checkout`);
    expect(none.status).toBe(200);
    const html = await none.text();
    expect(html).toContain('Aucune commande trouvée');
    expect(html).toContain('href="/configurateur"');
  });

  it('update-guest-order: only the guest holding the order’s cookie, with French messages', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const call = (body: unknown, cookie?: string | null) =>
      fetch(`${server.url}/api/update-guest-order`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url, ...(cookie ? { cookie } : {}) },
        body: JSON.stringify(body),
      });
    const info = {
      email: 'nouvelle@example.fr',
      phone: '0600000000',
      address: '1 rue X',
      city: 'Orléans',
      postalCode: '45000',
    };
    expect((await call({ orderId: order.id, guestInfo: info })).status).toBe(404);
    expect((await call({ orderId: order.id, guestInfo: info }, customer.cookie)).status).toBe(404);
    const invalid = await call(
      { orderId: order.id, guestInfo: { ...info, email: '', postalCode: '4500' } },
      order.cookie,
    );
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({
      error: 'Veuillez remplir tous les champs obligatoires',
      fieldErrors: { email: 'L’adresse e-mail est requise', postalCode: 'Code postal invalide (5 chiffres)' },
    });
    const ok = await call({ orderId: order.id, guestInfo: info }, order.cookie);
    expect(ok.status).toBe(200);
    const [row] = (
      await client.query('select guest_email, guest_city, search_text from orders where id = $1', [order.id])
    ).rows;
    expect(row).toEqual({
      guest_email: 'nouvelle@example.fr',
      guest_city: 'Orléans',
      search_text: 'marie curie nouvelle@example.fr',
    });
  });

  it('works without JavaScript: the pay form posts and redirects to the gateway', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const response = await fetch(checkoutUrl(order), {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: order.cookie as string,
        origin: server.url,
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': randomIp(),
      },
      body: new URLSearchParams({ intent: 'pay', earlyStartConsent: 'on' }),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toMatch(new RegExp(`^${server.url}/paiement/sandbox/`));
    expect((await orderState(server.databaseUrl, order.id)).payments).toMatchObject([{ status: 'pending' }]);
  });
});

describe('signed-in customer', () => {
  it('pays without the account block and finds the order in /profile', async () => {
    const order = await insertTestOrder(server.databaseUrl, { userId: customer.id });
    const page = await openPage(browser);
    await addSessionCookie(page, server.url, customer.cookie);
    await page.goto(checkoutUrl(order));
    await expect.poll(() => page.getByRole('heading', { name: 'Finaliser ma commande' }).isVisible()).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Mode de commande' }).count()).toBe(0);
    await page.getByRole('checkbox', { name: CONSENT }).check();
    await page.getByRole('button', { name: PAY }).click();
    await payOnSandbox(page, order);
    await page.goto(`${server.url}/profile`);
    await expect.poll(() => page.getByText(order.number).first().isVisible()).toBe(true);
    // And its invoice, in the Factures tab, with its PDF.
    const [invoice] = (await orderState(server.databaseUrl, order.id)).invoices;
    await page.goto(`${server.url}/profile?tab=factures`);
    await expect
      .poll(() =>
        page
          .getByText(invoice as string)
          .first()
          .isVisible(),
      )
      .toBe(true);
    expect(
      await page.getByRole('link', { name: `Télécharger la facture ${invoice} en PDF` }).getAttribute('href'),
    ).toBe(`/facture/${order.id}/pdf`);
  });
});
