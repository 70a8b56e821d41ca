import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CardForm, cardFormSchema } from '~/domain/payments/card';
import { PAYMENT_MESSAGES } from '~/domain/payments/messages';
import { SANDBOX_DECLINE_MESSAGES } from '~/domain/payments/sandbox-cards';
import { insertTestOrder, orderState } from '../../../tests/support/orders';
import { type ServedHandler, serveHandler } from '../../../tests/support/serve-handler';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { createCheckout } from './checkout.server';
import { refundAtGateway } from './refunds.server';
import {
  cancelSandboxSession,
  getSandboxSession,
  paySandboxSession,
  SANDBOX_SIGNATURE_HEADER,
  signSandboxPayload,
} from './sandbox.server';
import { handlePaymentWebhook } from './webhooks.server';

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';

const databaseUrl = () => process.env.DATABASE_URL as string;
const card = (cardNumber: string): CardForm =>
  cardFormSchema.parse({ cardHolder: 'Marie Curie', cardNumber, expiryDate: '12/30', cvv: '123' });

// The shop's webhook, served over HTTP: the sandbox delivers its notifications like a gateway.
let shop: ServedHandler;
let webhookUrl: string;
beforeAll(async () => {
  shop = await serveHandler((request) => handlePaymentWebhook('sandbox', request));
  webhookUrl = `${shop.url}/api/webhooks/sandbox`;
});
afterAll(async () => {
  await shop.close();
});
beforeEach(async () => {
  await db().execute(sql`delete from config_options`);
});

async function openSession() {
  const order = await insertTestOrder(databaseUrl());
  const session = await createCheckout({ orderId: order.id, returnUrl: `/checkout?orderId=${order.id}` });
  return { order, session };
}

describe('the sandbox gateway', () => {
  it('is the default: create-checkout opens its payment page at the order’s amount', async () => {
    const { order, session } = await openSession();
    expect(session.provider).toBe('sandbox');
    expect(session.url).toBe(`https://www.soovenirs.test/paiement/sandbox/${session.sessionId}`);
    expect(await getSandboxSession(session.sessionId)).toMatchObject({
      orderId: order.id,
      orderNumber: order.number,
      amountCents: order.totalCents,
      state: 'open',
      returnUrl: `https://www.soovenirs.test/checkout?orderId=${order.id}`,
      cancelUrl: `https://www.soovenirs.test/checkout?orderId=${order.id}&canceled=true`,
    });
  });

  it('pays with 4242 4242 4242 4242 through its signed notification, then sends the customer back', async () => {
    const { order, session } = await openSession();
    const result = await paySandboxSession(session.sessionId, card('4242 4242 4242 4242'), { webhookUrl });
    expect(result).toEqual({ status: 'paid', redirectTo: `https://www.soovenirs.test/checkout?orderId=${order.id}` });
    const state = await orderState(databaseUrl(), order.id);
    expect(state).toMatchObject({ paymentStatus: 'paid', payments: [{ provider: 'sandbox', status: 'paid' }] });
    expect(state.invoices).toHaveLength(1);
    expect((await getSandboxSession(session.sessionId))?.state).toBe('paid');
    // Paying again (a double click) changes nothing and goes back to the shop.
    expect(await paySandboxSession(session.sessionId, card('4242424242424242'), { webhookUrl })).toMatchObject({
      status: 'paid',
    });
    expect((await orderState(databaseUrl(), order.id)).invoices).toHaveLength(1);
  });

  it.each([
    ['4000 0000 0000 0002', SANDBOX_DECLINE_MESSAGES.card_declined],
    ['4000 0000 0000 9995', SANDBOX_DECLINE_MESSAGES.insufficient_funds],
    ['4012 8888 8888 1881', SANDBOX_DECLINE_MESSAGES.live_card_in_test_mode],
  ])('declines %s with a French message and changes nothing', async (number, message) => {
    const { order, session } = await openSession();
    const before = await orderState(databaseUrl(), order.id);
    expect(await paySandboxSession(session.sessionId, card(number), { webhookUrl })).toEqual({
      status: 'declined',
      message,
    });
    expect(await orderState(databaseUrl(), order.id)).toEqual(before);
    expect(before.paymentStatus).toBe('pending');
    expect((await getSandboxSession(session.sessionId))?.state).toBe('open');
  });

  it('reports a notification the shop refused, without pretending the payment went through', async () => {
    const { order, session } = await openSession();
    const result = await paySandboxSession(session.sessionId, card('4242424242424242'), {
      // Nothing listens on port 9: the shop is unreachable.
      webhookUrl: 'http://127.0.0.1:9/api/webhooks/sandbox',
    });
    expect(result).toMatchObject({
      status: 'error',
      message: expect.stringMatching(/^Erreur lors du traitement du paiement: /),
    });
    expect((await orderState(databaseUrl(), order.id)).paymentStatus).toBe('pending');
  });

  it('cancels: the attempt is closed and the customer goes back to the checkout with canceled=true', async () => {
    const { order, session } = await openSession();
    expect(await cancelSandboxSession(session.sessionId, { webhookUrl })).toEqual({
      redirectTo: `https://www.soovenirs.test/checkout?orderId=${order.id}&canceled=true`,
    });
    const state = await orderState(databaseUrl(), order.id);
    expect(state).toMatchObject({ paymentStatus: 'pending', payments: [{ status: 'canceled' }], invoices: [] });
    expect((await getSandboxSession(session.sessionId))?.state).toBe('closed');
    expect(await paySandboxSession(session.sessionId, card('4242424242424242'), { webhookUrl })).toMatchObject({
      status: 'unavailable',
    });
  });

  it('refuses to open a session for an order paid, cancelled, withdrawn from or with nothing to pay', async () => {
    const paid = await insertTestOrder(databaseUrl(), { paymentStatus: 'paid' });
    const canceled = await insertTestOrder(databaseUrl(), { status: 'canceled' });
    const withdrawn = await insertTestOrder(databaseUrl());
    await db().execute(sql`update orders set withdrawn_at = now() where id = ${withdrawn.id}`);
    const free = await insertTestOrder(databaseUrl());
    await db().execute(sql`update orders set total_price = 0 where id = ${free.id}`);
    for (const [order, status, message] of [
      [paid, 409, PAYMENT_MESSAGES.alreadyPaid],
      [canceled, 409, PAYMENT_MESSAGES.orderCanceled],
      [withdrawn, 409, PAYMENT_MESSAGES.orderWithdrawn],
      [free, 422, PAYMENT_MESSAGES.nothingToPay],
    ] as const) {
      await expect(createCheckout({ orderId: order.id })).rejects.toMatchObject({ status, message });
    }
    await expect(createCheckout({ orderId: '00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({
      status: 404,
      message: PAYMENT_MESSAGES.orderNotFound,
    });
  });

  it('closes the earlier attempt of an order when a new one is opened', async () => {
    const { order, session } = await openSession();
    const second = await createCheckout({ orderId: order.id });
    expect((await getSandboxSession(session.sessionId))?.state).toBe('closed');
    expect((await getSandboxSession(second.sessionId))?.state).toBe('open');
  });
});

describe('the sandbox webhook', () => {
  const post = (body: string, signature: string | null) =>
    fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature ? { [SANDBOX_SIGNATURE_HEADER]: signature } : {}) },
      body,
    });

  it('refuses a notification without a valid signature and changes nothing', async () => {
    const { order, session } = await openSession();
    const body = JSON.stringify({
      id: `sbxevt_${session.sessionId}_succeeded`,
      type: 'payment.succeeded',
      created: Math.floor(Date.now() / 1000),
      data: {
        sessionId: session.sessionId,
        orderId: order.id,
        amountCents: order.totalCents,
        currency: 'EUR',
        card: null,
      },
    });
    const before = await orderState(databaseUrl(), order.id);
    expect((await post(body, null)).status).toBe(400);
    expect((await post(body, 't=1,v1=00')).status).toBe(400);
    // Signed for another body, or too long ago.
    expect((await post(body, signSandboxPayload(`${body} `))).status).toBe(400);
    expect((await post(body, signSandboxPayload(body, Math.floor(Date.now() / 1000) - 3600))).status).toBe(400);
    expect(await orderState(databaseUrl(), order.id)).toEqual(before);

    const accepted = await post(body, signSandboxPayload(body));
    expect(accepted.status).toBe(200);
    expect((await orderState(databaseUrl(), order.id)).paymentStatus).toBe('paid');
  });
});

describe('sandbox refunds', () => {
  it('succeed at once with a sandbox reference, the same one for a retried call', async () => {
    const first = await refundAtGateway({
      provider: 'sandbox',
      providerRef: 'sbx_AbCdEfGhIjKlMnOp',
      raw: null,
      amountCents: 1250,
      idempotencyKey: 'refund-a',
    });
    expect(first).toEqual({ status: 'succeeded', gatewayRef: expect.stringMatching(/^sandbox_re_[\w-]{24}$/) });
    const again = await refundAtGateway({
      provider: 'sandbox',
      providerRef: 'sbx_AbCdEfGhIjKlMnOp',
      raw: null,
      amountCents: 1250,
      idempotencyKey: 'refund-a',
    });
    expect(again).toEqual(first);
    const other = await refundAtGateway({
      provider: 'sandbox',
      providerRef: 'sbx_AbCdEfGhIjKlMnOp',
      raw: null,
      amountCents: 100,
      idempotencyKey: 'refund-b',
    });
    expect(other).not.toEqual(first);
  });
});
