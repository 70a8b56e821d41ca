import { type SQL, sql } from 'drizzle-orm';
import type { CustomerListParams } from '~/domain/admin/list-params';
import { PAGE_SIZE } from '~/domain/admin/list-params';
import { countCap, type ListPage, pageOf } from '~/domain/admin/paging';
import type { CustomerDetails, CustomerListRow } from '~/domain/admin/views';
import type { OrderStatus, PaymentStatus } from '~/domain/order-status';
import { db } from '../db/client.server';
import { customerSearchCondition, isoTimestamp, whereAll } from './search-sql.server';

/*
 * The Clients tab: customer accounts (role customer) with their number of orders and the amount
 * they spent (paid orders). Guests have no account: their orders are found in the Commandes tab.
 * The page of accounts is chosen first (on the accounts' indexes), then each of its 20 rows gets
 * its two figures from the (user_id, created_at) index of orders.
 */

const ORDER_BY: Record<string, SQL> = {
  'date:desc': sql`u.created_at desc`,
  'date:asc': sql`u.created_at asc`,
  'name:asc': sql`lower(u.name) asc`,
  'name:desc': sql`lower(u.name) desc`,
  'email:asc': sql`u.email asc`,
  'email:desc': sql`u.email desc`,
};

const DISPLAY_NAME = sql`coalesce(nullif(trim(concat_ws(' ', u.first_name, u.last_name)), ''), u.name)`;

/**
 * What a customer spent: their orders' real invoices minus the credit notes (refunds), like the
 * revenue (stats.server.ts); demonstration documents count nothing.
 */
function spentBy(userId: SQL): SQL {
  return sql`(
    (select coalesce(sum(i.amount), 0) from invoices i join orders o on o.id = i.order_id
      where o.user_id = ${userId} and not i.is_demo)
    - (select coalesce(sum(c.amount), 0) from credit_notes c join orders o on o.id = c.order_id
      where o.user_id = ${userId} and not c.is_demo))::bigint`;
}

export async function listCustomers(
  params: CustomerListParams,
  pageSize = PAGE_SIZE,
): Promise<ListPage<CustomerListRow>> {
  const conditions: SQL[] = [sql`u.role = 'customer'`];
  if (params.q) conditions.push(customerSearchCondition(params.q));
  const where = whereAll(conditions);
  const orderBy = ORDER_BY[`${params.sort}:${params.dir}`] ?? (ORDER_BY['date:desc'] as SQL);
  const offset = (params.page - 1) * pageSize;
  const [rowsResult, countResult] = await Promise.all([
    db().execute(sql`
      select u.id, ${DISPLAY_NAME} as name, u.email, u.created_at,
        (select count(*) from orders o where o.user_id = u.id)::int as orders,
        ${spentBy(sql`u.id`)} as spent
      from (select * from "user" u ${where} order by ${orderBy} limit ${pageSize} offset ${offset}) u
      order by ${orderBy}`),
    db().execute<{ n: number }>(sql`
      select count(*)::int as n from (select 1 from "user" u ${where} limit ${countCap(params.q) + 1}) t`),
  ]);
  const rows = rowsResult.rows.map((r) => ({
    id: String(r.id),
    name: String(r.name ?? ''),
    email: String(r.email),
    createdAt: isoTimestamp(r.created_at),
    orders: Number(r.orders),
    spentCents: Number(r.spent),
  }));
  return pageOf(rows, params.page, Number(countResult.rows[0]?.n ?? 0), pageSize, countCap(params.q));
}

/** How many of a customer's orders the dialog lists (newest first); the count covers them all. */
export const CUSTOMER_ORDERS_SHOWN = 50;

export async function getCustomerDetails(userId: string): Promise<CustomerDetails | null> {
  const [userResult, totals, orders] = await Promise.all([
    db().execute(sql`
      select u.id, ${DISPLAY_NAME} as name, u.email, u.phone, u.street, u.postal_code, u.city, u.created_at
      from "user" u where u.id = ${userId}`),
    db().execute(sql`
      select count(*)::int as n, ${spentBy(sql`${userId}`)} as spent
      from orders where user_id = ${userId}`),
    db().execute(sql`
      select id, number, created_at, status, payment_status, total_price
      from orders where user_id = ${userId}
      order by created_at desc nulls last limit ${CUSTOMER_ORDERS_SHOWN}`),
  ]);
  const u = userResult.rows[0] as Record<string, unknown> | undefined;
  if (!u) return null;
  const text = (key: string) => (u[key] === null || u[key] === undefined || u[key] === '' ? null : String(u[key]));
  return {
    id: String(u.id),
    name: String(u.name ?? ''),
    email: String(u.email),
    phone: text('phone'),
    address: text('street'),
    postalCode: text('postal_code'),
    city: text('city'),
    createdAt: isoTimestamp(u.created_at),
    ordersCount: Number(totals.rows[0]?.n ?? 0),
    spentCents: Number(totals.rows[0]?.spent ?? 0),
    orders: orders.rows.map((r) => ({
      id: String(r.id),
      number: String(r.number),
      createdAt: isoTimestamp(r.created_at),
      status: r.status as OrderStatus,
      paymentStatus: r.payment_status as PaymentStatus,
      totalCents: Number(r.total_price),
    })),
  };
}
