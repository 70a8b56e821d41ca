import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSessionCookie, createUser, randomIp, type TestUser } from '../support/auth';
import { expectNoSeriousA11yViolations, launchBrowser, openPage } from '../support/browser';
import { facturXBatch } from '../support/factur-x';
import { insertTestOrder, orderState, type TestOrder } from '../support/orders';
import { isPdf, pdfText } from '../support/pdf';
import { startServer, type TestServer } from '../support/server';

/*
 * Card payment with the sandbox gateway (the default), end to end on the built app: who may open a
 * payment session (create-checkout), the sandbox's payment page in Chromium with the test cards,
 * the signed notification that pays the order, the invoice and its PDF. The /checkout page itself
 * is tested in checkout.test.ts; here the return address is the home page, and a cancel comes back
 * to the real checkout.
 */

let server: TestServer;
let browser: Browser;
let customer: TestUser;
let other: TestUser;
let admin: TestUser;

beforeAll(async () => {
  // A production server takes sandbox payments only as a demo shop (payments-production.test.ts: without it).
  [server, browser] = await Promise.all([startServer({ env: { PAYMENT_SANDBOX: 'on' } }), launchBrowser()]);
  [customer, other, admin] = await Promise.all([
    createUser({ url: server.url }),
    createUser({ url: server.url, firstName: 'Paul', lastName: 'Langevin' }),
    createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'admin' }),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

function createCheckout(body: unknown, cookie?: string | null): Promise<Response> {
  return fetch(`${server.url}/api/create-checkout`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: server.url,
      'x-forwarded-for': randomIp(),
      ...(cookie ? { cookie } : {}),
    },
    body: JSON.stringify(body),
  });
}

async function sessionFor(order: TestOrder, returnUrl = `${server.url}/?commande=${order.id}`) {
  const response = await createCheckout(
    { orderId: order.id, amount: 1, customerEmail: 'invite@example.fr', returnUrl },
    order.cookie,
  );
  expect(response.status).toBe(200);
  return (await response.json()) as { url: string; sessionId: string };
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Titulaire de la carte').fill('Marie Curie');
  await page.getByLabel('Numéro de carte').fill(number);
  await page.getByLabel('Date d’expiration').fill('12/30');
  await page.getByLabel('CVV').fill('123');
}

// The invoices and credit notes this file downloads, validated together once it is done.
const facturX = facturXBatch();
afterAll(() => facturX.expectAllValid(), 240_000);

describe('create-checkout', () => {
  it('opens a session for the guest holding the order’s cookie, at the order’s own amount', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const { url, sessionId } = await sessionFor(order);
    expect(url).toBe(`${server.url}/paiement/sandbox/${sessionId}`);
    // The body's amount (1 cent) is ignored.
    expect((await orderState(server.databaseUrl, order.id)).payments).toEqual([
      { provider: 'sandbox', status: 'pending', amount: order.totalCents },
    ]);
  });

  it('answers 404 to an anonymous request, a wrong token, another customer and an administrator', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const owned = await insertTestOrder(server.databaseUrl, { userId: customer.id });
    const body = (id: string) => ({ orderId: id, amount: 9490, customerEmail: 'x@example.fr', returnUrl: '/' });
    for (const [id, cookie] of [
      [order.id, null],
      [order.id, `sv_order_${order.id}=not-the-token`],
      [order.id, other.cookie],
      [owned.id, null],
      [owned.id, other.cookie],
      [owned.id, order.cookie],
      [owned.id, admin.cookie],
      ['00000000-0000-4000-8000-000000000000', customer.cookie],
      ['not-a-uuid', customer.cookie],
    ] as const) {
      const response = await createCheckout(body(id), cookie);
      expect(response.status, `${id} with ${cookie}`).toBe(404);
      expect(await response.json()).toEqual({ error: 'Commande introuvable' });
    }
    expect((await orderState(server.databaseUrl, owned.id)).payments).toEqual([]);
    const mine = await createCheckout(body(owned.id), customer.cookie);
    expect(mine.status).toBe(200);
    expect((await fetch(`${server.url}/api/create-checkout`)).status).toBe(405);
  });

  it('refuses an order already paid', async () => {
    const order = await insertTestOrder(server.databaseUrl, { paymentStatus: 'paid' });
    const response = await createCheckout({ orderId: order.id }, order.cookie);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: 'Cette commande est déjà payée.' });
  });

  it('answers the back office’s probe (test: true) for administrators only', async () => {
    expect((await createCheckout({ test: true })).status).toBe(404);
    expect((await createCheckout({ test: true }, customer.cookie)).status).toBe(404);
    const response = await createCheckout({ test: true }, admin.cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ configured: true, provider: 'sandbox', testMode: true });
  });
});

describe('the sandbox payment page', () => {
  it('declines 0002 and 9995 in French without changing anything, then pays with 4242', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const { url } = await sessionFor(order);
    const page = await openPage(browser, url);
    await expect.poll(() => page.getByRole('heading', { name: 'Payer 94,90\u00A0€' }).isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page);

    // The form's own checks first (the server's, under the fields): every field is required, in French.
    await page.getByRole('button', { name: 'Payer 94,90\u00A0€' }).click();
    await expect.poll(() => page.getByText('Le numéro de carte est requis').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Le nom du titulaire de la carte est requis').isVisible()).toBe(true);
    await page.getByLabel('Titulaire de la carte').fill('Marie Curie');
    await page.getByLabel('Numéro de carte').fill('4242 4242 4242 4241');
    await page.getByRole('button', { name: 'Payer 94,90\u00A0€' }).click();
    await expect.poll(() => page.getByText('Numéro de carte invalide').isVisible()).toBe(true);
    // What was typed stays, except the card's number and CVV, which never come back from the server.
    expect(await page.getByLabel('Titulaire de la carte').inputValue()).toBe('Marie Curie');

    const before = await orderState(server.databaseUrl, order.id);
    await fillCard(page, '4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Payer 94,90\u00A0€' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Erreur de paiement' });
    await expect.poll(() => alert.textContent()).toContain('Votre carte a été refusée');
    expect(await orderState(server.databaseUrl, order.id)).toEqual(before);

    await fillCard(page, '4000 0000 0000 9995');
    await page.getByRole('button', { name: 'Payer 94,90\u00A0€' }).click();
    await expect.poll(() => alert.textContent()).toContain('fonds insuffisants');
    expect(await orderState(server.databaseUrl, order.id)).toEqual(before);

    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Payer 94,90\u00A0€' }).click();
    await page.waitForURL(`${server.url}/?commande=${order.id}`);

    const state = await orderState(server.databaseUrl, order.id);
    expect(state).toMatchObject({ paymentStatus: 'paid', payments: [{ provider: 'sandbox', status: 'paid' }] });
    // The sandbox took no money: a demonstration invoice, in its own series.
    expect(state.invoices).toEqual([expect.stringMatching(/^TEST-FA-\d{4}-\d{6}$/)]);
    expect(state.outbox).toMatchObject([
      { template: 'payment-received', to: 'invite@example.fr', data: { invoiceNumber: state.invoices[0] } },
    ]);

    // The invoice's PDF, for the guest holding the order's cookie only.
    const pdf = await fetch(`${server.url}/facture/${order.id}/pdf`, { headers: { cookie: order.cookie as string } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="facture-${state.invoices[0]}.pdf"`);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(isPdf(bytes)).toBe(true);
    // A demonstration invoice is a Factur-X all the same (TEST-FA-…).
    facturX.add(bytes, state.invoices[0] as string);
    expect(pdfText(bytes)).toContain(`Facture ${state.invoices[0]}`);
    expect(pdfText(bytes)).toContain('Document de démonstration — sans valeur');
    expect((await fetch(`${server.url}/facture/${order.id}/pdf`)).status).toBe(404);
    expect((await fetch(`${server.url}/facture/${order.id}/pdf`, { headers: { cookie: other.cookie } })).status).toBe(
      404,
    );
  });

  it('cancels back to the checkout with canceled=true, leaving the order to pay', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const { url } = await sessionFor(order);
    // The guest's browser, holding the order's cookie: the checkout opens for it.
    const page = await openPage(browser);
    await addSessionCookie(page, server.url, order.cookie as string);
    await page.goto(url);
    await page.getByRole('button', { name: 'Annuler et revenir à la boutique' }).click();
    await page.waitForURL(`${server.url}/checkout?orderId=${order.id}&canceled=true`);
    const banner = page.getByRole('status').filter({ hasText: 'Paiement annulé' });
    await expect.poll(() => banner.isVisible()).toBe(true);
    expect(await orderState(server.databaseUrl, order.id)).toMatchObject({
      paymentStatus: 'pending',
      payments: [{ status: 'canceled' }],
      invoices: [],
    });
  });

  it('works without JavaScript: a plain form post pays a signed-in customer’s order', async () => {
    const order = await insertTestOrder(server.databaseUrl, { userId: customer.id });
    const response = await createCheckout({ orderId: order.id, returnUrl: '/' }, customer.cookie);
    const { url } = (await response.json()) as { url: string };
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Mode test (bac à sable)');
    const paid = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams({
        intent: 'pay',
        cardHolder: 'Jeanne Martin',
        cardNumber: '4242424242424242',
        expiryDate: '12/30',
        cvv: '123',
      }),
    });
    expect(paid.status).toBe(302);
    expect(paid.headers.get('location')).toBe(`${server.url}/`);
    const state = await orderState(server.databaseUrl, order.id);
    expect(state.paymentStatus).toBe('paid');
    expect(state.outbox).toMatchObject([{ to: customer.email }]);
  });

  it('answers 404 for an unknown session', async () => {
    expect((await fetch(`${server.url}/paiement/sandbox/sbx_unknownunknownunknown`)).status).toBe(404);
  });
});

describe('the sandbox webhook', () => {
  it('refuses an unsigned notification (400) and changes nothing', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const { sessionId } = await sessionFor(order);
    const before = await orderState(server.databaseUrl, order.id);
    const response = await fetch(`${server.url}/api/webhooks/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: `sbxevt_${sessionId}_succeeded`,
        type: 'payment.succeeded',
        created: Math.floor(Date.now() / 1000),
        data: { sessionId, orderId: order.id, amountCents: order.totalCents, currency: 'EUR', card: null },
      }),
    });
    expect(response.status).toBe(400);
    expect(await orderState(server.databaseUrl, order.id)).toEqual(before);
  });
});
