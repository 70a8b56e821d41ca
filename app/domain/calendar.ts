import { SHOP_TIME_ZONE } from './format';

/*
 * Calendar days in Paris, the shop's time zone, and the working days of metropolitan France: the
 * withdrawal period (account/withdrawal.ts) and the workshop's due dates (orders/due-date.ts) count
 * with them.
 */

export interface CalendarDay {
  year: number;
  /** 1 to 12 */
  month: number;
  day: number;
}

const wallClock = new Intl.DateTimeFormat('en-US', {
  timeZone: SHOP_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

function parts(instant: number): Record<string, number> {
  const result: Record<string, number> = {};
  for (const part of wallClock.formatToParts(new Date(instant))) {
    if (part.type !== 'literal') result[part.type] = Number(part.value);
  }
  return result;
}

/** Paris wall-clock time minus UTC, in ms, at `instant`. */
function parisOffset(instant: number): number {
  const p = parts(instant);
  const wall = Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
  return wall - Math.floor(instant / 1000) * 1000;
}

/** Paris wall-clock time at `instant`, written as a UTC time (so that Date's UTC fields read it). */
export function parisWallClock(instant: number): number {
  const p = parts(instant);
  const milliseconds = ((instant % 1000) + 1000) % 1000;
  return Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0, milliseconds);
}

/**
 * The instant Paris clocks show `wall` (as parisWallClock writes it), found as parisMidnight finds
 * midnight: subtract the offset, then the offset at that first guess. In the hour skipped in
 * spring it gives the hour after; in the hour repeated in autumn, one of its two occurrences.
 */
export function fromParisWallClock(wall: number): number {
  const guess = wall - (parisWallClock(wall) - wall);
  return wall - (parisWallClock(guess) - guess);
}

/** The Paris calendar day of an instant. */
export function parisDay(instant: Date): CalendarDay {
  const p = parts(instant.getTime());
  return { year: p.year ?? 0, month: p.month ?? 1, day: p.day ?? 1 };
}

/** The instant of midnight, Paris time, starting a calendar day (day may overflow: Date.UTC normalises). */
export function parisMidnight({ year, month, day }: CalendarDay): Date {
  const guess = Date.UTC(year, month - 1, day);
  let instant = guess - parisOffset(guess);
  // Across a change of offset the first guess can be one hour off: correct with the offset found.
  const corrected = guess - parisOffset(instant);
  if (corrected !== instant) instant = corrected;
  return new Date(instant);
}

export function addDays({ year, month, day }: CalendarDay, days: number): CalendarDay {
  const date = new Date(Date.UTC(year, month - 1, day + days));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

export function dayKey({ year, month, day }: CalendarDay): string {
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Easter Sunday (Gregorian calendar, anonymous algorithm). */
function easter(year: number): CalendarDay {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return { year, month, day };
}

/** The eleven public holidays of metropolitan France. */
export function frenchPublicHolidays(year: number): Set<string> {
  const sunday = easter(year);
  const fixed: Array<[number, number]> = [
    [1, 1],
    [5, 1],
    [5, 8],
    [7, 14],
    [8, 15],
    [11, 1],
    [11, 11],
    [12, 25],
  ];
  return new Set([
    ...fixed.map(([month, day]) => dayKey({ year, month, day })),
    dayKey(addDays(sunday, 1)), // Easter Monday
    dayKey(addDays(sunday, 39)), // Ascension
    dayKey(addDays(sunday, 50)), // Whit Monday
  ]);
}

export function isWorkingDay(day: CalendarDay): boolean {
  const weekday = new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  return !frenchPublicHolidays(day.year).has(dayKey(day));
}
