import { and, asc, eq, isNotNull, or, sql } from 'drizzle-orm';
import { formatEurosFromCents } from '~/domain/format';
import { allocate } from '~/domain/orders/allocation';
import { decide } from '~/domain/orders/lifecycle';
import { PAYMENT_PROVIDER_LABELS, type PaymentProviderName } from '~/domain/payments/payment-config';
import { countRefund } from '~/server/observability/metrics.server';
import { db, type Tx } from '../db/client.server';
import { notifications, orderEvents, payments, refunds } from '../db/schema';
import { refusalCreditsLeft } from '../invoices/invoices.server';
import { log } from '../log.server';
import { refundAtGateway, supportsRefund } from '../payments/refunds.server';
import {
  type Actor,
  applyTransitionInTx,
  giftCardShareOfRefund,
  lockOrderState,
  type RefundResult,
} from './transition.server';

export type { RefundResult };

/*
 * Giving money back (docs/payments.md; decision 022). A refund is never more than what was
 * paid minus what was refunded or is owed (the rule book's `refund` guard), and each one gets its
 * credit notes (one per invoice it credits). Money and records cannot disagree:
 *  1. a `refunds` row `due` (« à rembourser ») reserves the amount, under the order's lock: written
 *     by the refund form here, or by the lifecycle's change that owes money (cancellation,
 *     withdrawal, a reduction at reception) in that change's own transaction;
 *  2. making it (`makeRefund`): by hand (transfer, cheque), the row and the lifecycle's `refund`
 *     transition (payment status, credit notes, e-mail, history) in one transaction; through the
 *     gateway, the row is split over the card payments that can take it back (the order's, its
 *     supplements'), each asked outside any transaction with the row's id as idempotency key (a
 *     retry never refunds twice), then recorded by the `refund` transition;
 *  3. when the gateway refuses: a refund the staff asked for from the form is `failed` (nothing is
 *     owed by it, the order is as it was); money owed by a change stays `due` with the reason, the
 *     « à rembourser » alert and a retry (`approveRefund`).
 *
 * Money that reached an order it could not pay (cancelled, withdrawn, already paid, another amount)
 * was never invoiced: `refundUnappliedPayment` gives it back without a credit note.
 */

/** `gift_card`: back to the gift card that paid part of the order (decision 037), never chosen in a form. */
export type RefundMethod = 'gateway' | 'transfer' | 'cheque' | 'gift_card';

export const REFUND_MESSAGES = {
  notFound: 'Commande introuvable',
  noGatewayPayment:
    'Cette commande n’a pas été payée en ligne : enregistrez le remboursement par virement ou par chèque.',
  gatewayTooSmall: (max: number) =>
    `Seuls ${formatEurosFromCents(max)} peuvent être remboursés en ligne : enregistrez le reste par virement ou par chèque.`,
  gatewayUnsupported: (provider: string) =>
    `${provider} ne permet pas de rembourser depuis la boutique : remboursez depuis son espace marchand, puis enregistrez le remboursement par virement ou par chèque.`,
  gatewayFailed: (provider: string, detail: string) => `${provider} a refusé le remboursement : ${detail}`,
  reasonRequired: 'Indiquez le motif du remboursement.',
  notDue: 'Ce remboursement n’est plus à faire.',
  refusalCreditFirst: (max: number, creditNote: string) =>
    `Remboursez d’abord au plus ${formatEurosFromCents(max)}, l’avoir ${creditNote} de la facture refusée par l’acheteur, puis le reste.`,
} as const;

/** The staff's refund form: reserves the amount, then makes it; a refusal leaves the order as it was. */
export async function refundOrder(input: {
  orderId: string;
  amountCents: number;
  method: RefundMethod;
  reason: string;
  actor: Actor;
}): Promise<RefundResult> {
  const reason = input.reason.trim();
  if (reason === '') return { ok: false, message: REFUND_MESSAGES.reasonRequired };
  const reserved = await db().transaction(async (tx): Promise<{ refundIds: string[] } | { message: string }> => {
    const locked = await lockOrderState(tx, input.orderId);
    if (!locked) return { message: REFUND_MESSAGES.notFound };
    const check = decide(locked.state, { type: 'refund', amountCents: input.amountCents });
    if (!check.ok) return { message: check.message };
    // What a gift card paid goes back to it first (decision 037); the rest the way the staff chose.
    const toCard = await giftCardShareOfRefund(tx, locked.facts, input.amountCents, new Date());
    // Money a buyer's refusal credited is given back under its credit note, one at a time (decision 047).
    const [refused, other] = await refusalCreditsLeft(tx, input.orderId);
    if (refused && other && input.amountCents - toCard > refused.leftCents) {
      return { message: REFUND_MESSAGES.refusalCreditFirst(refused.leftCents, refused.number) };
    }
    const parts = [
      { method: 'gift_card' as const, amountCents: toCard },
      { method: input.method, amountCents: input.amountCents - toCard },
    ].filter((part) => part.amountCents > 0);
    const refundIds: string[] = [];
    for (const part of parts) {
      const [row] = await tx
        .insert(refunds)
        .values({ orderId: input.orderId, ...part, reason, actor: input.actor, status: 'due' })
        .returning({ id: refunds.id });
      if (!row) throw new Error('refunds: the insert returned no row');
      refundIds.push(row.id);
    }
    return { refundIds };
  });
  if (!('refundIds' in reserved)) return { ok: false, message: reserved.message };
  const results: RefundResult[] = [];
  for (const refundId of reserved.refundIds) {
    results.push(await makeRefund({ refundId, method: input.method, actor: input.actor, onFailure: 'fail' }));
  }
  return combinedRefund(results);
}

/** One answer for the parts of one refund (the gift card's, then the money's): the first failure, else their sum. */
function combinedRefund(results: RefundResult[]): RefundResult {
  const failed = results.find((result) => !result.ok);
  if (failed) return failed;
  const made = results.filter((result): result is Extract<RefundResult, { ok: true }> => result.ok);
  const [first] = made;
  if (!first) return { ok: false, message: REFUND_MESSAGES.notFound };
  return {
    ...first,
    amountCents: made.reduce((sum, result) => sum + result.amountCents, 0),
    creditNoteNumber: made.find((result) => result.creditNoteNumber)?.creditNoteNumber ?? null,
    status: made.some((result) => result.status === 'pending') ? 'pending' : 'succeeded',
  };
}

/** Makes a refund the lifecycle reserved with an approved change (after its commit). */
export function makeDueRefund(input: { refundId: string; method: RefundMethod; actor: Actor }): Promise<RefundResult> {
  return makeRefund({ ...input, onFailure: 'due' });
}

/**
 * « Approuver le remboursement »: someone with the refund right makes a refund owed by the order
 * (a reduction at reception, a cancellation by the workshop, a gateway's refusal to retry).
 */
export async function approveRefund(input: {
  orderId: string;
  refundId: string;
  method: RefundMethod;
  actor: Actor;
}): Promise<RefundResult> {
  const [row] = await db()
    .select({ orderId: refunds.orderId, status: refunds.status })
    .from(refunds)
    .where(eq(refunds.id, input.refundId));
  if (!row || row.orderId !== input.orderId) return { ok: false, message: REFUND_MESSAGES.notFound };
  if (row.status !== 'due') return { ok: false, message: REFUND_MESSAGES.notDue };
  return makeRefund({ refundId: input.refundId, method: input.method, actor: input.actor, onFailure: 'due' });
}

/** The money still owed back on an order (refunds `due`), for the order dialog. */
export async function dueRefunds(orderId: string) {
  return db()
    .select({
      id: refunds.id,
      amountCents: refunds.amountCents,
      reason: refunds.reason,
      lastError: refunds.lastError,
      createdAt: refunds.createdAt,
    })
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.status, 'due')))
    .orderBy(asc(refunds.createdAt));
}

interface GatewayPart {
  refundId: string;
  amountCents: number;
  payment: { id: string; provider: PaymentProviderName; providerRef: string; raw: unknown };
}

type Prepared =
  | { kind: 'done'; result: RefundResult }
  | { kind: 'gateway'; parts: GatewayPart[]; orderId: string; reason: string; adjustmentId: string | null };

interface MakeRefund {
  refundId: string;
  method: RefundMethod;
  actor: Actor;
  /** `fail`: the staff's own request, dropped when it cannot be made; `due`: owed, stays « à rembourser ». */
  onFailure: 'fail' | 'due';
}

async function makeRefund(input: MakeRefund): Promise<RefundResult> {
  const result = await refundWhole(input);
  countRefund(input.method, result.ok ? result.status : result.due ? 'due' : 'failed');
  return result;
}

async function refundWhole(input: MakeRefund): Promise<RefundResult> {
  const prepared = await db().transaction((tx) => prepare(tx, input));
  if (prepared.kind === 'done') return prepared.result;
  const outcomes: RefundResult[] = [];
  for (const part of prepared.parts) outcomes.push(await refundPart(part, prepared, input));
  const failed = outcomes.find((outcome) => !outcome.ok);
  if (failed) return failed;
  const [first] = outcomes;
  if (!first?.ok) return { ok: false, message: REFUND_MESSAGES.notFound };
  return {
    ...first,
    amountCents: prepared.parts.reduce((sum, part) => sum + part.amountCents, 0),
    status: outcomes.some((outcome) => outcome.ok && outcome.status === 'pending') ? 'pending' : 'succeeded',
  };
}

/**
 * Under the order's lock: a refund by hand is made and recorded here, whole; one through the gateway
 * is split over the card payments that can take it back (each at most what remains of it).
 */
async function prepare(tx: Tx, input: MakeRefund): Promise<Prepared> {
  // The order's lock first, as every change of its money takes it, then the refund's row.
  const [owner] = await tx.select({ orderId: refunds.orderId }).from(refunds).where(eq(refunds.id, input.refundId));
  if (!owner) return { kind: 'done', result: { ok: false, message: REFUND_MESSAGES.notFound } };
  const locked = await lockOrderState(tx, owner.orderId, { refundId: input.refundId });
  if (!locked) return { kind: 'done', result: { ok: false, message: REFUND_MESSAGES.notFound } };
  const [row] = await tx.select().from(refunds).where(eq(refunds.id, input.refundId)).for('update');
  if (row?.status !== 'due') return { kind: 'done', result: { ok: false, message: REFUND_MESSAGES.notDue } };
  // A gift card's part goes back to that card, whatever way the rest goes (decision 037).
  const method = row.method === 'gift_card' ? 'gift_card' : input.method;
  const toGiftCard = method === 'gift_card';
  const check = decide(locked.state, { type: 'refund', amountCents: row.amountCents, toGiftCard });
  if (!check.ok) return { kind: 'done', result: { ok: false, message: check.message } };

  if (method !== 'gateway') {
    await tx
      .update(refunds)
      .set({ method, status: 'succeeded', lastError: null, updatedAt: sql`now()` })
      .where(eq(refunds.id, row.id));
    const applied = await applyTransitionInTx(
      tx,
      row.orderId,
      { type: 'refund', amountCents: row.amountCents, toGiftCard },
      input.actor,
      {
        refundId: row.id,
        reason: row.reason,
        refundMethod: method,
        data: { method, provider: null, gatewayRef: null },
      },
    );
    // Refused under the same lock that checked it: cannot happen, and must not leave half a refund.
    if (!applied.ok) throw new Error(`refund ${row.id}: ${applied.message}`);
    const result: RefundResult = {
      ok: true,
      refundId: row.id,
      amountCents: row.amountCents,
      creditNoteNumber: applied.creditNote?.number ?? null,
      status: 'succeeded',
    };
    return { kind: 'done', result };
  }

  const cards = await refundablePayments(tx, row.orderId);
  const plan = allocate(
    row.amountCents,
    cards.map((card) => card.remaining),
  );
  if (!plan) {
    const online = cards.reduce((sum, card) => sum + card.remaining, 0);
    const message = online > 0 ? REFUND_MESSAGES.gatewayTooSmall(online) : REFUND_MESSAGES.noGatewayPayment;
    await setAside(tx, { ...row, actor: input.actor }, input.onFailure, message);
    return { kind: 'done', result: { ok: false, message, due: input.onFailure === 'due' } };
  }
  const parts: GatewayPart[] = [];
  for (const [index, amountCents] of plan.entries()) {
    const card = cards[index];
    if (!card || amountCents === 0) continue;
    const values = {
      method: 'gateway' as const,
      paymentId: card.id,
      amountCents,
      lastError: null,
    };
    let refundId = row.id;
    if (parts.length === 0) {
      await tx
        .update(refunds)
        .set({ ...values, status: 'pending', updatedAt: sql`now()` })
        .where(eq(refunds.id, row.id));
    } else {
      // The other payments' parts stay owed until their turn: recording the first one must not
      // count them as given back already.
      const [extra] = await tx
        .insert(refunds)
        .values({
          ...values,
          status: 'due',
          orderId: row.orderId,
          reason: row.reason,
          actor: row.actor,
          adjustmentId: row.adjustmentId,
        })
        .returning({ id: refunds.id });
      if (!extra) throw new Error('refunds: the insert returned no row');
      refundId = extra.id;
    }
    parts.push({ refundId, amountCents, payment: card });
  }
  return { kind: 'gateway', parts, orderId: row.orderId, reason: row.reason, adjustmentId: row.adjustmentId };
}

/** The card payments of the order and its supplements whose gateway can refund, with what remains of each. */
async function refundablePayments(tx: Tx, orderId: string) {
  const rows = await tx
    .select({
      id: payments.id,
      provider: payments.provider,
      providerRef: payments.providerRef,
      raw: payments.rawEvent,
      amountCents: payments.amountCents,
      refunded: sql<number>`(select coalesce(sum(r.amount), 0)::int from refunds r
        where r.payment_id = ${payments.id} and r.status in ('pending', 'succeeded'))`,
    })
    .from(payments)
    .where(
      and(
        eq(payments.orderId, orderId),
        eq(payments.status, 'paid'),
        or(eq(payments.settlesOrder, true), isNotNull(payments.adjustmentId)),
      ),
    )
    .orderBy(sql`${payments.adjustmentId} is not null`, asc(payments.createdAt));
  return rows
    .filter((row) => supportsRefund(row.provider))
    .map((row) => ({ ...row, remaining: row.amountCents - Number(row.refunded) }));
}

/** One gateway refund, then its record (credit notes, payment status) in the lifecycle. */
async function refundPart(
  part: GatewayPart,
  prepared: Extract<Prepared, { kind: 'gateway' }>,
  input: MakeRefund,
): Promise<RefundResult> {
  const provider = PAYMENT_PROVIDER_LABELS[part.payment.provider];
  const row = { id: part.refundId, orderId: prepared.orderId, amountCents: part.amountCents, actor: input.actor };
  const taken = await db()
    .update(refunds)
    .set({ status: 'pending', updatedAt: sql`now()` })
    .where(and(eq(refunds.id, part.refundId), or(eq(refunds.status, 'due'), eq(refunds.status, 'pending'))))
    .returning({ id: refunds.id });
  if (taken.length === 0) return { ok: false, message: REFUND_MESSAGES.notDue };
  let done: Awaited<ReturnType<typeof refundAtGateway>>;
  try {
    done = await refundAtGateway({
      provider: part.payment.provider,
      providerRef: part.payment.providerRef,
      raw: part.payment.raw,
      amountCents: part.amountCents,
      idempotencyKey: `refund-${part.refundId}`,
      reason: prepared.reason,
    });
  } catch (error) {
    const detail = error instanceof Error && 'publicMessage' in error ? String(error.publicMessage) : 'erreur inconnue';
    log.error({ err: error, orderId: prepared.orderId, refundId: part.refundId }, 'gateway refund failed');
    const message = REFUND_MESSAGES.gatewayFailed(provider, detail);
    await db().transaction((tx) => setAside(tx, row, input.onFailure, message));
    return { ok: false, message, due: input.onFailure === 'due' };
  }
  if (done.status === 'unsupported') {
    const message = REFUND_MESSAGES.gatewayUnsupported(provider);
    await db().transaction((tx) => setAside(tx, row, input.onFailure, message));
    return { ok: false, message, due: input.onFailure === 'due' };
  }
  const gatewayRef = done.gatewayRef;
  const status = done.status;
  const applied = await db().transaction(async (tx) => {
    await tx.update(refunds).set({ status, gatewayRef, updatedAt: sql`now()` }).where(eq(refunds.id, part.refundId));
    return applyTransitionInTx(tx, prepared.orderId, { type: 'refund', amountCents: part.amountCents }, input.actor, {
      refundId: part.refundId,
      reason: prepared.reason,
      refundMethod: 'gateway',
      data: { method: 'gateway', provider: part.payment.provider, gatewayRef },
    });
  });
  if (!applied.ok) {
    // The money went back but the order could not record it (it cannot happen: the amount was
    // reserved under the lock). Loud, so that a person looks at it.
    log.error({ orderId: prepared.orderId, refundId: part.refundId, applied }, 'refund made but not recorded');
    return { ok: false, message: applied.message };
  }
  return {
    ok: true,
    refundId: part.refundId,
    amountCents: part.amountCents,
    creditNoteNumber: applied.creditNote?.number ?? null,
    status,
  };
}

/**
 * A refund that could not be made: the staff's own request is dropped (`failed`, nothing owed by
 * it); money owed stays `due` with the reason. Either way the history and the staff's alert say so.
 */
async function setAside(
  tx: Tx,
  row: { id: string; orderId: string; amountCents: number; actor: Actor },
  onFailure: MakeRefund['onFailure'],
  detail: string,
): Promise<void> {
  await tx
    .update(refunds)
    .set(
      onFailure === 'due'
        ? { status: 'due', paymentId: null, lastError: detail, updatedAt: sql`now()` }
        : { status: 'failed', lastError: detail, updatedAt: sql`now()` },
    )
    .where(eq(refunds.id, row.id));
  await alertRefundFailed(tx, row, detail);
}

async function alertRefundFailed(
  tx: Tx,
  row: { id: string; orderId: string; amountCents: number; actor: Actor },
  detail: string,
): Promise<void> {
  await tx.insert(orderEvents).values({
    orderId: row.orderId,
    actor: row.actor,
    kind: 'refund_failed',
    data: { refundId: row.id, amountCents: row.amountCents, detail },
  });
  const [order] = await tx
    .execute<{ number: string }>(sql`select number from orders where id = ${row.orderId}`)
    .then((r) => r.rows);
  await tx.insert(notifications).values({
    kind: 'payment',
    orderId: row.orderId,
    status: 'refund_due',
    title: `À rembourser — commande ${order?.number ?? ''}`,
    body: `${formatEurosFromCents(row.amountCents)} : ${detail}`,
  });
}

/**
 * Money received that could not pay its order: given back through its gateway when the gateway
 * allows it (no credit note: it was never invoiced), else the « à rembourser » alert.
 */
export async function refundUnappliedPayment(input: { paymentId: string; actor: Actor }): Promise<void> {
  const [payment] = await db()
    .select({
      id: payments.id,
      orderId: payments.orderId,
      provider: payments.provider,
      providerRef: payments.providerRef,
      raw: payments.rawEvent,
      amountCents: payments.amountCents,
      status: payments.status,
      settlesOrder: payments.settlesOrder,
    })
    .from(payments)
    .where(eq(payments.id, input.paymentId));
  if (payment?.status !== 'paid' || payment.settlesOrder) return;
  const [row] = await db()
    .insert(refunds)
    .values({
      orderId: payment.orderId,
      paymentId: payment.id,
      method: 'gateway',
      amountCents: payment.amountCents,
      reason: 'Paiement reçu pour une commande qui ne pouvait plus être payée',
      actor: input.actor,
      status: 'pending',
    })
    .returning({ id: refunds.id });
  if (!row) return;
  const provider = PAYMENT_PROVIDER_LABELS[payment.provider];
  let outcome: Awaited<ReturnType<typeof refundAtGateway>> | null = null;
  let detail = '';
  try {
    outcome = await refundAtGateway({
      provider: payment.provider,
      providerRef: payment.providerRef,
      raw: payment.raw,
      amountCents: payment.amountCents,
      idempotencyKey: `refund-${row.id}`,
      reason: 'Paiement non dû',
    });
  } catch (error) {
    detail = error instanceof Error && 'publicMessage' in error ? String(error.publicMessage) : 'erreur inconnue';
    log.error({ err: error, paymentId: payment.id }, 'automatic refund of an unapplied payment failed');
  }
  if (!outcome || outcome.status === 'unsupported') {
    const message = outcome
      ? REFUND_MESSAGES.gatewayUnsupported(provider)
      : REFUND_MESSAGES.gatewayFailed(provider, detail);
    await db().transaction((tx) =>
      setAside(
        tx,
        { id: row.id, orderId: payment.orderId, amountCents: payment.amountCents, actor: input.actor },
        'fail',
        message,
      ),
    );
    return;
  }
  await db().transaction(async (tx) => {
    await tx
      .update(refunds)
      .set({ status: outcome.status, gatewayRef: outcome.gatewayRef, updatedAt: sql`now()` })
      .where(eq(refunds.id, row.id));
    await tx.update(payments).set({ status: 'refunded', updatedAt: sql`now()` }).where(eq(payments.id, payment.id));
    await tx.insert(orderEvents).values({
      orderId: payment.orderId,
      actor: payment.provider,
      kind: 'payment_refunded',
      data: {
        paymentId: payment.id,
        provider: payment.provider,
        amountCents: payment.amountCents,
        gatewayRef: outcome.gatewayRef,
      },
    });
  });
}
