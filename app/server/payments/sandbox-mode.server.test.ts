import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cardFormSchema } from '~/domain/payments/card';
import { MONETICO_RECEIPT_OK } from '~/domain/payments/monetico';
import { SANDBOX_POLICY_MESSAGES } from '~/domain/payments/sandbox-policy';
import { type FakeStripe, startFakeStripe } from '../../../tests/support/fake-stripe';
import { insertTestOrder, orderState, type TestOrder } from '../../../tests/support/orders';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { createCheckout } from './checkout.server';
import { handleCreateCheckoutRequest } from './checkout-api.server';
import { savePaymentConfig } from './config.server';
import { paySandboxSession, SANDBOX_SIGNATURE_HEADER, signSandboxPayload } from './sandbox.server';
import { sandboxMayTakePayments } from './sandbox-mode.server';
import { handlePaymentWebhook } from './webhooks.server';

/*
 * The sandbox in production (docs/payments.md): off unless PAYMENT_SANDBOX=on,
 * heard only while it is the active gateway; Stripe's and Monetico's notifications of sessions
 * opened before a switch of gateway still count, verified with their saved keys.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';

const STRIPE_KEY = 'sk_test_FakeSoovenirs0123456789';
const STRIPE_WEBHOOK_SECRET = 'whsec_FakeSigningSecret0123456789';
const MONETICO_KEY = '0123456789ABCDEF0123456789ABCDEF01234567';
const TPE = '1234567';
const databaseUrl = () => process.env.DATABASE_URL as string;

let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe({ apiKeys: [STRIPE_KEY] });
  process.env.STRIPE_API_URL = stripe.url;
});
afterAll(async () => {
  delete process.env.STRIPE_API_URL;
  await stripe.close();
});
beforeEach(async () => {
  await db().execute(sql`delete from config_options`);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const useStripe = () =>
  savePaymentConfig({ type: 'stripe', testMode: true, apiKey: STRIPE_KEY, webhookSecret: STRIPE_WEBHOOK_SECRET });
const useMonetico = () =>
  savePaymentConfig({
    type: 'monetico',
    testMode: true,
    merchantId: TPE,
    companyCode: 'soovenirs',
    secretKey: MONETICO_KEY,
  });
const useSandbox = () => savePaymentConfig({ type: 'sandbox', testMode: true });

function post(path: string, body: string, headers: Record<string, string>): Request {
  return new Request(`https://www.soovenirs.test${path}`, { method: 'POST', headers, body });
}

function createCheckoutRequest(order: TestOrder): Request {
  return post('/api/create-checkout', JSON.stringify({ orderId: order.id, amount: 1 }), {
    'content-type': 'application/json',
    cookie: order.cookie ?? '',
  });
}

function sandboxNotification(order: TestOrder, sessionId: string): Promise<Response> {
  const body = JSON.stringify({
    id: `sbxevt_${sessionId}_succeeded`,
    type: 'payment.succeeded',
    created: Math.floor(Date.now() / 1000),
    data: { sessionId, orderId: order.id, amountCents: order.totalCents, currency: 'EUR', card: null },
  });
  return handlePaymentWebhook(
    'sandbox',
    post('/api/webhooks/sandbox', body, {
      'content-type': 'application/json',
      [SANDBOX_SIGNATURE_HEADER]: signSandboxPayload(body),
    }),
  );
}

function stripeNotification(order: TestOrder, sessionId: string): Promise<Response> {
  const event = stripe.event('checkout.session.completed', sessionId, { status: 'complete', payment_status: 'paid' });
  const { payload, header } = stripe.sign(event, STRIPE_WEBHOOK_SECRET);
  expect(payload).toContain(order.id);
  return handlePaymentWebhook(
    'stripe',
    post('/api/webhooks/stripe', payload, { 'content-type': 'application/json', 'stripe-signature': header }),
  );
}

/** Monetico's return (CGI2), sealed here independently of the shop's code. */
function moneticoNotification(order: TestOrder, reference: string): Promise<Response> {
  const fields: Record<string, string> = {
    TPE,
    date: '21/11/2026_a_14:32:10',
    montant: `${(order.totalCents / 100).toFixed(2)}EUR`,
    reference,
    'texte-libre': order.id,
    'code-retour': 'payetest',
    cvx: 'oui',
    vld: '1230',
    brand: 'VI',
    status3ds: '-1',
    numauto: '010101',
    modepaiement: 'CB',
  };
  const text = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('*');
  const MAC = createHmac('sha1', Buffer.from(MONETICO_KEY, 'hex')).update(text, 'utf8').digest('hex').toUpperCase();
  return handlePaymentWebhook(
    'monetico',
    post('/api/webhooks/monetico', new URLSearchParams({ ...fields, MAC }).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
    }),
  );
}

describe('sandboxMayTakePayments', () => {
  it('is off in production unless PAYMENT_SANDBOX=on, on elsewhere unless PAYMENT_SANDBOX=off', () => {
    expect(sandboxMayTakePayments({ NODE_ENV: 'production' })).toBe(false);
    expect(sandboxMayTakePayments({})).toBe(false);
    expect(sandboxMayTakePayments({ NODE_ENV: 'production', PAYMENT_SANDBOX: 'on' })).toBe(true);
    expect(sandboxMayTakePayments({ NODE_ENV: 'test' })).toBe(true);
    expect(sandboxMayTakePayments({ NODE_ENV: 'development', PAYMENT_SANDBOX: 'off' })).toBe(false);
  });
});

describe('a production shop with no real gateway', () => {
  it('answers create-checkout with 503 and a French message, and opens no payment session', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const order = await insertTestOrder(databaseUrl());
    const response = await handleCreateCheckoutRequest(createCheckoutRequest(order));
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: SANDBOX_POLICY_MESSAGES.cardUnavailable });
    expect((await orderState(databaseUrl(), order.id)).payments).toEqual([]);
  });

  it('opens the sandbox again with PAYMENT_SANDBOX=on (a demo shop)', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('PAYMENT_SANDBOX', 'on');
    const order = await insertTestOrder(databaseUrl());
    const response = await handleCreateCheckoutRequest(createCheckoutRequest(order));
    expect(response.status).toBe(200);
    expect((await response.json()).url).toMatch(/^https:\/\/www\.soovenirs\.test\/paiement\/sandbox\/sbx_/);
  });
});

describe('a sandbox notification', () => {
  it('is refused in French while the sandbox may not take payments, and its page refuses to pay', async () => {
    const order = await insertTestOrder(databaseUrl());
    const session = await createCheckout({ orderId: order.id });
    vi.stubEnv('PAYMENT_SANDBOX', 'off');
    const response = await sandboxNotification(order, session.sessionId);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: SANDBOX_POLICY_MESSAGES.sandboxRefused });
    const card = cardFormSchema.parse({
      cardHolder: 'Marie Curie',
      cardNumber: '4242424242424242',
      expiryDate: '12/30',
      cvv: '123',
    });
    expect(await paySandboxSession(session.sessionId, card, { webhookUrl: 'http://127.0.0.1:9/unused' })).toEqual({
      status: 'unavailable',
      message: SANDBOX_POLICY_MESSAGES.sandboxRefused,
    });
    expect((await orderState(databaseUrl(), order.id)).paymentStatus).not.toBe('paid');
  });

  it('is refused once the back office switched to another gateway, even where the sandbox is allowed', async () => {
    const order = await insertTestOrder(databaseUrl());
    const session = await createCheckout({ orderId: order.id });
    expect(session.provider).toBe('sandbox');
    expect((await useStripe()).success).toBe(true);
    const response = await sandboxNotification(order, session.sessionId);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: SANDBOX_POLICY_MESSAGES.sandboxRefused });
    const state = await orderState(databaseUrl(), order.id);
    expect(state.paymentStatus).not.toBe('paid');
    expect(state.invoices).toEqual([]);
  });

  it('is applied while the sandbox is the active gateway and allowed', async () => {
    const order = await insertTestOrder(databaseUrl());
    const session = await createCheckout({ orderId: order.id });
    expect((await sandboxNotification(order, session.sessionId)).status).toBe(200);
    expect((await orderState(databaseUrl(), order.id)).paymentStatus).toBe('paid');
  });
});

describe('real gateways after a switch', () => {
  it.each([
    ['Monetico', useMonetico],
    ['the sandbox', useSandbox],
  ])(
    'a Stripe payment opened before a switch to %s is still honoured, verified with the saved secret',
    async (_, switchTo) => {
      expect((await useStripe()).success).toBe(true);
      const order = await insertTestOrder(databaseUrl());
      const session = await createCheckout({ orderId: order.id });
      expect(session.provider).toBe('stripe');
      expect((await switchTo()).success).toBe(true);
      // Even in production, where the sandbox is off: the money moved at Stripe.
      vi.stubEnv('NODE_ENV', 'production');
      const response = await stripeNotification(order, session.sessionId);
      expect(response.status).toBe(200);
      const state = await orderState(databaseUrl(), order.id);
      expect(state).toMatchObject({ paymentStatus: 'paid', payments: [{ provider: 'stripe', status: 'paid' }] });
      expect(state.invoices).toHaveLength(1);
    },
  );

  it('a Monetico return of a payment opened before a switch to Stripe is still honoured', async () => {
    expect((await useMonetico()).success).toBe(true);
    const order = await insertTestOrder(databaseUrl());
    const session = await createCheckout({ orderId: order.id });
    expect(session.provider).toBe('monetico');
    // The back office's form sends only Stripe's fields: Monetico's saved terminal and key stay.
    expect((await useStripe()).success).toBe(true);
    const response = await moneticoNotification(order, session.sessionId);
    expect(await response.text()).toBe(MONETICO_RECEIPT_OK);
    const state = await orderState(databaseUrl(), order.id);
    expect(state).toMatchObject({ paymentStatus: 'paid', payments: [{ provider: 'monetico', status: 'paid' }] });
  });
});
