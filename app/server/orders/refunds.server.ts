import { and, eq, sql } from 'drizzle-orm';
import { formatEurosFromCents } from '~/domain/format';
import { decide } from '~/domain/orders/lifecycle';
import { PAYMENT_PROVIDER_LABELS, type PaymentProviderName } from '~/domain/payments/payment-config';
import { db, type Tx } from '../db/client.server';
import { notifications, orderEvents, payments, refunds } from '../db/schema';
import { log } from '../log.server';
import { refundAtGateway } from '../payments/refunds.server';
import { type Actor, applyTransition, lockOrderState } from './lifecycle.server';

/*
 * Giving money back (DESIGN.md, money rules). A refund is never more than what was paid minus what
 * was refunded (the rule book's `refund` guard), and each one gets its credit note. It runs in three
 * steps so that money and records cannot disagree:
 *  1. under the order's lock: the guard, then a `refunds` row `pending` that reserves the amount
 *     (two staff members refunding at once cannot both take the same euros);
 *  2. the gateway's refund, outside any transaction, with the refund's id as idempotency key (a
 *     retry never refunds twice);
 *  3. the `refund` transition of the lifecycle: payment status, credit note, e-mail, history.
 * If the gateway refuses, the row is marked failed, the history and the back office say so.
 *
 * Money that reached an order it could not pay (cancelled, withdrawn, already paid, another amount)
 * was never invoiced: `refundUnappliedPayment` gives it back without a credit note.
 */

export type RefundMethod = 'gateway' | 'transfer' | 'cheque';

export const REFUND_MESSAGES = {
  notFound: 'Commande introuvable',
  noGatewayPayment:
    'Cette commande n’a pas été payée en ligne : enregistrez le remboursement par virement ou par chèque.',
  gatewayUnsupported: (provider: string) =>
    `${provider} ne permet pas de rembourser depuis la boutique : remboursez depuis son espace marchand, puis enregistrez le remboursement par virement ou par chèque.`,
  gatewayFailed: (provider: string, detail: string) => `${provider} a refusé le remboursement : ${detail}`,
  reasonRequired: 'Indiquez le motif du remboursement.',
} as const;

export type RefundResult =
  | {
      ok: true;
      refundId: string;
      amountCents: number;
      creditNoteNumber: string | null;
      status: 'succeeded' | 'pending';
    }
  | { ok: false; message: string };

interface Reserved {
  refundId: string;
  payment: { id: string; provider: PaymentProviderName; providerRef: string; raw: unknown } | null;
}

export async function refundOrder(input: {
  orderId: string;
  amountCents: number;
  method: RefundMethod;
  reason: string;
  actor: Actor;
  /**
   * For refunds the lifecycle starts by itself (cancellation, withdrawal): when the money cannot go
   * back through a gateway, raise the « à rembourser » alert instead of failing.
   */
  fallbackToManual?: boolean;
  /** The reception's reduction this refund settles (recorded by the lifecycle with the refund). */
  adjustment?: { receptionId: string; pricing: unknown };
}): Promise<RefundResult> {
  const reason = input.reason.trim();
  if (reason === '') return { ok: false, message: REFUND_MESSAGES.reasonRequired };

  const reserved = await db().transaction(async (tx): Promise<Reserved | { message: string }> => {
    const locked = await lockOrderState(tx, input.orderId);
    if (!locked) return { message: REFUND_MESSAGES.notFound };
    const check = decide(locked.state, { type: 'refund', amountCents: input.amountCents });
    if (!check.ok) return { message: check.message };
    let payment: Reserved['payment'] = null;
    if (input.method === 'gateway') {
      const [settling] = await tx
        .select({
          id: payments.id,
          provider: payments.provider,
          providerRef: payments.providerRef,
          raw: payments.rawEvent,
        })
        .from(payments)
        .where(and(eq(payments.orderId, input.orderId), eq(payments.settlesOrder, true)))
        .limit(1);
      if (!settling) {
        if (input.fallbackToManual) return { message: await raiseRefundDue(tx, input, locked.facts.number, null) };
        return { message: REFUND_MESSAGES.noGatewayPayment };
      }
      payment = settling;
    }
    const [row] = await tx
      .insert(refunds)
      .values({
        orderId: input.orderId,
        paymentId: payment?.id ?? null,
        method: input.method,
        amountCents: input.amountCents,
        reason,
        actor: input.actor,
        status: 'pending',
      })
      .returning({ id: refunds.id });
    if (!row) throw new Error('refunds: the insert returned no row');
    return { refundId: row.id, payment };
  });
  if (!('refundId' in reserved)) return { ok: false, message: reserved.message };

  let status: 'succeeded' | 'pending' = 'succeeded';
  let gatewayRef: string | null = null;
  if (reserved.payment) {
    const provider = PAYMENT_PROVIDER_LABELS[reserved.payment.provider];
    try {
      const done = await refundAtGateway({
        provider: reserved.payment.provider,
        providerRef: reserved.payment.providerRef,
        raw: reserved.payment.raw,
        amountCents: input.amountCents,
        idempotencyKey: `refund-${reserved.refundId}`,
        reason,
      });
      if (done.status === 'unsupported') {
        await markFailed(reserved.refundId, input, REFUND_MESSAGES.gatewayUnsupported(provider));
        return { ok: false, message: REFUND_MESSAGES.gatewayUnsupported(provider) };
      }
      status = done.status;
      gatewayRef = done.gatewayRef;
    } catch (error) {
      const detail =
        error instanceof Error && 'publicMessage' in error ? String(error.publicMessage) : 'erreur inconnue';
      log.error({ err: error, orderId: input.orderId, refundId: reserved.refundId }, 'gateway refund failed');
      const message = REFUND_MESSAGES.gatewayFailed(provider, detail);
      await markFailed(reserved.refundId, input, message);
      return { ok: false, message };
    }
  }

  await db()
    .update(refunds)
    .set({ status, gatewayRef, updatedAt: sql`now()` })
    .where(eq(refunds.id, reserved.refundId));
  const applied = await applyTransition(
    input.orderId,
    { type: 'refund', amountCents: input.amountCents },
    input.actor,
    {
      refundId: reserved.refundId,
      reason,
      refundMethod: input.method,
      data: { method: input.method, provider: reserved.payment?.provider ?? null, gatewayRef },
      ...(input.adjustment ? { adjustment: { ...input.adjustment, accessTokenHash: null } } : {}),
    },
  );
  if (!applied.ok) {
    // The money went back but the order could not record it (it cannot happen: the amount was
    // reserved under the lock). Loud, so that a person looks at it.
    log.error({ orderId: input.orderId, refundId: reserved.refundId, applied }, 'refund made but not recorded');
    return { ok: false, message: applied.message };
  }
  return {
    ok: true,
    refundId: reserved.refundId,
    amountCents: input.amountCents,
    creditNoteNumber: applied.creditNote?.number ?? null,
    status,
  };
}

async function markFailed(
  refundId: string,
  input: { orderId: string; amountCents: number; actor: Actor },
  detail: string,
): Promise<void> {
  await db().transaction(async (tx) => {
    await tx.update(refunds).set({ status: 'failed', updatedAt: sql`now()` }).where(eq(refunds.id, refundId));
    await tx.insert(orderEvents).values({
      orderId: input.orderId,
      actor: input.actor,
      kind: 'refund_failed',
      data: { refundId, amountCents: input.amountCents, detail },
    });
    const [order] = await tx
      .execute<{ number: string }>(sql`select number from orders where id = ${input.orderId}`)
      .then((r) => r.rows);
    await tx.insert(notifications).values({
      kind: 'payment',
      orderId: input.orderId,
      status: 'refund_due',
      title: `À rembourser — commande ${order?.number ?? ''}`,
      body: `${formatEurosFromCents(input.amountCents)} : ${detail}`,
    });
  });
}

/** The « à rembourser » alert: money the shop owes and must give back by hand. */
async function raiseRefundDue(
  tx: Tx,
  input: { orderId: string; amountCents: number; actor: Actor },
  orderNumber: string,
  provider: PaymentProviderName | null,
): Promise<string> {
  await tx.insert(orderEvents).values({
    orderId: input.orderId,
    actor: input.actor,
    kind: 'refund_due',
    data: { amountCents: input.amountCents, provider },
  });
  await tx.insert(notifications).values({
    kind: 'payment',
    orderId: input.orderId,
    status: 'refund_due',
    title: `À rembourser — commande ${orderNumber}`,
    body: `${formatEurosFromCents(input.amountCents)} à rembourser au client par virement ou par chèque, puis à enregistrer dans la commande.`,
  });
  return REFUND_MESSAGES.noGatewayPayment;
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
    await markFailed(
      row.id,
      { orderId: payment.orderId, amountCents: payment.amountCents, actor: input.actor },
      outcome ? REFUND_MESSAGES.gatewayUnsupported(provider) : REFUND_MESSAGES.gatewayFailed(provider, detail),
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
