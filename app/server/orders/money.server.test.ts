import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { payByCard } from '../../../tests/support/card-payment';
import { insertTestOrder, orderState, type TestOrder } from '../../../tests/support/orders';
import { changeOrderStatus } from '../admin/orders.server';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { applyTransition } from './lifecycle.server';
import { receiveParcel } from './reception.server';
import { approveRefund } from './refunds.server';
import { withdrawFromOrder } from './withdrawal.server';

/*
 * Money operations over several invoices (decision 022): an order paid, then its reception
 * supplement paid (its own invoice), then given back. Each credit note names one invoice and never
 * credits more than what remains of it; the gateway gives back each payment at most its amount.
 * The test order: 94,90 €; 20 more photos counted at reception: a supplement of 7,00 €.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';
const databaseUrl = () => process.env.DATABASE_URL as string;
const STAFF = { id: 'system', name: 'Camille Atelier' };
const TODAY = new Date().toISOString().slice(0, 10);

/** Paid by card, received with 120 photos instead of 100, its 7,00 € supplement paid by card. */
async function paidWithSupplement(): Promise<TestOrder> {
  const order = await insertTestOrder(databaseUrl());
  await payByCard(order.id, order.totalCents);
  const received = await receiveParcel({
    orderId: order.id,
    staff: STAFF,
    canRefund: true,
    fields: { date: TODAY, 'count-line-0': '120', 'count-line-1': '2' },
    photos: [],
  });
  expect(received).toMatchObject({ ok: true, outcome: 'supplement' });
  const { rows } = await db().execute<{ id: string }>(
    sql`select id from order_adjustments where order_id = ${order.id} and kind = 'supplement'`,
  );
  await payByCard(order.id, 700, rows[0]?.id ?? null);
  return order;
}

async function money(orderId: string) {
  const { rows: notes } = await db().execute<{ amount: number; invoice: string; invoice_amount: number }>(sql`
    select c.amount, i.number as invoice, i.amount as invoice_amount
    from credit_notes c join invoices i on i.id = c.invoice_id
    where c.order_id = ${orderId} order by i.issued_at, c.issued_at`);
  const { rows: refunds } = await db().execute<{ amount: number; status: string; payment_amount: number | null }>(sql`
    select r.amount, r.status, p.amount as payment_amount
    from refunds r left join payments p on p.id = r.payment_id
    where r.order_id = ${orderId} order by r.created_at, r.amount desc`);
  return { notes, refunds };
}

describe('money over an order and its supplement', () => {
  it('settling a withdrawal refunds both payments, with a credit note on each invoice', async () => {
    const order = await paidWithSupplement();
    expect(await withdrawFromOrder({ orderId: order.id, actor: 'customer' })).toMatchObject({ ok: true });

    const settled = await applyTransition(order.id, { type: 'settle_withdrawal', keptCents: 0 }, STAFF.id, {
      refundMethod: 'gateway',
      reason: 'Rétractation du client',
    });
    expect(settled.ok).toBe(true);
    if (!settled.ok) return;
    expect(settled.refundResults).toEqual([expect.objectContaining({ ok: true })]);

    const state = await orderState(databaseUrl(), order.id);
    expect(state).toMatchObject({ status: 'canceled', paymentStatus: 'refunded' });
    const { notes, refunds } = await money(order.id);
    // One credit note per invoice, each for what that invoice was.
    expect(notes.map((n) => [n.amount, n.invoice_amount])).toEqual([
      [order.totalCents, order.totalCents],
      [700, 700],
    ]);
    // The gateway gave back each card payment its own amount.
    expect(refunds.map((r) => [r.amount, r.status, r.payment_amount])).toEqual([
      [order.totalCents, 'succeeded', order.totalCents],
      [700, 'succeeded', 700],
    ]);
  });

  it('keeping part of it: the refund credits the order’s invoice first, then the supplement’s', async () => {
    const order = await paidWithSupplement();
    await withdrawFromOrder({ orderId: order.id, actor: 'customer' });
    const kept = 4_000;
    const settled = await applyTransition(order.id, { type: 'settle_withdrawal', keptCents: kept }, STAFF.id, {
      refundMethod: 'transfer',
      reason: 'Rétractation du client',
    });
    expect(settled.ok).toBe(true);
    const state = await orderState(databaseUrl(), order.id);
    expect(state).toMatchObject({ status: 'canceled', paymentStatus: 'partially_refunded' });
    const { notes } = await money(order.id);
    const refunded = order.totalCents + 700 - kept;
    expect(notes.reduce((sum, n) => sum + n.amount, 0)).toBe(refunded);
    for (const note of notes) expect(note.amount).toBeLessThanOrEqual(note.invoice_amount);
  });
});

async function owed(orderId: string) {
  const { rows } = await db().execute<{ id: string; amount: number; status: string; last_error: string | null }>(
    sql`select id, amount, status, last_error from refunds where order_id = ${orderId} order by created_at`,
  );
  const { rows: alerts } = await db().execute<{ title: string; body: string }>(
    sql`select title, body from notifications where order_id = ${orderId} and status = 'refund_due'`,
  );
  return { refunds: rows, alerts };
}

describe('money owed back: « à rembourser », then approved', () => {
  it('a paid order cancelled by someone without the refund right is owed back, for the accountant to approve', async () => {
    const order = await insertTestOrder(databaseUrl());
    await payByCard(order.id, order.totalCents);
    // The refund fields a workshop member may still post are not theirs to decide.
    const cancelled = await changeOrderStatus({
      orderId: order.id,
      status: 'canceled',
      actor: { id: STAFF.id },
      refund: { amountCents: 100, method: 'gateway', reason: 'Essai' },
      refundRight: false,
    });
    expect(cancelled).toMatchObject({ ok: true, changed: true, refund: null, creditNote: { kind: 'none' } });
    expect(await orderState(databaseUrl(), order.id)).toMatchObject({ status: 'canceled', paymentStatus: 'paid' });
    const before = await owed(order.id);
    expect(before.refunds).toMatchObject([{ amount: order.totalCents, status: 'due' }]);
    expect(before.alerts).toMatchObject([{ title: `À rembourser — commande ${order.number}` }]);
    expect((await money(order.id)).notes).toEqual([]);

    const refundId = before.refunds[0]?.id ?? '';
    const approved = await approveRefund({ orderId: order.id, refundId, method: 'gateway', actor: 'accountant' });
    expect(approved).toMatchObject({ ok: true, amountCents: order.totalCents });
    expect(await orderState(databaseUrl(), order.id)).toMatchObject({ paymentStatus: 'refunded' });
    expect((await money(order.id)).notes.map((n) => n.amount)).toEqual([order.totalCents]);
    // Approved once: a second click finds nothing owed.
    expect(await approveRefund({ orderId: order.id, refundId, method: 'gateway', actor: 'accountant' })).toEqual({
      ok: false,
      message: 'Ce remboursement n’est plus à faire.',
    });
  });

  it('a refund the gateway refuses leaves the cancellation with the money « à rembourser », retried by hand', async () => {
    const order = await insertTestOrder(databaseUrl());
    // Stripe without keys: its refund is refused at once (as when it cannot be reached).
    await payByCard(order.id, order.totalCents, null, 'stripe');
    const cancelled = await changeOrderStatus({
      orderId: order.id,
      status: 'canceled',
      actor: { id: STAFF.id },
      refund: { amountCents: order.totalCents, method: 'gateway', reason: 'Annulée' },
      refundRight: true,
    });
    expect(cancelled).toMatchObject({ ok: true, changed: true, refund: { ok: false } });
    // Not half done: cancelled, the money owed and said so; no credit note for money not given back.
    expect(await orderState(databaseUrl(), order.id)).toMatchObject({ status: 'canceled', paymentStatus: 'paid' });
    const { refunds, alerts } = await owed(order.id);
    expect(refunds).toMatchObject([{ amount: order.totalCents, status: 'due' }]);
    expect(refunds[0]?.last_error).toMatch(/^Stripe a refusé le remboursement/);
    expect(alerts).toHaveLength(1);
    expect((await money(order.id)).notes).toEqual([]);

    const byTransfer = await approveRefund({
      orderId: order.id,
      refundId: refunds[0]?.id ?? '',
      method: 'transfer',
      actor: 'accountant',
    });
    expect(byTransfer).toMatchObject({ ok: true, status: 'succeeded' });
    expect(await orderState(databaseUrl(), order.id)).toMatchObject({ paymentStatus: 'refunded' });
    expect((await money(order.id)).notes.map((n) => n.amount)).toEqual([order.totalCents]);
  });

  it('10 photos short counted by the workshop: the reduction waits for approval, then is refunded', async () => {
    const order = await insertTestOrder(databaseUrl());
    await payByCard(order.id, order.totalCents);
    const received = await receiveParcel({
      orderId: order.id,
      staff: STAFF,
      canRefund: false,
      fields: { date: TODAY, 'count-line-0': '90', 'count-line-1': '2' },
      photos: [],
    });
    expect(received).toMatchObject({
      ok: true,
      outcome: 'reduction',
      refund: { ok: false, toApprove: true, amountCents: 350 },
    });
    const { rows: reductions } = await db().execute<{ status: string; amount: number }>(
      sql`select status, amount from order_adjustments where order_id = ${order.id} and kind = 'reduction'`,
    );
    expect(reductions).toEqual([{ status: 'refund_due', amount: 350 }]);
    const { refunds, alerts } = await owed(order.id);
    expect(refunds).toMatchObject([{ amount: 350, status: 'due' }]);
    expect(alerts[0]?.body).toContain('3,50');
    expect(await orderState(databaseUrl(), order.id)).toMatchObject({ paymentStatus: 'paid' });

    await approveRefund({ orderId: order.id, refundId: refunds[0]?.id ?? '', method: 'gateway', actor: 'accountant' });
    expect(await orderState(databaseUrl(), order.id)).toMatchObject({ paymentStatus: 'partially_refunded' });
    const { rows: after } = await db().execute<{ status: string }>(
      sql`select status from order_adjustments where order_id = ${order.id} and kind = 'reduction'`,
    );
    expect(after).toEqual([{ status: 'refunded' }]);
    expect((await money(order.id)).notes.map((n) => n.amount)).toEqual([350]);
  });
});
