import { and, asc, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { counterKind, type DocumentKind, formatDocumentNumber } from '~/domain/invoices/number';
import {
  buildDocumentSnapshot,
  type DocumentSnapshot,
  operationCategoryOf,
  parseDocumentSnapshot,
  partialCreditLines,
  type SnapshotOrder,
} from '~/domain/invoices/snapshot';
import { includedVatCents, splitVat } from '~/domain/invoices/vat';
import { allocate } from '~/domain/orders/allocation';
import type { OrderLine } from '~/domain/orders/order-line';
import type { Recount } from '~/domain/orders/reception';
import type { Executor } from '../config/config-options.server';
import { type Database, db, type Tx } from '../db/client.server';
import { creditNotes, invoices, orderAdjustments, orderEvents } from '../db/schema';
import { queueDocumentDeposit } from '../einvoicing/pa-queue.server';
import { readInvoicingSettings } from './invoicing-settings.server';
import { buyerOf, deliveryPartyOf, loadOrderFacts, type OrderFacts } from './order-facts.server';

/*
 * Invoices and credit notes (docs/product.md, « Compliance »). An invoice is issued in the transaction that
 * records the payment (payments/notifications.server.ts), so an order is never paid without its
 * invoice nor invoiced without being paid. Numbers come from `invoice_counters(kind, year, last)`:
 * the row is created or incremented by one upsert, which locks it until the transaction ends, so
 * concurrent payments take numbers one after another and a rolled-back transaction gives its number
 * back: the sequence has no gap and no duplicate. The issue date is read after the lock is taken,
 * so dates follow numbers.
 *
 * Documents are never updated or deleted: nothing in the code does, and the foreign keys refuse
 * the deletion of an invoiced order (onDelete restrict). Cancelling a paid order issues a credit
 * note (AV-...) that names the invoice it cancels; every refund, full or partial, issues one for its
 * amount, as many as needed until the invoice is credited in full.
 *
 * Money taken by the built-in sandbox is no money: its invoice, and the credit notes of that
 * invoice, are demonstration documents (is_demo, TEST-FA-… / TEST-AV-…, their own counters), so
 * the real series stays gapless and revenue never counts them.
 */

export class InvoiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvoiceError';
  }
}

export interface IssuedDocument {
  id: string;
  number: string;
  issuedAt: Date;
  amountCents: number;
  vatCents: number;
  snapshot: DocumentSnapshot;
  /** A demonstration document (TEST-…): money taken by the sandbox. */
  isDemo: boolean;
  /** False when the document already existed (nothing was issued). */
  created: boolean;
}

/**
 * Takes the next number of `kind` for the current year (French time) and the issue time, locking
 * the counter row until the caller's transaction ends. Call it last in a transaction: every other
 * transaction issuing the same kind waits for this one to commit.
 */
export async function takeDocumentNumber(
  tx: Tx,
  kind: DocumentKind,
  { demo = false }: { demo?: boolean } = {},
): Promise<{ number: string; issuedAt: Date }> {
  const result = await tx.execute<{ year: number; last: number; issued_at: Date | string }>(sql`
    insert into invoice_counters (kind, year, last)
    values (${counterKind(kind, demo)}, extract(year from (clock_timestamp() at time zone 'Europe/Paris'))::int, 1)
    on conflict (kind, year) do update set last = invoice_counters.last + 1
    returning year, last, clock_timestamp() as issued_at`);
  const row = result.rows[0];
  if (!row) throw new InvoiceError('invoice_counters: the upsert returned no row');
  return {
    number: formatDocumentNumber(kind, Number(row.year), Number(row.last), demo),
    issuedAt: new Date(row.issued_at),
  };
}

/**
 * The order's own invoice (one per order): a reception supplement's invoice is not it. Read with
 * `latestFirst`: an invoice rejected by the plateforme agréée and replaced (decision 047) leaves its
 * replacement, issued later, as the order's invoice.
 */
function orderInvoice(orderId: string) {
  return and(eq(invoices.orderId, orderId), isNull(invoices.adjustmentId));
}
const latestFirst = [desc(invoices.issuedAt), desc(invoices.number)] as const;

export interface IssueInvoiceInput {
  orderId: string;
  /** Who caused it, for the order's history (a gateway name, `system`, an admin's id). */
  actor: string;
  /** `provider: 'sandbox'`: no money was taken, the invoice is a demonstration one (TEST-FA-…). */
  payment: { method: string; paidAt: Date; provider?: string | null };
}

/**
 * Issues the order's invoice inside the caller's transaction (idempotent: an order has at most one
 * invoice, the existing one is returned). The caller has locked the order row.
 */
export async function issueInvoice(tx: Tx, input: IssueInvoiceInput): Promise<IssuedDocument> {
  const [existing] = await tx
    .select()
    .from(invoices)
    .where(orderInvoice(input.orderId))
    .orderBy(...latestFirst)
    .limit(1);
  if (existing) return documentOf(existing, false);
  const facts = await loadOrderFacts(tx, input.orderId);
  if (!facts) throw new InvoiceError(`no order ${input.orderId} to invoice`);
  if (facts.totalPriceCents < 0) throw new InvoiceError(`order ${facts.number} has a negative total`);

  return insertPaidInvoice(tx, facts, facts, input, null);
}

/**
 * Numbers, freezes and stores a paid invoice for `order`: the order itself, or a supplement's extra
 * items (`adjustmentId`). Money from the sandbox makes it a demonstration invoice (TEST-FA-…).
 */
async function insertPaidInvoice(
  tx: Tx,
  facts: OrderFacts,
  order: SnapshotOrder,
  input: Pick<IssueInvoiceInput, 'actor' | 'payment'>,
  adjustmentId: string | null,
): Promise<IssuedDocument> {
  const demo = input.payment.provider === 'sandbox';
  const { number, issuedAt } = await takeDocumentNumber(tx, 'invoice', { demo });
  const snapshot = buildDocumentSnapshot({
    kind: 'invoice',
    number,
    issuedAt,
    order,
    priceList: facts.priceList,
    buyer: buyerOf(facts),
    deliveryAddress: deliveryPartyOf(facts),
    payment: input.payment,
    demo,
    // The order's own invoice states a gift card's part; a supplement's is paid in money only.
    giftCard: adjustmentId === null ? facts.giftCard : null,
    business: facts.business,
    invoicing: await readInvoicingSettings(tx),
  });
  const [row] = await tx
    .insert(invoices)
    .values({
      number,
      orderId: facts.id,
      issuedAt,
      amountCents: snapshot.totalCents,
      vatCents: snapshot.vatCents,
      snapshot,
      isPaid: true,
      isDemo: demo,
      adjustmentId,
    })
    .returning();
  if (!row) throw new InvoiceError('the invoice was not inserted');
  await tx.insert(orderEvents).values({
    orderId: facts.id,
    actor: input.actor,
    kind: 'invoice_issued',
    data: { invoiceId: row.id, number, amountCents: row.amountCents, ...(adjustmentId ? { adjustmentId } : {}) },
  });
  // A business invoice goes to the plateforme agréée: queued here, in the issuing transaction.
  await queueDocumentDeposit(tx, { kind: 'invoice', id: row.id, orderId: facts.id, snapshot, isDemo: demo });
  return documentOf(row, true);
}

export interface IssueCreditNoteInput {
  orderId: string;
  actor: string;
  /** Why (« Commande annulée », « Geste commercial »…): printed on the credit note. */
  reason: string;
  /**
   * What to credit, in cents including VAT; by default what remains to be credited on the invoice.
   * The whole invoice (nothing credited before) repeats its lines; any other amount is one line per
   * category of the invoice, « Remboursement partiel — prestations » / « — marchandises », pro rata.
   */
  amountCents?: number;
  /**
   * The invoice to credit, when it is not the order's own (a supplement's, or one rejected by the
   * plateforme agréée and replaced: decision 047). Must be an invoice of the order.
   */
  invoiceId?: string;
  /**
   * The buyer refused the invoice (« Refusée », decision 047): the credit note credits it without
   * money going back; a later refund of the order gives that money under it (`refusalCreditsLeft`).
   */
  refusal?: boolean;
}

/**
 * Issues a credit note on the order's invoice, inside the caller's transaction: for a cancellation
 * or a refund (full or partial), several per invoice until it is credited in full. More than what
 * remains is refused (InvoiceError). Without `amountCents` once nothing remains, the last credit
 * note is returned (`created: false`): cancelling twice credits once. Returns null when the order
 * has no invoice (nothing to credit). The order row is locked here, so two credit notes of one
 * order are issued one after the other and never credit more than the invoice.
 */
export async function issueCreditNote(tx: Tx, input: IssueCreditNoteInput): Promise<IssuedDocument | null> {
  const facts = await loadOrderFacts(tx, input.orderId, { lock: true });
  if (!facts) throw new InvoiceError(`no order ${input.orderId}`);
  const [invoice] = await tx
    .select()
    .from(invoices)
    .where(
      input.invoiceId
        ? and(eq(invoices.orderId, input.orderId), eq(invoices.id, input.invoiceId))
        : orderInvoice(input.orderId),
    )
    .orderBy(...latestFirst)
    .limit(1);
  if (!invoice) return null;
  const previous = await creditNotesOf(tx, invoice.id);
  const remaining = invoice.amountCents - previous.reduce((sum, note) => sum + note.amountCents, 0);
  const last = previous[0];
  if (input.amountCents === undefined && remaining <= 0 && last) return documentOf(last, false);
  return creditInvoice(tx, facts, invoice, remaining, { ...input, amountCents: input.amountCents ?? remaining });
}

/**
 * Credits `amountCents` over every invoice of the order (its own, then its supplements' in the
 * order they were issued), each credit note naming one invoice and never more than what remains of
 * it (decision 022): a refund of an order and its paid supplement gives one credit note per
 * invoice. Refuses (InvoiceError) more than what remains over all of them; returns [] when the order
 * has no invoice (nothing was invoiced, nothing to credit). Locks the order row.
 */
export async function issueCreditNotes(
  tx: Tx,
  input: IssueCreditNoteInput & { amountCents: number },
): Promise<IssuedDocument[]> {
  const facts = await loadOrderFacts(tx, input.orderId, { lock: true });
  if (!facts) throw new InvoiceError(`no order ${input.orderId}`);
  const rows = await tx
    .select()
    .from(invoices)
    .where(eq(invoices.orderId, input.orderId))
    .orderBy(sql`${invoices.adjustmentId} is not null`, asc(invoices.issuedAt), asc(invoices.number));
  if (rows.length === 0) return [];
  const parts = await creditableParts(tx, rows);
  const plan = allocate(
    input.amountCents,
    parts.map((part) => part.remaining),
  );
  if (!plan) {
    const left = parts.reduce((sum, part) => sum + part.remaining, 0);
    throw new InvoiceError(
      `credit note of ${input.amountCents} cents on order ${facts.number}: only ${left} cents remain to be credited`,
    );
  }
  const issued: IssuedDocument[] = [];
  for (const [index, amount] of plan.entries()) {
    const part = parts[index];
    if (!part || amount === 0) continue;
    issued.push(await creditInvoice(tx, facts, part.invoice, part.remaining, { ...input, amountCents: amount }));
  }
  return issued;
}

type InvoiceRow = typeof invoices.$inferSelect;

/** A credit note issued on a buyer's refusal, and what of it no refund has given back yet. */
export interface RefusalCredit {
  id: string;
  number: string;
  isDemo: boolean;
  leftCents: number;
}

/**
 * The credit notes issued on a buyer's refusal of an invoice of the order (« Refusée », decision
 * 047) whose amount the refunds linked to them (refunds.credit_note_id, pending or made) have not
 * all given back, oldest first. Such money is already credited: a refund gives it back under that
 * credit note rather than crediting the invoice a second time. `exceptRefundId`: the refund being
 * recorded. The caller holds the order's lock.
 */
export async function refusalCreditsLeft(
  tx: Tx,
  orderId: string,
  exceptRefundId: string | null = null,
): Promise<RefusalCredit[]> {
  const result = await tx.execute<{ id: string; number: string; is_demo: boolean; left_cents: number }>(sql`
    select c.id, c.number, c.is_demo,
      c.amount - coalesce((select sum(r.amount) from refunds r where r.credit_note_id = c.id
        and r.status in ('pending', 'succeeded') and r.id is distinct from ${exceptRefundId}::uuid), 0)::int as left_cents
    from credit_notes c
    where c.order_id = ${orderId} and c.refusal
    order by c.issued_at, c.number`);
  return result.rows
    .map((row) => ({ id: row.id, number: row.number, isDemo: row.is_demo, leftCents: Number(row.left_cents) }))
    .filter((credit) => credit.leftCents > 0);
}

async function creditNotesOf(tx: Tx, invoiceId: string) {
  return tx.select().from(creditNotes).where(eq(creditNotes.invoiceId, invoiceId)).orderBy(desc(creditNotes.issuedAt));
}

async function creditableParts(tx: Tx, rows: InvoiceRow[]) {
  const parts: Array<{ invoice: InvoiceRow; remaining: number }> = [];
  for (const invoice of rows) {
    const previous = await creditNotesOf(tx, invoice.id);
    parts.push({ invoice, remaining: invoice.amountCents - previous.reduce((sum, note) => sum + note.amountCents, 0) });
  }
  return parts;
}

/** One credit note of `input.amountCents` on `invoice`, of which `remaining` is still to be credited. */
async function creditInvoice(
  tx: Tx,
  facts: OrderFacts,
  invoice: InvoiceRow,
  remaining: number,
  input: IssueCreditNoteInput & { amountCents: number },
): Promise<IssuedDocument> {
  const amount = input.amountCents;
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new InvoiceError(`credit note of ${amount} cents on ${invoice.number}: the amount must be positive`);
  }
  if (amount > remaining) {
    throw new InvoiceError(
      `credit note of ${amount} cents on ${invoice.number}: only ${remaining} cents remain to be credited`,
    );
  }
  const full = amount === invoice.amountCents;

  const demo = invoice.isDemo;
  const invoiceSnapshot = parseDocumentSnapshot(invoice.snapshot);
  const { number, issuedAt } = await takeDocumentNumber(tx, 'credit_note', { demo });
  const base = buildDocumentSnapshot({
    kind: 'credit_note',
    number,
    issuedAt,
    order: full ? { ...facts, totalPriceCents: invoice.amountCents } : facts,
    priceList: facts.priceList,
    buyer: invoiceSnapshot ? invoiceSnapshot.buyer : buyerOf(facts),
    ...(invoiceSnapshot ? { seller: invoiceSnapshot.seller } : {}),
    payment: null,
    invoiceNumber: invoice.number,
    reason: input.reason,
    partial: !full,
    demo,
    // A credit note names the buyer its invoice named.
    business: invoiceSnapshot ? (invoiceSnapshot.business ?? null) : facts.business,
    invoicing: await readInvoicingSettings(tx),
  });
  let snapshot: DocumentSnapshot;
  if (!full) {
    // Its amount takes the categories of the invoice it credits, pro rata (goods stay goods).
    const lines = partialCreditLines(facts.number, amount, input.reason, (invoiceSnapshot ?? base).lines);
    snapshot = { ...base, lines, operationCategory: operationCategoryOf({ lines }), ...splitVat(amount) };
  } else if (invoiceSnapshot) {
    // The credit note repeats the invoice's lines, buyer and seller as they were invoiced.
    snapshot = {
      ...base,
      lines: invoiceSnapshot.lines,
      totalExcludingVatCents: invoiceSnapshot.totalExcludingVatCents,
      vatCents: invoiceSnapshot.vatCents,
      totalCents: invoiceSnapshot.totalCents,
    };
  } else {
    snapshot = base;
  }
  const vatCents = full ? (invoice.vatCents ?? includedVatCents(amount)) : snapshot.vatCents;
  const [row] = await tx
    .insert(creditNotes)
    .values({
      number,
      orderId: facts.id,
      invoiceId: invoice.id,
      issuedAt,
      amountCents: amount,
      vatCents,
      snapshot,
      reason: input.reason,
      isDemo: demo,
      refusal: input.refusal === true,
    })
    .returning();
  if (!row) throw new InvoiceError('the credit note was not inserted');
  await tx.insert(orderEvents).values({
    orderId: facts.id,
    actor: input.actor,
    kind: 'credit_note_issued',
    data: {
      creditNoteId: row.id,
      number,
      invoiceNumber: invoice.number,
      amountCents: row.amountCents,
      ...(full ? {} : { partial: true }),
      ...(input.refusal ? { refusal: true } : {}),
    },
  });
  // A business credit note goes to the plateforme agréée (not one cancelling a rejected invoice).
  await queueDocumentDeposit(tx, {
    kind: 'credit_note',
    id: row.id,
    orderId: facts.id,
    snapshot,
    isDemo: demo,
    invoiceId: invoice.id,
  });
  return documentOf(row, true);
}

interface DocumentRow {
  id: string;
  number: string;
  issuedAt: Date;
  amountCents: number;
  vatCents: number;
  snapshot: unknown;
  isDemo: boolean;
}

function documentOf(row: DocumentRow, created: boolean): IssuedDocument {
  const snapshot = parseDocumentSnapshot(row.snapshot);
  if (!snapshot) throw new InvoiceError(`document ${row.number} has a snapshot of an unknown shape`);
  return {
    id: row.id,
    number: row.number,
    issuedAt: row.issuedAt,
    amountCents: row.amountCents,
    vatCents: row.vatCents,
    snapshot,
    isDemo: row.isDemo,
    created,
  };
}

export interface OrderDocuments {
  invoice: Omit<IssuedDocument, 'created'> | null;
  creditNotes: Omit<IssuedDocument, 'created'>[];
  /** The invoices of paid reception supplements, each with its own number. */
  supplementInvoices: Omit<IssuedDocument, 'created'>[];
}

/**
 * The order's invoice and credit notes, for the invoice page and its PDF. Callers check who asks
 * (getOrderForViewer) first. A document stored in another shape (older demo data) is left out.
 */
export async function getOrderDocuments(
  orderId: string,
  executor: Executor | Database = db(),
): Promise<OrderDocuments> {
  const [invoiceRows, creditRows, supplementRows] = await Promise.all([
    executor
      .select()
      .from(invoices)
      .where(orderInvoice(orderId))
      .orderBy(...latestFirst)
      .limit(1),
    executor.select().from(creditNotes).where(eq(creditNotes.orderId, orderId)).orderBy(desc(creditNotes.issuedAt)),
    executor
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderId, orderId), isNotNull(invoices.adjustmentId)))
      .orderBy(desc(invoices.issuedAt)),
  ]);
  const readable = (row: DocumentRow) => {
    const snapshot = parseDocumentSnapshot(row.snapshot);
    return snapshot
      ? {
          id: row.id,
          number: row.number,
          issuedAt: row.issuedAt,
          amountCents: row.amountCents,
          vatCents: row.vatCents,
          snapshot,
          isDemo: row.isDemo,
        }
      : null;
  };
  const invoiceRow = invoiceRows[0];
  return {
    invoice: invoiceRow ? readable(invoiceRow) : null,
    creditNotes: creditRows.map(readable).filter((d): d is NonNullable<typeof d> => d !== null),
    supplementInvoices: supplementRows.map(readable).filter((d): d is NonNullable<typeof d> => d !== null),
  };
}

export interface IssueSupplementInvoiceInput {
  orderId: string;
  adjustmentId: string;
  amountCents: number;
  actor: string;
  payment: IssueInvoiceInput['payment'];
}

/** The extra items of a supplement, as invoice items: what was counted beyond the order, at its prices. */
export function supplementItems(pricing: unknown): OrderLine[] {
  const lines = (pricing as Partial<Recount> | null)?.lines ?? [];
  return lines
    .filter((line) => line.countedCents > line.orderedCents)
    .map((line) => ({
      type: line.type,
      quantity: Math.max(1, line.counted - line.ordered),
      quality: line.quality,
      resolution: line.resolution,
      format: line.format,
      restoration: 0,
      denoise: line.denoise,
      reelSize: line.reelSize,
      unitPriceCents: line.unitPriceCents,
      lineTotalCents: line.countedCents - line.orderedCents,
    }));
}

/** What the order's codes take off a supplement's extra items: one line naming them. */
function supplementDiscounts(pricing: unknown, facts: OrderFacts) {
  const recounted = pricing as Partial<Recount> | null;
  const cents = (recounted?.countedDiscountCents ?? 0) - (recounted?.orderedDiscountCents ?? 0);
  if (cents <= 0) return [];
  const codes = facts.promotions.map((code) => code.terms.code).join(', ');
  return [{ label: `Remise ${codes}`, detail: 'Sur les articles en plus, aux conditions de la commande', cents }];
}

/**
 * The invoice of a paid reception supplement, in the transaction that records its payment: its own
 * number, the extra items as lines, paid (idempotent: one invoice per supplement). Money from the
 * sandbox makes it a demonstration invoice, like the order's.
 */
export async function issueSupplementInvoice(tx: Tx, input: IssueSupplementInvoiceInput): Promise<IssuedDocument> {
  const [existing] = await tx
    .select()
    .from(invoices)
    .where(eq(invoices.adjustmentId, input.adjustmentId))
    .orderBy(...latestFirst)
    .limit(1);
  if (existing) return documentOf(existing, false);
  const facts = await loadOrderFacts(tx, input.orderId);
  if (!facts) throw new InvoiceError(`no order ${input.orderId} to invoice`);
  const [adjustment] = await tx
    .select({ pricing: orderAdjustments.pricing })
    .from(orderAdjustments)
    .where(eq(orderAdjustments.id, input.adjustmentId));
  if (!adjustment) throw new InvoiceError(`no supplement ${input.adjustmentId}`);

  // Only the extra items: no delivery or shipping, the total is the supplement's amount; the
  // order's promotion codes take off the extra items what they take off the others (decision 038).
  const order = {
    ...facts,
    items: supplementItems(adjustment.pricing),
    discounts: supplementDiscounts(adjustment.pricing, facts),
    deliveryCostCents: 0,
    sendShippingCostCents: 0,
    returnShippingCostCents: 0,
    expressPriceCents: 0,
    insurancePriceCents: 0,
    totalPriceCents: input.amountCents,
  };
  return insertPaidInvoice(tx, facts, order, input, input.adjustmentId);
}

export interface IssueReplacementInvoiceInput {
  orderId: string;
  /** The invoice rejected by the plateforme agréée (213), already cancelled by its credit note. */
  rejectedInvoiceId: string;
  actor: string;
}

/**
 * Issues, inside the caller's transaction, the invoice that replaces one the plateforme agréée
 * rejected (decision 047): the same sale (lines, totals, payment, supplement) under the next
 * number, with the buyer as the order now states it (corrected by the staff), and a mention naming
 * the rejected invoice. The rejected one is never updated: its credit note cancels it. Idempotent:
 * an invoice already replaced returns its replacement (`created: false`). Locks the order row.
 */
export async function issueReplacementInvoice(tx: Tx, input: IssueReplacementInvoiceInput): Promise<IssuedDocument> {
  const facts = await loadOrderFacts(tx, input.orderId, { lock: true });
  if (!facts) throw new InvoiceError(`no order ${input.orderId}`);
  const [rejected] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, input.orderId), eq(invoices.id, input.rejectedInvoiceId)));
  if (!rejected) throw new InvoiceError(`no invoice ${input.rejectedInvoiceId} on order ${facts.number}`);
  const [existing] = await tx.select().from(invoices).where(eq(invoices.replacesInvoiceId, rejected.id)).limit(1);
  if (existing) return documentOf(existing, false);
  const previous = parseDocumentSnapshot(rejected.snapshot);
  if (!previous) throw new InvoiceError(`invoice ${rejected.number} has a snapshot of an unknown shape`);

  const { number, issuedAt } = await takeDocumentNumber(tx, 'invoice', { demo: rejected.isDemo });
  const { business: _rejectedBuyer, ...rest } = previous;
  const snapshot: DocumentSnapshot = {
    ...rest,
    number,
    issuedAt: issuedAt.toISOString(),
    buyer: buyerOf(facts),
    ...(facts.business ? { business: facts.business } : {}),
    notes: [...previous.notes, `Remplace la facture ${rejected.number}, rejetée par la plateforme agréée.`],
  };
  const [row] = await tx
    .insert(invoices)
    .values({
      number,
      orderId: facts.id,
      issuedAt,
      amountCents: rejected.amountCents,
      vatCents: rejected.vatCents,
      snapshot,
      isPaid: rejected.isPaid,
      isDemo: rejected.isDemo,
      adjustmentId: rejected.adjustmentId,
      replacesInvoiceId: rejected.id,
    })
    .returning();
  if (!row) throw new InvoiceError('the replacement invoice was not inserted');
  await tx.insert(orderEvents).values({
    orderId: facts.id,
    actor: input.actor,
    kind: 'invoice_issued',
    data: { invoiceId: row.id, number, amountCents: row.amountCents, replacesNumber: rejected.number },
  });
  await queueDocumentDeposit(tx, { kind: 'invoice', id: row.id, orderId: facts.id, snapshot, isDemo: row.isDemo });
  return documentOf(row, true);
}
