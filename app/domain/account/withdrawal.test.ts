import { describe, expect, it } from 'vitest';
import { frenchPublicHolidays, parisDay } from '../calendar';
import { withdrawalPeriod, withdrawalState } from './withdrawal';

const at = (iso: string) => new Date(iso);

describe('withdrawalPeriod', () => {
  it.each([
    // ordered (UTC)              last day (Paris)  why
    ['2026-03-02T10:00:00Z', '2026-03-16', 'a Monday: 14 days later is a Monday'],
    ['2026-03-04T09:00:00Z', '2026-03-18', 'a Wednesday'],
    ['2026-03-06T12:00:00Z', '2026-03-20', 'a Friday'],
    ['2026-03-07T12:00:00Z', '2026-03-23', 'ends on a Saturday: moved to Monday'],
    ['2026-03-08T12:00:00Z', '2026-03-23', 'ends on a Sunday: moved to Monday'],
    ['2026-03-31T23:30:00Z', '2026-04-15', 'late evening UTC is already the next day in Paris'],
    ['2026-12-11T10:00:00Z', '2026-12-28', 'ends on Christmas (Friday), then a week-end'],
    ['2026-04-29T10:00:00Z', '2026-05-13', 'ends before Ascension 2026 (14 May)'],
    ['2026-04-30T10:00:00Z', '2026-05-15', 'ends on Ascension Thursday: moved to Friday'],
  ])('ordered %s: last day %s (%s)', (ordered, lastDay) => {
    const { lastDay: last, deadline } = withdrawalPeriod(at(ordered));
    const day = parisDay(last);
    expect(`${day.year}-${String(day.month).padStart(2, '0')}-${String(day.day).padStart(2, '0')}`).toBe(lastDay);
    // The period ends at the Paris midnight after its last day.
    expect(deadline.getTime() - last.getTime()).toBeGreaterThanOrEqual(23 * 3600_000);
    expect(deadline.getTime() - last.getTime()).toBeLessThanOrEqual(25 * 3600_000);
  });

  it('ends at Paris midnight, across the change to summer time', () => {
    // Ordered on 15 March 2026; the last day, 29 March, is a Sunday (and the day clocks go forward).
    const { lastDay, deadline } = withdrawalPeriod(at('2026-03-15T10:00:00Z'));
    expect(lastDay.toISOString()).toBe('2026-03-29T22:00:00.000Z'); // Monday 30 March, 00:00 CEST
    expect(deadline.toISOString()).toBe('2026-03-30T22:00:00.000Z');
  });
});

describe('frenchPublicHolidays', () => {
  it('knows the eleven holidays, Easter-based ones included', () => {
    const days = frenchPublicHolidays(2026);
    expect(days.size).toBe(11);
    for (const day of [
      '2026-01-01',
      '2026-04-06',
      '2026-05-01',
      '2026-05-08',
      '2026-05-14',
      '2026-05-25',
      '2026-07-14',
    ]) {
      expect(days.has(day), day).toBe(true);
    }
    expect(frenchPublicHolidays(2025).has('2025-04-21')).toBe(true); // Easter Monday 2025
  });
});

describe('withdrawalState', () => {
  const order = { createdAt: at('2026-03-02T10:00:00Z'), withdrawnAt: null, status: 'pending' };

  it('is open until the end of the last day, Paris time', () => {
    expect(withdrawalState(order, at('2026-03-02T10:00:01Z')).kind).toBe('open');
    expect(withdrawalState(order, at('2026-03-16T22:59:59Z')).kind).toBe('open'); // 23:59:59 in Paris
    expect(withdrawalState(order, at('2026-03-16T23:00:00Z')).kind).toBe('expired');
  });

  it('says when it was already used, and not for a cancelled order', () => {
    const withdrawnAt = at('2026-03-05T08:00:00Z');
    expect(withdrawalState({ ...order, withdrawnAt }, at('2026-03-06T00:00:00Z'))).toEqual({
      kind: 'withdrawn',
      withdrawnAt,
    });
    expect(withdrawalState({ ...order, status: 'canceled' }, at('2026-03-03T00:00:00Z')).kind).toBe('canceled');
  });
});
