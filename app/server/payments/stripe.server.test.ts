import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeStripe, startFakeStripe } from '../../../tests/support/fake-stripe';
import { insertTestOrder, orderState, type TestOrder } from '../../../tests/support/orders';
import { changeOrderStatus } from '../admin/orders.server';
import { countStats } from '../admin/stats.server';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { refundOrder } from '../orders/refunds.server';
import { CheckoutError, createCheckout, probePayments } from './checkout.server';
import { savePaymentConfig } from './config.server';
import { refundAtGateway, supportsRefund } from './refunds.server';
import { PaymentProviderError } from './types';
import { handlePaymentWebhook } from './webhooks.server';

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';

const API_KEY = 'sk_test_FakeSoovenirs0123456789';
const WEBHOOK_SECRET = 'whsec_FakeSigningSecret0123456789';
const databaseUrl = () => process.env.DATABASE_URL as string;

let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe({ apiKeys: [API_KEY] });
  process.env.STRIPE_API_URL = stripe.url;
});
afterAll(async () => {
  delete process.env.STRIPE_API_URL;
  await stripe.close();
});
beforeEach(async () => {
  await db().execute(sql`delete from config_options`);
  const saved = await savePaymentConfig({
    type: 'stripe',
    testMode: true,
    apiKey: API_KEY,
    webhookSecret: WEBHOOK_SECRET,
  });
  expect(saved.success).toBe(true);
  stripe.requests.length = 0;
});

function webhook(payload: string, signature: string | null): Promise<Response> {
  return handlePaymentWebhook(
    'stripe',
    new Request('https://www.soovenirs.test/api/webhooks/stripe', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
      body: payload,
    }),
  );
}

async function checkout(order: TestOrder) {
  return createCheckout({
    orderId: order.id,
    returnUrl: `/checkout?orderId=${order.id}`,
    customerEmail: 'x@example.fr',
  });
}

describe('Stripe Checkout Sessions', () => {
  it('are created at the server’s prices, naming the order, with success and cancel addresses', async () => {
    const order = await insertTestOrder(databaseUrl());
    const session = await checkout(order);
    expect(session).toMatchObject({
      provider: 'stripe',
      url: `https://checkout.stripe.com/c/pay/${session.sessionId}`,
    });

    const request = stripe.requests.find((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    expect(request?.apiKey).toBe(API_KEY);
    expect(request?.params).toMatchObject({
      mode: 'payment',
      client_reference_id: order.id,
      metadata: { orderId: order.id, orderNumber: order.number },
      customer_email: 'invite@example.fr',
      locale: 'fr',
      success_url: `https://www.soovenirs.test/checkout?orderId=${order.id}&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `https://www.soovenirs.test/checkout?orderId=${order.id}&canceled=true`,
    });
    const created = stripe.sessions.get(session.sessionId);
    expect(created?.amount_total).toBe(order.totalCents);
    expect(created?.line_items).toEqual([
      { quantity: 100, unit_amount: 35, name: 'Photos papier', description: 'Qualité standard, 2400\u00A0dpi, JPEG' },
      { quantity: 2, unit_amount: 1700, name: 'Cassettes VHS', description: 'Qualité standard' },
      { quantity: 2, unit_amount: 500, name: 'Débruitage', description: 'Cassettes VHS' },
      { quantity: 1, unit_amount: 1590, name: 'Livraison', description: 'Clé USB' },
    ]);
    expect((await orderState(databaseUrl(), order.id)).payments).toEqual([
      { provider: 'stripe', status: 'pending', amount: order.totalCents },
    ]);
  });

  it('state a line rounded as a whole as one item, so that Stripe’s total is the order’s', async () => {
    const order = await insertTestOrder(databaseUrl(), { extraCents: 7 });
    const session = await checkout(order);
    const created = stripe.sessions.get(session.sessionId);
    expect(created?.amount_total).toBe(order.totalCents);
    expect(created?.line_items[0]).toMatchObject({ quantity: 1, unit_amount: 3507, name: 'Photos papier' });
  });

  it('expire the order’s earlier open session when a new one is created', async () => {
    const order = await insertTestOrder(databaseUrl());
    const first = await checkout(order);
    const second = await checkout(order);
    expect(stripe.sessions.get(first.sessionId)?.status).toBe('expired');
    expect(stripe.sessions.get(second.sessionId)?.status).toBe('open');
  });

  it('report Stripe being unreachable in French', async () => {
    const order = await insertTestOrder(databaseUrl());
    process.env.STRIPE_API_URL = 'http://127.0.0.1:9';
    try {
      await expect(checkout(order)).rejects.toMatchObject({
        status: 502,
        message: 'Échec de création de la session de paiement: La solution de paiement ne répond pas',
      });
    } finally {
      process.env.STRIPE_API_URL = stripe.url;
    }
    await expect(checkout(await insertTestOrder(databaseUrl(), { paymentStatus: 'paid' }))).rejects.toBeInstanceOf(
      CheckoutError,
    );
  });
});

describe('the Stripe webhook', () => {
  it('answers 400 to a bad signature and changes nothing', async () => {
    const order = await insertTestOrder(databaseUrl());
    const session = await checkout(order);
    const event = stripe.event('checkout.session.completed', session.sessionId, {
      status: 'complete',
      payment_status: 'paid',
    });
    const before = await orderState(databaseUrl(), order.id);
    const good = stripe.sign(event, WEBHOOK_SECRET);
    const forged = stripe.sign(event, 'whsec_NotTheRightSecret000000');
    const stale = stripe.sign(event, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600);
    for (const [payload, signature] of [
      [good.payload, null],
      [good.payload, forged.header],
      [good.payload, stale.header],
      [good.payload.replace(`"amount_total": ${order.totalCents}`, '"amount_total": 1'), good.header],
      [good.payload, 't=1,v1=deadbeef'],
    ] as const) {
      const response = await webhook(payload, signature);
      expect(response.status).toBe(400);
    }
    expect(await orderState(databaseUrl(), order.id)).toEqual(before);
    expect((await webhook(good.payload, good.header)).status).toBe(200);
    expect((await orderState(databaseUrl(), order.id)).paymentStatus).toBe('paid');
  });

  it('applies each event once: every event replayed three times, in any order, gives one paid order and one invoice', async () => {
    const paidAtOnce = await insertTestOrder(databaseUrl());
    const paidLater = await insertTestOrder(databaseUrl());
    const expired = await insertTestOrder(databaseUrl());
    const failed = await insertTestOrder(databaseUrl());
    const [s1, s2, s3, s4] = await Promise.all([paidAtOnce, paidLater, expired, failed].map(checkout));
    const events = [
      stripe.event('checkout.session.completed', s1?.sessionId as string, {
        status: 'complete',
        payment_status: 'paid',
      }),
      // A payment method that settles later (SEPA debit): completed unpaid, then succeeded.
      stripe.event('checkout.session.completed', s2?.sessionId as string, {
        status: 'complete',
        payment_status: 'unpaid',
      }),
      stripe.event('checkout.session.async_payment_succeeded', s2?.sessionId as string, { payment_status: 'paid' }),
      stripe.event('checkout.session.expired', s3?.sessionId as string, { status: 'expired' }),
      stripe.event('checkout.session.completed', s4?.sessionId as string, {
        status: 'complete',
        payment_status: 'unpaid',
      }),
      stripe.event('checkout.session.async_payment_failed', s4?.sessionId as string, { payment_status: 'unpaid' }),
      stripe.event('payment_intent.succeeded', s1?.sessionId as string),
    ].map((event) => stripe.sign(event, WEBHOOK_SECRET));

    // Three deliveries of each, shuffled; then the whole lot again at once.
    const deliveries = [...events, ...events, ...events]
      .map((delivery) => ({ delivery, key: Math.random() }))
      .sort((a, b) => a.key - b.key)
      .map(({ delivery }) => delivery);
    for (const { payload, header } of deliveries) expect((await webhook(payload, header)).status).toBe(200);
    const responses = await Promise.all(deliveries.map(({ payload, header }) => webhook(payload, header)));
    expect(responses.every((r) => r.status === 200)).toBe(true);

    for (const order of [paidAtOnce, paidLater]) {
      const state = await orderState(databaseUrl(), order.id);
      expect(state.paymentStatus).toBe('paid');
      expect(state.invoices).toHaveLength(1);
      expect(state.payments).toEqual([{ provider: 'stripe', status: 'paid', amount: order.totalCents }]);
      expect(state.outbox.filter((m) => m.template === 'payment-received')).toHaveLength(1);
      expect(state.events.filter((e) => e === 'payment_paid')).toHaveLength(1);
    }
    const expiredState = await orderState(databaseUrl(), expired.id);
    expect(expiredState).toMatchObject({ paymentStatus: 'pending', invoices: [], payments: [{ status: 'canceled' }] });
    const failedState = await orderState(databaseUrl(), failed.id);
    expect(failedState).toMatchObject({ paymentStatus: 'failed', invoices: [], payments: [{ status: 'failed' }] });
    expect(failedState.paidAt).toBeNull();
  });
});

describe('the payment probe (create-checkout with test: true)', () => {
  it('says the Stripe keys are configured when Stripe accepts them', async () => {
    expect(await probePayments()).toMatchObject({ configured: true, provider: 'stripe', testMode: true });
    expect(stripe.requests.some((r) => r.path === '/v1/balance')).toBe(true);
  });

  it('says they are not when Stripe refuses the key or none is saved', async () => {
    stripe.apiKeys.delete(API_KEY);
    try {
      expect(await probePayments()).toMatchObject({
        configured: false,
        message: 'Stripe refuse la clé secrète configurée',
      });
    } finally {
      stripe.apiKeys.add(API_KEY);
    }
    await db().execute(sql`delete from config_options`);
    await db().execute(
      sql`insert into config_options (option_name, option_value) values ('payment_config', '{"type":"stripe","testMode":true}')`,
    );
    expect(await probePayments()).toMatchObject({
      configured: false,
      message: 'Les clés de paiement ne sont pas configurées',
    });
  });
});

describe('Stripe refunds (Refunds API, through the payment intent of the paid session)', () => {
  async function paidAtStripe() {
    const order = await insertTestOrder(databaseUrl());
    const session = await checkout(order);
    const paid = stripe.sign(
      stripe.event('checkout.session.completed', session.sessionId, { status: 'complete', payment_status: 'paid' }),
      WEBHOOK_SECRET,
    );
    expect((await webhook(paid.payload, paid.header)).status).toBe(200);
    const { rows } = await db().execute<{ raw_event: unknown }>(
      sql`select raw_event from payments where provider = 'stripe' and provider_ref = ${session.sessionId}`,
    );
    const intent = stripe.sessions.get(session.sessionId)?.payment_intent as string;
    expect(intent).toMatch(/^pi_/);
    return { order, sessionId: session.sessionId, raw: rows[0]?.raw_event, intent };
  }

  it('give back part of a payment, then the rest, and refuse anything beyond it in French', async () => {
    const { order, sessionId, raw, intent } = await paidAtStripe();
    const partial = await refundAtGateway({
      provider: 'stripe',
      providerRef: sessionId,
      raw,
      amountCents: 1250,
      idempotencyKey: 'refund-1',
      reason: 'Geste commercial',
    });
    expect(partial).toEqual({ status: 'succeeded', gatewayRef: expect.stringMatching(/^re_/) });
    const request = stripe.requests.find((r) => r.path === '/v1/refunds');
    expect(request).toMatchObject({
      apiKey: API_KEY,
      idempotencyKey: 'refund-1',
      params: { payment_intent: intent, amount: '1250' },
    });
    expect(stripe.paymentIntents.get(intent)?.amount_refunded).toBe(1250);
    // The stored notification named the payment intent: no need to ask Stripe for the session.
    expect(stripe.requests.some((r) => r.method === 'GET' && r.path.startsWith('/v1/checkout/sessions/'))).toBe(false);

    // The same call again (a retry) is the same refund: nothing more is given back.
    const retried = await refundAtGateway({
      provider: 'stripe',
      providerRef: sessionId,
      raw,
      amountCents: 1250,
      idempotencyKey: 'refund-1',
    });
    expect(retried).toEqual(partial);
    expect(stripe.paymentIntents.get(intent)?.amount_refunded).toBe(1250);

    const tooMuch = refundAtGateway({
      provider: 'stripe',
      providerRef: sessionId,
      raw,
      amountCents: order.totalCents,
      idempotencyKey: 'refund-2',
    });
    await expect(tooMuch).rejects.toBeInstanceOf(PaymentProviderError);
    await expect(tooMuch).rejects.toMatchObject({
      publicMessage: 'Stripe refuse le remboursement : le montant dépasse ce qui reste à rembourser sur ce paiement.',
    });
    expect(stripe.paymentIntents.get(intent)?.amount_refunded).toBe(1250);

    const rest = await refundAtGateway({
      provider: 'stripe',
      providerRef: sessionId,
      raw,
      amountCents: order.totalCents - 1250,
      idempotencyKey: 'refund-3',
    });
    expect(rest).toMatchObject({ status: 'succeeded' });
    expect(rest).not.toEqual(partial);
    expect(stripe.paymentIntents.get(intent)?.amount_refunded).toBe(order.totalCents);

    await expect(
      refundAtGateway({ provider: 'stripe', providerRef: sessionId, raw, amountCents: 1, idempotencyKey: 'refund-4' }),
    ).rejects.toMatchObject({
      publicMessage: 'Stripe refuse le remboursement : ce paiement a déjà été entièrement remboursé.',
    });
  });

  it('reach Stripe after the shop switched to Monetico, and find the payment intent from the session when the notification lacks it', async () => {
    const { sessionId, intent } = await paidAtStripe();
    const switched = await savePaymentConfig({
      type: 'monetico',
      testMode: true,
      merchantId: '1234567',
      companyCode: 'soovenirs',
      secretKey: '0123456789abcdef0123456789abcdef01234567',
    });
    expect(switched.success).toBe(true);
    const refund = await refundAtGateway({
      provider: 'stripe',
      providerRef: sessionId,
      raw: { test: true },
      amountCents: 500,
      idempotencyKey: 'after-switch',
    });
    expect(refund).toMatchObject({ status: 'succeeded' });
    expect(stripe.requests.some((r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${sessionId}`)).toBe(
      true,
    );
    expect(stripe.paymentIntents.get(intent)?.amount_refunded).toBe(500);
  });

  it('are not asked of Monetico: the refund is made by hand', async () => {
    expect(supportsRefund('stripe')).toBe(true);
    expect(supportsRefund('sandbox')).toBe(true);
    expect(supportsRefund('monetico')).toBe(false);
    expect(
      await refundAtGateway({
        provider: 'monetico',
        providerRef: 'ABCDEFGHJKLM',
        raw: null,
        amountCents: 500,
        idempotencyKey: 'monetico',
      }),
    ).toEqual({ status: 'unsupported' });
  });
});

describe('the order lifecycle with Stripe', () => {
  async function paidOrder() {
    const order = await insertTestOrder(databaseUrl());
    const session = await checkout(order);
    const paid = stripe.sign(
      stripe.event('checkout.session.completed', session.sessionId, { status: 'complete', payment_status: 'paid' }),
      WEBHOOK_SECRET,
    );
    expect((await webhook(paid.payload, paid.header)).status).toBe(200);
    return { order, intent: stripe.sessions.get(session.sessionId)?.payment_intent as string };
  }

  it('refunds part then the rest through Stripe: two credit notes, partially refunded then refunded, revenue net of both', async () => {
    const before = await countStats();
    const { order, intent } = await paidOrder();
    expect((await countStats()).totalRevenueCents - before.totalRevenueCents).toBe(order.totalCents);

    const part = await refundOrder({
      orderId: order.id,
      amountCents: 2_000,
      method: 'gateway',
      reason: 'Photos abîmées',
      actor: 'system',
    });
    expect(part).toMatchObject({ ok: true, creditNoteNumber: expect.stringMatching(/^AV-\d{4}-\d{6}$/) });
    expect((await orderState(databaseUrl(), order.id)).paymentStatus).toBe('partially_refunded');
    expect(stripe.paymentIntents.get(intent)?.amount_refunded).toBe(2_000);
    expect((await countStats()).totalRevenueCents - before.totalRevenueCents).toBe(order.totalCents - 2_000);

    const rest = await refundOrder({
      orderId: order.id,
      amountCents: order.totalCents - 2_000,
      method: 'gateway',
      reason: 'Commande annulée',
      actor: 'system',
    });
    expect(rest).toMatchObject({ ok: true, creditNoteNumber: expect.stringMatching(/^AV-/) });
    expect((await orderState(databaseUrl(), order.id)).paymentStatus).toBe('refunded');
    expect(stripe.paymentIntents.get(intent)?.amount_refunded).toBe(order.totalCents);
    const notes = await db().execute<{ amount: number }>(
      sql`select amount from credit_notes where order_id = ${order.id} order by number`,
    );
    expect(notes.rows.map((n) => n.amount)).toEqual([2_000, order.totalCents - 2_000]);
    expect((await countStats()).totalRevenueCents).toBe(before.totalRevenueCents);
  });

  it('a session opened before the cancellation is expired at Stripe; if paid anyway, it is refunded, never invoiced', async () => {
    const order = await insertTestOrder(databaseUrl());
    const session = await checkout(order);
    await changeOrderStatus({ refundRight: true, orderId: order.id, status: 'canceled', actor: { id: 'system' } });
    expect(stripe.requests.some((r) => r.path === `/v1/checkout/sessions/${session.sessionId}/expire`)).toBe(true);

    const paid = stripe.sign(
      stripe.event('checkout.session.completed', session.sessionId, { status: 'complete', payment_status: 'paid' }),
      WEBHOOK_SECRET,
    );
    expect((await webhook(paid.payload, paid.header)).status).toBe(200);
    const state = await orderState(databaseUrl(), order.id);
    expect(state).toMatchObject({ status: 'canceled', paymentStatus: 'pending', invoices: [] });
    expect(state.payments).toMatchObject([{ provider: 'stripe', status: 'refunded' }]);
    const intent = stripe.sessions.get(session.sessionId)?.payment_intent as string;
    expect(stripe.paymentIntents.get(intent)?.amount_refunded).toBe(order.totalCents);
  });
});
