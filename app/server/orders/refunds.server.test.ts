import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertTestOrder, orderState, type TestOrder } from '../../../tests/support/orders';
import { changeOrderStatus } from '../admin/orders.server';
import { decidePayments } from '../admin/payments.server';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { applyPaymentNotification } from '../payments/notifications.server';
import { applyTransition } from './lifecycle.server';
import { refundOrder } from './refunds.server';
import { withdrawFromOrder } from './withdrawal.server';

/*
 * Refunds through the order lifecycle: never more than paid minus refunded, a credit note each, the
 * payment status, the e-mail; cancellation and withdrawal give money back in the same step.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';
const databaseUrl = () => process.env.DATABASE_URL as string;
const STAFF = 'system';

/** An order paid by card through the sandbox (its notification, as the gateway sends it). */
async function paidBySandbox(): Promise<TestOrder> {
  const order = await insertTestOrder(databaseUrl());
  const ref = `sbx_${randomUUID()}`;
  await db().execute(sql`
    insert into payments (order_id, provider, provider_ref, amount, status, method)
    values (${order.id}, 'sandbox', ${ref}, ${order.totalCents}, 'pending', 'card')`);
  await applyPaymentNotification({
    provider: 'sandbox',
    eventId: `evt_${randomUUID()}`,
    providerRef: ref,
    orderId: order.id,
    outcome: 'paid',
    amountCents: order.totalCents,
    currency: 'EUR',
    method: 'card',
    raw: {},
  });
  return order;
}

/** An order paid by bank transfer, validated in the back office. */
async function paidByTransfer(): Promise<TestOrder> {
  const order = await insertTestOrder(databaseUrl());
  await db().execute(sql`update orders set payment_method = 'transfer' where id = ${order.id}`);
  await decidePayments([`o:${order.id}`], 'validate', { id: STAFF });
  return order;
}

async function documents(orderId: string) {
  const notes = await db().execute<{ number: string; amount: number }>(
    sql`select number, amount from credit_notes where order_id = ${orderId} order by issued_at, number`,
  );
  const refunds = await db().execute<{ amount: number; method: string; status: string; credit_note_id: string | null }>(
    sql`select amount, method, status, credit_note_id from refunds where order_id = ${orderId} order by created_at`,
  );
  return { creditNotes: notes.rows, refunds: refunds.rows };
}

describe('refundOrder', () => {
  it('refunds part, then the rest, through the gateway: two credit notes, partially refunded then refunded', async () => {
    const order = await paidBySandbox();
    const part = await refundOrder({
      orderId: order.id,
      amountCents: 2_000,
      method: 'gateway',
      reason: 'Photos abîmées',
      actor: STAFF,
    });
    expect(part).toMatchObject({ ok: true, amountCents: 2_000, status: 'succeeded' });
    expect((await orderState(databaseUrl(), order.id)).paymentStatus).toBe('partially_refunded');

    const tooMuch = await refundOrder({
      orderId: order.id,
      amountCents: order.totalCents,
      method: 'gateway',
      reason: 'Tout',
      actor: STAFF,
    });
    expect(tooMuch.ok).toBe(false);

    const rest = await refundOrder({
      orderId: order.id,
      amountCents: order.totalCents - 2_000,
      method: 'gateway',
      reason: 'Commande annulée',
      actor: STAFF,
    });
    expect(rest).toMatchObject({ ok: true });
    const state = await orderState(databaseUrl(), order.id);
    expect(state.paymentStatus).toBe('refunded');
    const { creditNotes, refunds } = await documents(order.id);
    expect(creditNotes.map((n) => n.amount)).toEqual([2_000, order.totalCents - 2_000]);
    expect(refunds.every((r) => r.status === 'succeeded' && r.credit_note_id !== null)).toBe(true);
    expect(state.outbox.filter((m) => m.template === 'refund-issued').map((m) => m.data.amountCents)).toEqual([
      2_000,
      order.totalCents - 2_000,
    ]);
    expect(state.events.filter((e) => e === 'refund_issued')).toHaveLength(2);
    // Nothing more to give back.
    expect(
      await refundOrder({ orderId: order.id, amountCents: 1, method: 'transfer', reason: 'Encore', actor: STAFF }),
    ).toEqual({
      ok: false,
      message: 'Tout ce qui a été payé a déjà été remboursé.',
    });
  });

  it('records a refund made by hand for an order paid by transfer; the gateway is not offered', async () => {
    const order = await paidByTransfer();
    expect(
      await refundOrder({ orderId: order.id, amountCents: 500, method: 'gateway', reason: 'Geste', actor: STAFF }),
    ).toMatchObject({
      ok: false,
    });
    const manual = await refundOrder({
      orderId: order.id,
      amountCents: 500,
      method: 'transfer',
      reason: 'Geste commercial',
      actor: STAFF,
    });
    expect(manual).toMatchObject({ ok: true, amountCents: 500 });
    expect((await documents(order.id)).creditNotes.map((n) => n.amount)).toEqual([500]);
    expect((await orderState(databaseUrl(), order.id)).paymentStatus).toBe('partially_refunded');
  });

  it('refuses an unpaid order, a zero amount and an empty reason, changing nothing', async () => {
    const order = await insertTestOrder(databaseUrl());
    const before = await orderState(databaseUrl(), order.id);
    for (const input of [
      { amountCents: 100, reason: 'Motif' },
      { amountCents: 0, reason: 'Motif' },
      { amountCents: 100, reason: '  ' },
    ]) {
      expect((await refundOrder({ orderId: order.id, method: 'transfer', actor: STAFF, ...input })).ok).toBe(false);
    }
    expect(await orderState(databaseUrl(), order.id)).toEqual(before);
    expect((await documents(order.id)).refunds).toEqual([]);
  });

  it('gives two concurrent refunds of the whole amount only once', async () => {
    const order = await paidBySandbox();
    const both = await Promise.all(
      [1, 2].map(() =>
        refundOrder({
          orderId: order.id,
          amountCents: order.totalCents,
          method: 'gateway',
          reason: 'Double clic',
          actor: STAFF,
        }),
      ),
    );
    expect(both.filter((r) => r.ok)).toHaveLength(1);
    expect((await documents(order.id)).creditNotes).toHaveLength(1);
  });
});

describe('cancelling a paid order', () => {
  it('refunds it in the same step, closes its sessions and revenue no longer counts it', async () => {
    const order = await paidBySandbox();
    const result = await changeOrderStatus({
      refundRight: true,
      orderId: order.id,
      status: 'canceled',
      actor: { id: STAFF },
      refund: { amountCents: order.totalCents, method: 'gateway', reason: 'Annulée à la demande du client' },
    });
    expect(result).toMatchObject({ ok: true, changed: true, refund: { ok: true }, creditNote: { kind: 'issued' } });
    const state = await orderState(databaseUrl(), order.id);
    expect(state).toMatchObject({ status: 'canceled', paymentStatus: 'refunded' });
    expect(state.outbox.map((m) => m.template)).toEqual(['payment-received', 'order-status', 'refund-issued']);
  });

  it('closes the open payment sessions of an unpaid order, so that a late payment is refunded, not invoiced', async () => {
    const order = await insertTestOrder(databaseUrl());
    const ref = `sbx_${randomUUID()}`;
    await db().execute(sql`
      insert into payments (order_id, provider, provider_ref, amount, status, method)
      values (${order.id}, 'sandbox', ${ref}, ${order.totalCents}, 'pending', 'card')`);
    await changeOrderStatus({ refundRight: true, orderId: order.id, status: 'canceled', actor: { id: STAFF } });
    expect((await orderState(databaseUrl(), order.id)).payments).toMatchObject([{ status: 'canceled' }]);
    expect((await orderState(databaseUrl(), order.id)).events).toContain('payment_session_closed');
  });
});

describe('withdrawal with money', () => {
  it('paid and not started: refunded in full at once, with its credit note', async () => {
    const order = await paidBySandbox();
    expect(await withdrawFromOrder({ orderId: order.id, actor: 'customer' })).toMatchObject({ ok: true });
    const state = await orderState(databaseUrl(), order.id);
    expect(state).toMatchObject({ status: 'canceled', paymentStatus: 'refunded' });
    expect((await documents(order.id)).creditNotes.map((n) => n.amount)).toEqual([order.totalCents]);
  });

  it('started at the customer’s request: the staff keep a proportionate amount and refund the rest', async () => {
    const order = await paidBySandbox();
    await changeOrderStatus({ refundRight: true, orderId: order.id, status: 'processing', actor: { id: STAFF } });
    expect(await withdrawFromOrder({ orderId: order.id, actor: 'customer' })).toMatchObject({ ok: true });
    expect(await orderState(databaseUrl(), order.id)).toMatchObject({ status: 'processing', paymentStatus: 'paid' });

    const settled = await applyTransition(order.id, { type: 'settle_withdrawal', keptCents: 3_000 }, STAFF, {
      refundMethod: 'gateway',
      reason: 'Rétractation du client',
    });
    expect(settled.ok).toBe(true);
    expect(await orderState(databaseUrl(), order.id)).toMatchObject({
      status: 'canceled',
      paymentStatus: 'partially_refunded',
    });
    expect((await documents(order.id)).creditNotes.map((n) => n.amount)).toEqual([order.totalCents - 3_000]);
  });

  it('is no longer offered once the service is fully performed', async () => {
    const order = await paidBySandbox();
    await changeOrderStatus({ refundRight: true, orderId: order.id, status: 'completed', actor: { id: STAFF } });
    expect(await withdrawFromOrder({ orderId: order.id, actor: 'customer' })).toMatchObject({
      ok: false,
      reason: 'performed',
    });
  });
});
