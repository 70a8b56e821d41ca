import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { refundableCents } from '~/domain/orders/lifecycle';
import { PAYMENT_MESSAGES } from '~/domain/payments/messages';
import { payByCard } from '../../../tests/support/card-payment';
import { insertTestOrder } from '../../../tests/support/orders';
import { changeOrderStatus } from '../admin/orders.server';
import { CLIENT_IP_HEADER } from '../auth/auth.server';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { applyTransition, lockOrderState } from '../orders/lifecycle.server';
import { approveRefund, refundOrder } from '../orders/refunds.server';
import { withdrawFromOrder } from '../orders/withdrawal.server';
import { confirmCheckout } from '../payments/offline.server';
import { ensureDefaultPriceList } from '../seed/price-list.server';
import { expireGiftCards } from './gift-card-housekeeping.server';
import { insertBuyer, paidGiftCard } from './testing/gift-cards';

/*
 * A gift card's money as a property (decision 037): random histories of one card spent on a few
 * orders (part or all of what they ask, through the checkout's own path), the rest paid by card or
 * by transfer, refunds of any share, cancellations with or without the refund right, approvals,
 * withdrawals, and the card's expiry, run on the real lifecycle and database. After every step:
 *  - the card's balance is never negative and never more than it was issued with; what an order
 *    holds of it is never negative and never more than the order;
 *  - every order's books balance with the card in them: paid − refunded = invoiced − credited +
 *    what the card still pays of a paid order (the card's part is invoiced at the card's sale);
 *  - nothing is refunded or owed beyond what paid the order;
 *  - no step throws: a refusal is a French message.
 * A fixed seed and number of runs; GIFT_CARD_PROPERTY_SEED and GIFT_CARD_PROPERTY_RUNS change them.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';
const databaseUrl = () => process.env.DATABASE_URL as string;
const SEED = Number(process.env.GIFT_CARD_PROPERTY_SEED ?? 20_261_129);
const RUNS = Number(process.env.GIFT_CARD_PROPERTY_RUNS ?? 60);
const ORDERS = 3;

type Method = 'gateway' | 'transfer' | 'cheque';
type Step =
  | { kind: 'spend'; order: number; share: number; method: 'card' | 'transfer' }
  | { kind: 'pay_card'; order: number }
  | { kind: 'pay_transfer'; order: number }
  | { kind: 'refund'; order: number; share: number }
  | { kind: 'cancel'; order: number; refundRight: boolean; share: number }
  | { kind: 'approve'; order: number; method: Method }
  | { kind: 'withdraw'; order: number }
  | { kind: 'expire' };

const order = fc.integer({ min: 0, max: ORDERS - 1 });
const share = fc.double({ min: 0, max: 1.1, noNaN: true });
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('spend' as const),
      order,
      share,
      method: fc.constantFrom('card' as const, 'transfer' as const),
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ kind: fc.constant('pay_card' as const), order }), weight: 3 },
  fc.record({ kind: fc.constant('pay_transfer' as const), order }),
  { arbitrary: fc.record({ kind: fc.constant('refund' as const), order, share }), weight: 2 },
  fc.record({ kind: fc.constant('cancel' as const), order, refundRight: fc.boolean(), share }),
  fc.record({
    kind: fc.constant('approve' as const),
    order,
    method: fc.constantFrom<Method>('gateway', 'transfer', 'cheque'),
  }),
  fc.record({ kind: fc.constant('withdraw' as const), order }),
  { arbitrary: fc.constant({ kind: 'expire' as const }), weight: 1 },
);

const cents = (value: number, part: number) => Math.max(0, Math.round(value * part));

async function lifecycleState(orderId: string) {
  const locked = await db().transaction((tx) => lockOrderState(tx, orderId));
  if (!locked) throw new Error(`no order ${orderId}`);
  return locked;
}

async function run(card: { cardId: string; code: string }, orderIds: string[], action: Step): Promise<string | null> {
  const refusal = (result: { ok: boolean; message?: string }) => (result.ok ? null : (result.message ?? ''));
  if (action.kind === 'expire') {
    const { rows } = await db().execute<{ at: Date }>(
      sql`select expires_at + interval '1 minute' as at from gift_cards where id = ${card.cardId}`,
    );
    await expireGiftCards(new Date(rows[0]?.at as Date));
    return null;
  }
  const orderId = orderIds[action.order] as string;
  switch (action.kind) {
    case 'spend': {
      const { state } = await lifecycleState(orderId);
      const due = state.totalCents - (state.giftCardCents ?? 0);
      const amount = cents(due, action.share);
      try {
        await confirmCheckout({
          orderId,
          method: action.method,
          actor: 'customer',
          accessToken: null,
          giftCard: {
            typed: card.code,
            amount: amount > 0 ? (amount / 100).toFixed(2).replace('.', ',') : '',
            request: new Request('https://www.soovenirs.test/checkout', {
              headers: { [CLIENT_IP_HEADER]: `10.1.${action.order}.${Math.floor(Math.random() * 250)}` },
            }),
            userId: null,
          },
        });
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    }
    case 'pay_card': {
      const { facts } = await lifecycleState(orderId);
      // No gateway session opens for nothing to pay (createCheckout refuses it).
      if (facts.amountDueCents <= 0) return PAYMENT_MESSAGES.nothingToPay;
      await payByCard(orderId, facts.amountDueCents);
      return null;
    }
    case 'pay_transfer': {
      const { facts } = await lifecycleState(orderId);
      return refusal(
        await applyTransition(
          orderId,
          { type: 'settle_payment', amountCents: facts.amountDueCents, currency: 'EUR', method: 'transfer' },
          'system',
        ),
      );
    }
    case 'refund': {
      const { state } = await lifecycleState(orderId);
      const amountCents = Math.max(1, cents(refundableCents(state), action.share));
      const method = state.paymentMethod === 'card' ? 'gateway' : 'transfer';
      return refusal(await refundOrder({ orderId, amountCents, method, reason: 'Geste', actor: 'system' }));
    }
    case 'cancel': {
      const { state } = await lifecycleState(orderId);
      const result = await changeOrderStatus({
        orderId,
        status: 'canceled',
        actor: { id: 'system' },
        refund: {
          amountCents: cents(refundableCents(state), action.share),
          method: state.paymentMethod === 'card' ? 'gateway' : 'transfer',
          reason: 'Commande annulée',
        },
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
    case 'withdraw':
      return refusal(await withdrawFromOrder({ orderId, actor: 'customer' }));
  }
}

/** The card: issued, balance, and what each order holds of it (spent − restored). */
async function cardBooks(cardId: string) {
  const { rows } = await db().execute<{
    issued: number;
    balance: number;
    held: Array<{ order: string; cents: number }>;
  }>(sql`
    select
      (select coalesce(sum(amount), 0)::int from gift_card_ledger where card_id = ${cardId} and kind = 'issued') as issued,
      (select coalesce(sum(case when kind in ('issued', 'restored') then amount else -amount end), 0)::int
        from gift_card_ledger where card_id = ${cardId}) as balance,
      (select coalesce(json_agg(json_build_object('order', h.order_id, 'cents', h.cents)), '[]')
        from (select order_id, sum(case when kind = 'spent' then amount else -amount end)::int as cents
          from gift_card_ledger where card_id = ${cardId} and kind in ('spent', 'restored') group by order_id) h) as held`);
  return rows[0] as { issued: number; balance: number; held: Array<{ order: string; cents: number }> };
}

/**
 * The refunds of the order's money: money that reached an order it could not pay (paid twice, say)
 * was never invoiced and goes back without a credit note (refundUnappliedPayment), outside these books.
 */
const ofTheOrder = sql`refunds r where r.order_id = o.id and (r.payment_id is null or exists (
  select 1 from payments p where p.id = r.payment_id and (p.settles_order or p.adjustment_id is not null)))`;

/** An order's books with its card: what is wrong, or null. */
async function orderProblem(orderId: string, heldCents: number): Promise<string | null> {
  const { rows } = await db().execute<Record<string, number | string>>(sql`
    select o.payment_status, o.total_price,
      (case when o.payment_status in ('paid', 'partially_refunded', 'refunded') then o.total_price else 0 end) as paid,
      (select coalesce(sum(i.amount), 0)::int from invoices i where i.order_id = o.id) as invoiced,
      (select coalesce(sum(c.amount), 0)::int from credit_notes c where c.order_id = o.id) as credited,
      (select coalesce(sum(r.amount) filter (where r.status in ('pending', 'succeeded')), 0)::int from ${ofTheOrder}) as refunded,
      (select coalesce(sum(r.amount) filter (where r.status = 'due'), 0)::int from ${ofTheOrder}) as owed
    from orders o where o.id = ${orderId}`);
  const row = rows[0] as Record<string, number | string>;
  const [paid, invoiced, credited, refunded, owed, total] = [
    'paid',
    'invoiced',
    'credited',
    'refunded',
    'owed',
    'total_price',
  ].map((key) => Number(row[key])) as [number, number, number, number, number, number];
  const wasPaid = paid > 0;
  if (heldCents < 0 || heldCents > total) return `the card holds ${heldCents} of an order of ${total}`;
  const cardPart = wasPaid ? heldCents : 0;
  if (paid - refunded !== invoiced - credited + cardPart) {
    return `paid ${paid} − refunded ${refunded} ≠ invoiced ${invoiced} − credited ${credited} + card ${cardPart}`;
  }
  if (refunded + owed > paid) return `refunded ${refunded} + owed ${owed} > paid ${paid}`;
  return null;
}

beforeAll(async () => {
  await ensureDefaultPriceList();
});

describe('a gift card’s money over random histories', () => {
  it(`balances after every step (${RUNS} runs, seed ${SEED})`, { timeout: 600_000 }, async () => {
    const buyer = await insertBuyer();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 20_000 }),
        fc.array(step, { minLength: 1, maxLength: 10 }),
        async (issuedCents, steps) => {
          const card = await paidGiftCard(buyer, { amountCents: Math.max(2000, issuedCents) });
          const orderIds: string[] = [];
          for (let i = 0; i < ORDERS; i += 1)
            orderIds.push((await insertTestOrder(databaseUrl(), { extraCents: i * 1000 })).id);
          for (const action of steps) {
            const refused = await run(card, orderIds, action);
            if (refused !== null) expect(refused, JSON.stringify(action)).toMatch(/^[A-ZÀ-Ü«].*[a-zé]/u);
            const books = await cardBooks(card.cardId);
            expect(books.balance, JSON.stringify(action)).toBeGreaterThanOrEqual(0);
            expect(books.balance, JSON.stringify(action)).toBeLessThanOrEqual(books.issued);
            for (const orderId of orderIds) {
              const held = books.held.find((entry) => entry.order === orderId)?.cents ?? 0;
              expect(
                await orderProblem(orderId, held),
                `${JSON.stringify(action)} on ${orderIds.indexOf(orderId)}`,
              ).toBeNull();
            }
          }
        },
      ),
      { seed: SEED, numRuns: RUNS, verbose: 1 },
    );
  });
});
