import { and, asc, desc, eq, gte, like, lt, sql } from 'drizzle-orm';
import { addDays, dayKey, parisDay, parisMidnight } from '~/domain/calendar';
import {
  type ClosurePeriod,
  closureFigures,
  closureHash,
  closuresDue,
  emptyTotals,
  entryDay,
  JOURNAL_BEGINNING,
  type JournalClosure,
  type JournalStart,
} from '~/domain/payment-journal/closures';
import { GENESIS_HASH, JOURNAL_KINDS } from '~/domain/payment-journal/entries';
import { db, type Tx } from '../db/client.server';
import { paymentJournal, paymentJournalClosures } from '../db/schema';
import { closureOfRow, entryOfRow, JOURNAL_HEAD_LOCK } from './journal.server';

/*
 * The closures (docs/payment-journal.md, « Closures »), made by the housekeeping pass: every day
 * past (Paris time) since the last closed one, so that days missed while the shop was stopped are
 * caught up, then the month and the year when their last day is closed. One transaction, under the
 * journal head's lock: an append in flight commits first, and no later append can belong to a
 * closed day (an entry's time is taken under that lock).
 */

function parseDay(key: string) {
  const [year, month, day] = key.split('-').map(Number);
  return { year: year ?? 0, month: month ?? 1, day: day ?? 1 };
}

/** A day closure per day, a month's over its days, a year's over its months. */
async function figuresOf(tx: Tx, period: ClosurePeriod, key: string, start: JournalStart) {
  if (period === 'day') {
    const from = parisMidnight(parseDay(key));
    const to = parisMidnight(addDays(parseDay(key), 1));
    const rows = await tx
      .select()
      .from(paymentJournal)
      .where(and(gte(paymentJournal.recordedAt, from), lt(paymentJournal.recordedAt, to)))
      .orderBy(asc(paymentJournal.seq));
    return closureFigures(rows.map(entryOfRow), 'day', key, start);
  }
  const parts = (
    await tx
      .select()
      .from(paymentJournalClosures)
      .where(
        and(
          eq(paymentJournalClosures.period, period === 'month' ? 'day' : 'month'),
          like(paymentJournalClosures.periodKey, `${key}-%`),
        ),
      )
      .orderBy(asc(paymentJournalClosures.seq))
  ).map(closureOfRow);
  const totals = emptyTotals();
  for (const part of parts) {
    for (const kind of JOURNAL_KINDS) {
      totals[kind].count += part.totals[kind].count;
      totals[kind].cents += part.totals[kind].cents;
      totals[kind].demoCount += part.totals[kind].demoCount;
      totals[kind].demoCents += part.totals[kind].demoCents;
    }
  }
  const last = parts.at(-1);
  return {
    firstSeq: parts.find((p) => p.firstSeq !== null)?.firstSeq ?? null,
    lastSeq: parts.findLast((p) => p.lastSeq !== null)?.lastSeq ?? null,
    chainHash: last?.chainHash ?? start.previousHash,
    totals,
    perpetualCents: last?.perpetualCents ?? start.perpetualCents,
  };
}

/** Makes the closures due at `now`; returns how many were made. */
export async function makeDueClosures(now: Date = new Date()): Promise<number> {
  return db().transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${JOURNAL_HEAD_LOCK})`);
    const [lastClosure] = await tx
      .select()
      .from(paymentJournalClosures)
      .orderBy(desc(paymentJournalClosures.seq))
      .limit(1);
    const [lastDay] = await tx
      .select()
      .from(paymentJournalClosures)
      .where(eq(paymentJournalClosures.period, 'day'))
      .orderBy(desc(paymentJournalClosures.seq))
      .limit(1);
    const [firstEntry] = await tx.select().from(paymentJournal).orderBy(asc(paymentJournal.seq)).limit(1);
    const due = closuresDue({
      lastClosedDay: lastDay?.periodKey ?? null,
      firstEntryDay: firstEntry ? entryDay(entryOfRow(firstEntry)) : null,
      today: dayKey(parisDay(now)),
    });
    let previous = lastClosure ? closureOfRow(lastClosure) : null;
    // The chain's head and the perpetual total at the end of the last closed day.
    let start: JournalStart = lastDay
      ? { previousHash: lastDay.chainHash, perpetualCents: lastDay.perpetualCents }
      : JOURNAL_BEGINNING;
    for (const { period, key } of due) {
      const figures = await figuresOf(tx, period, key, start);
      const closure: Omit<JournalClosure, 'hash'> = {
        seq: (previous?.seq ?? 0) + 1,
        period,
        periodKey: key,
        closedAt: now,
        ...figures,
        previousHash: previous?.hash ?? GENESIS_HASH,
      };
      const made: JournalClosure = { ...closure, hash: closureHash(closure) };
      await tx.insert(paymentJournalClosures).values(made);
      previous = made;
      if (period === 'day') start = { previousHash: made.chainHash, perpetualCents: made.perpetualCents };
    }
    return due.length;
  });
}
