import { sql } from 'drizzle-orm';
import { type DashboardStats, type StatsCounts, TREND_DAYS, toDashboardStats } from '~/domain/admin/stats';
import { broadcast } from '../db/broadcast.server';
import { db } from '../db/client.server';
import { log } from '../log.server';

/*
 * The dashboard's statistics cards, counted in SQL in one pass over `orders` (FILTER clauses), one
 * over the accounting documents and one index-only count of customer accounts.
 *
 * Revenue is what the accounts say (always net of refunds: docs/payments.md): the real
 * invoices minus the real credit notes, each on its issue date, never a demonstration document
 * (money taken by the sandbox). `REVENUE_DOCUMENTS` is that signed list, shared with the reports.
 *
 * One pass over 200 000 orders takes about 50 ms: too much to pay on every click of a tab. The
 * figures are therefore kept in this process for STATS_TTL_MS and served stale while a fresh count
 * runs in the background (one at a time), and the back office's own changes (a status, a payment)
 * mark them stale at once, on every instance (db/broadcast.server.ts). Only the first request after
 * a start waits for the count.
 */

export const STATS_TTL_MS = 60_000;

/**
 * The documents revenue is made of, as a subquery `(issued_at, amount)`: real invoices counted in,
 * real credit notes counted out (a refund lowers the revenue of the day it is credited).
 */
export const REVENUE_DOCUMENTS = sql`(
  select issued_at, amount from invoices where not is_demo
  union all
  select issued_at, -amount from credit_notes where not is_demo
) as revenue_documents`;

interface CacheEntry {
  stats: DashboardStats;
  at: number;
}

const statsCache: { entry?: CacheEntry; refreshing?: Promise<DashboardStats> } = {};

function cache() {
  return statsCache;
}

/** The counts behind the cards, straight from the database (no cache). */
export async function countStats(now: Date = new Date()): Promise<StatsCounts> {
  const dayMs = 86_400_000;
  const last = new Date(now.getTime() - TREND_DAYS * dayMs).toISOString();
  const previous = new Date(now.getTime() - 2 * TREND_DAYS * dayMs).toISOString();
  const nowIso = now.toISOString();
  const [ordersResult, revenueResult, customersResult] = await Promise.all([
    db().execute<Record<string, number | null>>(sql`
      select
        count(*)::int as "totalOrders",
        count(*) filter (where status = 'pending')::int as "pendingOrders",
        count(*) filter (where created_at >= ${last}::timestamptz and created_at < ${nowIso}::timestamptz)::int
          as "ordersLast30",
        count(*) filter (where created_at >= ${previous}::timestamptz and created_at < ${last}::timestamptz)::int
          as "ordersPrevious30",
        count(*) filter (where payment_status in ('paid', 'partially_refunded'))::int as "paidOrders",
        count(*) filter (where payment_status = 'pending')::int as "paymentPendingOrders",
        count(*) filter (where payment_status = 'failed')::int as "paymentFailedOrders"
      from orders
      -- Drafts are not orders yet (« Commander » never confirmed): counted nowhere.
      where placed_at is not null`),
    db().execute<Record<string, number | string | null>>(sql`
      select
        coalesce(sum(amount), 0)::bigint as "totalRevenueCents",
        coalesce(sum(amount) filter (
          where issued_at >= ${last}::timestamptz and issued_at < ${nowIso}::timestamptz), 0)::bigint
          as "revenueLast30Cents",
        coalesce(sum(amount) filter (
          where issued_at >= ${previous}::timestamptz and issued_at < ${last}::timestamptz), 0)::bigint
          as "revenuePrevious30Cents"
      from ${REVENUE_DOCUMENTS}`),
    // Customers are the accounts that are not administrators (guests are counted with their orders).
    db().execute<{ n: number }>(sql`select count(*)::int as n from "user" where role = 'customer'`),
  ]);
  const row = { ...ordersResult.rows[0], ...revenueResult.rows[0] };
  const n = (key: string) => Number(row[key] ?? 0);
  return {
    totalOrders: n('totalOrders'),
    pendingOrders: n('pendingOrders'),
    totalRevenueCents: n('totalRevenueCents'),
    revenueLast30Cents: n('revenueLast30Cents'),
    revenuePrevious30Cents: n('revenuePrevious30Cents'),
    ordersLast30: n('ordersLast30'),
    ordersPrevious30: n('ordersPrevious30'),
    paidOrders: n('paidOrders'),
    paymentPendingOrders: n('paymentPendingOrders'),
    paymentFailedOrders: n('paymentFailedOrders'),
    totalCustomers: Number(customersResult.rows[0]?.n ?? 0),
  };
}

function refresh(): Promise<DashboardStats> {
  const state = cache();
  state.refreshing ??= countStats()
    .then((counts) => {
      const stats = toDashboardStats(counts);
      state.entry = { stats, at: Date.now() };
      return stats;
    })
    .finally(() => {
      state.refreshing = undefined;
    });
  return state.refreshing;
}

/** The cards' figures: fresh ones on the first call, then at most STATS_TTL_MS old (see above). */
export async function getDashboardStats(): Promise<DashboardStats> {
  const state = cache();
  const entry = state.entry;
  if (!entry) return refresh();
  if (Date.now() - entry.at > STATS_TTL_MS) {
    refresh().catch((error) => log.error({ err: error }, 'the dashboard statistics could not be refreshed'));
  }
  return entry.stats;
}

/**
 * After a change the figures depend on: the next read starts a fresh count (and serves these
 * meanwhile), here and on every other instance. Never throws: the figures are a convenience.
 */
export function invalidateDashboardStats(): Promise<void> {
  invalidateLocalDashboardStats();
  return broadcast({ topic: 'dashboard-stats' });
}

/** This process only (another instance made the change). */
export function invalidateLocalDashboardStats(): void {
  const entry = cache().entry;
  if (entry) entry.at = 0;
}
