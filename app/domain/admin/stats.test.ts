import { describe, expect, it } from 'vitest';
import { formatCount, formatPercent, formatTrend, ratePercent, toDashboardStats, trendPercent } from './stats';

describe('statistics', () => {
  it.each([
    [150, 100, 50],
    [50, 100, -50],
    [1, 3, -66.7],
    [10, 0, null],
    [0, 0, null],
  ])('trend from %s to %s is %s', (current, previous, expected) => {
    expect(trendPercent(current, previous)).toBe(expected);
  });

  it('computes rates and formats them the French way', () => {
    expect(ratePercent(889, 1000)).toBe(88.9);
    expect(ratePercent(1, 0)).toBe(0);
    expect(formatPercent(88.9)).toBe('88,9\u202F%');
    expect(formatTrend(12.5)).toBe('+12,5\u202F%');
    expect(formatTrend(-3)).toBe('−3\u202F%');
    expect(formatTrend(null)).toBe('—');
    expect(formatCount(200000)).toBe('200\u202F000');
  });

  it('turns the counts into the dashboard’s cards', () => {
    const stats = toDashboardStats(
      {
        totalRevenueCents: 100_00,
        totalOrders: 10,
        totalCustomers: 4,
        pendingOrders: 2,
        revenueLast30Cents: 30_00,
        revenuePrevious30Cents: 20_00,
        ordersLast30: 4,
        ordersPrevious30: 4,
        paidOrders: 8,
        paymentPendingOrders: 1,
        paymentFailedOrders: 1,
      },
      new Date('2026-11-21T10:00:00Z'),
    );
    expect(stats).toMatchObject({
      revenueTrend: 50,
      ordersTrend: 0,
      paymentSuccess: 80,
      paymentPending: 10,
      paymentFailed: 10,
      conversionRate: 80,
      computedAt: '2026-11-21T10:00:00.000Z',
    });
  });
});
