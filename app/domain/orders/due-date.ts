/*
 * The date the workshop promised: the reception date plus the promised turnaround in working days
 * (price list `turnaround`: standard or express). Working days are Monday to Friday except French
 * public holidays, counted in Paris time; the order is due at the end of its last working day.
 */

const DAY = 86_400_000;

/** Easter Sunday of a year (anonymous Gregorian algorithm), as a UTC midnight. */
function easter(year: number): number {
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
  return Date.UTC(year, month - 1, day);
}

/** The eleven French public holidays of a year, as UTC midnights. */
export function frenchPublicHolidays(year: number): Set<number> {
  const sunday = easter(year);
  return new Set([
    Date.UTC(year, 0, 1),
    sunday + DAY, // Lundi de Pâques
    Date.UTC(year, 4, 1),
    Date.UTC(year, 4, 8),
    sunday + 39 * DAY, // Ascension
    sunday + 50 * DAY, // Lundi de Pentecôte
    Date.UTC(year, 6, 14),
    Date.UTC(year, 7, 15),
    Date.UTC(year, 10, 1),
    Date.UTC(year, 10, 11),
    Date.UTC(year, 11, 25),
  ]);
}

/** The calendar day in Paris of an instant, as a UTC midnight. */
function parisDay(at: Date): number {
  const [year, month, day] = at.toLocaleDateString('en-CA', { timeZone: 'Europe/Paris' }).split('-').map(Number) as [
    number,
    number,
    number,
  ];
  return Date.UTC(year, month - 1, day);
}

export function isWorkingDay(dayUtcMidnight: number): boolean {
  const weekday = new Date(dayUtcMidnight).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  return !frenchPublicHolidays(new Date(dayUtcMidnight).getUTCFullYear()).has(dayUtcMidnight);
}

/**
 * The due date of an order received at `receivedAt` with a turnaround of `workingDays`: the end
 * (23:59:59, Paris) of the `workingDays`-th working day after the reception day.
 */
export function dueDate(receivedAt: Date, workingDays: number): Date {
  if (!Number.isInteger(workingDays) || workingDays < 0) throw new RangeError(`invalid turnaround: ${workingDays}`);
  let day = parisDay(receivedAt);
  let left = workingDays;
  while (left > 0) {
    day += DAY;
    if (isWorkingDay(day)) left -= 1;
  }
  // End of that day in Paris: the next Paris midnight minus one second (CET or CEST).
  const next = new Date(day + DAY);
  const parisOffsetMinutes = offsetMinutes(next);
  return new Date(day + DAY - parisOffsetMinutes * 60_000 - 1000);
}

/** Paris's offset from UTC at an instant, in minutes (60 in winter, 120 in summer). */
function offsetMinutes(at: Date): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', timeZoneName: 'shortOffset' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-]\d+)(?::(\d+))?/.exec(parts ?? '');
  if (!match) return 60;
  const hours = Number(match[1]);
  return hours * 60 + Math.sign(hours) * Number(match[2] ?? 0);
}

/** Whether an order due at `dueAt` is late at `now`. */
export function isLate(dueAt: Date | null, now: Date): boolean {
  return dueAt !== null && dueAt.getTime() < now.getTime();
}
