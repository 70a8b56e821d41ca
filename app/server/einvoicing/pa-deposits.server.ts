import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { type BuyerCorrectionField, parseBuyerCorrection } from '~/domain/einvoicing/buyer-correction';
import { buildStatusMessage, type ReadStatus, readStatusMessage } from '~/domain/einvoicing/flow-info';
import { isPaUsable } from '~/domain/einvoicing/pa-config';
import {
  depositBackoffMs,
  isAcceptedStatus,
  MAX_DEPOSIT_ATTEMPTS,
  PA_COLLECTED,
  PA_REJECTED,
  paStatusEffect,
  paStatusLabel,
} from '~/domain/einvoicing/pa-statuses';
import { type DocumentSnapshot, operationCategoryOf, parseDocumentSnapshot } from '~/domain/invoices/snapshot';
import { recordAudit } from '../audit/audit.server';
import { readConfigOption, writeConfigOption } from '../config/config-options.server';
import { db, type Tx } from '../db/client.server';
import { creditNotes, invoices, orderEvents, orders, paFlows, paReceivedStatuses } from '../db/schema';
import { readMailHold } from '../email/mail-hold.server';
import { issuedDocumentFacturX } from '../invoices/factur-x-pdf.server';
import { issueCreditNote, issueReplacementInvoice } from '../invoices/invoices.server';
import { documentFileName } from '../invoices/pdf.server';
import { log } from '../log.server';
import { correctBusinessBuyer } from '../orders/lifecycle.server';
import { depositFlow, downloadFlow, findFlowByTrackingId, PaError, searchFlows } from './pa-client.server';
import { type LoadedPaConfig, loadPaConfig } from './pa-config.server';
import { queueStatusFlow } from './pa-queue.server';

/*
 * The business documents' life on the plateforme agréée (docs/plateforme-agreee.md, decision 047).
 *  - Deposits: `pa_flows` rows queued with the document (pa-queue.server.ts) are claimed one at a
 *    time (FOR UPDATE SKIP LOCKED, the attempt counted and a lease taken in one statement), the file
 *    rendered and deposited outside any transaction, then the outcome written by the claim's holder
 *    only. A retry first asks the PA for the flow by its trackingId: an answer lost on the way never
 *    makes a second deposit. Failures back off (30 s doubling, 6 h at most), and after 12 attempts
 *    the row is `failed`, shown on the order.
 *  - Statuses: the PA's lifecycle messages (CDAR flows coming in) are searched, downloaded and read;
 *    each lands once (`pa_received_statuses`), with its order event and its consequence (a refusal's
 *    credit note, « Encaissée » queued for a paid service invoice) in one transaction.
 *  - Nothing is deposited while the shop's outgoing messages are held on a restored or copied
 *    database (email/mail-hold.server.ts): a copy must not deposit the real shop's invoices.
 */

const LEASE_MS = 5 * 60_000;

type ClaimedFlow = typeof paFlows.$inferSelect;

async function claimNext(testMode: boolean): Promise<ClaimedFlow | null> {
  // Demonstration (sandbox) documents only ever go to a PA in test mode; they wait otherwise.
  const result = await db().execute<{ id: string }>(sql`
    update pa_flows
    set attempts = attempts + 1, next_at = now() + make_interval(secs => ${LEASE_MS / 1000})
    where id = (
      select id from pa_flows
      where state = 'queued' and next_at <= now() and (${testMode} or not is_demo)
      order by next_at, created_at
      limit 1
      for update skip locked
    )
    returning id`);
  const id = result.rows[0]?.id;
  if (!id) return null;
  const [row] = await db().select().from(paFlows).where(eq(paFlows.id, id));
  return row ?? null;
}

function claimed(row: ClaimedFlow) {
  return and(eq(paFlows.id, row.id), eq(paFlows.attempts, row.attempts), eq(paFlows.state, 'queued'));
}

interface FlowFile {
  bytes: Uint8Array;
  name: string;
  syntax: 'Factur-X' | 'CDAR';
}

async function documentSnapshot(row: ClaimedFlow): Promise<DocumentSnapshot> {
  const table = row.kind === 'credit_note' ? creditNotes : invoices;
  const id = row.kind === 'credit_note' ? row.creditNoteId : row.invoiceId;
  if (!id) throw new PaError(`pa_flows ${row.id} names no document`, false);
  const [document] = await db().select({ snapshot: table.snapshot }).from(table).where(eq(table.id, id));
  const snapshot = parseDocumentSnapshot(document?.snapshot);
  if (!snapshot) throw new PaError(`document ${row.documentNumber} cannot be read`, false);
  return snapshot;
}

/** The file a row deposits: the document's PDF (the one its PDF route serves) or a CDAR status. */
async function flowFile(row: ClaimedFlow, config: LoadedPaConfig): Promise<FlowFile> {
  const snapshot = await documentSnapshot(row);
  if (row.kind !== 'status') {
    return { bytes: await issuedDocumentFacturX(snapshot), name: documentFileName(snapshot), syntax: 'Factur-X' };
  }
  const xml = buildStatusMessage({
    id: row.trackingId,
    issuedAt: new Date(),
    invoiceNumber: snapshot.number,
    invoiceIssuedAt: new Date(snapshot.issuedAt),
    sellerSiren: config.sellerSiren || snapshot.seller.siren.replace(/\s+/g, ''),
    buyerSiren: snapshot.business?.siren ?? null,
    code: row.statusCode ?? PA_COLLECTED,
    amountCents: row.statusAmountCents,
    paidAt: row.statusDate,
  });
  return { bytes: Buffer.from(xml, 'utf8'), name: `statut-${row.statusCode}-${snapshot.number}.xml`, syntax: 'CDAR' };
}

async function markDeposited(row: ClaimedFlow, flowId: string): Promise<boolean> {
  return db().transaction(async (tx) => {
    const updated = await tx
      .update(paFlows)
      .set({ state: 'deposited', flowId, depositedAt: sql`now()`, lastError: null })
      .where(claimed(row))
      .returning({ id: paFlows.id });
    if (updated.length === 0) return false;
    await tx.insert(orderEvents).values({
      orderId: row.orderId,
      actor: 'pa',
      kind: row.kind === 'status' ? 'einvoice_status_sent' : 'einvoice_deposited',
      data: {
        number: row.documentNumber,
        flowId,
        documentKind: row.kind,
        ...(row.statusCode ? { code: row.statusCode, amountCents: row.statusAmountCents } : {}),
      },
    });
    return true;
  });
}

async function markFailed(row: ClaimedFlow, error: string): Promise<void> {
  await db().transaction(async (tx) => {
    const updated = await tx
      .update(paFlows)
      .set({ state: 'failed', lastError: error })
      .where(claimed(row))
      .returning({ id: paFlows.id });
    if (updated.length === 0) return;
    await tx.insert(orderEvents).values({
      orderId: row.orderId,
      actor: 'pa',
      kind: 'einvoice_deposit_failed',
      data: { number: row.documentNumber, documentKind: row.kind, error: error.slice(0, 500) },
    });
  });
}

async function scheduleRetry(row: ClaimedFlow, error: string, delayMs: number): Promise<void> {
  await db()
    .update(paFlows)
    .set({ lastError: error.slice(0, 1000), nextAt: sql`now() + make_interval(secs => ${delayMs / 1000})` })
    .where(claimed(row));
}

export type DepositOutcome = 'deposited' | 'retry' | 'failed';

async function processFlow(row: ClaimedFlow, config: LoadedPaConfig): Promise<DepositOutcome> {
  try {
    // A previous attempt may have reached the PA with its answer lost: find it rather than deposit twice.
    const earlier = row.attempts > 1 ? await findFlowByTrackingId(row.trackingId, config) : null;
    let flowId = earlier?.flowId;
    if (!flowId) {
      const file = await flowFile(row, config);
      flowId = await depositFlow(
        {
          file: file.bytes,
          fileName: file.name,
          syntax: file.syntax,
          profile: file.syntax === 'Factur-X' ? 'CIUS' : null,
          processingRule: 'B2B',
          trackingId: row.trackingId,
        },
        { config },
      );
    }
    await markDeposited(row, flowId);
    return 'deposited';
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const retryable = !(error instanceof PaError) || error.retryable;
    if (!retryable || row.attempts >= MAX_DEPOSIT_ATTEMPTS) {
      log.error(
        { paFlowId: row.id, number: row.documentNumber, attempts: row.attempts, reason: message },
        'PA: deposit failed',
      );
      await markFailed(row, message);
      return 'failed';
    }
    const delayMs = depositBackoffMs(row.attempts);
    log.warn({ paFlowId: row.id, number: row.documentNumber, delayMs, reason: message }, 'PA: deposit will be retried');
    await scheduleRetry(row, message, delayMs);
    return 'retry';
  }
}

export interface DrainPaResult {
  deposited: number;
  retry: number;
  failed: number;
}

/**
 * Deposits every due flow, one claim at a time. Nothing while no PA is usable (rows wait, queued)
 * or while outgoing messages are held on a copy of the shop. Usable without the worker (tests,
 * scripts); two drains at once never deposit a row twice.
 */
export async function drainPaFlows(shouldContinue: () => boolean = () => true): Promise<DrainPaResult> {
  const counts: DrainPaResult = { deposited: 0, retry: 0, failed: 0 };
  if (await readMailHold()) return counts;
  const config = await loadPaConfig();
  if (!isPaUsable(config)) return counts;
  while (shouldContinue()) {
    const row = await claimNext(config.testMode);
    if (!row) break;
    const outcome = await processFlow(row, config);
    counts[outcome]++;
    // The PA is down: the next rows would only wait for the same time-out.
    if (outcome === 'retry') break;
  }
  return counts;
}

// --- statuses ---------------------------------------------------------------------------------

const CURSOR_MARGIN_MS = 5 * 60_000;

/**
 * Reads the statuses the PA has for the shop's documents (its incoming lifecycle flows, CDAR) and
 * lands each once. Returns how many new statuses landed. Idempotent: run it as often as wanted.
 */
export async function pollPaStatuses(): Promise<{ received: number }> {
  const config = await loadPaConfig();
  if (!isPaUsable(config)) return { received: 0 };
  const cursor = (await readConfigOption('pa_status_cursor')) as { updatedAfter?: string } | null;
  const flows = await searchFlows(
    {
      flowType: ['CustomerInvoiceLC'],
      flowDirection: ['In'],
      ...(cursor?.updatedAfter ? { updatedAfter: cursor.updatedAfter } : {}),
    },
    { limit: 500, config },
  );
  let received = 0;
  let latest = cursor?.updatedAfter ? Date.parse(cursor.updatedAfter) + CURSOR_MARGIN_MS : 0;
  for (const flow of flows) {
    const [seen] = await db()
      .select({ id: paReceivedStatuses.statusFlowId })
      .from(paReceivedStatuses)
      .where(inArray(paReceivedStatuses.statusFlowId, [flow.flowId, `${flow.flowId}#0`]))
      .limit(1);
    if (!seen) {
      const statuses = readStatusMessage((await downloadFlow(flow.flowId, config)).toString('utf8'));
      for (const [index, status] of statuses.entries()) {
        if (await landPaStatus(`${flow.flowId}#${index}`, status)) received++;
      }
    }
    const updated = Date.parse(flow.updatedAt ?? flow.submittedAt ?? '');
    if (Number.isFinite(updated)) latest = Math.max(latest, updated);
  }
  // The next search starts a little before the latest flow seen: a PA's clock and its indexing
  // may lag; what is read twice lands once.
  if (latest > 0) {
    await writeConfigOption('pa_status_cursor', { updatedAfter: new Date(latest - CURSOR_MARGIN_MS).toISOString() });
  }
  return { received };
}

/**
 * One status of one document, whole or nothing: recorded once (by the id of the message that
 * carried it), written on the document's flow and in the order's history, and its consequence
 * applied. Returns false when it had already landed.
 */
export async function landPaStatus(statusId: string, status: ReadStatus): Promise<boolean> {
  return db().transaction(async (tx) => {
    const [flow] = await tx
      .select()
      .from(paFlows)
      .where(and(eq(paFlows.documentNumber, status.invoiceNumber), inArray(paFlows.kind, ['invoice', 'credit_note'])))
      .orderBy(desc(paFlows.createdAt))
      .limit(1)
      .for('update');
    const inserted = await tx
      .insert(paReceivedStatuses)
      .values({
        statusFlowId: statusId,
        paFlowId: flow?.id ?? null,
        documentNumber: status.invoiceNumber,
        code: status.code,
        reason: status.reason,
      })
      .onConflictDoNothing()
      .returning({ id: paReceivedStatuses.statusFlowId });
    if (inserted.length === 0) return false;
    if (!flow) {
      log.warn(
        { number: status.invoiceNumber, code: status.code },
        'PA: a status for a document the shop did not deposit',
      );
      return true;
    }
    await tx
      .update(paFlows)
      .set({ paStatus: status.code, paStatusAt: sql`now()`, paReason: status.reason })
      .where(eq(paFlows.id, flow.id));
    await tx.insert(orderEvents).values({
      orderId: flow.orderId,
      actor: 'pa',
      kind: 'einvoice_status',
      data: {
        number: flow.documentNumber,
        code: status.code,
        ...(status.reason ? { reason: status.reason } : {}),
        documentKind: flow.kind,
      },
    });
    log.info(
      { number: flow.documentNumber, code: status.code, label: paStatusLabel(status.code) },
      'PA: status received',
    );
    if (flow.kind === 'invoice' && flow.invoiceId) {
      if (paStatusEffect(status.code) === 'refused') await creditRefusedInvoice(tx, flow, status.reason);
      await queueCollectedWhenDue(tx, flow.invoiceId, status.code);
    }
    return true;
  });
}

/** « Refusée » (210): the buyer refuses the invoice; what remains of it is credited (decision 047). */
async function creditRefusedInvoice(tx: Tx, flow: ClaimedFlow, reason: string | null): Promise<void> {
  if (!flow.invoiceId) return;
  await issueCreditNote(tx, {
    orderId: flow.orderId,
    invoiceId: flow.invoiceId,
    actor: 'pa',
    refusal: true,
    reason: `Facture ${flow.documentNumber} refusée par l’acheteur${reason ? ` : ${reason}` : ''}`,
  });
}

/**
 * 212 « Encaissée » for a service invoice (services or mixed) once it is both accepted by the
 * platforms and paid, whichever comes last: queued once (its dedupe key), with the amount and the
 * payment's date.
 */
export async function queueCollectedWhenDue(tx: Tx, invoiceId: string, latestCode: number | null): Promise<boolean> {
  if (!isAcceptedStatus(latestCode)) return false;
  const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId));
  if (!invoice?.isPaid) return false;
  const snapshot = parseDocumentSnapshot(invoice.snapshot);
  if (!snapshot || operationCategoryOf(snapshot) === 'goods') return false;
  const paidAt = snapshot.payment?.paidAt ? new Date(snapshot.payment.paidAt) : invoice.issuedAt;
  return queueStatusFlow(tx, {
    orderId: invoice.orderId,
    invoiceId: invoice.id,
    invoiceNumber: invoice.number,
    code: PA_COLLECTED,
    amountCents: invoice.amountCents,
    date: paidAt,
    isDemo: invoice.isDemo,
  });
}

// --- the order's view and the staff's correction ------------------------------------------------

export interface OrderPaFlow {
  id: string;
  kind: 'invoice' | 'credit_note' | 'status';
  documentNumber: string;
  state: 'queued' | 'deposited' | 'failed';
  attempts: number;
  lastError: string | null;
  flowId: string | null;
  depositedAt: string | null;
  statusCode: number | null;
  paStatus: number | null;
  paStatusLabel: string | null;
  paReason: string | null;
  /** A rejected invoice not yet replaced: the staff may correct the buyer and issue it again. */
  canReissue: boolean;
}

/** The order's flows on the PA, newest first, for the back office's order page. */
export async function listOrderPaFlows(orderId: string): Promise<OrderPaFlow[]> {
  const rows = await db()
    .select({
      flow: paFlows,
      replacedBy: sql<
        string | null
      >`(select i.number from invoices i where i.replaces_invoice_id = ${paFlows.invoiceId})`,
    })
    .from(paFlows)
    .where(eq(paFlows.orderId, orderId))
    .orderBy(desc(paFlows.createdAt));
  return rows.map(({ flow, replacedBy }) => ({
    id: flow.id,
    kind: flow.kind,
    documentNumber: flow.documentNumber,
    state: flow.state,
    attempts: flow.attempts,
    lastError: flow.lastError,
    flowId: flow.flowId,
    depositedAt: flow.depositedAt?.toISOString() ?? null,
    statusCode: flow.statusCode,
    paStatus: flow.paStatus,
    paStatusLabel: flow.paStatus === null ? null : paStatusLabel(flow.paStatus),
    paReason: flow.paReason,
    canReissue: flow.kind === 'invoice' && flow.paStatus === PA_REJECTED && replacedBy === null,
  }));
}

/** Gives a failed deposit a fresh set of attempts (the staff, once the cause is fixed). */
export async function retryFailedPaFlow(orderId: string, paFlowId: string): Promise<boolean> {
  const rows = await db()
    .update(paFlows)
    .set({ state: 'queued', attempts: 0, nextAt: sql`now()`, lastError: null })
    .where(and(eq(paFlows.id, paFlowId), eq(paFlows.orderId, orderId), eq(paFlows.state, 'failed')))
    .returning({ id: paFlows.id });
  return rows.length > 0;
}

export type ReissueResult =
  | { ok: true; creditNoteNumber: string | null; invoiceNumber: string }
  | { ok: false; error: string; fieldErrors?: Partial<Record<BuyerCorrectionField, string>> };

/**
 * « Corriger et réémettre » (decision 047), whole or nothing: the order's business buyer corrected
 * (the lifecycle's order edit, with its history event and journal entry), the rejected invoice
 * cancelled by a credit note (not deposited: the PA never accepted that invoice), and the
 * replacement invoice issued under the next number, its deposit queued.
 */
export async function reissueRejectedInvoice(input: {
  orderId: string;
  paFlowId: string;
  correction: Record<string, string>;
  actor: string;
}): Promise<ReissueResult> {
  return db().transaction(async (tx) => {
    const [order] = await tx
      .select({ id: orders.id, number: orders.number, business: orders.business })
      .from(orders)
      .where(eq(orders.id, input.orderId))
      .for('update');
    if (!order) return { ok: false as const, error: 'Commande introuvable.' };
    const [flow] = await tx
      .select()
      .from(paFlows)
      .where(and(eq(paFlows.id, input.paFlowId), eq(paFlows.orderId, input.orderId)))
      .for('update');
    if (flow?.kind !== 'invoice' || !flow.invoiceId || flow.paStatus !== PA_REJECTED) {
      return { ok: false as const, error: 'Cette facture n’est pas rejetée par la plateforme.' };
    }
    const [replaced] = await tx
      .select({ number: invoices.number })
      .from(invoices)
      .where(eq(invoices.replacesInvoiceId, flow.invoiceId));
    if (replaced) return { ok: false as const, error: `Facture déjà réémise (${replaced.number}).` };
    if (!order.business) return { ok: false as const, error: 'La commande n’a pas d’acheteur professionnel.' };
    const parsed = parseBuyerCorrection(input.correction, order.business);
    if (!parsed.ok) {
      return { ok: false as const, error: 'Veuillez corriger les champs signalés.', fieldErrors: parsed.fieldErrors };
    }
    await correctBusinessBuyer(tx, {
      orderId: order.id,
      orderNumber: order.number,
      before: order.business,
      after: parsed.business,
      actor: input.actor,
    });
    const note = await issueCreditNote(tx, {
      orderId: order.id,
      invoiceId: flow.invoiceId,
      actor: input.actor,
      reason: `Annulation de la facture ${flow.documentNumber}, rejetée par la plateforme agréée${flow.paReason ? ` (${flow.paReason})` : ''}`,
    });
    const replacement = await issueReplacementInvoice(tx, {
      orderId: order.id,
      rejectedInvoiceId: flow.invoiceId,
      actor: input.actor,
    });
    await tx.insert(orderEvents).values({
      orderId: order.id,
      actor: input.actor,
      kind: 'einvoice_reissued',
      data: {
        rejectedNumber: flow.documentNumber,
        creditNoteNumber: note?.number ?? null,
        number: replacement.number,
      },
    });
    await recordAudit(tx, {
      actor: input.actor,
      kind: 'order.einvoice_reissue',
      subject: order.id,
      subjectLabel: order.number,
      before: { invoice: flow.documentNumber },
      after: { invoice: replacement.number, creditNote: note?.number ?? null },
    });
    return { ok: true as const, creditNoteNumber: note?.number ?? null, invoiceNumber: replacement.number };
  });
}

export interface OrderEinvoicing {
  flows: OrderPaFlow[];
  /** The order's business buyer as it stands (the correction form's starting values). */
  business: (Record<BuyerCorrectionField, string> & { publicBody: boolean }) | null;
}

/** What the order's page shows of its life on the PA; null for an order with nothing there. */
export async function getOrderEinvoicing(orderId: string): Promise<OrderEinvoicing | null> {
  const flows = await listOrderPaFlows(orderId);
  if (flows.length === 0) return null;
  const [order] = await db().select({ business: orders.business }).from(orders).where(eq(orders.id, orderId));
  const b = order?.business;
  return {
    flows,
    business: b
      ? {
          companyName: b.companyName,
          siren: b.siren,
          vatNumber: b.vatNumber ?? '',
          siret: b.siret ?? '',
          chorusServiceCode: b.chorusServiceCode ?? '',
          publicBody: b.publicBody,
        }
      : null,
  };
}
