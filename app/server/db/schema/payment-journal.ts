import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/*
 * The payment journal (docs/payment-journal.md, docs/decisions/049-payment-journal.md): every
 * payment received, transfer or cheque validated or rejected, and refund made, one entry each,
 * chained by hash. Written only by the database's own triggers on the money tables (migration
 * payment_journal), in the transaction that moved the money; never updated nor deleted (a trigger
 * refuses it, whoever connects, and the runtime role may only read it).
 *
 * No foreign key: an entry copies what it says (the order's number, the document's number) so that
 * it reads alone, in an archive, years later.
 */
export const paymentJournal = pgTable(
  'payment_journal',
  {
    /** 1, 2, 3… without a gap: the chain's order. */
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    /** When it was appended, to the millisecond (the canonical form's precision). */
    recordedAt: timestamp('recorded_at', { withTimezone: true, precision: 3 }).notNull(),
    /** `payment_received`, `payment_validated`, `payment_rejected` or `refund` (domain/payment-journal). */
    kind: text('kind').notNull(),
    orderNumber: text('order_number').notNull(),
    /** The invoice (payments) or credit note (refunds) of the same transaction, when there is one. */
    documentNumber: text('document_number'),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** card, transfer, cheque, gift_card (a refund: gateway, transfer, cheque, gift_card). */
    method: text('method').notNull(),
    /** The gateway (stripe, monetico, sandbox), null for money outside any gateway. */
    provider: text('provider'),
    /** A staff member's user id, a gateway's name, `customer` or `system`. */
    actor: text('actor').notNull(),
    /** Money of the built-in sandbox (no money): chained like the rest, counted apart in the closures. */
    demo: boolean('demo').notNull(),
    /** The row that moved the money: `payments`, `refunds`, `orders` or `gift_card_ledger`, and its id. */
    sourceTable: text('source_table').notNull(),
    sourceId: text('source_id').notNull(),
    previousHash: text('previous_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    uniqueIndex('payment_journal_hash_idx').on(t.hash),
    index('payment_journal_recorded_at_idx').on(t.recordedAt),
    index('payment_journal_order_number_idx').on(t.orderNumber),
    check(
      'payment_journal_kind_check',
      sql`${t.kind} in ('payment_received', 'payment_validated', 'payment_rejected', 'refund')`,
    ),
  ],
);

/**
 * The closures: one per past day (Paris time), month and year, each with its counts and totals per
 * kind, the perpetual total, the hash of the last entry it covers, and its own hash chained to the
 * previous closure's. Made by the housekeeping (payments/journal-closures.server.ts); never updated
 * nor deleted either.
 */
export const paymentJournalClosures = pgTable(
  'payment_journal_closures',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    /** `day`, `month` or `year`. */
    period: text('period').notNull(),
    /** `2026-12-01`, `2026-12` or `2026`. */
    periodKey: text('period_key').notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true, precision: 3 }).notNull(),
    /** The entries it covers (null, null when none). */
    firstSeq: bigint('first_seq', { mode: 'number' }),
    lastSeq: bigint('last_seq', { mode: 'number' }),
    /** The chain's head at the period's end: the hash of the last entry up to then (zeros if none). */
    chainHash: text('chain_hash').notNull(),
    /** Per kind: count and cents, real money and demonstration apart (domain/payment-journal/closures.ts). */
    totals: jsonb('totals').notNull(),
    /** Real money received less refunded, since the first entry, up to the period's end. */
    perpetualCents: bigint('perpetual_cents', { mode: 'number' }).notNull(),
    previousHash: text('previous_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    uniqueIndex('payment_journal_closures_period_idx').on(t.period, t.periodKey),
    check('payment_journal_closures_period_check', sql`${t.period} in ('day', 'month', 'year')`),
  ],
);
