import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSessionCookie, createUser, randomIp, type TestUser } from '../support/auth';
import { launchBrowser, openPage } from '../support/browser';
import { type FakeStripe, startFakeStripe } from '../support/fake-stripe';
import { insertTestOrder, orderState } from '../support/orders';
import { storePaymentConfig } from '../support/payments';
import { startServer, type TestServer } from '../support/server';

/*
 * The Stripe provider over HTTP on the built app, against a local server answering like Stripe's
 * API (tests/support/fake-stripe.ts, reached through STRIPE_API_URL), with webhooks signed by the
 * SDK's own test helper: the session at the order's amount, a bad signature refused with 400 and
 * no change, every event replayed three times in any order paying one order with one invoice, and
 * the customer back on /confirmation before the webhook, whose page waits for it.
 */

const API_KEY = 'sk_test_FakeSoovenirsE2E0123456';
const WEBHOOK_SECRET = 'whsec_FakeSigningSecretE2E01234';

let server: TestServer;
let stripe: FakeStripe;
let browser: Browser | undefined;
let admin: TestUser;

beforeAll(async () => {
  stripe = await startFakeStripe({ apiKeys: [API_KEY] });
  // The test process encrypts the configuration with the server's own secret.
  process.env.APP_SECRET = randomBytes(32).toString('hex');
  server = await startServer({ env: { APP_SECRET: process.env.APP_SECRET, STRIPE_API_URL: stripe.url } });
  await storePaymentConfig(server.databaseUrl, { type: 'stripe', apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET });
  admin = await createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'admin' });
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
  await stripe?.close();
});

function post(path: string, body: string, headers: Record<string, string>): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'x-forwarded-for': randomIp(), ...headers },
    body,
  });
}

const createCheckout = (body: unknown, cookie?: string | null) =>
  post('/api/create-checkout', JSON.stringify(body), {
    'content-type': 'application/json',
    origin: server.url,
    ...(cookie ? { cookie } : {}),
  });

// Stripe's servers send no Origin header.
const webhook = (payload: string, signature?: string) =>
  post('/api/webhooks/stripe', payload, {
    'content-type': 'application/json',
    ...(signature ? { 'stripe-signature': signature } : {}),
  });

describe('Stripe', () => {
  it('is reported configured to the back office’s probe', async () => {
    const response = await createCheckout({ test: true }, admin.cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ configured: true, provider: 'stripe', testMode: true });
  });

  it('sends the customer to a Checkout Session at the order’s amount, whatever the body says', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const response = await createCheckout(
      {
        orderId: order.id,
        amount: 1,
        customerEmail: 'x@example.fr',
        returnUrl: `${server.url}/checkout?orderId=${order.id}`,
      },
      order.cookie,
    );
    expect(response.status).toBe(200);
    const { url, sessionId } = (await response.json()) as { url: string; sessionId: string };
    expect(url).toBe(`https://checkout.stripe.com/c/pay/${sessionId}`);
    expect(stripe.sessions.get(sessionId)).toMatchObject({
      amount_total: order.totalCents,
      client_reference_id: order.id,
      success_url: `${server.url}/checkout?orderId=${order.id}&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${server.url}/checkout?orderId=${order.id}&canceled=true`,
    });
    // Coming back from Stripe pays nothing: only the signed notification does.
    await fetch(`${server.url}/checkout?orderId=${order.id}&session_id=${sessionId}`);
    expect((await orderState(server.databaseUrl, order.id)).paymentStatus).toBe('pending');
  });

  it('refuses a webhook with a bad signature (400) and changes nothing', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const { sessionId } = (await (await createCheckout({ orderId: order.id }, order.cookie)).json()) as {
      sessionId: string;
    };
    const event = stripe.event('checkout.session.completed', sessionId, { status: 'complete', payment_status: 'paid' });
    const before = await orderState(server.databaseUrl, order.id);
    const signed = stripe.sign(event, WEBHOOK_SECRET);
    expect((await webhook(signed.payload)).status).toBe(400);
    expect((await webhook(signed.payload, stripe.sign(event, 'whsec_SomeoneElse0000000000').header)).status).toBe(400);
    expect(
      (await webhook(signed.payload.replace(order.id, '00000000-0000-4000-8000-000000000000'), signed.header)).status,
    ).toBe(400);
    expect(await orderState(server.databaseUrl, order.id)).toEqual(before);
  });

  it('pays once: each event replayed three times, in any order, gives one paid order and one invoice', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const { sessionId } = (await (await createCheckout({ orderId: order.id }, order.cookie)).json()) as {
      sessionId: string;
    };
    const events = [
      stripe.event('checkout.session.completed', sessionId, { status: 'complete', payment_status: 'unpaid' }),
      stripe.event('checkout.session.async_payment_succeeded', sessionId, { payment_status: 'paid' }),
      stripe.event('charge.succeeded', sessionId),
    ].map((event) => stripe.sign(event, WEBHOOK_SECRET));
    const deliveries = [...events, ...events, ...events].sort(() => Math.random() - 0.5);
    const statuses = await Promise.all(
      deliveries.map(({ payload, header }) => webhook(payload, header).then((r) => r.status)),
    );
    expect(statuses.every((status) => status === 200)).toBe(true);
    const state = await orderState(server.databaseUrl, order.id);
    expect(state.paymentStatus).toBe('paid');
    expect(state.invoices).toHaveLength(1);
    expect(state.payments).toEqual([{ provider: 'stripe', status: 'paid', amount: order.totalCents }]);
    expect(state.outbox.filter((m) => m.template === 'payment-received')).toHaveLength(1);
  });

  it('back from Stripe before the webhook: “Paiement en cours de confirmation”, then paid without a reload', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const response = await createCheckout(
      { orderId: order.id, returnUrl: `/confirmation?orderId=${order.id}` },
      order.cookie,
    );
    const { sessionId } = (await response.json()) as { sessionId: string };
    browser ??= await launchBrowser();
    const page = await openPage(browser);
    await addSessionCookie(page, server.url, order.cookie as string);
    // Stripe's success URL, as the customer's browser follows it.
    await page.goto(`${server.url}/confirmation?orderId=${order.id}&session_id=${sessionId}`);
    const confirming = page.getByRole('status').filter({ hasText: 'Paiement en cours de confirmation' });
    await expect.poll(() => confirming.isVisible()).toBe(true);
    await page.locator('section[data-hydrated="true"]').waitFor();

    const event = stripe.event('checkout.session.completed', sessionId, { status: 'complete', payment_status: 'paid' });
    const signed = stripe.sign(event, WEBHOOK_SECRET);
    expect((await webhook(signed.payload, signed.header)).status).toBe(200);
    await expect.poll(() => page.getByText('Votre paiement a bien été reçu').isVisible()).toBe(true);
    expect(await confirming.count()).toBe(0);
  });
});
