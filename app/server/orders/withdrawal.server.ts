import { and, desc, eq } from 'drizzle-orm';
import { WITHDRAWAL_MESSAGES, withdrawalState } from '~/domain/account/withdrawal';
import {
  originalsState,
  type WithdrawalExplanation,
  withdrawalFollowUp,
  withdrawalOutcome,
  withdrawnCase,
} from '~/domain/account/withdrawal-texts';
import { refundableCents } from '~/domain/orders/lifecycle';
import { type Database, db } from '../db/client.server';
import { orderEvents, orders } from '../db/schema';
import { lockOrderState, readOrderState, withLifecycle } from './lifecycle.server';

/*
 * The customer's withdrawal from an order ("Renoncer au contrat ici", Code de la consommation
 * L221-18): the order lifecycle's `withdraw` transition, whose rule book says what follows. Unpaid:
 * the order is cancelled and its payment sessions closed (nothing is asked to be paid any more).
 * Paid and not started: refunded in full at once (through its gateway; otherwise the back office
 * gets the « à rembourser » alert). Started at the customer's express request: the staff settle the
 * proportionate amount kept (`settle_withdrawal`, from the back office). No longer offered once the
 * service is fully performed. In each case the history entry, the back-office notification and the
 * dated acknowledgement e-mail are written with the change.
 *
 * Callers check who is asking (getOrderForViewer: the owner or the guest holding the order's token).
 */

export type WithdrawalResult =
  | { ok: true; withdrawnAt: Date; orderNumber: string }
  | { ok: false; reason: 'not-found' | 'expired' | 'withdrawn' | 'canceled' | 'performed'; message: string };

export interface WithdrawalRequest {
  orderId: string;
  /** Who asked: the customer's user id, or `guest`. Kept in the order's history. */
  actor: string;
  now?: Date;
  database?: Database;
}

export async function withdrawFromOrder({
  orderId,
  actor,
  now = new Date(),
  database = db(),
}: WithdrawalRequest): Promise<WithdrawalResult> {
  // The lifecycle's use case: the refund owed by a withdrawal goes to its gateway once committed.
  const result = await withLifecycle(async ({ tx, apply }) => {
    const locked = await lockOrderState(tx, orderId);
    if (!locked) return null;
    // The same period as the pages show (domain/account/withdrawal.ts, from the order's date).
    const period = withdrawalState({ createdAt: locked.facts.createdAt, withdrawnAt: null, status: 'pending' }, now);
    return apply(orderId, { type: 'withdraw', withinPeriod: period.kind === 'open' }, actor, {
      now,
      data: { requestedAt: now.toISOString(), statusAtRequest: locked.state.status },
    });
  }, database);
  if (!result) return { ok: false, reason: 'not-found', message: WITHDRAWAL_MESSAGES.notFound };
  if (!result.ok) {
    if (result.code === 'draft') return { ok: false, reason: 'not-found', message: WITHDRAWAL_MESSAGES.notFound };
    // The rule book's refusal of `withdraw`, in the words the customer reads (its messages).
    const reason = result.code as 'expired' | 'withdrawn' | 'canceled' | 'performed';
    return { ok: false, reason, message: result.message };
  }
  return { ok: true, withdrawnAt: now, orderNumber: result.orderNumber };
}

/**
 * What withdrawing means for this order, in words: before the request, what the rule
 * would do now; after it, what it did, from the order as it was when the request reached us (its
 * status then, in the history). Null for an unknown order.
 */
export async function withdrawalWords(
  orderId: string,
  database: Database = db(),
): Promise<WithdrawalExplanation | null> {
  const read = await readOrderState(database, orderId);
  if (!read) return null;
  const { facts, state } = read;
  const [row] = await database.select({ shippedAt: orders.shippedAt }).from(orders).where(eq(orders.id, orderId));
  const originals = { stage: facts.stage, shippedAt: row?.shippedAt ?? null, returnOriginals: facts.returnOriginals };
  if (!facts.withdrawnAt) return withdrawalOutcome({ ...facts, ...originals }, refundableCents(state));
  const [request] = await database
    .select({ from: orderEvents.from })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.kind, 'withdrawal_requested')))
    .orderBy(desc(orderEvents.at))
    .limit(1);
  const which = withdrawnCase(request?.from ?? facts.status, facts.paymentStatus);
  return withdrawalFollowUp(which, originalsState(originals), state.refundedCents + (state.owedCents ?? 0));
}
