import { type SQL, sql } from 'drizzle-orm';
import type { ReportsData } from '~/domain/admin/views';
import { ORDER_STATUSES } from '~/domain/order-status';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { REVENUE_DOCUMENTS } from './stats.server';

/*
 * The Rapports tab's charts: revenue (net of refunds, without demonstration documents, by issue
 * date of the invoices and credit notes: stats.server.ts) and orders per month (the last REPORT_MONTHS months, in the
 * shop's time zone), orders per support type and the distribution of statuses. These read most of
 * the orders (a quarter of a second with 200 000): they are fetched by the browser once the tab is
 * shown, and kept REPORTS_TTL_MS in this process (served stale while a fresh copy is computed).
 */

export const REPORT_MONTHS = 12;
export const REPORTS_TTL_MS = 5 * 60_000;

/** `2026-11` for each of the last `count` months, oldest first, ending with the month of `now` (Paris). */
export function lastMonths(now: Date, count = REPORT_MONTHS): string[] {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' })
    .formatToParts(now)
    .reduce<Record<string, string>>((acc, p) => Object.assign(acc, { [p.type]: p.value }), {});
  let year = Number(parts.year);
  let month = Number(parts.month);
  const months: string[] = [];
  for (let i = 0; i < count; i++) {
    months.unshift(`${year}-${String(month).padStart(2, '0')}`);
    month -= 1;
    if (month === 0) {
      month = 12;
      year -= 1;
    }
  }
  return months;
}

/** `2026-12` -> `2027-01`. */
function next(month: string): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
}

export async function computeReports(now: Date = new Date()): Promise<ReportsData> {
  const months = lastMonths(now);
  const start = `${months[0]}-01`;
  const since = sql`(${start}::date)::timestamp at time zone 'Europe/Paris'`;
  // Month boundaries are computed once (Paris midnights); converting every row's date to Paris time
  // would cost more than the whole count. Each month is then a range of the created_at index.
  const bounds = [...months, next(months[months.length - 1] as string)].map(
    (month) => sql`(${`${month}-01`}::date)::timestamp at time zone 'Europe/Paris'`,
  );
  const ranges = months.map((month, i) => sql`(${month}::text, ${bounds[i] as SQL}, ${bounds[i + 1] as SQL})`);
  const [perMonth, revenuePerMonth, perSupport, perStatus] = await Promise.all([
    db().execute(sql`
      select b.month, count(o.id)::int as orders
      from (values ${sql.join(ranges, sql`, `)}) as b(month, start_at, end_at)
      left join orders o on o.created_at >= b.start_at and o.created_at < b.end_at and o.placed_at is not null
      group by b.month`),
    db().execute(sql`
      select b.month, coalesce(sum(revenue_documents.amount), 0)::bigint as revenue
      from (values ${sql.join(ranges, sql`, `)}) as b(month, start_at, end_at)
      left join ${REVENUE_DOCUMENTS}
        on revenue_documents.issued_at >= b.start_at and revenue_documents.issued_at < b.end_at
      group by b.month`),
    db().execute(sql`
      select i.type, count(distinct i.order_id)::int as orders, sum(i.quantity)::bigint as quantity
      from order_items i join orders o on o.id = i.order_id
      where o.created_at >= ${since} and o.placed_at is not null
      group by i.type order by 2 desc`),
    db().execute(sql`select status, count(*)::int as orders from orders where placed_at is not null group by status`),
  ]);
  const byMonth = new Map(perMonth.rows.map((r) => [String(r.month), r]));
  const revenueByMonth = new Map(revenuePerMonth.rows.map((r) => [String(r.month), Number(r.revenue ?? 0)]));
  const byStatus = new Map(perStatus.rows.map((r) => [String(r.status), Number(r.orders)]));
  return {
    months: months.map((month) => {
      const row = byMonth.get(month);
      return { month, revenueCents: revenueByMonth.get(month) ?? 0, orders: Number(row?.orders ?? 0) };
    }),
    supports: perSupport.rows.map((r) => ({
      type: String(r.type),
      orders: Number(r.orders),
      quantity: Number(r.quantity),
    })),
    statuses: ORDER_STATUSES.map((status) => ({ status, orders: byStatus.get(status) ?? 0 })),
    computedAt: now.toISOString(),
  };
}

const reportsCache: { entry?: { data: ReportsData; at: number }; refreshing?: Promise<ReportsData> } = {};

function cache() {
  return reportsCache;
}

function refresh(): Promise<ReportsData> {
  const state = cache();
  state.refreshing ??= computeReports()
    .then((data) => {
      state.entry = { data, at: Date.now() };
      return data;
    })
    .finally(() => {
      state.refreshing = undefined;
    });
  return state.refreshing;
}

export async function getReports(): Promise<ReportsData> {
  const entry = cache().entry;
  if (!entry) return refresh();
  if (Date.now() - entry.at > REPORTS_TTL_MS) {
    refresh().catch((error) => log.error({ err: error }, 'the reports could not be refreshed'));
  }
  return entry.data;
}

/** Starts computing the charts when they are missing or stale; never waits, never throws. */
export function warmReports(): void {
  const entry = cache().entry;
  if (entry && Date.now() - entry.at <= REPORTS_TTL_MS) return;
  getReports().catch((error) => log.error({ err: error }, 'the reports could not be computed'));
}
