import { and, asc, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type {
  AccountDraftRow,
  AccountInvoiceRow,
  AccountOrderRow,
  OrderCreditNoteLink,
} from '~/domain/account/account-rows';
import { creditNoteHref, creditNotePdfHref, invoiceHref } from '~/domain/invoices/links';
import { orderHistory } from '~/domain/orders/events';
import { type Database, db } from '../db/client.server';
import { creditNotes, invoices, orderEvents, orderItems, orders } from '../db/schema';

/*
 * The "Commandes" and "Factures" tabs of /profile: the signed-in customer's own orders and invoices
 * only (filtered by user id in SQL), newest first, one page at a time. A customer may have hundreds
 * of orders: pages come from LIMIT/OFFSET on the (user_id, created_at desc) index.
 *
 * « Mes commandes » lists placed orders only; drafts never confirmed at checkout (no
 * placed_at) are « Devis et brouillons », apart. « Mes factures » lists the credit notes with the
 * invoices (the refund e-mail says the credit note is « disponible dans votre espace client »).
 */

export const ACCOUNT_PAGE_SIZE = 10;

export interface Page<T> {
  rows: T[];
  page: number;
  pageCount: number;
  total: number;
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
  const placed = and(eq(orders.userId, userId), isNotNull(orders.placedAt));
  const [counted] = await database.select({ n: count() }).from(orders).where(placed);
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
      giftCard: sql<boolean>`exists (select 1 from gift_card_sales g where g.order_id = ${orders.id})`,
      giftCardUsed: sql<boolean>`exists (select 1 from gift_cards c join gift_card_ledger e on e.card_id = c.id
        where c.sale_order_id = ${orders.id} and e.kind = 'spent')`,
    })
    .from(orders)
    .leftJoin(invoices, and(eq(invoices.orderId, orders.id), isNull(invoices.adjustmentId)))
    .where(placed)
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
    rows: rows.map(({ giftCard, giftCardUsed, ...row }) => ({
      ...row,
      ...(giftCard ? { kind: 'gift_card' as const, giftCardUsed } : {}),
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

/** The customer's drafts (« Commander » without confirming at checkout), newest first. */
export async function listCustomerDrafts(
  userId: string,
  requestedPage = 1,
  { pageSize = ACCOUNT_PAGE_SIZE, database = db() }: { pageSize?: number; database?: Database } = {},
): Promise<Page<AccountDraftRow>> {
  const draft = and(eq(orders.userId, userId), isNull(orders.placedAt));
  const [counted] = await database.select({ n: count() }).from(orders).where(draft);
  const total = counted?.n ?? 0;
  const { page, pageCount, offset } = pageOf(requestedPage, total, pageSize);
  if (total === 0) return { rows: [], page, pageCount, total };
  const rows = await database
    .select({
      id: orders.id,
      number: orders.number,
      createdAt: orders.createdAt,
      totalPriceCents: orders.totalPriceCents,
    })
    .from(orders)
    .where(draft)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(pageSize)
    .offset(offset);
  const ids = rows.map((row) => row.id);
  const items = await database
    .select({ orderId: orderItems.orderId, type: orderItems.type, quantity: orderItems.quantity })
    .from(orderItems)
    .where(inArray(orderItems.orderId, ids))
    .orderBy(asc(orderItems.position), asc(orderItems.id));
  return {
    rows: rows.map((row) => ({
      ...row,
      items: items.filter((item) => item.orderId === row.id).map(({ type, quantity }) => ({ type, quantity })),
    })),
    page,
    pageCount,
    total,
  };
}

/** The customer's invoices and credit notes together, newest first, one page at a time. */
export async function listCustomerInvoices(
  userId: string,
  requestedPage = 1,
  { pageSize = ACCOUNT_PAGE_SIZE, database = db() }: { pageSize?: number; database?: Database } = {},
): Promise<Page<AccountInvoiceRow>> {
  const [invoiceCount, creditCount] = await Promise.all([
    database
      .select({ n: count() })
      .from(invoices)
      .innerJoin(orders, eq(orders.id, invoices.orderId))
      .where(eq(orders.userId, userId)),
    database
      .select({ n: count() })
      .from(creditNotes)
      .innerJoin(orders, eq(orders.id, creditNotes.orderId))
      .where(eq(orders.userId, userId)),
  ]);
  const total = (invoiceCount[0]?.n ?? 0) + (creditCount[0]?.n ?? 0);
  const { page, pageCount, offset } = pageOf(requestedPage, total, pageSize);
  if (total === 0) return { rows: [], page, pageCount, total };
  // One page over both tables: a UNION ALL ordered by date (the few documents of one customer).
  const result = await database.execute<{
    kind: 'invoice' | 'credit-note';
    id: string;
    number: string;
    issued_at: Date | string;
    order_id: string;
    order_number: string;
    amount: number;
    is_paid: boolean;
    supplement: boolean;
    invoice_number: string | null;
  }>(sql`
    select * from (
      select 'invoice' as kind, i.id, i.number, i.issued_at, i.order_id, o.number as order_number, i.amount,
             i.is_paid, i.adjustment_id is not null as supplement, null::text as invoice_number
        from ${invoices} i join ${orders} o on o.id = i.order_id
       where o.user_id = ${userId}
      union all
      select 'credit-note', c.id, c.number, c.issued_at, c.order_id, o.number, c.amount,
             true, false, ci.number
        from ${creditNotes} c join ${orders} o on o.id = c.order_id join ${invoices} ci on ci.id = c.invoice_id
       where o.user_id = ${userId}
    ) documents
    order by issued_at desc, id desc
    limit ${pageSize} offset ${offset}`);
  const rows = result.rows.map((row): AccountInvoiceRow => {
    const creditNote = row.kind === 'credit-note';
    return {
      kind: row.kind,
      id: row.id,
      number: row.number,
      issuedAt: new Date(row.issued_at),
      orderId: row.order_id,
      orderNumber: row.order_number,
      amountCents: Number(row.amount),
      isPaid: row.is_paid,
      invoiceNumber: row.invoice_number,
      href: creditNote ? creditNoteHref(row.order_id, row.number) : invoiceHref(row.order_id),
      pdfHref: creditNote
        ? creditNotePdfHref(row.order_id, row.number)
        : row.supplement
          ? `${invoiceHref(row.order_id)}/pdf?facture=${encodeURIComponent(row.number)}`
          : `${invoiceHref(row.order_id)}/pdf`,
    };
  });
  return { rows, page, pageCount, total };
}

/** An order's credit notes, oldest first: linked from its invoice and its order page. */
export async function listOrderCreditNotes(orderId: string, database: Database = db()): Promise<OrderCreditNoteLink[]> {
  const rows = await database
    .select({ number: creditNotes.number, issuedAt: creditNotes.issuedAt, amountCents: creditNotes.amountCents })
    .from(creditNotes)
    .where(eq(creditNotes.orderId, orderId))
    .orderBy(asc(creditNotes.issuedAt), asc(creditNotes.number));
  return rows.map((row) => ({ ...row, href: creditNoteHref(orderId, row.number) }));
}
