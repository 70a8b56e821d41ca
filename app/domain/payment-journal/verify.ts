import { formatEurosFromCents } from '../format';
import {
  type ClosurePeriod,
  closureFigures,
  closureHash,
  JOURNAL_BEGINNING,
  type JournalClosure,
  type JournalStart,
} from './closures';
import { entryHash, GENESIS_HASH, JOURNAL_KINDS, type JournalEntry, KIND_LABELS } from './entries';

/*
 * Verification of the journal (docs/payment-journal.md, « Verification »): the entries' chain, then
 * the closures against the entries. The first fault found is named: an entry by its number and its
 * order's number, a closure by its period, with what differs. The messages are French: the auditor
 * and the shop read them.
 */

export type EntryFault = 'missing' | 'reordered' | 'altered' | 'chain_broken';

export type JournalProblem =
  | { on: 'entry'; fault: EntryFault; seq: number; orderNumber: string | null; detail: string }
  | { on: 'closure'; fault: 'missing' | 'altered' | 'mismatch'; seq: number; period: string; detail: string };

export type ChainResult =
  | { ok: true; count: number; firstSeq: number | null; lastSeq: number | null; headHash: string }
  | { ok: false; problem: JournalProblem };

export interface ChainStart {
  /** The number the first entry must have (1 for the whole journal). */
  seq: number;
  /** The hash the first entry must follow (zeros for the whole journal). */
  previousHash: string;
}

export const WHOLE_JOURNAL: ChainStart = { seq: 1, previousHash: GENESIS_HASH };

/** The number an entry was written under, when its content is intact but its number changed. */
function numberWrittenAs(entry: JournalEntry, lastSeq: number): number | null {
  for (let seq = 1; seq <= lastSeq + 1; seq += 1) {
    if (seq !== entry.seq && entryHash({ ...entry, seq }) === entry.hash) return seq;
  }
  return null;
}

/** The entries in the order they are stored (by seq in the database, line by line in an archive). */
export function verifyChain(entries: readonly JournalEntry[], start: ChainStart = WHOLE_JOURNAL): ChainResult {
  const lastSeq = Math.max(start.seq, ...entries.map((entry) => entry.seq));
  let expectedSeq = start.seq;
  let expectedPrevious = start.previousHash;
  for (const entry of entries) {
    const fault = (fault: EntryFault, detail: string, seq = entry.seq): ChainResult => ({
      ok: false,
      problem: { on: 'entry', fault, seq, orderNumber: seq === entry.seq ? entry.orderNumber : null, detail },
    });
    if (entry.seq > expectedSeq) {
      const missing =
        entry.seq - expectedSeq === 1
          ? `l’écriture n° ${expectedSeq} manque`
          : `les écritures n° ${expectedSeq} à ${entry.seq - 1} manquent`;
      return fault('missing', `${missing}\u00a0: la n° ${entry.seq} suit la n° ${expectedSeq - 1}`, expectedSeq);
    }
    if (entry.seq < expectedSeq) {
      return fault('reordered', `l’écriture n° ${entry.seq} vient après la n° ${expectedSeq - 1}\u00a0: ordre rompu`);
    }
    if (entryHash(entry) !== entry.hash) {
      // Written under another number? Its hash says which (tried once, on the first fault only).
      const writtenAs = numberWrittenAs(entry, lastSeq);
      if (writtenAs !== null) {
        return fault(
          'reordered',
          `ordre rompu\u00a0: l’écriture écrite en n° ${writtenAs} se trouve en n° ${entry.seq}`,
        );
      }
      return fault(
        'altered',
        'son contenu ne correspond plus à son empreinte\u00a0: elle a été modifiée après écriture',
      );
    }
    if (entry.previousHash !== expectedPrevious) {
      return fault(
        'chain_broken',
        `elle ne suit pas l’écriture n° ${entry.seq - 1} (empreinte précédente ${entry.previousHash.slice(0, 12)}…, attendue ${expectedPrevious.slice(0, 12)}…)\u00a0: une écriture a été réécrite ou déplacée`,
      );
    }
    expectedSeq = entry.seq + 1;
    expectedPrevious = entry.hash;
  }
  return {
    ok: true,
    count: entries.length,
    firstSeq: entries[0]?.seq ?? null,
    lastSeq: entries.at(-1)?.seq ?? null,
    headHash: entries.at(-1)?.hash ?? start.previousHash,
  };
}

const PERIOD_LABELS: Record<ClosurePeriod, string> = { day: 'journalière', month: 'mensuelle', year: 'annuelle' };

function closureName(closure: Pick<JournalClosure, 'period' | 'periodKey'>): string {
  return `clôture ${PERIOD_LABELS[closure.period]} ${closure.periodKey}`;
}

export type ClosuresResult = { ok: true; count: number } | { ok: false; problem: JournalProblem };

/**
 * The closures (in seq order) against the entries they cover, which start at `start` (the whole
 * journal by default): their own chain and hashes, then every figure recomputed.
 */
export function verifyClosures(
  entries: readonly JournalEntry[],
  closures: readonly JournalClosure[],
  options: {
    start?: JournalStart;
    /**
     * An archive's closures: a period's days, and its months and years only when whole, so their
     * numbers may jump (a month closed after the period's first days); each is linked to the one
     * before it only when they follow each other.
     */
    linkOnlyConsecutive?: boolean;
  } = {},
): ClosuresResult {
  let expectedSeq = options.linkOnlyConsecutive ? (closures[0]?.seq ?? 1) : 1;
  let expectedPrevious = options.linkOnlyConsecutive ? (closures[0]?.previousHash ?? GENESIS_HASH) : GENESIS_HASH;
  for (const closure of closures) {
    if (options.linkOnlyConsecutive && closure.seq > expectedSeq) {
      expectedSeq = closure.seq;
      expectedPrevious = closure.previousHash;
    }
    const fault = (fault: 'missing' | 'altered' | 'mismatch', detail: string): ClosuresResult => ({
      ok: false,
      problem: { on: 'closure', fault, seq: closure.seq, period: closure.periodKey, detail },
    });
    const name = closureName(closure);
    if (closure.seq !== expectedSeq) {
      return fault(
        'missing',
        `${name}\u00a0: n° ${closure.seq} au lieu de n° ${expectedSeq} (une clôture manque ou est déplacée)`,
      );
    }
    if (closureHash(closure) !== closure.hash) {
      return fault('altered', `${name}\u00a0: son contenu ne correspond plus à son empreinte`);
    }
    if (closure.previousHash !== expectedPrevious) {
      return fault('altered', `${name}\u00a0: elle ne suit pas la clôture n° ${closure.seq - 1}`);
    }
    const figures = closureFigures(entries, closure.period, closure.periodKey, options.start ?? JOURNAL_BEGINNING);
    for (const kind of JOURNAL_KINDS) {
      const stated = closure.totals[kind];
      const found = figures.totals[kind];
      if (stated.count !== found.count || stated.cents !== found.cents) {
        return fault(
          'mismatch',
          `${name}\u00a0: ${KIND_LABELS[kind]} ${stated.count} pour ${formatEurosFromCents(stated.cents)} à la clôture, ${found.count} pour ${formatEurosFromCents(found.cents)} dans les écritures`,
        );
      }
      if (stated.demoCount !== found.demoCount || stated.demoCents !== found.demoCents) {
        return fault('mismatch', `${name}\u00a0: ${KIND_LABELS[kind]} (démonstration) diffère des écritures`);
      }
    }
    if (closure.firstSeq !== figures.firstSeq || closure.lastSeq !== figures.lastSeq) {
      return fault(
        'mismatch',
        `${name}\u00a0: écritures n° ${closure.firstSeq ?? '–'} à ${closure.lastSeq ?? '–'} à la clôture, n° ${figures.firstSeq ?? '–'} à ${figures.lastSeq ?? '–'} dans le journal`,
      );
    }
    if (closure.chainHash !== figures.chainHash) {
      return fault('mismatch', `${name}\u00a0: la tête de chaîne à la clôture n’est plus celle du journal`);
    }
    if (closure.perpetualCents !== figures.perpetualCents) {
      return fault(
        'mismatch',
        `${name}\u00a0: total perpétuel ${formatEurosFromCents(closure.perpetualCents)} à la clôture, ${formatEurosFromCents(figures.perpetualCents)} recalculé`,
      );
    }
    expectedSeq = closure.seq + 1;
    expectedPrevious = closure.hash;
  }
  return { ok: true, count: closures.length };
}

/** One line for the operator: the problem and where. */
export function describeProblem(problem: JournalProblem): string {
  if (problem.on === 'closure') return `Clôture n° ${problem.seq} (${problem.period})\u00a0: ${problem.detail}`;
  const order = problem.orderNumber ? `, commande ${problem.orderNumber}` : '';
  return `Écriture n° ${problem.seq}${order}\u00a0: ${problem.detail}`;
}
