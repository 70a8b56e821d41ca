import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orderFiles, orders } from './shop';

/**
 * « Preview and keep » (decision 030): one review per order. The files of the flagged
 * supports are published for the customer's review until `ends_at`; it closes once, by the
 * customer's « Valider ma sélection » (`customer`) or by the housekeeping when the period lapsed
 * (`system`, everything kept). The order's state (`review_opened` / `review_closed`) is the
 * lifecycle's; this row holds the review's terms, frozen from the order's price list.
 */
export const orderReviews = pgTable(
  'order_reviews',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    /** The most the customer may drop, in whole percent of `file_count` (the order's price list). */
    maxDropPercent: integer('max_drop_percent').notNull(),
    /** The supports under review (service keys), as the order's price list flagged them. */
    supports: jsonb('supports').$type<string[]>().notNull(),
    /** Files under review when it opened. */
    fileCount: integer('file_count').notNull(),
    reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: text('closed_by', { enum: ['customer', 'system'] }),
    droppedCount: integer('dropped_count'),
    /** What the dropped items were worth at the order's prices (refunded with a credit note). */
    refundCents: integer('refund_cents'),
  },
  (t) => [
    index('order_reviews_open_idx').on(t.endsAt).where(sql`${t.closedAt} is null`),
    check('order_reviews_percent_check', sql`${t.maxDropPercent} between 0 and 100`),
    check('order_reviews_closed_by_check', sql`${t.closedBy} in ('customer', 'system')`),
  ],
);

/**
 * The files the customer dropped from their review: what the staff see on the order. The file rows
 * themselves are marked deleted (order_files.deleted_at) and their bytes removed from the storage.
 */
export const orderReviewDrops = pgTable(
  'order_review_drops',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => orderReviews.orderId, { onDelete: 'cascade' }),
    fileId: uuid('file_id')
      .notNull()
      .references(() => orderFiles.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    support: text('support').notNull(),
    droppedAt: timestamp('dropped_at', { withTimezone: true }).notNull(),
  },
  // file_id leads its own index: deleting a file (retention, cascade) finds its drop at once.
  (t) => [primaryKey({ columns: [t.orderId, t.fileId] }), index('order_review_drops_file_idx').on(t.fileId)],
);
