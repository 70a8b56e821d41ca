import { and, eq, isNull } from 'drizzle-orm';
import { wasPaid } from '~/domain/order-status';
import { orderEvent } from '~/domain/orders/events';
import { type Database, db } from '../db/client.server';
import { orderEvents, orders } from '../db/schema';
import { accessTokenMatches, cookieValue, isOrderId, orderAccessCookieName } from './access.server';

/*
 * A guest who signs in or registers at the checkout (decision 015) takes their order into the
 * account, so that it shows in « Mes commandes » and the checkout offers the account's details.
 * Only the browser holding the order's guest token (the HttpOnly cookie the checkout gave it) may do
 * so, only while the order has no owner and is not paid; an order of another account is never
 * touched. The guest e-mail stays on the order (it is where earlier messages went) and the history
 * keeps the line « Commande rattachée au compte ». Idempotent: a second call changes nothing.
 */

export type ClaimHow = 'sign-in' | 'register' | 'session';

export type ClaimResult = 'attached' | 'already-yours' | 'refused';

export async function claimGuestOrder(
  request: Request,
  orderId: string,
  userId: string,
  how: ClaimHow,
  database: Database = db(),
): Promise<ClaimResult> {
  if (!isOrderId(orderId)) return 'refused';
  const token = cookieValue(request, orderAccessCookieName(orderId));
  return database.transaction(async (tx) => {
    const [order] = await tx
      .select({
        userId: orders.userId,
        accessTokenHash: orders.accessTokenHash,
        paymentStatus: orders.paymentStatus,
        guestEmail: orders.guestEmail,
      })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for('update');
    if (!order) return 'refused';
    if (order.userId === userId) return 'already-yours';
    if (order.userId !== null || wasPaid(order.paymentStatus)) return 'refused';
    if (!accessTokenMatches(token, order.accessTokenHash)) return 'refused';
    await tx
      .update(orders)
      .set({ userId, updatedAt: new Date() })
      .where(and(eq(orders.id, orderId), isNull(orders.userId)));
    await tx
      .insert(orderEvents)
      .values({ orderId, actor: userId, ...orderEvent('attached_to_account', { guestEmail: order.guestEmail, how }) });
    return 'attached';
  });
}
