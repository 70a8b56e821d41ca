import { asc, eq } from 'drizzle-orm';
import {
  type ActorAccount,
  type HistoryAudience,
  type HistoryInput,
  type OrderHistoryEntry,
  orderHistory,
} from '~/domain/orders/events';
import type { Database, Tx } from '../db/client.server';
import { orderEvents, orders, user } from '../db/schema';

/*
 * An order's history, ready to show: labels and details in French from the registry of event kinds
 * (domain/orders/events.ts) and actors by name. order_events.actor holds either a system name
 * (`system`, `customer`, `stripe`...) or a user id; the ids are resolved here, in the same query,
 * to the staff member's name (or e-mail) — or to « Client » when the account is the order's own
 * customer's.
 *
 * The customer's audience gets only the kinds meant for customers, with no detail and no actor: the
 * rows never leave the server with notes, e-mail addresses or staff names in them.
 */

export type { HistoryAudience, OrderHistoryEntry } from '~/domain/orders/events';

/** The account's name as people know it: first and last name, else the account name, else the e-mail. */
function accountOf(
  row: { firstName: string | null; lastName: string | null; name: string | null; email: string | null },
  isOrderCustomer: boolean,
): ActorAccount {
  const fullName = [row.firstName, row.lastName]
    .map((part) => part?.trim() ?? '')
    .filter(Boolean)
    .join(' ');
  return { name: fullName || row.name, email: row.email, isOrderCustomer };
}

export async function loadOrderHistory(
  executor: Database | Tx,
  orderId: string,
  { audience }: { audience: HistoryAudience },
): Promise<OrderHistoryEntry[]> {
  const rows = await executor
    .select({
      at: orderEvents.at,
      actor: orderEvents.actor,
      kind: orderEvents.kind,
      from: orderEvents.from,
      to: orderEvents.to,
      data: orderEvents.data,
      orderUserId: orders.userId,
      accountId: user.id,
      firstName: user.firstName,
      lastName: user.lastName,
      name: user.name,
      email: user.email,
    })
    .from(orderEvents)
    .innerJoin(orders, eq(orders.id, orderEvents.orderId))
    .leftJoin(user, eq(user.id, orderEvents.actor))
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.at), asc(orderEvents.id));
  const events: HistoryInput[] = rows.map((row) => ({
    at: row.at,
    actor: row.actor,
    kind: row.kind,
    from: row.from,
    to: row.to,
    data: row.data,
    account: row.accountId ? accountOf(row, row.accountId === row.orderUserId) : null,
  }));
  return orderHistory(events, audience);
}
