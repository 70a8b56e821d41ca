import { type SQL, sql } from 'drizzle-orm';
import { PAGE_SIZE } from '~/domain/admin/list-params';
import { countCap, type ListPage, pageOf } from '~/domain/admin/paging';
import { type CreditNoteListRow, type InvoiceListRow, invoiceState } from '~/domain/admin/views';
import { db } from '../db/client.server';
import { CUSTOMER_NAME } from './orders.server';
import { anyOf, isoTimestamp, numberConditions, orderSearchCondition, whereAll } from './search-sql.server';

/*
 * The Comptabilité tab: invoices and credit notes, newest first, searched by their number, the
 * order's number, or the customer's name or e-mail (through orders.search_text and its trigram
 * index). Demonstration documents (TEST-…, money taken by the sandbox) are listed, marked as such.
 */

function documentSearch(alias: 'i' | 'c', prefix: 'FA' | 'AV', q: string): SQL {
  const table = sql.raw(alias);
  return anyOf([
    ...numberConditions(sql`${table}.number`, q, prefix),
    sql`${table}.order_id in (select o.id from orders o where ${orderSearchCondition(q)})`,
  ]);
}

export async function listInvoices(
  params: { q: string; page: number },
  pageSize = PAGE_SIZE,
): Promise<ListPage<InvoiceListRow>> {
  const where = whereAll(params.q ? [documentSearch('i', 'FA', params.q)] : []);
  const offset = (params.page - 1) * pageSize;
  const [rowsResult, countResult] = await Promise.all([
    db().execute(sql`
      select i.id, i.number, i.order_id, i.issued_at, i.amount, i.is_paid, o.number as order_number,
        ${CUSTOMER_NAME} as customer,
        i.is_demo, coalesce((select sum(c.amount) from credit_notes c where c.invoice_id = i.id), 0)::int as credited
      from (select * from invoices i ${where} order by i.issued_at desc nulls last limit ${pageSize} offset ${offset}) i
      join orders o on o.id = i.order_id
      left join "user" u on u.id = o.user_id
      order by i.issued_at desc nulls last`),
    db().execute<{ n: number }>(sql`
      select count(*)::int as n from (select 1 from invoices i ${where} limit ${countCap(params.q) + 1}) t`),
  ]);
  const rows = rowsResult.rows.map(
    (r): InvoiceListRow => ({
      id: String(r.id),
      number: String(r.number),
      orderId: String(r.order_id),
      orderNumber: String(r.order_number),
      customer: String(r.customer ?? ''),
      issuedAt: isoTimestamp(r.issued_at),
      amountCents: Number(r.amount),
      state: invoiceState(Number(r.amount), Number(r.credited), Boolean(r.is_paid)),
      isDemo: Boolean(r.is_demo),
    }),
  );
  return pageOf(rows, params.page, Number(countResult.rows[0]?.n ?? 0), pageSize, countCap(params.q));
}

export async function listCreditNotes(
  params: { q: string; page: number },
  pageSize = PAGE_SIZE,
): Promise<ListPage<CreditNoteListRow>> {
  const where = whereAll(params.q ? [documentSearch('c', 'AV', params.q)] : []);
  const offset = (params.page - 1) * pageSize;
  const [rowsResult, countResult] = await Promise.all([
    db().execute(sql`
      select c.id, c.number, c.order_id, c.issued_at, c.amount, c.reason, c.is_demo, o.number as order_number,
        inv.number as invoice_number, ${CUSTOMER_NAME} as customer
      from (select * from credit_notes c ${where} order by c.issued_at desc nulls last limit ${pageSize} offset ${offset}) c
      join orders o on o.id = c.order_id
      join invoices inv on inv.id = c.invoice_id
      left join "user" u on u.id = o.user_id
      order by c.issued_at desc nulls last`),
    db().execute<{ n: number }>(sql`
      select count(*)::int as n from (select 1 from credit_notes c ${where} limit ${countCap(params.q) + 1}) t`),
  ]);
  const rows = rowsResult.rows.map(
    (r): CreditNoteListRow => ({
      id: String(r.id),
      number: String(r.number),
      orderId: String(r.order_id),
      orderNumber: String(r.order_number),
      invoiceNumber: String(r.invoice_number),
      customer: String(r.customer ?? ''),
      issuedAt: isoTimestamp(r.issued_at),
      amountCents: Number(r.amount),
      reason: (r.reason as string | null) ?? null,
      isDemo: Boolean(r.is_demo),
    }),
  );
  return pageOf(rows, params.page, Number(countResult.rows[0]?.n ?? 0), pageSize, countCap(params.q));
}
