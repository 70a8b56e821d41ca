import { and, asc, gte, lt, sql } from 'drizzle-orm';
import { addDays, dayKey, parisDay, parisMidnight } from '~/domain/calendar';
import { buildArchive } from '~/domain/payment-journal/archive';
import type { JournalClosure } from '~/domain/payment-journal/closures';
import { GENESIS_HASH, KIND_SIGN } from '~/domain/payment-journal/entries';
import { db } from '../db/client.server';
import { paymentJournal } from '../db/schema';
import { entryOfRow, readClosures } from './journal.server';
import { journalSigningKey } from './key.server';

/*
 * An archive of a period (docs/payment-journal.md, « Archives »): its entries, its closures (its
 * days, and its months and years when whole), the chain's state just before, signed with the
 * shop's journal key. From the back office and from `npm run journal:archive`.
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export class ArchivePeriodError extends Error {}

function parseDay(key: string) {
  const [year, month, day] = key.split('-').map(Number);
  return { year: year ?? 0, month: month ?? 1, day: day ?? 1 };
}

/** A closure's first and last day. */
function closureDays(closure: Pick<JournalClosure, 'period' | 'periodKey'>): [string, string] {
  if (closure.period === 'day') return [closure.periodKey, closure.periodKey];
  if (closure.period === 'year') return [`${closure.periodKey}-01-01`, `${closure.periodKey}-12-31`];
  const first = `${closure.periodKey}-01`;
  const nextMonth = parseDay(first);
  const last = dayKey(addDays({ ...nextMonth, month: nextMonth.month + 1, day: 1 }, -1));
  return [first, last];
}

export function archiveFileName(from: string, to: string): string {
  return `journal-paiements_${from}_${to}.jsonl`;
}

/** The signed archive's text for the Paris days `from` to `to`, inclusive. */
export async function exportJournalArchive(from: string, to: string, now: Date = new Date()): Promise<string> {
  if (!DAY.test(from) || !DAY.test(to) || Number.isNaN(parisMidnight(parseDay(from)).getTime()) || from > to) {
    throw new ArchivePeriodError(
      'Période invalide\u00a0: indiquez deux dates AAAA-MM-JJ, la première avant la seconde.',
    );
  }
  const start = parisMidnight(parseDay(from));
  const end = parisMidnight(addDays(parseDay(to), 1));
  const rows = await db()
    .select()
    .from(paymentJournal)
    .where(and(gte(paymentJournal.recordedAt, start), lt(paymentJournal.recordedAt, end)))
    .orderBy(asc(paymentJournal.seq));
  const entries = rows.map(entryOfRow);
  // The chain just before: the last entry before the period and the perpetual total then.
  const before = await db().execute<{ seq: string | null; hash: string | null; perpetual: string | null }>(sql`
    select (select seq from payment_journal where recorded_at < ${start} order by seq desc limit 1) as seq,
           (select hash from payment_journal where recorded_at < ${start} order by seq desc limit 1) as hash,
           (select coalesce(sum(amount_cents * case kind
              when 'payment_received' then ${KIND_SIGN.payment_received}::int when 'payment_validated' then ${KIND_SIGN.payment_validated}::int
              when 'refund' then ${KIND_SIGN.refund}::int else 0 end), 0)
              from payment_journal where recorded_at < ${start} and not demo) as perpetual`);
  const head = before.rows[0];
  const closures = (await readClosures()).filter((closure) => {
    const [first, last] = closureDays(closure);
    return first >= from && last <= to;
  });
  const key = await journalSigningKey();
  return buildArchive({
    from,
    to,
    generatedAt: now,
    start: {
      seq: head?.seq ? Number(head.seq) + 1 : 1,
      previousHash: head?.hash ?? GENESIS_HASH,
      perpetualCents: Number(head?.perpetual ?? 0),
    },
    entries,
    closures,
    publicKey: key.publicKey,
    sign: key.sign,
  });
}

/** The month before `now`'s (Paris time): the archive a shop exports each month. */
export function defaultArchivePeriod(now: Date): { from: string; to: string } {
  const today = parisDay(now);
  const firstOfMonth = { ...today, day: 1 };
  const last = addDays(firstOfMonth, -1);
  return { from: dayKey({ ...last, day: 1 }), to: dayKey(last) };
}
