import { asc, desc, eq, gt, sql } from 'drizzle-orm';
import { formatEurosFromCents } from '~/domain/format';
import { type JournalClosure, normaliseTotals } from '~/domain/payment-journal/closures';
import type { JournalEntry } from '~/domain/payment-journal/entries';
import { describeProblem, type JournalProblem, verifyChain, verifyClosures } from '~/domain/payment-journal/verify';
import { type Database, db, type Tx } from '../db/client.server';
import { paymentJournal, paymentJournalClosures } from '../db/schema';

/*
 * The payment journal as the database holds it (docs/payment-journal.md): read, and verified
 * (`npm run journal:verify`). The entries are written by the database's triggers only (migration
 * payment_journal); nothing here writes one.
 */

type Executor = Database | Tx;

/** The advisory lock the append trigger takes: the closures wait behind the appends in flight. */
export const JOURNAL_HEAD_LOCK = sql`hashtextextended('payment_journal', 0)`;

type EntryRow = typeof paymentJournal.$inferSelect;
type ClosureRow = typeof paymentJournalClosures.$inferSelect;

export function entryOfRow(row: EntryRow): JournalEntry {
  return { ...row, recordedAt: new Date(row.recordedAt) };
}

export function closureOfRow(row: ClosureRow): JournalClosure {
  return {
    ...row,
    period: row.period as JournalClosure['period'],
    closedAt: new Date(row.closedAt),
    totals: normaliseTotals(row.totals),
  };
}

/** Every entry, in seq order (a shop's journal: thousands of lines a year, read at once). */
export async function readEntries(executor: Executor = db(), afterSeq = 0): Promise<JournalEntry[]> {
  const rows = await executor
    .select()
    .from(paymentJournal)
    .where(gt(paymentJournal.seq, afterSeq))
    .orderBy(asc(paymentJournal.seq));
  return rows.map(entryOfRow);
}

export async function readClosures(executor: Executor = db()): Promise<JournalClosure[]> {
  const rows = await executor.select().from(paymentJournalClosures).orderBy(asc(paymentJournalClosures.seq));
  return rows.map(closureOfRow);
}

export type JournalVerification =
  | {
      ok: true;
      entries: number;
      closures: number;
      lastSeq: number | null;
      headHash: string;
      perpetualCents: number | null;
    }
  | { ok: false; problem: JournalProblem; message: string };

/** The money row an entry was written from: what it says now, to name what an altered entry changed. */
async function sourceOf(entry: JournalEntry): Promise<{ orderNumber: string; amountCents: number } | null> {
  const id = entry.sourceId;
  const query =
    entry.sourceTable === 'payments'
      ? sql`select o.number, p.amount::bigint as amount from payments p join orders o on o.id = p.order_id where p.id::text = ${id}`
      : entry.sourceTable === 'refunds'
        ? sql`select o.number, r.amount::bigint as amount from refunds r join orders o on o.id = r.order_id where r.id::text = ${id}`
        : entry.sourceTable === 'gift_card_ledger'
          ? sql`select o.number, l.amount::bigint as amount from gift_card_ledger l join orders o on o.id = l.order_id where l.id::text = ${id}`
          : sql`select o.number, (o.total_price - coalesce((select sum(case kind when 'spent' then amount else -amount end)
                  from gift_card_ledger where order_id = o.id and kind in ('spent', 'restored')), 0))::bigint as amount
                from orders o where o.id::text = ${id}`;
  const { rows } = await db().execute<{ number: string; amount: string | number }>(query);
  const row = rows[0];
  return row ? { orderNumber: row.number, amountCents: Number(row.amount) } : null;
}

/** What an altered entry says that its money row does not. */
async function alteredFields(entry: JournalEntry): Promise<string | null> {
  const source = await sourceOf(entry);
  if (!source) return null;
  const differences: string[] = [];
  if (source.amountCents !== entry.amountCents) {
    differences.push(
      `montant ${formatEurosFromCents(entry.amountCents)} dans le journal, ${formatEurosFromCents(source.amountCents)} payés (${entry.sourceTable})`,
    );
  }
  if (source.orderNumber !== entry.orderNumber) {
    differences.push(`commande ${entry.orderNumber} dans le journal, ${source.orderNumber} en réalité`);
  }
  return differences.length > 0 ? differences.join(' ; ') : null;
}

/**
 * The money rows moved since the journal's first entry that have no entry: a removed entry at the
 * chain's end leaves no gap in it, but leaves its payment behind.
 */
async function unjournaledMoney(since: Date): Promise<{ orderNumber: string; what: string } | null> {
  const { rows } = await db().execute<{ number: string; what: string; amount: number }>(sql`
    select o.number, 'paiement ' || p.provider as what, p.amount
      from payments p join orders o on o.id = p.order_id
     where p.status in ('paid', 'refunded') and p.updated_at > ${since}
       and not exists (select 1 from payment_journal j where j.source_table = 'payments' and j.source_id = p.id::text)
    union all
    select o.number, 'remboursement', r.amount
      from refunds r join orders o on o.id = r.order_id
     where r.status = 'succeeded' and r.updated_at > ${since}
       and not exists (select 1 from payment_journal j where j.source_table = 'refunds' and j.source_id = r.id::text)
    union all
    select o.number, 'paiement par carte cadeau', l.amount
      from gift_card_ledger l join orders o on o.id = l.order_id
     where l.kind = 'spent' and l.at > ${since}
       and not exists (select 1 from payment_journal j where j.source_table = 'gift_card_ledger' and j.source_id = l.id::text)
    union all
    select o.number, 'validation d’un paiement par ' || o.payment_method, o.total_price
      from order_events e join orders o on o.id = e.order_id
     where e.kind = 'payment_validated' and e.at > ${since} and o.payment_method in ('transfer', 'cheque')
       and not exists (select 1 from payment_journal j where j.source_table = 'orders' and j.source_id = o.id::text
                         and j.kind = 'payment_validated')
    limit 1`);
  const row = rows[0];
  return row ? { orderNumber: row.number, what: `${row.what} de ${formatEurosFromCents(Number(row.amount))}` } : null;
}

/**
 * The whole journal verified from the database: the chain, the closures recomputed, and every money
 * row since the first entry journaled. The first fault is named.
 */
export async function verifyJournal(): Promise<JournalVerification> {
  const entries = await readEntries();
  const closures = await readClosures();
  const chain = verifyChain(entries);
  if (!chain.ok) {
    const { problem } = chain;
    if (problem.on === 'entry' && problem.fault === 'altered') {
      const entry = entries.find((e) => e.seq === problem.seq);
      const fields = entry ? await alteredFields(entry) : null;
      if (fields) problem.detail = `${problem.detail} (${fields})`;
    }
    return { ok: false, problem, message: describeProblem(problem) };
  }
  const checked = verifyClosures(entries, closures);
  if (!checked.ok) return { ok: false, problem: checked.problem, message: describeProblem(checked.problem) };
  const first = entries[0];
  if (first) {
    const missing = await unjournaledMoney(first.recordedAt);
    if (missing) {
      const problem: JournalProblem = {
        on: 'entry',
        fault: 'missing',
        seq: (chain.lastSeq ?? 0) + 1,
        orderNumber: missing.orderNumber,
        detail: `${missing.what} sans écriture au journal\u00a0: une écriture a été supprimée`,
      };
      return { ok: false, problem, message: describeProblem(problem) };
    }
  }
  return {
    ok: true,
    entries: chain.count,
    closures: checked.count,
    lastSeq: chain.lastSeq,
    headHash: chain.headHash,
    perpetualCents: closures.at(-1)?.perpetualCents ?? null,
  };
}

export interface JournalSummary {
  entries: number;
  last: { seq: number; recordedAt: string; hash: string } | null;
  /** The latest day closures, newest first. */
  closures: Array<{
    periodKey: string;
    entries: number;
    receivedCents: number;
    refundedCents: number;
    perpetualCents: number;
  }>;
}

/** What the back office's page shows: the head of the chain and the last days closed. */
export async function journalSummary(days = 10): Promise<JournalSummary> {
  const [head] = await db().select().from(paymentJournal).orderBy(desc(paymentJournal.seq)).limit(1);
  const closures = (
    await db()
      .select()
      .from(paymentJournalClosures)
      .where(eq(paymentJournalClosures.period, 'day'))
      .orderBy(desc(paymentJournalClosures.seq))
      .limit(days)
  ).map(closureOfRow);
  return {
    entries: head?.seq ?? 0,
    last: head ? { seq: head.seq, recordedAt: new Date(head.recordedAt).toISOString(), hash: head.hash } : null,
    closures: closures.map((c) => ({
      periodKey: c.periodKey,
      entries: c.firstSeq === null || c.lastSeq === null ? 0 : c.lastSeq - c.firstSeq + 1,
      receivedCents: c.totals.payment_received.cents + c.totals.payment_validated.cents,
      refundedCents: c.totals.refund.cents,
      perpetualCents: c.perpetualCents,
    })),
  };
}
