import { type SQL, sql } from 'drizzle-orm';
import type { ProfileInput } from '~/domain/account/schemas';
import type { CustomerListParams } from '~/domain/admin/list-params';
import { PAGE_SIZE } from '~/domain/admin/list-params';
import { countCap, type ListPage, pageOf } from '~/domain/admin/paging';
import {
  type CustomerDetails,
  type CustomerListRow,
  GUEST_CUSTOMER_PREFIX,
  guestCustomerKey,
  guestEmailOf,
} from '~/domain/admin/views';
import type { OrderStatus, PaymentStatus } from '~/domain/order-status';
import { updateProfile } from '../account/users.server';
import { db } from '../db/client.server';
import { customerSearchCondition, isoTimestamp } from './search-sql.server';

/*
 * The Clients tab: customer accounts (role customer) and guests, whose orders are grouped by their
 * e-mail; a guest's orders placed with the address of an account count for that
 * account. Each line has its number of orders and what it spent. Sorted by date, name or e-mail, a
 * page of people is chosen first and only its 20 lines get their figures (from the orders' indexes
 * on user_id and lower(guest_email)); sorted by orders or spent, every person's figures are needed
 * before the page is cut.
 */

const ORDER_BY: Record<string, SQL> = {
  'date:desc': sql`p.created_at desc, p.key`,
  'date:asc': sql`p.created_at asc, p.key`,
  'name:asc': sql`lower(p.name) asc, p.key`,
  'name:desc': sql`lower(p.name) desc, p.key`,
  'email:asc': sql`p.email asc`,
  'email:desc': sql`p.email desc`,
  'orders:desc': sql`p.orders desc, p.created_at desc, p.key`,
  'orders:asc': sql`p.orders asc, p.created_at desc, p.key`,
  'spent:desc': sql`p.spent desc, p.created_at desc, p.key`,
  'spent:asc': sql`p.spent asc, p.created_at desc, p.key`,
};

const DISPLAY_NAME = sql`coalesce(nullif(trim(concat_ws(' ', u.first_name, u.last_name)), ''), u.name)`;

/** Accounts, then guests grouped by e-mail when no account has that address. */
const PEOPLE = sql`people as (
  select u.id::text as key, true as account, u.id::text as user_id, ${DISPLAY_NAME} as name,
    lower(u.email) as email, u.created_at
  from "user" u where u.role = 'customer'
  union all
  select ${GUEST_CUSTOMER_PREFIX} || g.email, false, null, coalesce(g.name, ''), g.email, g.created_at
  from (
    select lower(o.guest_email) as email, min(o.created_at) as created_at,
      (array_agg(nullif(trim(concat_ws(' ', o.guest_first_name, o.guest_last_name)), '')
        order by o.created_at desc))[1] as name
    from orders o
    where o.user_id is null and o.guest_email is not null and o.placed_at is not null
      and not exists (select 1 from "user" u where u.email = lower(o.guest_email))
    group by lower(o.guest_email)
  ) g
)`;

/** A person's orders: their account's, and the guest orders placed with their e-mail. */
function ordersOf(person: SQL): SQL {
  return sql`(o.user_id = ${person}.user_id
    or (o.user_id is null and o.placed_at is not null and lower(o.guest_email) = ${person}.email))`;
}

/**
 * What a person spent: their orders' real invoices minus the credit notes (refunds), like the
 * revenue (stats.server.ts); demonstration documents count nothing.
 */
const FIGURES = sql`cross join lateral (
    select count(*)::int as orders, coalesce(array_agg(o.id), '{}') as ids from orders o where ${ordersOf(sql`p`)}
  ) f
  cross join lateral (
    select ((select coalesce(sum(i.amount), 0) from invoices i where i.order_id = any(f.ids) and not i.is_demo)
      - (select coalesce(sum(c.amount), 0) from credit_notes c where c.order_id = any(f.ids) and not c.is_demo))::bigint as spent
  ) m`;

export async function listCustomers(
  params: CustomerListParams,
  pageSize = PAGE_SIZE,
): Promise<ListPage<CustomerListRow>> {
  const where = params.q ? sql`where ${customerSearchCondition(params.q, sql.raw('p'))}` : sql``;
  const orderBy = ORDER_BY[`${params.sort}:${params.dir}`] ?? (ORDER_BY['date:desc'] as SQL);
  const offset = (params.page - 1) * pageSize;
  const byFigures = params.sort === 'orders' || params.sort === 'spent';
  const rowsQuery = byFigures
    ? sql`with ${PEOPLE}
      select * from (select p.*, f.orders, m.spent from people p ${FIGURES} ${where}) p
      order by ${orderBy} limit ${pageSize} offset ${offset}`
    : sql`with ${PEOPLE}
      select p.*, f.orders, m.spent
      from (select * from people p ${where} order by ${orderBy} limit ${pageSize} offset ${offset}) p ${FIGURES}
      order by ${orderBy}`;
  const [rowsResult, countResult] = await Promise.all([
    db().execute(rowsQuery),
    db().execute<{ n: number }>(sql`with ${PEOPLE}
      select count(*)::int as n from (select 1 from people p ${where} limit ${countCap(params.q) + 1}) t`),
  ]);
  const rows = rowsResult.rows.map((r) => ({
    id: String(r.key),
    account: Boolean(r.account),
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

/** An account's or a guest's details, with their orders (newest first); null when unknown. */
export async function getCustomerDetails(key: string): Promise<CustomerDetails | null> {
  const guestEmail = guestEmailOf(key);
  const personResult = guestEmail
    ? await db().execute(sql`
        select null as user_id, lower(o.guest_email) as email, o.guest_first_name as first_name,
          o.guest_last_name as last_name, o.guest_phone as phone, o.guest_address as street,
          o.guest_postal_code as postal_code, o.guest_city as city,
          (select min(created_at) from orders where user_id is null and placed_at is not null and lower(guest_email) = ${guestEmail}) as created_at
        from orders o
        where o.user_id is null and o.placed_at is not null and lower(o.guest_email) = ${guestEmail}
          and not exists (select 1 from "user" u where u.email = ${guestEmail})
        order by o.created_at desc limit 1`)
    : await db().execute(sql`
        select u.id as user_id, lower(u.email) as email, u.first_name, u.last_name, u.phone, u.street,
          u.postal_code, u.city, u.created_at
        from "user" u where u.id = ${key} and u.role = 'customer'`);
  const u = personResult.rows[0] as Record<string, unknown> | undefined;
  if (!u) return null;
  const person = sql`(select ${u.user_id === null ? null : String(u.user_id)}::text as user_id, ${String(u.email)}::text as email) p`;
  const [totals, orders] = await Promise.all([
    db().execute(sql`select f.orders, m.spent from ${person} ${FIGURES}`),
    db().execute(sql`
      select o.id, o.number, o.created_at, o.status, o.payment_status, o.total_price from ${person}
      join orders o on ${ordersOf(sql`p`)}
      order by o.created_at desc nulls last limit ${CUSTOMER_ORDERS_SHOWN}`),
  ]);
  const text = (column: string) =>
    u[column] === null || u[column] === undefined || u[column] === '' ? null : String(u[column]);
  const firstName = text('first_name') ?? '';
  const lastName = text('last_name') ?? '';
  return {
    id: guestEmail ? guestCustomerKey(guestEmail) : String(u.user_id),
    account: !guestEmail,
    firstName,
    lastName,
    name: `${firstName} ${lastName}`.trim(),
    email: String(u.email),
    phone: text('phone'),
    address: text('street'),
    postalCode: text('postal_code'),
    city: text('city'),
    createdAt: isoTimestamp(u.created_at),
    ordersCount: Number(totals.rows[0]?.orders ?? 0),
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

/**
 * « Modifier les coordonnées » from the Clients tab: the same rules and the same write as the
 * customer's own profile page; only a customer's account (never a staff member's). False when
 * there is no such account.
 */
export async function updateCustomerDetails(userId: string, input: ProfileInput, editedBy: string): Promise<boolean> {
  const [row] = await db()
    .execute<{ role: string }>(sql`select role from "user" where id = ${userId}`)
    .then((r) => r.rows);
  if (row?.role !== 'customer') return false;
  return updateProfile(userId, input, editedBy);
}
