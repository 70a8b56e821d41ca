import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSessionCookie, createUser, randomIp, type TestUser } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { insertTestOrder, orderState } from '../support/orders';
import { startServer, type TestServer } from '../support/server';

/*
 * The built-in payment sandbox never takes money in production (docs/payments.md,
 * « The sandbox »), on the built app started as `npm start` does (NODE_ENV=production):
 *  - a fresh shop, nothing configured: no card payment anywhere (create-checkout 503, the checkout
 *    offers transfer and cheque only), and the back office says so in red on every tab;
 *  - a demo shop (PAYMENT_SANDBOX=on): every page says it takes no real payment.
 */

const CARD_UNAVAILABLE =
  'Le paiement par carte bancaire n’est pas encore disponible. Vous pouvez régler par virement ou par chèque.';
const DEMO = 'Boutique de démonstration\u202F: aucun paiement réel';

let fresh: TestServer;
let demo: TestServer;
let browser: Browser;
let freshAdmin: TestUser;
let demoAdmin: TestUser;

beforeAll(async () => {
  [fresh, demo, browser] = await Promise.all([
    startServer(),
    startServer({ env: { PAYMENT_SANDBOX: 'on' } }),
    launchBrowser(),
  ]);
  [freshAdmin, demoAdmin] = await Promise.all([
    createUser({ url: fresh.url, databaseUrl: fresh.databaseUrl, role: 'admin' }),
    createUser({ url: demo.url, databaseUrl: demo.databaseUrl, role: 'admin' }),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([fresh?.dispose(), demo?.dispose()]);
});

describe('a production shop with no payment gateway configured', () => {
  it('warns the operator at start', () => {
    expect(fresh.output()).toContain('card payment unavailable');
  });

  it('answers create-checkout with 503 and a French message', async () => {
    const order = await insertTestOrder(fresh.databaseUrl);
    const response = await fetch(`${fresh.url}/api/create-checkout`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: fresh.url,
        'x-forwarded-for': randomIp(),
        cookie: order.cookie as string,
      },
      body: JSON.stringify({ orderId: order.id, amount: 1 }),
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: CARD_UNAVAILABLE });
    expect((await orderState(fresh.databaseUrl, order.id)).payments).toEqual([]);
  });

  it('offers transfer and cheque at checkout, says the card is not available yet, and takes the order by transfer', async () => {
    const order = await insertTestOrder(fresh.databaseUrl);
    const page = await openPage(browser);
    await addSessionCookie(page, fresh.url, order.cookie as string);
    await page.goto(`${fresh.url}/checkout?orderId=${order.id}`);
    const payment = page.getByRole('region', { name: 'Paiement' });
    await expect.poll(() => payment.getByText(CARD_UNAVAILABLE).isVisible()).toBe(true);
    expect(
      await payment.getByRole('radio').evaluateAll((radios) => radios.map((r) => r.getAttribute('value'))),
    ).toEqual(['transfer', 'cheque']);
    expect(await payment.getByRole('radio', { name: 'Carte bancaire' }).count()).toBe(0);
    expect(await payment.getByRole('radio', { name: 'Virement bancaire' }).isChecked()).toBe(true);
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel(/Je demande expressément que la numérisation de ma commande commence/).check();
    await page.getByRole('button', { name: 'Commander et payer 94,90\u00A0€ par virement' }).click();
    await page.waitForURL(`${fresh.url}/confirmation?orderId=${order.id}`);
    const state = await orderState(fresh.databaseUrl, order.id);
    expect(state).toMatchObject({ paymentStatus: 'pending', payments: [], invoices: [] });
    expect(state.events).toContain('payment_method_chosen');
  });

  it('shows a red banner on every back-office tab', async () => {
    const page = await openPage(browser);
    await addSessionCookie(page, fresh.url, freshAdmin.cookie);
    for (const path of ['/admin', '/admin/tests']) {
      await page.goto(`${fresh.url}${path}`);
      const banner = page.getByRole('alert').filter({ hasText: 'Paiement par carte indisponible' });
      expect(await banner.count(), path).toBe(1);
      expect(await banner.textContent()).toContain('virement ou par chèque');
    }
    await expectNoSeriousA11yViolations(page);
    expect(await page.getByText(DEMO).count()).toBe(0);
  });
});

describe('a demo shop (PAYMENT_SANDBOX=on)', () => {
  it.each(['/', '/services'])('says on %s that it takes no real payment, also from the HTML cache', async (path) => {
    for (let visit = 0; visit < 2; visit++) {
      const response = await fetch(`${demo.url}${path}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain(DEMO);
    }
    const page = await openPage(browser, `${demo.url}${path}`);
    expect(await page.getByRole('note').filter({ hasText: DEMO }).isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page);
  });

  it('says so in the back office too, without the red banner: the sandbox takes its test payments', async () => {
    const page = await openPage(browser);
    await addSessionCookie(page, demo.url, demoAdmin.cookie);
    await page.goto(`${demo.url}/admin`);
    expect(await page.getByRole('note').filter({ hasText: DEMO }).isVisible()).toBe(true);
    expect(await page.getByRole('alert').filter({ hasText: 'Paiement par carte indisponible' }).count()).toBe(0);
  });
});
