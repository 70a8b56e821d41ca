import { describe, expect, it } from 'vitest';
import { frenchPublicHolidays, isWorkingDay } from '../calendar';
import { dueDate, isLate } from './due-date';

const paris = (at: Date) => at.toLocaleString('fr-FR', { timeZone: 'Europe/Paris' });

describe('the due date of an order', () => {
  it('counts working days after the reception day, and is due at the end of the last one (Paris)', () => {
    // Tuesday 24 November 2026, 10:00 in Paris; 2 working days: Thursday 26 November, 23:59:59.
    expect(paris(dueDate(new Date('2026-11-24T09:00:00Z'), 2))).toBe('26/11/2026 23:59:59');
  });

  it('skips weekends', () => {
    // Friday 27 November 2026 + 2 working days: Tuesday 1 December.
    expect(paris(dueDate(new Date('2026-11-27T15:00:00Z'), 2))).toBe('01/12/2026 23:59:59');
  });

  it('skips French public holidays, Easter-based ones included', () => {
    // Thursday 24 December 2026 + 1: Friday 25 is Christmas, so Monday 28 December.
    expect(paris(dueDate(new Date('2026-12-24T10:00:00Z'), 1))).toBe('28/12/2026 23:59:59');
    // 2027: Easter is 28 March, so Easter Monday 29 March and Ascension Thursday 6 May.
    const holidays = frenchPublicHolidays(2027);
    expect(holidays.has('2027-03-29')).toBe(true);
    expect(holidays.has('2027-05-06')).toBe(true);
    expect(isWorkingDay({ year: 2027, month: 3, day: 29 })).toBe(false);
    expect(isWorkingDay({ year: 2027, month: 3, day: 30 })).toBe(true);
  });

  it('takes the reception day in Paris, in summer time too', () => {
    // 23:30 UTC on Sunday 28 June 2026 is already Monday 29 June in Paris; + 15 working days, 14 July skipped.
    expect(paris(dueDate(new Date('2026-06-28T23:30:00Z'), 15))).toBe('21/07/2026 23:59:59');
  });

  it('is late once the due date has passed', () => {
    const due = dueDate(new Date('2026-11-24T09:00:00Z'), 2);
    expect(isLate(due, new Date('2026-11-26T20:00:00Z'))).toBe(false);
    expect(isLate(due, new Date('2026-11-27T08:00:00Z'))).toBe(true);
    expect(isLate(null, new Date())).toBe(false);
  });
});
