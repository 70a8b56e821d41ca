import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type OrderHistoryEntry, orderHistory } from '~/domain/orders/events';
import { type Database, db } from '../db/client.server';
import { invoices, orderEvents, orderItems, orders } from '../db/schema';

/*
 * The "Commandes" and "Factures" tabs of /profile: the signed-in customer's own orders and invoices
 * only (filtered by user id in SQL), newest first, one page at a time. A customer may have hundreds
 * of orders: pages come from LIMIT/OFFSET on the (user_id, created_at desc) index.
 */

export const ACCOUNT_PAGE_SIZE = 10;

export interface Page<T> {
  rows: T[];
  page: number;
  pageCount: number;
  total: number;
}

export interface AccountOrderRow {
  id: string;
  number: string;
  createdAt: Date;
  status: string;
  /** Where the originals are in the workshop (issue 15). */
  stage: string;
  paymentStatus: string;
  totalPriceCents: number;
  withdrawnAt: Date | null;
  items: Array<{ type: string; quantity: number }>;
  /** The history as the customer reads it (domain/orders/events.ts): no staff-only events. */
  events: OrderHistoryEntry[];
  invoiceNumber: string | null;
  /** The delivered files are online (published, not deleted yet): the gallery can be opened. */
  filesOnline: boolean;
}

export interface AccountInvoiceRow {
  id: string;
  number: string;
  issuedAt: Date;
  orderId: string;
  orderNumber: string;
  amountCents: number;
  isPaid: boolean;
}

/** A page number from the query string: 1 unless a positive integer. */
export function pageNumber(value: string | null): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 && n < 1_000_000 ? n : 1;
}

function pageOf(page: number, total: number, pageSize: number) {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(page, pageCount);
  return { page: current, pageCount, offset: (current - 1) * pageSize };
}

export async function listCustomerOrders(
  userId: string,
  requestedPage = 1,
  { pageSize = ACCOUNT_PAGE_SIZE, database = db() }: { pageSize?: number; database?: Database } = {},
): Promise<Page<AccountOrderRow>> {
  const [counted] = await database.select({ n: count() }).from(orders).where(eq(orders.userId, userId));
  const total = counted?.n ?? 0;
  const { page, pageCount, offset } = pageOf(requestedPage, total, pageSize);
  if (total === 0) return { rows: [], page, pageCount, total };

  const rows = await database
    .select({
      id: orders.id,
      number: orders.number,
      createdAt: orders.createdAt,
      status: orders.status,
      stage: orders.stage,
      paymentStatus: orders.paymentStatus,
      totalPriceCents: orders.totalPriceCents,
      withdrawnAt: orders.withdrawnAt,
      invoiceNumber: invoices.number,
      filesOnline: sql<boolean>`(${orders.filesPublishedAt} is not null and ${orders.filesDeletedAt} is null)`,
    })
    .from(orders)
    .leftJoin(invoices, and(eq(invoices.orderId, orders.id), isNull(invoices.adjustmentId)))
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(pageSize)
    .offset(offset);

  const ids = rows.map((row) => row.id);
  const [items, events] = ids.length
    ? await Promise.all([
        database
          .select({ orderId: orderItems.orderId, type: orderItems.type, quantity: orderItems.quantity })
          .from(orderItems)
          .where(inArray(orderItems.orderId, ids))
          .orderBy(asc(orderItems.position), asc(orderItems.id)),
        database
          .select({
            orderId: orderEvents.orderId,
            at: orderEvents.at,
            kind: orderEvents.kind,
            from: orderEvents.from,
            to: orderEvents.to,
            data: orderEvents.data,
          })
          .from(orderEvents)
          .where(inArray(orderEvents.orderId, ids))
          .orderBy(asc(orderEvents.at), asc(orderEvents.id)),
      ])
    : [[], []];

  return {
    rows: rows.map((row) => ({
      ...row,
      items: items.filter((item) => item.orderId === row.id).map(({ type, quantity }) => ({ type, quantity })),
      events: orderHistory(
        // The customer's audience shows no actor: none is read.
        events.filter((event) => event.orderId === row.id).map((event) => ({ ...event, actor: null })),
        'customer',
      ),
    })),
    page,
    pageCount,
    total,
  };
}

export async function listCustomerInvoices(
  userId: string,
  requestedPage = 1,
  { pageSize = ACCOUNT_PAGE_SIZE, database = db() }: { pageSize?: number; database?: Database } = {},
): Promise<Page<AccountInvoiceRow>> {
  const [counted] = await database
    .select({ n: count() })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(eq(orders.userId, userId));
  const total = counted?.n ?? 0;
  const { page, pageCount, offset } = pageOf(requestedPage, total, pageSize);
  if (total === 0) return { rows: [], page, pageCount, total };
  const rows = await database
    .select({
      id: invoices.id,
      number: invoices.number,
      issuedAt: invoices.issuedAt,
      orderId: invoices.orderId,
      orderNumber: orders.number,
      amountCents: invoices.amountCents,
      isPaid: invoices.isPaid,
    })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(eq(orders.userId, userId))
    .orderBy(desc(invoices.issuedAt), desc(invoices.id))
    .limit(pageSize)
    .offset(offset);
  return { rows, page, pageCount, total };
}
