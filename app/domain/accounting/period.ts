/*
 * The period of an accounting export: a month (`2026-11`), a year (`2026`) or two days, the
 * shop's days (Paris), both included. The FEC covers a financial year, which may run up to
 * 24 months (a first year): no longer period is accepted.
 */

export interface AccountingPeriod {
  /** YYYY-MM-DD, first day included. */
  from: string;
  /** YYYY-MM-DD, last day included: the FEC's closing date. */
  to: string;
}

export const MAX_PERIOD_DAYS = 731;

export const PERIOD_MESSAGES = {
  missing: 'Choisissez un mois, une année ou deux dates.',
  day: 'Une date s’écrit AAAA-MM-JJ (ex.\u00a0: 2026-11-30).',
  order: 'La date de fin doit suivre la date de début.',
  tooLong: 'Une période couvre 24 mois au plus (un exercice).',
} as const;

function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function lastDayOfMonth(year: number, month: number): string {
  const day = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export type ParsedPeriod = { ok: true; period: AccountingPeriod } | { ok: false; error: string };

/** From the form or the command line: `month`, else `year`, else `from` and `to`. */
export function parseAccountingPeriod(input: {
  month?: string | null;
  year?: string | null;
  from?: string | null;
  to?: string | null;
}): ParsedPeriod {
  const month = input.month?.trim();
  if (month) {
    const match = /^(\d{4})-(\d{2})$/.exec(month);
    const m = Number(match?.[2]);
    if (!match || m < 1 || m > 12) return { ok: false, error: 'Un mois s’écrit AAAA-MM (ex.\u00a0: 2026-11).' };
    return { ok: true, period: { from: `${match[1]}-${match[2]}-01`, to: lastDayOfMonth(Number(match[1]), m) } };
  }
  const year = input.year?.trim();
  if (year) {
    if (!/^\d{4}$/.test(year)) return { ok: false, error: 'Une année s’écrit AAAA (ex.\u00a0: 2026).' };
    return { ok: true, period: { from: `${year}-01-01`, to: `${year}-12-31` } };
  }
  const from = input.from?.trim() ?? '';
  const to = input.to?.trim() ?? '';
  if (!from && !to) return { ok: false, error: PERIOD_MESSAGES.missing };
  if (!isDay(from) || !isDay(to)) return { ok: false, error: PERIOD_MESSAGES.day };
  if (to < from) return { ok: false, error: PERIOD_MESSAGES.order };
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  if (days > MAX_PERIOD_DAYS) return { ok: false, error: PERIOD_MESSAGES.tooLong };
  return { ok: true, period: { from, to } };
}
