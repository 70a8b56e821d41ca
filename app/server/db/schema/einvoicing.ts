import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { creditNotes, invoices, orders } from './shop';

/*
 * The plateforme agréée (docs/plateforme-agreee.md, decision 047). `pa_flows` is an outbox of
 * flows to deposit on the PA: a business invoice or credit note (queued in the transaction that
 * issues it) or a lifecycle status the shop sends (212 « Encaissée »). A row is never deleted; the
 * worker claims it, deposits it and writes the PA's flow id, or schedules a retry. The statuses the
 * PA reports back land once each in `pa_received_statuses` (keyed by the PA's flow id of the CDAR
 * message), and in the order's history in the same transaction.
 */

export const paFlows = pgTable(
  'pa_flows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    /** What is deposited: a document (invoice, credit note) or a status the shop emits about an invoice. */
    kind: text('kind', { enum: ['invoice', 'credit_note', 'status'] }).notNull(),
    invoiceId: uuid('invoice_id').references(() => invoices.id, { onDelete: 'restrict' }),
    creditNoteId: uuid('credit_note_id').references(() => creditNotes.id, { onDelete: 'restrict' }),
    /** The document's number (or the invoice's, for a status): what the PA's statuses refer to. */
    documentNumber: text('document_number').notNull(),
    /** A status flow's code (212) and what it carries (amount, date). */
    statusCode: integer('status_code'),
    statusAmountCents: integer('status_amount'),
    statusDate: timestamp('status_date', { withTimezone: true }),
    /** Names the cause; queueing the same key again adds nothing (never two deposits of one document). */
    dedupeKey: text('dedupe_key').notNull().unique(),
    /** Sent as flowInfo.trackingId: a retry after a lost answer finds the first deposit by it. */
    trackingId: text('tracking_id').notNull().unique(),
    state: text('state', { enum: ['queued', 'deposited', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    /** The PA's identifier of the deposited flow. */
    flowId: text('flow_id'),
    depositedAt: timestamp('deposited_at', { withTimezone: true }),
    /** The latest lifecycle status the PA reported for this document, with its reason. */
    paStatus: integer('pa_status'),
    paStatusAt: timestamp('pa_status_at', { withTimezone: true }),
    paReason: text('pa_reason'),
    /** A sandbox (demonstration) document: deposited only on a PA in test mode. */
    isDemo: boolean('is_demo').notNull().default(false),
  },
  (t) => [
    index('pa_flows_due_idx').on(t.nextAt).where(sql`${t.state} = 'queued'`),
    index('pa_flows_order_id_idx').on(t.orderId),
    index('pa_flows_invoice_id_idx').on(t.invoiceId),
    index('pa_flows_credit_note_id_idx').on(t.creditNoteId),
    index('pa_flows_document_number_idx').on(t.documentNumber),
    check('pa_flows_kind_check', sql`${t.kind} in ('invoice', 'credit_note', 'status')`),
  ],
);

/** Each lifecycle status read from the PA, once (its CDAR flow's id), with the flow it concerns. */
export const paReceivedStatuses = pgTable(
  'pa_received_statuses',
  {
    statusFlowId: text('status_flow_id').primaryKey(),
    paFlowId: uuid('pa_flow_id').references(() => paFlows.id, { onDelete: 'restrict' }),
    documentNumber: text('document_number').notNull(),
    code: integer('code').notNull(),
    reason: text('reason'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pa_received_statuses_pa_flow_id_idx').on(t.paFlowId)],
);
