import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { formatEurosFromCents } from '~/domain/format';
import { PAYMENT_PROVIDER_LABELS } from '~/domain/payments/payment-config';
import { nextPaymentRecordStatus, type PaymentRecordStatus } from '~/domain/payments/status';
import { type Database, db, type Tx } from '../db/client.server';
import { notifications, orderEvents, orders, paymentEvents, payments } from '../db/schema';
import { enqueueEmail } from '../email/outbox.server';
import { baseUrl } from '../env.server';
import { issueInvoice } from '../invoices/invoices.server';
import { customerName, loadOrderFacts } from '../invoices/order-facts.server';
import { log } from '../log.server';
import type { PaymentNotification } from './types';

/*
 * What a verified gateway notification does, in ONE transaction (DESIGN.md: side effects of a state
 * change are written with it):
 *  1. the (provider, event id) pair goes into payment_events; if it is already there, the
 *     notification was applied before and nothing else happens (idempotency: gateways deliver
 *     at least once, sometimes out of order);
 *  2. the payment attempt (payments row, unique per provider and reference) takes the status the
 *     notification reports, never going back from paid (domain/payments/status.ts);
 *  3. when the attempt becomes paid for the order's exact amount and the order was not paid yet:
 *     the order is marked paid, its history records it, its invoice is issued (gapless number),
 *     the back office is notified and the `payment-received` e-mail is queued in the outbox;
 *     when it fails, the order's payment status says so (the order stays unpaid and can be paid
 *     again).
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
    };

export async function applyPaymentNotification(
  notification: PaymentNotification,
  database: Database = db(),
): Promise<NotificationResult> {
  const result = await database.transaction((tx) => apply(tx, notification));
  if (result.status !== 'applied' || result.orderPaid) {
    log.info({ provider: notification.provider, eventId: notification.eventId, result }, 'payment notification');
  }
  return result;
}

async function apply(tx: Tx, n: PaymentNotification): Promise<NotificationResult> {
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

  if (after === 'failed') {
    if (facts.paymentStatus === 'pending') {
      await tx.update(orders).set({ paymentStatus: 'failed', updatedAt: sql`now()` }).where(eq(orders.id, orderId));
    }
    await tx.insert(orderEvents).values({
      orderId,
      actor,
      kind: 'payment_failed',
      from: facts.paymentStatus,
      to: facts.paymentStatus === 'pending' ? 'failed' : facts.paymentStatus,
      data: { ...eventData, detail: n.detail ?? null },
    });
    await tx.insert(notifications).values({
      kind: 'payment',
      orderId,
      status: 'failed',
      title: `Échec de paiement — commande ${facts.number}`,
      body: `Le paiement par ${provider} a échoué${n.detail ? ` (${n.detail})` : ''}.`,
    });
    return { status: 'applied', ...base };
  }
  if (after === 'canceled') {
    await tx.insert(orderEvents).values({ orderId, actor, kind: 'payment_canceled', data: eventData });
    return { status: 'applied', ...base };
  }
  if (after !== 'paid') return { status: 'applied', ...base };

  // Money received. It pays the order only for the order's exact amount, in euros, once.
  const amount = n.amountCents ?? payment.amountCents;
  const amountText = formatEurosFromCents(amount);
  if (amount !== facts.totalPriceCents || (n.currency !== null && n.currency.toUpperCase() !== 'EUR')) {
    await tx.insert(orderEvents).values({
      orderId,
      actor,
      kind: 'payment_amount_mismatch',
      data: { ...eventData, amountCents: amount, currency: n.currency, expectedCents: facts.totalPriceCents },
    });
    await tx.insert(notifications).values({
      kind: 'payment',
      orderId,
      status: 'paid',
      title: `Paiement à vérifier — commande ${facts.number}`,
      body: `${provider} a reçu ${amountText} (${n.currency ?? 'EUR'}) au lieu de ${formatEurosFromCents(facts.totalPriceCents)} : la commande n’est pas marquée payée.`,
    });
    return { status: 'applied', ...base };
  }
  if (facts.paymentStatus === 'paid' || facts.paymentStatus === 'refunded') {
    // A second attempt paid too (two tabs, two gateways): the customer is owed a refund.
    await tx.insert(orderEvents).values({ orderId, actor, kind: 'payment_duplicate', data: eventData });
    await tx.insert(notifications).values({
      kind: 'payment',
      orderId,
      status: 'paid',
      title: `Paiement en double — commande ${facts.number}`,
      body: `${provider} a reçu un second paiement de ${amountText} pour une commande déjà payée : à rembourser.`,
    });
    return { status: 'applied', ...base };
  }

  const [paid] = await tx
    .update(orders)
    .set({ paymentStatus: 'paid', paymentMethod: 'card', paidAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(orders.id, orderId))
    .returning({ paidAt: orders.paidAt });
  const paidAt = paid?.paidAt ?? new Date();
  await tx.insert(orderEvents).values({
    orderId,
    actor,
    kind: 'payment_paid',
    from: facts.paymentStatus,
    to: 'paid',
    data: { ...eventData, amountCents: amount },
  });
  await tx.insert(notifications).values({
    kind: 'payment',
    orderId,
    status: 'paid',
    title: `Paiement reçu — commande ${facts.number}`,
    body: `${amountText} payés par carte (${provider}).`,
  });
  // Last: the invoice number's counter stays locked until the commit.
  const invoice = await issueInvoice(tx, {
    orderId,
    actor,
    payment: { method: 'card', paidAt, provider: n.provider },
  });
  const email = facts.customer.email?.trim();
  if (email && z.email().safeParse(email).success) {
    await enqueueEmail(tx, {
      to: email,
      template: 'payment-received',
      data: {
        orderNumber: facts.number,
        amountCents: amount,
        paidAt: paidAt.toISOString(),
        invoiceNumber: invoice.number,
        invoiceUrl: `${baseUrl()}/facture/${orderId}`,
        customerName: customerName(facts),
      },
      dedupeKey: `payment-received:${orderId}`,
      orderId,
    });
  } else {
    log.warn({ orderId }, 'paid order without a valid e-mail address: no payment-received e-mail');
  }
  return { status: 'applied', ...base, orderPaid: true, invoiceNumber: invoice.number };
}
