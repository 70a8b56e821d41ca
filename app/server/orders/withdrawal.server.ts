import { eq, sql } from 'drizzle-orm';
import { WITHDRAWAL_MESSAGES, withdrawalState } from '~/domain/account/withdrawal';
import { formatDateTimeFr } from '~/domain/format';
import { type Database, db } from '../db/client.server';
import { notifications, orderEvents, orders, user } from '../db/schema';
import { enqueueEmail } from '../email/outbox.server';

/*
 * The customer's withdrawal from an order ("Renoncer au contrat ici", Code de la consommation
 * L221-18). One transaction records everything or nothing: orders.withdrawn_at (the date and time
 * the request reached us), an order_events row for the order's history, a back-office notification,
 * and the dated acknowledgement e-mail in the outbox. The order row is locked first, so that two
 * requests at once record one withdrawal. The order's status is left to the staff: they confirm,
 * cancel and refund (with a credit note when an invoice exists).
 *
 * Callers check who is asking (getOrderForViewer: the owner or the guest holding the order's token).
 */

export type WithdrawalResult =
  | { ok: true; withdrawnAt: Date; orderNumber: string }
  | { ok: false; reason: 'not-found' | 'expired' | 'withdrawn' | 'canceled'; message: string };

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
  return database.transaction(async (tx): Promise<WithdrawalResult> => {
    const [order] = await tx
      .select({
        id: orders.id,
        number: orders.number,
        createdAt: orders.createdAt,
        status: orders.status,
        withdrawnAt: orders.withdrawnAt,
        userId: orders.userId,
        guestEmail: orders.guestEmail,
        guestFirstName: orders.guestFirstName,
        guestLastName: orders.guestLastName,
      })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for('update');
    if (!order) return { ok: false, reason: 'not-found', message: WITHDRAWAL_MESSAGES.notFound };

    const state = withdrawalState(order, now);
    if (state.kind !== 'open') return { ok: false, reason: state.kind, message: WITHDRAWAL_MESSAGES[state.kind] };

    const [owner] = order.userId
      ? await tx
          .select({ email: user.email, firstName: user.firstName, lastName: user.lastName })
          .from(user)
          .where(eq(user.id, order.userId))
          .limit(1)
      : [];
    const email = owner?.email ?? order.guestEmail;
    const firstName = owner?.firstName ?? order.guestFirstName ?? '';
    const lastName = owner?.lastName ?? order.guestLastName ?? '';
    const customerName = `${firstName} ${lastName}`.trim();

    await tx.update(orders).set({ withdrawnAt: now, updatedAt: sql`now()` }).where(eq(orders.id, order.id));
    await tx.insert(orderEvents).values({
      orderId: order.id,
      at: now,
      actor,
      kind: 'withdrawal_requested',
      data: { requestedAt: now.toISOString(), statusAtRequest: order.status },
    });
    await tx.insert(notifications).values({
      kind: 'withdrawal',
      orderId: order.id,
      status: order.status,
      title: `Rétractation — commande ${order.number}`,
      body: `${customerName || email || 'Le client'} s’est rétracté le ${formatDateTimeFr(now)}.`,
    });
    if (email) {
      await enqueueEmail(tx, {
        to: email,
        template: 'withdrawal-acknowledgement',
        data: {
          orderNumber: order.number,
          requestedAt: now.toISOString(),
          orderDate: order.createdAt.toISOString(),
          customerName: firstName || undefined,
        },
        dedupeKey: `withdrawal:${order.id}`,
        orderId: order.id,
      });
    }
    return { ok: true, withdrawnAt: now, orderNumber: order.number };
  });
}
