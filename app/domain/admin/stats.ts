import { NNBSP } from '../format';

/*
 * The dashboard's statistics (totalRevenue, totalOrders,
 * totalCustomers, pendingOrders, revenueTrend, ordersTrend, paymentSuccess, paymentPending,
 * paymentFailed, conversionRate). The server counts in SQL; these pure functions turn the counts
 * into the percentages the cards show.
 */

/** Trends compare the last 30 days with the 30 days before. */
export const TREND_DAYS = 30;

export interface StatsCounts {
  totalRevenueCents: number;
  totalOrders: number;
  totalCustomers: number;
  pendingOrders: number;
  revenueLast30Cents: number;
  revenuePrevious30Cents: number;
  ordersLast30: number;
  ordersPrevious30: number;
  paidOrders: number;
  paymentPendingOrders: number;
  paymentFailedOrders: number;
}

export interface DashboardStats {
  totalRevenueCents: number;
  totalOrders: number;
  totalCustomers: number;
  pendingOrders: number;
  /** Percent change of the revenue of the last 30 days against the 30 before; null without a basis. */
  revenueTrend: number | null;
  ordersTrend: number | null;
  /** Orders by payment status, in percent of all orders (one decimal). */
  paymentSuccess: number;
  paymentPending: number;
  paymentFailed: number;
  paymentSuccessCount: number;
  paymentPendingCount: number;
  paymentFailedCount: number;
  /** Paid orders over created orders, in percent (one decimal). */
  conversionRate: number;
  /** When the figures were computed (ISO 8601). */
  computedAt: string;
}

function oneDecimal(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Percent change from `previous` to `current`, one decimal; null when there is nothing to compare with. */
export function trendPercent(current: number, previous: number): number | null {
  if (previous <= 0) return null;
  return oneDecimal(((current - previous) / previous) * 100);
}

/** `part` in percent of `whole`, one decimal; 0 when `whole` is 0. */
export function ratePercent(part: number, whole: number): number {
  if (whole <= 0) return 0;
  return oneDecimal((part / whole) * 100);
}

export function toDashboardStats(counts: StatsCounts, computedAt: Date = new Date()): DashboardStats {
  return {
    totalRevenueCents: counts.totalRevenueCents,
    totalOrders: counts.totalOrders,
    totalCustomers: counts.totalCustomers,
    pendingOrders: counts.pendingOrders,
    revenueTrend: trendPercent(counts.revenueLast30Cents, counts.revenuePrevious30Cents),
    ordersTrend: trendPercent(counts.ordersLast30, counts.ordersPrevious30),
    paymentSuccess: ratePercent(counts.paidOrders, counts.totalOrders),
    paymentPending: ratePercent(counts.paymentPendingOrders, counts.totalOrders),
    paymentFailed: ratePercent(counts.paymentFailedOrders, counts.totalOrders),
    paymentSuccessCount: counts.paidOrders,
    paymentPendingCount: counts.paymentPendingOrders,
    paymentFailedCount: counts.paymentFailedOrders,
    conversionRate: ratePercent(counts.paidOrders, counts.totalOrders),
    computedAt: computedAt.toISOString(),
  };
}

const percentFormat = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });
const integerFormat = new Intl.NumberFormat('fr-FR');

/** `12.5` -> `12,5 %` (narrow no-break space before the sign, as French typography wants). */
export function formatPercent(value: number): string {
  return `${percentFormat.format(value)}${NNBSP}%`;
}

/** `12.5` -> `+12,5 %`, `-3` -> `−3 %`; null -> `—`. */
export function formatTrend(value: number | null): string {
  if (value === null) return '—';
  const sign = value > 0 ? '+' : value < 0 ? '−' : '';
  return `${sign}${formatPercent(Math.abs(value))}`;
}

/** `200000` -> `200 000` (French thousands separator, a narrow no-break space). */
export function formatCount(value: number): string {
  return integerFormat.format(value);
}
