import { addDays, type CalendarDay, dayKey, parisDay } from '../calendar';
import { GENESIS_HASH, JOURNAL_KINDS, type JournalEntry, type JournalKind, KIND_SIGN, sha256Hex } from './entries';

/*
 * The journal's closures (docs/payment-journal.md, « Closures »): one per past day (Paris time),
 * then per month and per year once their last day is closed. Each states the entries it covers,
 * their count and total per kind (real money and the sandbox's demonstration money apart), the
 * perpetual total (real money received less refunded since the first entry), the chain's head at
 * the period's end, and its own hash chained to the previous closure's.
 *
 * A closure's hash is the SHA-256 (lowercase hex) of the JSON array
 *   ["soovenirs-payment-journal-closure/1", seq, period, periodKey, closedAt, firstSeq, lastSeq,
 *    chainHash, [[kind, count, cents, demoCount, demoCents] for each kind in JOURNAL_KINDS order],
 *    perpetualCents, previousHash]
 * written like an entry's (no spaces, null for a period without entries).
 */

export const CLOSURE_FORMAT = 'soovenirs-payment-journal-closure/1';
export const CLOSURE_PERIODS = ['day', 'month', 'year'] as const;
export type ClosurePeriod = (typeof CLOSURE_PERIODS)[number];

export interface KindTotal {
  count: number;
  cents: number;
  demoCount: number;
  demoCents: number;
}
export type ClosureTotals = Record<JournalKind, KindTotal>;

export interface JournalClosure {
  seq: number;
  period: ClosurePeriod;
  /** `2026-12-01`, `2026-12`, `2026`. */
  periodKey: string;
  closedAt: Date;
  firstSeq: number | null;
  lastSeq: number | null;
  chainHash: string;
  totals: ClosureTotals;
  perpetualCents: number;
  previousHash: string;
  hash: string;
}

/** The Paris day (`YYYY-MM-DD`) an entry belongs to. */
export function entryDay(entry: Pick<JournalEntry, 'recordedAt'>): string {
  return dayKey(parisDay(entry.recordedAt));
}

/** The period's key of a Paris day. */
export function periodKeyOf(period: ClosurePeriod, day: string): string {
  return period === 'day' ? day : period === 'month' ? day.slice(0, 7) : day.slice(0, 4);
}

export function emptyTotals(): ClosureTotals {
  return Object.fromEntries(
    JOURNAL_KINDS.map((kind) => [kind, { count: 0, cents: 0, demoCount: 0, demoCents: 0 }]),
  ) as ClosureTotals;
}

function isKind(kind: string): kind is JournalKind {
  return (JOURNAL_KINDS as readonly string[]).includes(kind);
}

/** What real money an entry adds to the perpetual total. */
export function perpetualDelta(entry: Pick<JournalEntry, 'kind' | 'amountCents' | 'demo'>): number {
  if (entry.demo || !isKind(entry.kind)) return 0;
  return KIND_SIGN[entry.kind] * entry.amountCents;
}

export function totalsOf(entries: readonly JournalEntry[]): ClosureTotals {
  const totals = emptyTotals();
  for (const entry of entries) {
    if (!isKind(entry.kind)) continue;
    const total = totals[entry.kind];
    if (entry.demo) {
      total.demoCount += 1;
      total.demoCents += entry.amountCents;
    } else {
      total.count += 1;
      total.cents += entry.amountCents;
    }
  }
  return totals;
}

/** Totals read back from storage (jsonb), every kind present. */
export function normaliseTotals(value: unknown): ClosureTotals {
  const totals = emptyTotals();
  const stored = (value ?? {}) as Record<string, Partial<KindTotal> | undefined>;
  for (const kind of JOURNAL_KINDS) {
    const t = stored[kind] ?? {};
    totals[kind] = {
      count: Number(t.count ?? 0),
      cents: Number(t.cents ?? 0),
      demoCount: Number(t.demoCount ?? 0),
      demoCents: Number(t.demoCents ?? 0),
    };
  }
  return totals;
}

export function canonicalClosure(closure: Omit<JournalClosure, 'hash'>): string {
  return JSON.stringify([
    CLOSURE_FORMAT,
    closure.seq,
    closure.period,
    closure.periodKey,
    closure.closedAt.toISOString(),
    closure.firstSeq,
    closure.lastSeq,
    closure.chainHash,
    JOURNAL_KINDS.map((kind) => {
      const t = closure.totals[kind];
      return [kind, t.count, t.cents, t.demoCount, t.demoCents];
    }),
    closure.perpetualCents,
    closure.previousHash,
  ]);
}

export function closureHash(closure: Omit<JournalClosure, 'hash'>): string {
  return sha256Hex(canonicalClosure(closure));
}

/** Where the entries given start: the chain's head and the perpetual total just before the first. */
export interface JournalStart {
  previousHash: string;
  perpetualCents: number;
}

export const JOURNAL_BEGINNING: JournalStart = { previousHash: GENESIS_HASH, perpetualCents: 0 };

/**
 * What a closure of `period` `key` states, computed from the entries (in seq order) that start at
 * `start`: everything but its seq, time and chaining.
 */
export function closureFigures(
  entries: readonly JournalEntry[],
  period: ClosurePeriod,
  key: string,
  start: JournalStart = JOURNAL_BEGINNING,
): Pick<JournalClosure, 'firstSeq' | 'lastSeq' | 'chainHash' | 'totals' | 'perpetualCents'> {
  const inside: JournalEntry[] = [];
  let chainHash = start.previousHash;
  let perpetualCents = start.perpetualCents;
  for (const entry of entries) {
    const entryKey = periodKeyOf(period, entryDay(entry));
    if (entryKey > key) break;
    chainHash = entry.hash;
    perpetualCents += perpetualDelta(entry);
    if (entryKey === key) inside.push(entry);
  }
  return {
    firstSeq: inside[0]?.seq ?? null,
    lastSeq: inside.at(-1)?.seq ?? null,
    chainHash,
    totals: totalsOf(inside),
    perpetualCents,
  };
}

function dayOf(key: string): CalendarDay {
  const [year, month, day] = key.split('-').map(Number);
  return { year: year ?? 0, month: month ?? 1, day: day ?? 1 };
}

/**
 * The closures due, in the order they are made: each day from the one after the last closed (or
 * the first entry's) up to yesterday, a month after its last day, a year after its December.
 */
export function closuresDue(input: {
  lastClosedDay: string | null;
  firstEntryDay: string | null;
  today: string;
}): Array<{ period: ClosurePeriod; key: string }> {
  const from = input.lastClosedDay
    ? dayKey(addDays(dayOf(input.lastClosedDay), 1))
    : (input.firstEntryDay ?? input.today);
  const due: Array<{ period: ClosurePeriod; key: string }> = [];
  for (let day = from; day < input.today; day = dayKey(addDays(dayOf(day), 1))) {
    due.push({ period: 'day', key: day });
    const next = dayKey(addDays(dayOf(day), 1));
    if (next.slice(0, 7) !== day.slice(0, 7)) due.push({ period: 'month', key: day.slice(0, 7) });
    if (next.slice(0, 4) !== day.slice(0, 4)) due.push({ period: 'year', key: day.slice(0, 4) });
  }
  return due;
}
