import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { LIFECYCLE_MESSAGES } from '~/domain/orders/lifecycle';
import { OPEN_WORK_MESSAGES } from '~/domain/orders/open-work';
import { RECEPTION_MESSAGES } from '~/domain/orders/reception';
import { payByCard } from '../../../tests/support/card-payment';
import { insertTestOrder, orderState, type TestOrder } from '../../../tests/support/orders';
import { db } from '../db/client.server';
import { getOrderDocuments } from '../invoices/invoices.server';
import { log } from '../log.server';
import { applyTransition } from './lifecycle.server';
import {
  loadReception,
  loadReceptionOrder,
  REDUCTION_REASON,
  receiveParcel,
  reductionPreview,
} from './reception.server';

/*
 * « Colis reçu »: the reception re-prices the counted items with the order's own price list; more
 * items ask for a supplement (paid through the gateway: its own invoice), fewer are refunded with a
 * credit note, and the lifecycle's refusals leave nothing behind.
 * The test order: 100 photos (0,35 € each) and 2 VHS tapes, 94,90 €.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';
const databaseUrl = () => process.env.DATABASE_URL as string;
const STAFF = { id: 'system', name: 'Camille Atelier' };
const TODAY = new Date().toISOString().slice(0, 10);

async function paidOrder(): Promise<TestOrder> {
  const order = await insertTestOrder(databaseUrl());
  await payByCard(order.id, order.totalCents);
  return order;
}

const receive = (
  orderId: string,
  photos: number,
  extra: Record<string, string> = {},
  confirmedRefundCents: number | null = null,
) =>
  receiveParcel({
    orderId,
    staff: STAFF,
    canRefund: true,
    confirmedRefundCents,
    fields: { date: TODAY, 'count-line-0': String(photos), 'count-line-1': '2', ...extra },
    photos: [],
  });

async function adjustments(orderId: string) {
  const { rows } = await db().execute<{ id: string; kind: string; amount: number; status: string; decision: string }>(
    sql`select id, kind, amount, status, decision from order_adjustments where order_id = ${orderId} order by created_at`,
  );
  return rows;
}

describe('receiveParcel', () => {
  it('20 more photos: a supplement of 7,00 € asked by e-mail, paid through the sandbox with its own invoice', async () => {
    const order = await paidOrder();
    const result = await receive(order.id, 120, { 'remark-photos': 'moisissures' });
    expect(result).toMatchObject({ ok: true, outcome: 'supplement', recount: { differenceCents: 700 } });

    const [row] = await db()
      .execute<{ stage: string; status: string; due_at: Date | null }>(
        sql`select stage, status, due_at from orders where id = ${order.id}`,
      )
      .then((r) => r.rows);
    expect(row).toMatchObject({ stage: 'received', status: 'processing' });
    expect(row?.due_at).not.toBeNull();
    const [supplement] = await adjustments(order.id);
    expect(supplement).toMatchObject({ kind: 'supplement', amount: 700, status: 'awaiting_customer' });

    const state = await orderState(databaseUrl(), order.id);
    const asked = state.outbox.find((m) => m.template === 'supplement-requested');
    expect(asked?.to).toBe('invite@example.fr');
    expect(state.events).toEqual(expect.arrayContaining(['parcel_received', 'supplement_requested']));

    const view = await loadReception(order.id);
    expect(view).toMatchObject({
      receivedByName: 'Camille Atelier',
      counts: [
        { label: 'Photos papier', ordered: 100, counted: 120 },
        { label: 'Cassettes VHS', ordered: 2, counted: 2 },
      ],
      remarks: [{ group: 'Photos papier', text: 'moisissures' }],
    });

    await payByCard(order.id, 700, supplement?.id ?? null);
    expect((await adjustments(order.id))[0]?.status).toBe('paid');
    const { rows: invoices } = await db().execute<{ number: string; amount: number; adjustment_id: string | null }>(
      sql`select number, amount, adjustment_id from invoices where order_id = ${order.id} order by issued_at`,
    );
    expect(invoices).toHaveLength(2);
    expect(invoices[1]).toMatchObject({ amount: 700, adjustment_id: supplement?.id });
    expect(invoices[1]?.number).not.toBe(invoices[0]?.number);
    // The order's invoice stays the order's (credit notes and the invoice page use it).
    const documents = await getOrderDocuments(order.id);
    expect(documents.invoice?.amountCents).toBe(order.totalCents);
    expect(documents.supplementInvoices.map((invoice) => invoice.amountCents)).toEqual([700]);
    const after = await orderState(databaseUrl(), order.id);
    expect(after.outbox.map((m) => m.template)).toContain('supplement-paid');
    expect(after.paymentStatus).toBe('paid');
    // The back office's notification of the supplement says the supplement's amount, not the order's.
    const { rows: notices } = await db().execute<{ title: string; body: string }>(
      sql`select title, body from notifications where order_id = ${order.id} order by created_at desc, id desc limit 1`,
    );
    expect(notices[0]?.title).toBe(`Supplément payé — commande ${order.number}`);
    expect(notices[0]?.body.replace(/[\u00A0\u202F]/g, ' ')).toBe(
      'Supplément de 7,00 € payé par carte (Bac à sable (paiements de test)).',
    );
  });

  it('a declined supplement is kept in the history with the customer’s choice', async () => {
    const order = await paidOrder();
    await receive(order.id, 110);
    const [supplement] = await adjustments(order.id);
    const declined = await applyTransition(
      order.id,
      { type: 'decline_supplement', adjustmentId: supplement?.id ?? '', decision: 'return_extra' },
      STAFF.id,
    );
    expect(declined.ok).toBe(true);
    expect((await adjustments(order.id))[0]).toMatchObject({ status: 'declined', decision: 'return_extra' });
    expect((await orderState(databaseUrl(), order.id)).events).toContain('supplement_declined');
  });

  it('10 photos short: 3,50 € previewed, then refunded with a partial credit note, « partiellement remboursée »', async () => {
    const order = await paidOrder();
    // Someone with the refund right first sees the amount; nothing is recorded until they confirm it.
    expect(await receive(order.id, 90)).toEqual({
      ok: false,
      status: 409,
      message: reductionPreview(350),
      confirmRefundCents: 350,
    });
    expect((await orderState(databaseUrl(), order.id)).events).not.toContain('parcel_received');
    const result = await receive(order.id, 90, {}, 350);
    expect(result).toMatchObject({ ok: true, outcome: 'reduction', refund: { ok: true } });
    const state = await orderState(databaseUrl(), order.id);
    expect(state.paymentStatus).toBe('partially_refunded');
    const { rows: notes } = await db().execute<{ amount: number; reason: string }>(
      sql`select amount, reason from credit_notes where order_id = ${order.id}`,
    );
    expect(notes).toEqual([{ amount: 350, reason: REDUCTION_REASON }]);
    expect(await adjustments(order.id)).toMatchObject([{ kind: 'reduction', amount: 350, status: 'refunded' }]);
  });

  it('equal counts: received, nothing else', async () => {
    const order = await paidOrder();
    expect(await receive(order.id, 100)).toMatchObject({ ok: true, outcome: 'equal', refund: null });
    expect(await adjustments(order.id)).toEqual([]);
  });

  it('refuses to receive twice, and a supplement on an unpaid order, leaving nothing behind', async () => {
    const order = await paidOrder();
    await receive(order.id, 100);
    expect(await receive(order.id, 100)).toEqual({
      ok: false,
      status: 409,
      message: LIFECYCLE_MESSAGES.alreadyReceived,
    });

    const unpaid = await insertTestOrder(databaseUrl());
    expect(await receive(unpaid.id, 120)).toEqual({
      ok: false,
      status: 409,
      message: LIFECYCLE_MESSAGES.supplementUnpaidOrder,
    });
    const { rows } = await db().execute<{ stage: string; n: number }>(
      sql`select stage, (select count(*)::int from receptions where order_id = ${unpaid.id}) as n
          from orders where id = ${unpaid.id}`,
    );
    expect(rows[0]).toEqual({ stage: 'awaiting_originals', n: 0 });
  });

  it('refuses a refunded or cancelled order in French, and its panel offers no form', async () => {
    const refunded = await paidOrder();
    expect(
      await applyTransition(refunded.id, { type: 'refund', amountCents: refunded.totalCents }, 'system'),
    ).toMatchObject({ ok: true });
    const canceled = await insertTestOrder(databaseUrl(), { status: 'canceled' });
    for (const [order, message] of [
      [refunded, OPEN_WORK_MESSAGES.refunded],
      [canceled, OPEN_WORK_MESSAGES.canceled],
    ] as const) {
      expect(await receive(order.id, 100)).toEqual({ ok: false, status: 409, message });
      expect(await loadReceptionOrder(order.id)).toMatchObject({ stage: 'awaiting_originals', closed: message });
      const { rows } = await db().execute<{ n: number }>(
        sql`select count(*)::int as n from receptions where order_id = ${order.id}`,
      );
      expect(rows[0]).toEqual({ n: 0 });
    }
    expect(await loadReceptionOrder((await paidOrder()).id)).toMatchObject({ closed: null });
  });

  it('refuses bad counts and photos too big in French, and stores good photos', async () => {
    const order = await paidOrder();
    expect(await receive(order.id, -3)).toMatchObject({ ok: false, message: RECEPTION_MESSAGES.count });
    const big = { name: 'colis.jpg', type: 'image/jpeg', content: Buffer.alloc(8 * 1024 * 1024 + 1) };
    const refused = await receiveParcel({
      orderId: order.id,
      staff: STAFF,
      canRefund: true,
      fields: { date: TODAY, 'count-line-0': '100', 'count-line-1': '2' },
      photos: [big],
    });
    expect(refused).toMatchObject({ ok: false, status: 400, message: RECEPTION_MESSAGES.photoTooBig });
    const ok = await receiveParcel({
      orderId: order.id,
      staff: STAFF,
      canRefund: true,
      fields: { date: TODAY, 'count-line-0': '100', 'count-line-1': '2' },
      photos: [{ name: 'colis.png', type: 'image/png', content: Buffer.from([1, 2, 3]) }],
    });
    expect(ok.ok).toBe(true);
    expect((await loadReception(order.id))?.photos).toMatchObject([{ name: 'colis.png' }]);
  });
});
