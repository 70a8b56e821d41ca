import { sql } from 'drizzle-orm';
import { isSearchable } from '~/domain/admin/list-params';
import type { SearchResults } from '~/domain/admin/views';
import type { OrderStatus } from '~/domain/order-status';
import { db } from '../db/client.server';
import { CUSTOMER_EMAIL, CUSTOMER_NAME } from './orders.server';
import {
  anyOf,
  customerSearchCondition,
  isoTimestamp,
  numberConditions,
  orderSearchCondition,
} from './search-sql.server';

/*
 * The dashboard's search box, which filters orders, customers and
 * invoices: the first matches of each kind by number, name or e-mail, and how many there are
 * (counted up to SEARCH_COUNT_CAP). Each part is answered by an index (search-sql.server.ts).
 */

export const SEARCH_RESULTS_PER_KIND = 5;
export const SEARCH_COUNT_CAP = 100;

function counted(n: unknown) {
  const count = Number(n ?? 0);
  return { count: Math.min(count, SEARCH_COUNT_CAP), capped: count > SEARCH_COUNT_CAP };
}

export async function searchEverything(q: string): Promise<SearchResults> {
  const empty: SearchResults = {
    q,
    orders: { count: 0, capped: false, rows: [] },
    customers: { count: 0, capped: false, rows: [] },
    invoices: { count: 0, capped: false, rows: [] },
  };
  if (!isSearchable(q)) return empty;
  const orderWhere = orderSearchCondition(q);
  const customerWhere = customerSearchCondition(q);
  const invoiceWhere = anyOf([
    ...numberConditions(sql`i.number`, q, 'FA'),
    sql`i.order_id in (select o.id from orders o where ${orderWhere})`,
  ]);
  const limit = SEARCH_RESULTS_PER_KIND;
  const cap = SEARCH_COUNT_CAP + 1;
  const [orders, ordersCount, customers, customersCount, invoices, invoicesCount] = await Promise.all([
    db().execute(sql`
      select o.id, o.number, o.status, o.total_price, o.created_at, ${CUSTOMER_NAME} as customer, ${CUSTOMER_EMAIL} as email
      from (select * from orders o where ${orderWhere} order by o.created_at desc nulls last limit ${limit}) o
      left join "user" u on u.id = o.user_id
      order by o.created_at desc nulls last`),
    db().execute(sql`select count(*)::int as n from (select 1 from orders o where ${orderWhere} limit ${cap}) t`),
    db().execute(sql`
      select u.id, coalesce(nullif(trim(concat_ws(' ', u.first_name, u.last_name)), ''), u.name) as name, u.email
      from "user" u where u.role = 'customer' and ${customerWhere}
      order by u.created_at desc limit ${limit}`),
    db().execute(sql`
      select count(*)::int as n from (select 1 from "user" u where u.role = 'customer' and ${customerWhere} limit ${cap}) t`),
    db().execute(sql`
      select i.id, i.number, i.order_id, i.amount, o.number as order_number, ${CUSTOMER_NAME} as customer
      from (select * from invoices i where ${invoiceWhere} order by i.issued_at desc nulls last limit ${limit}) i
      join orders o on o.id = i.order_id left join "user" u on u.id = o.user_id
      order by i.issued_at desc nulls last`),
    db().execute(sql`select count(*)::int as n from (select 1 from invoices i where ${invoiceWhere} limit ${cap}) t`),
  ]);
  return {
    q,
    orders: {
      ...counted(ordersCount.rows[0]?.n),
      rows: orders.rows.map((r) => ({
        id: String(r.id),
        number: String(r.number),
        customer: String(r.customer || r.email || ''),
        status: r.status as OrderStatus,
        totalCents: Number(r.total_price),
        createdAt: isoTimestamp(r.created_at),
      })),
    },
    customers: {
      ...counted(customersCount.rows[0]?.n),
      rows: customers.rows.map((r) => ({ id: String(r.id), name: String(r.name ?? ''), email: String(r.email) })),
    },
    invoices: {
      ...counted(invoicesCount.rows[0]?.n),
      rows: invoices.rows.map((r) => ({
        id: String(r.id),
        number: String(r.number),
        orderId: String(r.order_id),
        orderNumber: String(r.order_number),
        customer: String(r.customer ?? ''),
        amountCents: Number(r.amount),
      })),
    },
  };
}
