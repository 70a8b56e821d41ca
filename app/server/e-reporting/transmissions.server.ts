import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  paymentTotals,
  type ReportedDocument,
  sumPayments,
  sumTransactions,
  transactionTotals,
} from '~/domain/e-reporting/assembly';
import { finishedPeriods, REPORT_KINDS, type ReportKind, type ReportPeriod } from '~/domain/e-reporting/cadence';
import { buildReportFile, REPORT_SYNTAX, reportFileName } from '~/domain/e-reporting/report-file';
import { parisDay } from '~/domain/invoices/number';
import { parseDocumentSnapshot } from '~/domain/invoices/snapshot';
import { recordAudit } from '../audit/audit.server';
import { db } from '../db/client.server';
import { eReportingTransmissions } from '../db/schema';
import { log } from '../log.server';
import { configuredFlowSender, type FlowSender } from './sender.server';
import { readEReportingSettings } from './settings.server';

/*
 * E-reporting transmissions (docs/e-reporting.md, decision 051): each period of the shop's VAT
 * regime, once over, is assembled from the documents issued (app/domain/e-reporting), frozen in
 * e_reporting_transmissions with its file, then sent through the plateforme agréée when one is
 * configured (retried on every pass while it fails), or exported for the operator to deposit.
 * Safe on any number of instances: a period is inserted once (unique index), a row is sent under
 * its lock (FOR UPDATE SKIP LOCKED).
 */

/**
 * Documents committed a moment after midnight still belong to the day before: a period is
 * assembled one hour after its last day is over.
 */
const SETTLING_MS = 60 * 60_000;
/** A payment's invoice is issued when it is paid; a month's margin finds any issued a little later. */
const PAYMENT_LOOKBACK_DAYS = 31;
const SEND_BATCH = 50;

const dayStart = (day: string) => sql`(${day}::date)::timestamp at time zone 'Europe/Paris'`;
const dayAfter = (day: string) => sql`(${day}::date + 1)::timestamp at time zone 'Europe/Paris'`;

interface DocumentRow extends Record<string, unknown> {
  kind: 'invoice' | 'credit_note';
  number: string;
  issued_at: Date | string;
  snapshot: unknown;
}

/** The documents (never the demonstration ones) a period's figures are taken from. */
async function reportedDocuments(kind: ReportKind, period: Pick<ReportPeriod, 'start' | 'end'>) {
  const invoicesFrom =
    kind === 'payments' ? sql`(${period.start}::date - ${PAYMENT_LOOKBACK_DAYS}::int)` : sql`${period.start}::date`;
  const result = await db().execute<DocumentRow>(sql`
    select 'invoice' as kind, number, issued_at, snapshot from invoices
    where not is_demo and issued_at >= (${invoicesFrom})::timestamp at time zone 'Europe/Paris'
      and issued_at < ${dayAfter(period.end)}
    union all
    select 'credit_note' as kind, number, issued_at, snapshot from credit_notes
    where not is_demo and issued_at >= ${dayStart(period.start)} and issued_at < ${dayAfter(period.end)}
    order by issued_at, number`);
  const documents: ReportedDocument[] = [];
  for (const row of result.rows) {
    const snapshot = parseDocumentSnapshot(row.snapshot);
    if (!snapshot) {
      // Never silently: a report without this document would be wrong. The period waits.
      throw new Error(`document ${row.number} has no readable snapshot: the e-reporting period cannot be assembled`);
    }
    documents.push({ kind: row.kind, number: row.number, issuedAt: new Date(row.issued_at), snapshot });
  }
  return documents;
}

/** The figures and the file of one period. */
export async function assembleTransmission(kind: ReportKind, period: ReportPeriod, now: Date) {
  const documents = await reportedDocuments(kind, period);
  const id = crypto.randomUUID();
  if (kind === 'transactions') {
    const transactions = transactionTotals(documents, period);
    return {
      id,
      totals: sumTransactions(transactions),
      fileContent: buildReportFile({ id, kind, period, createdAt: now, transactions }),
    };
  }
  const payments = paymentTotals(documents, period);
  return {
    id,
    totals: sumPayments(payments),
    fileContent: buildReportFile({ id, kind, period, createdAt: now, payments }),
  };
}

/**
 * Prepares every finished period not prepared yet (catching up after a stop), each once. A period
 * overlapping one already prepared (the regime changed) is left out: the setting's first day says
 * where the new cadence starts. Returns how many were prepared.
 */
export async function prepareFinishedPeriods(now: Date = new Date()): Promise<number> {
  const settings = await readEReportingSettings();
  if (!settings.regime) return 0;
  const today = parisDay(new Date(now.getTime() - SETTLING_MS));
  let prepared = 0;
  for (const kind of REPORT_KINDS) {
    const periods = finishedPeriods(settings.regime, kind, settings.startDate, today);
    if (periods.length === 0) continue;
    const existing = await db()
      .select({ start: eReportingTransmissions.periodStart, end: eReportingTransmissions.periodEnd })
      .from(eReportingTransmissions)
      .where(eq(eReportingTransmissions.kind, kind));
    for (const period of periods) {
      if (existing.some((row) => row.start <= period.end && row.end >= period.start)) continue;
      const assembled = await assembleTransmission(kind, period, now);
      const inserted = await db()
        .insert(eReportingTransmissions)
        .values({
          id: assembled.id,
          kind,
          periodStart: period.start,
          periodEnd: period.end,
          deadline: period.deadline,
          regime: settings.regime,
          totals: assembled.totals,
          fileName: reportFileName(kind, period),
          fileContent: assembled.fileContent,
          preparedAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: eReportingTransmissions.id });
      prepared += inserted.length;
    }
  }
  return prepared;
}

export type SendResult =
  | { ok: true; flowId: string }
  | { ok: false; reason: 'not-found' | 'busy' | 'already-done' | 'no-platform' | 'failed'; error?: string };

/**
 * Sends one transmission through `sender`, under its row's lock: `sent` with the platform's flow id
 * (journaled), or `failed` with the reason (sent again on the next pass). A transmission sent or
 * deposited by hand is never sent again.
 */
export async function sendTransmission(
  id: string,
  sender: FlowSender | null,
  actor: string,
  now: Date = new Date(),
): Promise<SendResult> {
  if (!sender) return { ok: false, reason: 'no-platform' };
  return db().transaction(async (tx) => {
    const result = await tx.execute<{ id: string; status: string; file_name: string; file_content: string }>(sql`
      select id, status, file_name, file_content from e_reporting_transmissions
      where id = ${id} for update skip locked`);
    const row = result.rows[0];
    if (!row) {
      // Locked: another instance (or the housekeeping) is sending it right now.
      const [exists] = await tx
        .select({ id: eReportingTransmissions.id })
        .from(eReportingTransmissions)
        .where(eq(eReportingTransmissions.id, id));
      return { ok: false, reason: exists ? 'busy' : 'not-found' } as const;
    }
    if (row.status === 'sent' || row.status === 'deposited') return { ok: false, reason: 'already-done' } as const;
    try {
      const { flowId } = await sender({
        name: row.file_name,
        content: Buffer.from(row.file_content, 'utf8'),
        syntax: REPORT_SYNTAX,
        processingRule: 'B2C',
        trackingId: row.id,
      });
      await tx
        .update(eReportingTransmissions)
        .set({
          status: 'sent',
          flowId,
          sentAt: now,
          lastError: null,
          attempts: sql`${eReportingTransmissions.attempts} + 1`,
          updatedAt: now,
        })
        .where(eq(eReportingTransmissions.id, id));
      await recordAudit(tx, {
        actor,
        kind: 'ereporting.send',
        subject: id,
        subjectLabel: row.file_name,
        after: { flowId, status: 'sent' },
        at: now,
      });
      return { ok: true, flowId } as const;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await tx
        .update(eReportingTransmissions)
        .set({
          status: 'failed',
          lastError: message.slice(0, 1000),
          attempts: sql`${eReportingTransmissions.attempts} + 1`,
          updatedAt: now,
        })
        .where(eq(eReportingTransmissions.id, id));
      log.warn(
        { err: error, transmission: id, file: row.file_name },
        'e-reporting transmission failed; sent again later',
      );
      return { ok: false, reason: 'failed', error: message } as const;
    }
  });
}

/**
 * Delivers what is waiting: with a platform, every prepared or failed transmission is sent; without
 * one, prepared transmissions become `exported` (their file waits for the operator). Returns counts.
 */
export async function deliverTransmissions(
  sender: FlowSender | null,
  now: Date = new Date(),
): Promise<{ sent: number; failed: number; exported: number }> {
  if (!sender) {
    const exported = await db()
      .update(eReportingTransmissions)
      .set({ status: 'exported', updatedAt: now })
      .where(eq(eReportingTransmissions.status, 'prepared'))
      .returning({ id: eReportingTransmissions.id });
    return { sent: 0, failed: 0, exported: exported.length };
  }
  const waiting = await db()
    .select({ id: eReportingTransmissions.id })
    .from(eReportingTransmissions)
    .where(inArray(eReportingTransmissions.status, ['prepared', 'failed']))
    .orderBy(eReportingTransmissions.periodStart)
    .limit(SEND_BATCH);
  let sent = 0;
  let failed = 0;
  for (const { id } of waiting) {
    const result = await sendTransmission(id, sender, 'system', now);
    if (result.ok) sent += 1;
    else if (result.reason === 'failed') failed += 1;
  }
  return { sent, failed, exported: 0 };
}

/**
 * One pass of the housekeeping: prepare the finished periods, then deliver them. `sender` defaults
 * to the configured plateforme agréée's (none: exported).
 */
export async function runEReporting(
  now: Date = new Date(),
  sender?: FlowSender | null,
): Promise<{ prepared: number; sent: number; failed: number; exported: number }> {
  const prepared = await prepareFinishedPeriods(now);
  const delivery = await deliverTransmissions(sender === undefined ? await configuredFlowSender() : sender, now);
  return { prepared, ...delivery };
}

/** « Marquer comme déposé manuellement »: the operator deposited the file on the platform. Journaled. */
export async function markDeposited(id: string, actor: string, now: Date = new Date()): Promise<boolean> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .update(eReportingTransmissions)
      .set({ status: 'deposited', depositedAt: now, depositedBy: actor, lastError: null, updatedAt: now })
      .where(
        and(
          eq(eReportingTransmissions.id, id),
          inArray(eReportingTransmissions.status, ['prepared', 'exported', 'failed']),
        ),
      )
      .returning({ fileName: eReportingTransmissions.fileName });
    if (!row) return false;
    await recordAudit(tx, {
      actor,
      kind: 'ereporting.deposit',
      subject: id,
      subjectLabel: row.fileName,
      after: { status: 'deposited' },
      at: now,
    });
    return true;
  });
}

export interface TransmissionSummary {
  id: string;
  kind: ReportKind;
  periodStart: string;
  periodEnd: string;
  deadline: string;
  status: 'prepared' | 'sent' | 'exported' | 'failed' | 'deposited';
  excludingVatCents: number;
  vatCents: number;
  totalCents: number;
  fileName: string;
  flowId: string | null;
  lastError: string | null;
  attempts: number;
  preparedAt: Date;
  sentAt: Date | null;
  depositedAt: Date | null;
}

/** The transmissions, newest period first (without their files). */
export async function listTransmissions(limit = 200): Promise<TransmissionSummary[]> {
  const rows = await db()
    .select({
      id: eReportingTransmissions.id,
      kind: eReportingTransmissions.kind,
      periodStart: eReportingTransmissions.periodStart,
      periodEnd: eReportingTransmissions.periodEnd,
      deadline: eReportingTransmissions.deadline,
      status: eReportingTransmissions.status,
      totals: eReportingTransmissions.totals,
      fileName: eReportingTransmissions.fileName,
      flowId: eReportingTransmissions.flowId,
      lastError: eReportingTransmissions.lastError,
      attempts: eReportingTransmissions.attempts,
      preparedAt: eReportingTransmissions.preparedAt,
      sentAt: eReportingTransmissions.sentAt,
      depositedAt: eReportingTransmissions.depositedAt,
    })
    .from(eReportingTransmissions)
    .orderBy(desc(eReportingTransmissions.periodStart), eReportingTransmissions.kind)
    .limit(limit);
  return rows.map(({ totals, ...row }) => ({
    ...row,
    excludingVatCents: totals.excludingVatCents,
    vatCents: totals.vatCents,
    totalCents: totals.totalCents,
  }));
}

/** A transmission's file, or null. */
export async function transmissionFile(id: string): Promise<{ name: string; content: string } | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await db()
    .select({ name: eReportingTransmissions.fileName, content: eReportingTransmissions.fileContent })
    .from(eReportingTransmissions)
    .where(eq(eReportingTransmissions.id, id));
  return row ?? null;
}
