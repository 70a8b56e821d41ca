/*
 * When e-reporting data is transmitted (docs/e-reporting.md « Cadence »): the periods of the shop's
 * VAT regime and the deadline of each. Days are calendar days in France, `YYYY-MM-DD`; a period runs
 * from `start` to `end` inclusive. Pure: no clock, the caller gives today.
 *
 *  - réel normal mensuel: transactions per decade (1–10, 11–20, 21–end of month), due the 20th, the
 *    last day of the month and the 10th of the next month; payments monthly, due the 10th of the next
 *    month;
 *  - réel normal trimestriel (an option): both monthly, due the 10th of the next month;
 *  - réel simplifié: both monthly, due « between the 25th and the 30th » of the next month: the 25th;
 *  - franchise en base: both every two months (January–February, March–April…), due the 25th of the
 *    month after the period.
 */

export const VAT_REGIMES = ['normal-monthly', 'normal-quarterly', 'simplified', 'franchise'] as const;
export type VatRegime = (typeof VAT_REGIMES)[number];

export const VAT_REGIME_LABELS: Readonly<Record<VatRegime, string>> = {
  'normal-monthly': 'Réel normal, déclaration mensuelle',
  'normal-quarterly': 'Réel normal, déclaration trimestrielle',
  simplified: 'Réel simplifié',
  franchise: 'Franchise en base de TVA',
};

export function isVatRegime(value: unknown): value is VatRegime {
  return typeof value === 'string' && (VAT_REGIMES as readonly string[]).includes(value);
}

/** What a transmission carries: the consumer sales (flux 10.3) or the payments for services (flux 10.4). */
export type ReportKind = 'transactions' | 'payments';
export const REPORT_KINDS: readonly ReportKind[] = ['transactions', 'payments'];

export interface ReportPeriod {
  kind: ReportKind;
  /** First day, inclusive. */
  start: string;
  /** Last day, inclusive. */
  end: string;
  /** The last day to transmit it. */
  deadline: string;
}

interface Day {
  year: number;
  month: number;
  day: number;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

function parseDay(value: string): Day {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) throw new RangeError(`not a day (YYYY-MM-DD): ${value}`);
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

function formatDay({ year, month, day }: Day): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

function lastDayOfMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The month `offset` months after (year, month), month 1–12. */
function addMonths(year: number, month: number, offset: number): { year: number; month: number } {
  const index = year * 12 + (month - 1) + offset;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

function dayOf(year: number, month: number, day: number): string {
  return formatDay({ year, month, day: Math.min(day, lastDayOfMonth(year, month)) });
}

/** The day after `value`. */
export function nextDay(value: string): string {
  const { year, month, day } = parseDay(value);
  if (day < lastDayOfMonth(year, month)) return formatDay({ year, month, day: day + 1 });
  const next = addMonths(year, month, 1);
  return formatDay({ ...next, day: 1 });
}

/** The period of `kind` that contains `day` under `regime`. */
export function periodContaining(regime: VatRegime, kind: ReportKind, day: string): ReportPeriod {
  const { year, month, day: d } = parseDay(day);
  const last = lastDayOfMonth(year, month);
  const following = addMonths(year, month, 1);
  if (regime === 'normal-monthly' && kind === 'transactions') {
    if (d <= 10)
      return { kind, start: dayOf(year, month, 1), end: dayOf(year, month, 10), deadline: dayOf(year, month, 20) };
    if (d <= 20)
      return { kind, start: dayOf(year, month, 11), end: dayOf(year, month, 20), deadline: dayOf(year, month, 30) };
    return {
      kind,
      start: dayOf(year, month, 21),
      end: dayOf(year, month, last),
      deadline: dayOf(following.year, following.month, 10),
    };
  }
  if (regime === 'franchise') {
    // Two-month periods from January: (1, 2), (3, 4)…
    const firstMonth = month % 2 === 1 ? month : month - 1;
    const endMonth = firstMonth + 1;
    const after = addMonths(year, endMonth, 1);
    return {
      kind,
      start: dayOf(year, firstMonth, 1),
      end: dayOf(year, endMonth, lastDayOfMonth(year, endMonth)),
      deadline: dayOf(after.year, after.month, 25),
    };
  }
  const dueDay = regime === 'simplified' ? 25 : 10;
  return {
    kind,
    start: dayOf(year, month, 1),
    end: dayOf(year, month, last),
    deadline: dayOf(following.year, following.month, dueDay),
  };
}

/**
 * Every period of `kind` that starts on or after `from` (the first day the shop must report) and is
 * over by `today` (its last day is before today): the ones to assemble. A period is assembled only
 * once it is over, so that its figures never change afterwards.
 */
export function finishedPeriods(regime: VatRegime, kind: ReportKind, from: string, today: string): ReportPeriod[] {
  const periods: ReportPeriod[] = [];
  let period = periodContaining(regime, kind, from);
  // A period that began before `from` (the setting starts mid-period) is reported from `from` on.
  if (period.start < from) period = { ...period, start: from };
  while (period.end < today) {
    periods.push(period);
    period = periodContaining(regime, kind, nextDay(period.end));
  }
  return periods;
}
