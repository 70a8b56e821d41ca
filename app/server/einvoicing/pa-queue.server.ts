import { and, eq } from 'drizzle-orm';
import { PA_REJECTED } from '~/domain/einvoicing/pa-statuses';
import type { DocumentSnapshot } from '~/domain/invoices/snapshot';
import type { Tx } from '../db/client.server';
import { paFlows } from '../db/schema';

/*
 * Queueing a flow for the plateforme agréée, inside the caller's transaction (the invoice's
 * issuing one): the row and the document commit together or not at all, and the worker
 * (pa-worker.server.ts, a pass every few seconds) deposits it. A dedupe key per document: queueing twice
 * adds nothing. Kept apart from the worker so that invoices.server.ts imports no more than this.
 */

export interface QueueDocumentInput {
  kind: 'invoice' | 'credit_note';
  id: string;
  orderId: string;
  snapshot: DocumentSnapshot;
  isDemo: boolean;
  /** A credit note's invoice. */
  invoiceId?: string;
}

/**
 * Queues the deposit of a business document (its snapshot names a business buyer); a consumer's
 * document is not e-invoiced (it is e-reported) and queues nothing. A credit note cancelling an
 * invoice the PA rejected is not deposited either: the PA never accepted what it would credit
 * (decision 047). Returns whether a row was added.
 */
export async function queueDocumentDeposit(tx: Tx, input: QueueDocumentInput): Promise<boolean> {
  if (!input.snapshot.business) return false;
  if (input.kind === 'credit_note' && input.invoiceId) {
    const [rejected] = await tx
      .select({ id: paFlows.id })
      .from(paFlows)
      .where(
        and(eq(paFlows.invoiceId, input.invoiceId), eq(paFlows.kind, 'invoice'), eq(paFlows.paStatus, PA_REJECTED)),
      )
      .limit(1);
    if (rejected) return false;
  }
  const inserted = await tx
    .insert(paFlows)
    .values({
      orderId: input.orderId,
      kind: input.kind,
      invoiceId: input.kind === 'invoice' ? input.id : (input.invoiceId ?? null),
      creditNoteId: input.kind === 'credit_note' ? input.id : null,
      documentNumber: input.snapshot.number,
      dedupeKey: `${input.kind}:${input.id}`,
      trackingId: `${input.snapshot.number}`,
      isDemo: input.isDemo,
    })
    .onConflictDoNothing()
    .returning({ id: paFlows.id });
  return inserted.length > 0;
}

export interface QueueStatusInput {
  orderId: string;
  invoiceId: string;
  invoiceNumber: string;
  code: number;
  amountCents: number | null;
  date: Date | null;
  isDemo: boolean;
}

/** Queues a lifecycle status the shop emits about one of its invoices (212 « Encaissée »), once. */
export async function queueStatusFlow(tx: Tx, input: QueueStatusInput): Promise<boolean> {
  const inserted = await tx
    .insert(paFlows)
    .values({
      orderId: input.orderId,
      kind: 'status',
      invoiceId: input.invoiceId,
      documentNumber: input.invoiceNumber,
      statusCode: input.code,
      statusAmountCents: input.amountCents,
      statusDate: input.date,
      dedupeKey: `status:${input.code}:${input.invoiceId}`,
      trackingId: `${input.invoiceNumber}-${input.code}`,
      isDemo: input.isDemo,
    })
    .onConflictDoNothing()
    .returning({ id: paFlows.id });
  return inserted.length > 0;
}
