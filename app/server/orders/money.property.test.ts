import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OrderStatus } from '~/domain/order-status';
import { refundableCents, statusStepAllowed } from '~/domain/orders/lifecycle';
import { payByCard } from '../../../tests/support/card-payment';
import { insertTestOrder } from '../../../tests/support/orders';
import { changeOrderStatus } from '../admin/orders.server';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { applyTransition, lockOrderState } from './lifecycle.server';
import { receiveParcel } from './reception.server';
import { approveRefund, refundOrder } from './refunds.server';
import { withdrawFromOrder } from './withdrawal.server';

/*
 * The money rules as a property (decision 022): random sequences of what happens to an order
 * (placing a draft, paying by card, transfer or cheque, a failed payment, reception with fewer,
 * as many or more items, the supplement paid or declined, partial and full refunds, withdrawal in
 * its three cases and its settlement, cancellation with or without the refund right, approval of
 * what is owed, the workshop's stages, shipping, publication) run on the real lifecycle and
 * database; after every step the books must balance:
 *  - paid minus refunded equals invoices minus credit notes, per order and over all orders;
 *  - no credit note credits more than what remains of its invoice;
 *  - the payment status says what the money says; what is refunded and owed never exceeds what
 *    was paid;
 *  - every step moves the status only as the table allows (statusStepAllowed);
 *  - no step throws: a refusal is a French message.
 * A fixed seed and number of runs; MONEY_PROPERTY_SEED and MONEY_PROPERTY_RUNS change them, and a
 * failure prints the seed and the path that replays it (fast-check).
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';
const databaseUrl = () => process.env.DATABASE_URL as string;
const STAFF = { id: 'system', name: 'Camille Atelier' };
const TODAY = new Date().toISOString().slice(0, 10);
const SEED = Number(process.env.MONEY_PROPERTY_SEED ?? 20_261_127);
const RUNS = Number(process.env.MONEY_PROPERTY_RUNS ?? 120);

type Method = 'gateway' | 'transfer' | 'cheque';
type Step =
  | { kind: 'place'; method: 'card' | 'transfer' | 'cheque' }
  | { kind: 'pay_card' }
  | { kind: 'pay_offline'; method: 'transfer' | 'cheque' }
  | { kind: 'fail_payment' }
  | { kind: 'receive'; photos: 90 | 100 | 120; canRefund: boolean }
  | { kind: 'pay_supplement' }
  | { kind: 'decline_supplement' }
  | { kind: 'refund'; share: number; method: Method }
  | { kind: 'withdraw' }
  | { kind: 'settle_withdrawal'; keptShare: number; method: Method }
  | { kind: 'cancel'; refundRight: boolean; share: number; method: Method }
  | { kind: 'approve'; method: Method }
  | { kind: 'advance'; to: 'digitising' | 'quality_check' | 'ready' }
  | { kind: 'start' }
  | { kind: 'ship' }
  | { kind: 'publish' };

const method = fc.constantFrom<Method>('gateway', 'transfer', 'cheque');
const share = fc.double({ min: 0, max: 1.1, noNaN: true });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('place' as const), method: fc.constantFrom('card', 'transfer', 'cheque') }),
  { arbitrary: fc.constant({ kind: 'pay_card' as const }), weight: 3 },
  {
    arbitrary: fc.record({ kind: fc.constant('pay_offline' as const), method: fc.constantFrom('transfer', 'cheque') }),
    weight: 2,
  },
  fc.constant({ kind: 'fail_payment' as const }),
  {
    arbitrary: fc.record({
      kind: fc.constant('receive' as const),
      photos: fc.constantFrom(90 as const, 100 as const, 120 as const),
      canRefund: fc.boolean(),
    }),
    weight: 3,
  },
  { arbitrary: fc.constant({ kind: 'pay_supplement' as const }), weight: 2 },
  fc.constant({ kind: 'decline_supplement' as const }),
  { arbitrary: fc.record({ kind: fc.constant('refund' as const), share, method }), weight: 2 },
  fc.constant({ kind: 'withdraw' as const }),
  fc.record({ kind: fc.constant('settle_withdrawal' as const), keptShare: share, method }),
  fc.record({ kind: fc.constant('cancel' as const), refundRight: fc.boolean(), share, method }),
  { arbitrary: fc.record({ kind: fc.constant('approve' as const), method }), weight: 2 },
  fc.record({
    kind: fc.constant('advance' as const),
    to: fc.constantFrom('digitising' as const, 'quality_check' as const, 'ready' as const),
  }),
  fc.constant({ kind: 'start' as const }),
  fc.constant({ kind: 'ship' as const }),
  fc.constant({ kind: 'publish' as const }),
);

/** What may still be given back, as the lifecycle reads it. */
async function refundable(orderId: string): Promise<number> {
  const locked = await db().transaction((tx) => lockOrderState(tx, orderId));
  return locked ? refundableCents(locked.state) : 0;
}

async function openSupplement(orderId: string) {
  const { rows } = await db().execute<{ id: string; amount: number }>(sql`
    select id, amount from order_adjustments where order_id = ${orderId} and status = 'awaiting_customer'`);
  return rows[0] ?? null;
}

const cents = (value: number, part: number) => Math.max(0, Math.round(value * part));

/** Runs one step; a refusal comes back as its message (checked to be French), never as a throw. */
async function run(orderId: string, total: number, action: Step): Promise<string | null> {
  const refusal = (result: { ok: boolean; message?: string; error?: string }) =>
    result.ok ? null : (result.message ?? result.error ?? '');
  switch (action.kind) {
    case 'place':
      return refusal(await applyTransition(orderId, { type: 'place', method: action.method }, 'customer'));
    case 'pay_card':
      await payByCard(orderId, total, null);
      return null;
    case 'pay_offline':
      return refusal(
        await applyTransition(
          orderId,
          { type: 'settle_payment', amountCents: total, currency: 'EUR', method: action.method },
          STAFF.id,
        ),
      );
    case 'fail_payment':
      return refusal(await applyTransition(orderId, { type: 'fail_payment', rejected: true }, STAFF.id));
    case 'receive': {
      const fields = { date: TODAY, 'count-line-0': String(action.photos), 'count-line-1': '2' };
      const input = { orderId, staff: STAFF, canRefund: action.canRefund, fields, photos: [] };
      const first = await receiveParcel(input);
      // Who may refund saw the preview: they confirm the amount shown.
      if (!first.ok && first.confirmRefundCents) {
        return refusal(await receiveParcel({ ...input, confirmedRefundCents: first.confirmRefundCents }));
      }
      return refusal(first);
    }
    case 'pay_supplement': {
      const supplement = await openSupplement(orderId);
      if (supplement) await payByCard(orderId, Number(supplement.amount), supplement.id);
      return null;
    }
    case 'decline_supplement': {
      const supplement = await openSupplement(orderId);
      if (!supplement) return null;
      const transition = {
        type: 'decline_supplement',
        adjustmentId: supplement.id,
        decision: 'digitise_paid',
      } as const;
      return refusal(await applyTransition(orderId, transition, 'customer'));
    }
    case 'refund': {
      const amountCents = Math.max(1, cents(await refundable(orderId), action.share));
      return refusal(
        await refundOrder({ orderId, amountCents, method: action.method, reason: 'Geste', actor: STAFF.id }),
      );
    }
    case 'withdraw':
      return refusal(await withdrawFromOrder({ orderId, actor: 'customer' }));
    case 'settle_withdrawal': {
      const keptCents = cents(await refundable(orderId), action.keptShare);
      const transition = { type: 'settle_withdrawal', keptCents } as const;
      const context = { refundMethod: action.method, reason: 'Rétractation du client' };
      return refusal(await applyTransition(orderId, transition, STAFF.id, context));
    }
    case 'cancel': {
      const amountCents = cents(await refundable(orderId), action.share);
      const result = await changeOrderStatus({
        orderId,
        status: 'canceled',
        actor: { id: STAFF.id },
        refund: { amountCents, method: action.method, reason: 'Commande annulée' },
        refundRight: action.refundRight,
      });
      return result.ok ? null : result.reason === 'refused' ? result.message : 'Commande introuvable';
    }
    case 'approve': {
      const { rows } = await db().execute<{ id: string }>(
        sql`select id from refunds where order_id = ${orderId} and status = 'due' order by created_at limit 1`,
      );
      const due = rows[0];
      if (!due) return null;
      return refusal(await approveRefund({ orderId, refundId: due.id, method: action.method, actor: 'accountant' }));
    }
    case 'advance':
      return refusal(await applyTransition(orderId, { type: 'advance_stage', to: action.to }, STAFF.id));
    case 'start':
      return refusal(await applyTransition(orderId, { type: 'set_status', to: 'processing' }, STAFF.id));
    case 'ship': {
      const transition = { type: 'ship', parcelNumber: '8R00000000001', carrier: 'colissimo' } as const;
      return refusal(await applyTransition(orderId, transition, STAFF.id));
    }
    case 'publish': {
      const expiresAt = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString();
      return refusal(await applyTransition(orderId, { type: 'publish_files', fileCount: 1, expiresAt }, STAFF.id));
    }
  }
}

interface Books {
  orderId: string;
  status: string;
  paymentStatus: string;
  placed: boolean;
  /** The order's total once paid, plus its paid supplements. */
  paid: number;
  invoiced: number;
  credited: number;
  /** Refunds made or being made at the gateway, and owed (due). */
  refunded: number;
  owed: number;
  orderInvoices: number;
  /** Credit notes beyond what remains of their invoice (ids). */
  overCredited: string[];
}

/**
 * The refunds of the order's money: money that reached an order it could not pay was never invoiced
 * and goes back without a credit note (refundUnappliedPayment), outside these books.
 */
const ofTheOrder = sql`refunds r where r.order_id = o.id and (r.payment_id is null or exists (
  select 1 from payments p where p.id = r.payment_id and (p.settles_order or p.adjustment_id is not null)))`;

async function books(orderIds: readonly string[]): Promise<Books[]> {
  const { rows } = await db().execute<Record<string, unknown>>(sql`
    select o.id, o.status, o.payment_status, o.placed_at is not null as placed,
      (case when o.payment_status in ('paid', 'partially_refunded', 'refunded') then o.total_price else 0 end)
        + (select coalesce(sum(j.amount), 0) from order_adjustments j
            where j.order_id = o.id and j.kind = 'supplement' and j.status = 'paid') as paid,
      (select coalesce(sum(i.amount), 0) from invoices i where i.order_id = o.id) as invoiced,
      (select count(*) from invoices i where i.order_id = o.id and i.adjustment_id is null) as order_invoices,
      (select coalesce(sum(c.amount), 0) from credit_notes c where c.order_id = o.id) as credited,
      (select coalesce(sum(r.amount) filter (where r.status in ('pending', 'succeeded')), 0) from ${ofTheOrder}) as refunded,
      (select coalesce(sum(r.amount) filter (where r.status = 'due'), 0) from ${ofTheOrder}) as owed,
      (select coalesce(array_agg(i.number), '{}') from invoices i
        where i.order_id = o.id and i.amount < (select coalesce(sum(c.amount), 0) from credit_notes c
          where c.invoice_id = i.id)) as over_credited
    from orders o where o.id in (${sql.join(
      orderIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
  return rows.map((row) => ({
    orderId: String(row.id),
    status: String(row.status),
    paymentStatus: String(row.payment_status),
    placed: Boolean(row.placed),
    paid: Number(row.paid),
    invoiced: Number(row.invoiced),
    credited: Number(row.credited),
    refunded: Number(row.refunded),
    owed: Number(row.owed),
    orderInvoices: Number(row.order_invoices),
    overCredited: row.over_credited as string[],
  }));
}

/** What is wrong with an order's books, or null. */
function problem(order: Books): string | null {
  if (order.paid - order.refunded !== order.invoiced - order.credited) {
    return `paid ${order.paid} − refunded ${order.refunded} ≠ invoiced ${order.invoiced} − credited ${order.credited}`;
  }
  if (order.overCredited.length > 0) return `credited beyond the invoice: ${order.overCredited.join(', ')}`;
  if (order.refunded + order.owed > order.paid) return `refunded ${order.refunded} + owed ${order.owed} > paid`;
  const wasPaid = ['paid', 'partially_refunded', 'refunded'].includes(order.paymentStatus);
  if (order.orderInvoices !== (wasPaid ? 1 : 0))
    return `${order.orderInvoices} invoices, payment ${order.paymentStatus}`;
  if (order.paymentStatus === 'paid' && order.refunded !== 0) return `« paid » with ${order.refunded} refunded`;
  if (order.paymentStatus === 'partially_refunded' && !(order.refunded > 0 && order.refunded < order.paid)) {
    return `« partially refunded » with ${order.refunded} of ${order.paid}`;
  }
  if (order.paymentStatus === 'refunded' && order.refunded !== order.paid) {
    return `« refunded » with ${order.refunded} of ${order.paid}`;
  }
  if (!order.placed && (order.status !== 'pending' || order.paymentStatus !== 'pending')) {
    return `a draft ${order.status}/${order.paymentStatus}`;
  }
  return null;
}

describe('the money rules over random histories', () => {
  it(`balance after every step (${RUNS} runs, seed ${SEED})`, { timeout: 600_000 }, async () => {
    const ours: string[] = [];
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(step, { minLength: 1, maxLength: 8 }), async (draft, steps) => {
        const order = await insertTestOrder(databaseUrl(), { earlyStartConsent: true });
        ours.push(order.id);
        if (draft) await db().execute(sql`update orders set placed_at = null where id = ${order.id}`);
        let status = (await books([order.id]))[0]?.status as OrderStatus;
        for (const action of steps) {
          const refused = await run(order.id, order.totalCents, action);
          if (refused !== null) expect(refused, JSON.stringify(action)).toMatch(/^[A-ZÀ-Ü«].*[a-zé]/u);
          const [mine] = await books([order.id]);
          expect(mine && problem(mine), JSON.stringify(action)).toBeNull();
          // Every step leaves the order in a status the table lets it reach from the one before.
          const next = mine?.status as OrderStatus;
          const transition = action.kind === 'settle_withdrawal' ? 'settle_withdrawal' : 'set_status';
          expect(statusStepAllowed(status, next, transition), `${status} → ${next} by ${JSON.stringify(action)}`).toBe(
            true,
          );
          status = next;
        }
        // Over every order of the runs so far (the database's own orders are not ours to judge).
        const all = await books(ours);
        const sum = (key: 'paid' | 'refunded' | 'invoiced' | 'credited') =>
          all.reduce((total, row) => total + row[key], 0);
        expect(sum('paid') - sum('refunded')).toBe(sum('invoiced') - sum('credited'));
      }),
      { seed: SEED, numRuns: RUNS, verbose: 1 },
    );
  });
});
