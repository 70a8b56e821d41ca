import { sql } from 'drizzle-orm';
import type { AccountingSettings } from '~/domain/accounting/accounts';
import {
  type AccountingEntry,
  documentEntry,
  movementEntry,
  paymentAccount,
  refundAccount,
} from '~/domain/accounting/entries';
import { unwritableDocumentMessage } from '~/domain/accounting/export-request';
import { encodeLatin9, fecEntryLines, fecFileName, fecHeader } from '~/domain/accounting/fec';
import { journalCsvHeader, journalCsvLines } from '~/domain/accounting/journal-csv';
import type { AccountingPeriod } from '~/domain/accounting/period';
import { company } from '~/domain/company';
import { parisDay } from '~/domain/invoices/number';
import { type DocumentSnapshot, parseDocumentSnapshot } from '~/domain/invoices/snapshot';
import { type AuditActor, recordAudit } from '../audit/audit.server';
import { type Database, db } from '../db/client.server';
import { log } from '../log.server';

/*
 * The period's accounting entries, read in batches (keyset pagination on the date and id, no
 * OFFSET, each batch its own query: no connection held while the reader is slow), written as they
 * come: the FEC (ISO 8859-15) and the journal in entries (CSV). Memory stays flat whatever the period.
 *
 * Three sources, merged in date order: the invoices (each with its receipt: an invoice is issued
 * paid, in the payment's transaction), the credit notes, and the refunds made (dated when the
 * money left). Demonstration documents (TEST-…, is_demo) and their refunds are never read.
 */

export const JOURNAL_BATCH = 500;

interface Cursor {
  at: string;
  id: string;
}

const periodStart = (day: string) => sql`(${day}::date)::timestamp at time zone 'Europe/Paris'`;
const periodEnd = (day: string) => sql`(${day}::date + 1)::timestamp at time zone 'Europe/Paris'`;

interface SourceRow {
  kind: 'invoice' | 'credit_note' | 'refund';
  id: string;
  at_key: string;
  at: Date | string;
  number: string;
  snapshot: unknown;
  gift_card_sale: boolean;
  refund_method: string | null;
  refund_cents: number | null;
  refund_provider: string | null;
  piece_at: Date | string | null;
}

async function sourceBatch(
  period: AccountingPeriod,
  after: Cursor | null,
  database: Database,
  batch: number,
): Promise<SourceRow[]> {
  const inPeriod = (column: ReturnType<typeof sql.raw>) =>
    sql`${column} >= ${periodStart(period.from)} and ${column} < ${periodEnd(period.to)}`;
  const keyset = (column: ReturnType<typeof sql.raw>, id: ReturnType<typeof sql.raw>) =>
    after
      ? sql`and ${column} >= ${after.at}::timestamptz and (${column}, ${id}) > (${after.at}::timestamptz, ${after.id}::uuid)`
      : sql``;
  const result = await database.execute(sql`
    select * from (
      (select 'invoice' as kind, i.id, i.issued_at as at, i.issued_at::text as at_key, i.number, i.snapshot,
         exists (select 1 from gift_card_sales g where g.order_id = i.order_id) as gift_card_sale,
         null::text as refund_method, null::int as refund_cents, null::text as refund_provider,
         i.issued_at as piece_at
       from invoices i
       where not i.is_demo and ${inPeriod(sql.raw('i.issued_at'))} ${keyset(sql.raw('i.issued_at'), sql.raw('i.id'))}
       order by i.issued_at, i.id limit ${batch})
      union all
      (select 'credit_note', c.id, c.issued_at, c.issued_at::text, c.number, c.snapshot,
         exists (select 1 from gift_card_sales g where g.order_id = c.order_id),
         null, null, null, c.issued_at
       from credit_notes c
       where not c.is_demo and ${inPeriod(sql.raw('c.issued_at'))} ${keyset(sql.raw('c.issued_at'), sql.raw('c.id'))}
       order by c.issued_at, c.id limit ${batch})
      union all
      (select 'refund', r.id, r.updated_at, r.updated_at::text, c.number, c.snapshot, false,
         r.method, r.amount, p.provider, c.issued_at
       from refunds r
       join credit_notes c on c.id = r.credit_note_id
       left join payments p on p.id = r.payment_id
       where not c.is_demo and r.status = 'succeeded' and r.method <> 'gift_card'
         and ${inPeriod(sql.raw('r.updated_at'))} ${keyset(sql.raw('r.updated_at'), sql.raw('r.id'))}
       order by r.updated_at, r.id limit ${batch})
    ) s
    order by s.at, s.id limit ${batch}`);
  return result.rows as unknown as SourceRow[];
}

function customerOf(snapshot: DocumentSnapshot): string {
  return snapshot.business?.companyName ?? snapshot.buyer?.name ?? '';
}

/**
 * A document the export cannot write: its snapshot does not read, or an amount cannot go in the
 * file. A fault to fix, never an entry silently left out; named so that whoever fixes it knows which.
 */
class UnwritableDocument extends Error {
  constructor(
    readonly documentNumber: string,
    cause: unknown,
  ) {
    super(`accounting: ${documentNumber} cannot be written`, { cause });
  }
}

/** The entries of one source row, or the row named as the one that cannot be written. */
function entriesOf(row: SourceRow): AccountingEntry[] {
  try {
    return rowEntries(row);
  } catch (error) {
    throw new UnwritableDocument(row.number, error);
  }
}

/** The entries of one source row: a document (and an invoice's receipt), or a refund. */
function rowEntries(row: SourceRow): AccountingEntry[] {
  const snapshot = parseDocumentSnapshot(row.snapshot);
  if (!snapshot) throw new Error('its snapshot does not read');
  const customer = customerOf(snapshot);
  const pieceDay = parisDay(new Date(row.piece_at ?? row.at));
  if (row.kind === 'refund') {
    const entry = movementEntry({
      kind: 'refund',
      number: row.number,
      day: parisDay(new Date(row.at)),
      pieceDay,
      customer,
      amountCents: Number(row.refund_cents),
      account: refundAccount(String(row.refund_method), row.refund_provider),
    });
    return entry ? [entry] : [];
  }
  const entries = [
    documentEntry({
      kind: row.kind,
      number: row.number,
      day: pieceDay,
      customer,
      snapshot,
      giftCardSale: Boolean(row.gift_card_sale),
    }),
  ];
  if (row.kind === 'invoice') {
    const payment = snapshot.payment;
    const receipt = movementEntry({
      kind: 'payment',
      number: row.number,
      day: payment?.paidAt ? parisDay(new Date(payment.paidAt)) : pieceDay,
      pieceDay,
      customer,
      amountCents: snapshot.totalCents,
      account: paymentAccount(payment?.method, payment?.provider),
    });
    if (receipt) entries.push(receipt);
  }
  return entries.filter((entry) => entry.lines.length > 0);
}

/** The period's entries, a batch at a time, in date order. */
export async function* accountingEntries(
  period: AccountingPeriod,
  database: Database = db(),
  batch = JOURNAL_BATCH,
): AsyncGenerator<AccountingEntry[]> {
  let cursor: Cursor | null = null;
  for (;;) {
    const rows = await sourceBatch(period, cursor, database, batch);
    if (rows.length > 0) yield rows.flatMap(entriesOf);
    const last = rows[rows.length - 1];
    if (rows.length < batch || !last) return;
    cursor = { at: String(last.at_key), id: String(last.id) };
  }
}

export type AccountingExportFormat = 'fec' | 'csv';

export interface AccountingExport {
  body: ReadableStream<Uint8Array>;
  fileName: string;
  contentType: string;
}

export type AccountingExportResult = { ok: true; file: AccountingExport } | { ok: false; error: string };

const utf8 = new TextEncoder();

/** The lines of a batch of entries, numbered on from `first`; a line that cannot be written names its document. */
function entryLines(
  entries: readonly AccountingEntry[],
  first: number,
  settings: AccountingSettings,
  fec: boolean,
): { text: string; lines: number } {
  let text = '';
  let lines = 0;
  entries.forEach((entry, index) => {
    try {
      text += fec ? fecEntryLines(entry, first + index, settings) : journalCsvLines(entry, first + index, settings);
    } catch (error) {
      throw new UnwritableDocument(entry.pieceRef, error);
    }
    lines += entry.lines.length;
  });
  return { text, lines };
}

/**
 * The first document of the period the file could not hold, as the accountant's French message; null
 * when every one can be written. Run before anything is sent: a file stopped halfway would reach the
 * accountant as a failed download without a word, or worse, look complete.
 */
async function unwritableDocument(
  period: AccountingPeriod,
  settings: AccountingSettings,
  fec: boolean,
  database: Database,
): Promise<string | null> {
  let number = 0;
  try {
    for await (const entries of accountingEntries(period, database)) {
      entryLines(entries, number + 1, settings, fec);
      number += entries.length;
    }
    return null;
  } catch (error) {
    if (!(error instanceof UnwritableDocument)) throw error;
    log.error({ err: error, document: error.documentNumber }, 'accounting export refused');
    return unwritableDocumentMessage(error.documentNumber);
  }
}

/**
 * The FEC (`<SIREN>FEC<AAAAMMJJ>.txt`, ISO 8859-15) or the journal in entries (CSV) of the period,
 * streamed, once every document of the period is known to be writable. Entries are numbered 1, 2,
 * 3… in the file's order. Once every entry is written, the audit log records who exported which
 * period (kept 10 years, as every accounting export).
 */
export async function accountingExport(
  period: AccountingPeriod,
  settings: AccountingSettings,
  format: AccountingExportFormat,
  actor: AuditActor = 'system',
  database: Database = db(),
): Promise<AccountingExportResult> {
  const fec = format === 'fec';
  const fault = await unwritableDocument(period, settings, fec, database);
  if (fault) return { ok: false, error: fault };
  const iterator = accountingEntries(period, database);
  let number = 0;
  let lines = 0;
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!started) {
          started = true;
          controller.enqueue(fec ? encodeLatin9(fecHeader()) : utf8.encode(journalCsvHeader()));
          return;
        }
        const { value, done } = await iterator.next();
        if (done) {
          await recordAudit(database, {
            actor,
            kind: 'export',
            subject: fec ? 'fec' : 'ecritures',
            subjectLabel: fec ? 'FEC' : 'Écritures comptables',
            after: { from: period.from, to: period.to, format: fec ? 'FEC' : 'CSV', entries: number, lines },
          });
          controller.close();
          return;
        }
        const batch = entryLines(value, number + 1, settings, fec);
        number += value.length;
        lines += batch.lines;
        controller.enqueue(fec ? encodeLatin9(batch.text) : utf8.encode(batch.text));
      } catch (error) {
        log.error({ err: error }, 'accounting export failed');
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
  const closing = period.to;
  const file = fec
    ? { body, fileName: fecFileName(company.siren, closing), contentType: 'text/plain; charset=iso-8859-15' }
    : {
        body,
        fileName: `ecritures-comptables-${period.from}-${period.to}.csv`,
        contentType: 'text/csv; charset=utf-8',
      };
  return { ok: true, file };
}
