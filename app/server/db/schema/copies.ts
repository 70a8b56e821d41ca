import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orders } from './shop';

/*
 * Orders made from another order's delivered files (decision 029): extra copies on USB
 * keys or DVDs, and the paid extension of the files' retention. The order itself is an ordinary
 * `orders` row (priced, placed, paid, invoiced and shipped by the lifecycle like any other); this
 * row says what kind it is, which order it comes from and what the workshop has to do.
 */
export const linkedOrders = pgTable(
  'linked_orders',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** The order whose files are copied or kept longer. */
    sourceOrderId: uuid('source_order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: ['extra_copy', 'retention_extension'] }).notNull(),
    /** Extra copies: on what, how many. */
    medium: text('medium', { enum: ['usb', 'disc'] }),
    copies: integer('copies'),
    /** The chosen files' ids (order_files of the source order); null: all of its files. */
    fileIds: jsonb('file_ids').$type<string[] | null>(),
    /** How many files were chosen when ordered (the workshop's count; files may be deleted later). */
    fileCount: integer('file_count').notNull().default(0),
    /** Sent to someone else than the buyer (the delivery address is theirs), with a message. */
    gift: boolean('gift').notNull().default(false),
    giftMessage: text('gift_message'),
    /** Retention extension: the days it adds, and when it was applied (once paid). */
    retentionDays: integer('retention_days'),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
    /** Who ordered: a user id, `guest`, or a family share (`share:<id>`). */
    orderedBy: text('ordered_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('linked_orders_source_order_id_idx').on(t.sourceOrderId),
    check('linked_orders_kind_check', sql`${t.kind} in ('extra_copy', 'retention_extension')`),
    check(
      'linked_orders_copy_check',
      sql`${t.kind} <> 'extra_copy' or (${t.medium} in ('usb', 'disc') and ${t.copies} between 1 and 20)`,
    ),
    check('linked_orders_extension_check', sql`${t.kind} <> 'retention_extension' or ${t.retentionDays} > 0`),
  ],
);
