import { and, eq, sql } from 'drizzle-orm';
import { formatEurosFromCents } from '~/domain/format';
import { PAYMENT_PROVIDER_LABELS } from '~/domain/payments/payment-config';
import { nextPaymentRecordStatus, type PaymentRecordStatus } from '~/domain/payments/status';
import { type Database, db } from '../db/client.server';
import { notifications, orderEvents, paymentEvents, payments } from '../db/schema';
import { loadOrderFacts } from '../invoices/order-facts.server';
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
  if (result.status === 'applied' && result.unapplied) {
    await refundUnappliedPayment({ paymentId: result.paymentId, actor: notification.provider });
  }
  if (result.status !== 'applied' || result.orderPaid || result.unapplied) {
    log.info({ provider: notification.provider, eventId: notification.eventId, result }, 'payment notification');
  }
  return result;
}

async function applyNotificationInTx({ tx, apply }: LifecycleTx, n: PaymentNotification): Promise<NotificationResult> {
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

  const [payment] = await tx
    .insert(payments)
    .values({
      orderId,
      provider: n.provider,
      providerRef: n.providerRef,
      amountCents: n.amountCents ?? facts.totalPriceCents,
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

  const provider = PAYMENT_PROVIDER_LABELS[n.provider];
  const actor = n.provider;
  const eventData = { paymentId: payment.id, provider: n.provider, providerRef: n.providerRef, eventId: n.eventId };
  const context = {
    payment: { id: payment.id, provider: n.provider, reference: n.providerRef },
    data: { eventId: n.eventId },
  };

  if (after === 'failed') {
    const failed = await apply(orderId, { type: 'fail_payment' }, actor, {
      ...context,
      detail: n.detail ?? null,
    });
    // An old attempt failing once the order is paid (or over) changes nothing but the history.
    if (!failed.ok) {
      await tx
        .insert(orderEvents)
        .values({ orderId, actor, kind: 'payment_failed', data: { ...eventData, detail: n.detail ?? null } });
    }
    return { status: 'applied', ...base };
  }
  if (after === 'canceled') {
    await tx.insert(orderEvents).values({ orderId, actor, kind: 'payment_canceled', data: eventData });
    return { status: 'applied', ...base };
  }
  if (after !== 'paid') return { status: 'applied', ...base };

  // Money received. The lifecycle's guard says whether it pays the order (placed, not cancelled,
  // not withdrawn, not paid yet, its exact amount in euros).
  const amount = n.amountCents ?? payment.amountCents;
  // A reception supplement's payment settles that supplement (its own invoice), not the order.
  const supplement = payment.adjustmentId;
  const currencyOk = (n.currency?.toUpperCase() ?? 'EUR') === 'EUR';
  const settled = supplement
    ? currencyOk
      ? await apply(
          orderId,
          { type: 'settle_supplement', adjustmentId: supplement, amountCents: amount, method: 'card' },
          actor,
          context,
        )
      : { ok: false as const, code: 'amount_mismatch', message: `Devise refusée : ${n.currency}.` }
    : await apply(
        orderId,
        { type: 'settle_payment', amountCents: amount, currency: n.currency, method: 'card' },
        actor,
        context,
      );
  if (settled.ok) {
    if (!supplement) await tx.update(payments).set({ settlesOrder: true }).where(eq(payments.id, payment.id));
    return { status: 'applied', ...base, orderPaid: true, invoiceNumber: settled.invoiceNumber };
  }
  // It cannot: the money is recorded, never invoiced, and given back (after the commit).
  await tx.insert(orderEvents).values({
    orderId,
    actor,
    kind: 'payment_unapplied',
    data: {
      ...eventData,
      reason: settled.code,
      amountCents: amount,
      currency: n.currency,
      expectedCents: facts.totalPriceCents,
    },
  });
  await tx.insert(notifications).values({
    kind: 'payment',
    orderId,
    status: 'refund_due',
    title: `Paiement à rembourser — commande ${facts.number}`,
    body: `${provider} a reçu ${formatEurosFromCents(amount)} : ${settled.message} Ce paiement n’est pas facturé ; il est remboursé automatiquement quand ${provider} le permet.`,
  });
  return { status: 'applied', ...base, unapplied: true };
}
