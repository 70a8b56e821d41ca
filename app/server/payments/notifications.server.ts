import { and, eq, sql } from 'drizzle-orm';
import { formatEurosFromCents } from '~/domain/format';
import { PAYMENT_PROVIDER_LABELS } from '~/domain/payments/payment-config';
import { nextPaymentRecordStatus, type PaymentRecordStatus } from '~/domain/payments/status';
import { countPayment } from '~/server/observability/metrics.server';
import { type Database, db } from '../db/client.server';
import { notifications, orderEvents, paymentEvents, payments } from '../db/schema';
import { loadOrderFacts, type OrderFacts } from '../invoices/order-facts.server';
import { log } from '../log.server';
import { type LifecycleTx, withLifecycle } from '../orders/lifecycle.server';
import { refundUnappliedPayment } from '../orders/refunds.server';
import type { PaymentNotification } from './types';

/*
 * What a verified gateway notification does, in ONE transaction (side effects of a state
 * change are written with it):
 *  1. the (provider, event id) pair goes into payment_events; if it is already there, the
 *     notification was applied before and nothing else happens (idempotency: gateways deliver
 *     at least once, sometimes out of order);
 *  2. the payment attempt (payments row, unique per provider and reference) takes the status the
 *     notification reports, never going back from paid (domain/payments/status.ts);
 *  3. the order changes only through the lifecycle (orders/lifecycle.server.ts): a paid attempt
 *     `settle_payment`s the order when its guard allows (placed, not cancelled, not withdrawn, not
 *     paid yet, the exact amount): paid, invoiced, notified, e-mailed; otherwise the money is
 *     recorded as unapplied, never invoiced, an alert raised, and after the commit it is refunded
 *     through the gateway when the gateway allows it. A failed attempt `fail_payment`s the order
 *     (it stays unpaid and can be paid again). A payment made for a reception supplement
 *     (payments.adjustment_id) `settle_supplement`s it instead; money for a supplement no longer
 *     open is unapplied money like the rest.
 * The order row is locked (FOR UPDATE) before it is read, so two notifications for the same order
 * (two attempts, two gateways) are applied one after the other.
 */

export type NotificationResult =
  | { status: 'duplicate' }
  | { status: 'ignored'; reason: string }
  | {
      status: 'applied';
      orderId: string;
      paymentId: string;
      paymentStatus: PaymentRecordStatus;
      /** The order was marked paid by this notification. */
      orderPaid: boolean;
      invoiceNumber: string | null;
      /** Money received that could not pay the order: it is being refunded. */
      unapplied?: boolean;
    };

export async function applyPaymentNotification(
  notification: PaymentNotification,
  database: Database = db(),
): Promise<NotificationResult> {
  // The lifecycle's post-commit work (the prepaid sending label once paid) runs once committed.
  const result = await withLifecycle((lifecycle) => applyNotificationInTx(lifecycle, notification), database);
  countPayment(notification.provider, result.status === 'applied' ? result.paymentStatus : result.status);
  if (result.status === 'applied' && result.unapplied) {
    await refundUnappliedPayment({ paymentId: result.paymentId, actor: notification.provider });
  }
  if (result.status !== 'applied' || result.orderPaid || result.unapplied) {
    log.info({ provider: notification.provider, eventId: notification.eventId, result }, 'payment notification');
  }
  return result;
}

async function applyNotificationInTx(lifecycle: LifecycleTx, n: PaymentNotification): Promise<NotificationResult> {
  const { tx } = lifecycle;
  const [fresh] = await tx
    .insert(paymentEvents)
    .values({ provider: n.provider, eventId: n.eventId })
    .onConflictDoNothing()
    .returning({ eventId: paymentEvents.eventId });
  if (!fresh) return { status: 'duplicate' };

  // The attempt as we recorded it when the session was created (or by an earlier notification).
  const [known] = await tx
    .select({ id: payments.id, orderId: payments.orderId })
    .from(payments)
    .where(and(eq(payments.provider, n.provider), eq(payments.providerRef, n.providerRef)))
    .limit(1);
  if (known && n.orderId && known.orderId !== n.orderId) {
    log.warn({ provider: n.provider, ref: n.providerRef }, 'payment notification names another order than its session');
    return { status: 'ignored', reason: 'order mismatch' };
  }
  const orderId = known?.orderId ?? n.orderId;
  if (!orderId) return { status: 'ignored', reason: 'no order' };

  // Lock the order first: everything below reads and writes it as one step.
  const facts = await loadOrderFacts(tx, orderId, { lock: true });
  if (!facts) return { status: 'ignored', reason: 'unknown order' };

  const payment = await lockAttempt(tx, n, orderId, facts.amountDueCents);
  const before = payment.status;
  const after = nextPaymentRecordStatus(before, n.outcome);
  const base = { orderId, paymentId: payment.id, paymentStatus: after, orderPaid: false, invoiceNumber: null };
  if (after === before) {
    if (n.outcome !== 'pending' && n.outcome !== before) {
      log.info({ provider: n.provider, ref: n.providerRef, before, outcome: n.outcome }, 'late notification ignored');
    }
    return { status: 'applied', ...base };
  }
  await tx
    .update(payments)
    .set({
      status: after,
      method: n.method,
      amountCents: n.amountCents ?? payment.amountCents,
      // The session as created (return addresses...) stays beside the notification that closed it.
      rawEvent: { session: (payment.rawEvent as { session?: unknown } | null)?.session ?? null, event: n.raw },
      updatedAt: sql`now()`,
    })
    .where(eq(payments.id, payment.id));

  if (after === 'failed') {
    await applyFailure(lifecycle, n, orderId, payment.id);
    return { status: 'applied', ...base };
  }
  if (after === 'canceled') {
    await tx
      .insert(orderEvents)
      .values({ orderId, actor: n.provider, kind: 'payment_canceled', data: eventDataOf(n, payment.id) });
    return { status: 'applied', ...base };
  }
  if (after !== 'paid') return { status: 'applied', ...base };
  return applyReceivedMoney(lifecycle, { n, orderId, payment, facts, base });
}

type PaymentRow = typeof payments.$inferSelect;

/**
 * The attempt's row, inserted if the session was not recorded, and locked either way; the event
 * is linked to it.
 */
async function lockAttempt(
  tx: LifecycleTx['tx'],
  n: PaymentNotification,
  orderId: string,
  orderTotalCents: number,
): Promise<PaymentRow> {
  const [payment] = await tx
    .insert(payments)
    .values({
      orderId,
      provider: n.provider,
      providerRef: n.providerRef,
      amountCents: n.amountCents ?? orderTotalCents,
      status: 'pending',
      method: n.method,
    })
    .onConflictDoUpdate({
      target: [payments.provider, payments.providerRef],
      // A no-op update, so that the row comes back (and is locked) whether it was inserted or not.
      set: { updatedAt: sql`${payments.updatedAt}` },
    })
    .returning();
  if (!payment) throw new Error('payments: the upsert returned no row');
  await tx
    .update(paymentEvents)
    .set({ paymentId: payment.id })
    .where(and(eq(paymentEvents.provider, n.provider), eq(paymentEvents.eventId, n.eventId)));
  return payment;
}

/** What the order's history keeps of the notification. */
function eventDataOf(n: PaymentNotification, paymentId: string) {
  return { paymentId, provider: n.provider, providerRef: n.providerRef, eventId: n.eventId };
}

/** What the lifecycle's transitions record of the notification. */
function transitionContextOf(n: PaymentNotification, paymentId: string) {
  return {
    payment: { id: paymentId, provider: n.provider, reference: n.providerRef },
    data: { eventId: n.eventId },
  };
}

/** A failed attempt: the order stays unpaid and can be paid again. */
async function applyFailure(
  { tx, apply }: LifecycleTx,
  n: PaymentNotification,
  orderId: string,
  paymentId: string,
): Promise<void> {
  const failed = await apply(orderId, { type: 'fail_payment' }, n.provider, {
    ...transitionContextOf(n, paymentId),
    detail: n.detail ?? null,
  });
  // An old attempt failing once the order is paid (or over) changes nothing but the history.
  if (!failed.ok) {
    await tx.insert(orderEvents).values({
      orderId,
      actor: n.provider,
      kind: 'payment_failed',
      data: { ...eventDataOf(n, paymentId), detail: n.detail ?? null },
    });
  }
}

interface ReceivedMoney {
  n: PaymentNotification;
  orderId: string;
  payment: PaymentRow;
  facts: OrderFacts;
  /** What the result says before the money is applied. */
  base: Omit<Extract<NotificationResult, { status: 'applied' }>, 'status'>;
}

/**
 * Money received. The lifecycle's guard says whether it pays the order (placed, not cancelled,
 * not withdrawn, not paid yet, its exact amount in euros); if it cannot, the money is recorded,
 * never invoiced, and given back (after the commit, by applyPaymentNotification).
 */
async function applyReceivedMoney({ tx, apply }: LifecycleTx, received: ReceivedMoney): Promise<NotificationResult> {
  const { n, orderId, payment, base } = received;
  const amount = n.amountCents ?? payment.amountCents;
  const settled = await settleWith(apply, n, orderId, payment, amount);
  if (settled.ok) {
    if (!payment.adjustmentId) await tx.update(payments).set({ settlesOrder: true }).where(eq(payments.id, payment.id));
    return { status: 'applied', ...base, orderPaid: true, invoiceNumber: settled.invoiceNumber };
  }
  await recordUnappliedMoney(tx, received, amount, settled);
  return { status: 'applied', ...base, unapplied: true };
}

/** A reception supplement's payment settles that supplement (its own invoice, in euros), any other the order. */
async function settleWith(
  apply: LifecycleTx['apply'],
  n: PaymentNotification,
  orderId: string,
  payment: PaymentRow,
  amount: number,
) {
  const context = transitionContextOf(n, payment.id);
  const supplement = payment.adjustmentId;
  if (!supplement) {
    return apply(
      orderId,
      { type: 'settle_payment', amountCents: amount, currency: n.currency, method: 'card' },
      n.provider,
      context,
    );
  }
  if ((n.currency?.toUpperCase() ?? 'EUR') !== 'EUR') {
    return { ok: false as const, code: 'amount_mismatch', message: `Devise refusée : ${n.currency}.` };
  }
  return apply(
    orderId,
    { type: 'settle_supplement', adjustmentId: supplement, amountCents: amount, method: 'card' },
    n.provider,
    context,
  );
}

/** Money that cannot pay the order: in its history, and an alert for the staff (« à rembourser »). */
async function recordUnappliedMoney(
  tx: LifecycleTx['tx'],
  { n, orderId, payment, facts }: ReceivedMoney,
  amount: number,
  refusal: { code: string; message: string },
): Promise<void> {
  const provider = PAYMENT_PROVIDER_LABELS[n.provider];
  await tx.insert(orderEvents).values({
    orderId,
    actor: n.provider,
    kind: 'payment_unapplied',
    data: {
      ...eventDataOf(n, payment.id),
      reason: refusal.code,
      amountCents: amount,
      currency: n.currency,
      expectedCents: facts.amountDueCents,
    },
  });
  await tx.insert(notifications).values({
    kind: 'payment',
    orderId,
    status: 'refund_due',
    title: `Paiement à rembourser — commande ${facts.number}`,
    body: `${provider} a reçu ${formatEurosFromCents(amount)} : ${refusal.message} Ce paiement n’est pas facturé ; il est remboursé automatiquement quand ${provider} le permet.`,
  });
}
