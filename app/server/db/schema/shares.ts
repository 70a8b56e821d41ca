import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orderFiles, orders } from './shop';

/**
 * « Partager avec la famille » (decision 028): a link to all of an order's delivered files or
 * to a selection, for relatives without an account. The token is random (256 bits) and kept as its
 * SHA-256 (`token_hash`, the lookup, like the guests' tokens) and sealed with APP_SECRET
 * (`token_sealed`, so that the customer can copy the link again: docs/decisions/028-family-sharing.md).
 * Ended when `expires_at` has passed or `revoked_at` is set; never deleted by the customer, so that
 * the access count stays readable.
 */
export const fileShares = pgTable(
  'file_shares',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    tokenSealed: text('token_sealed').notNull(),
    /** `all`: every live file of the order, present and future; `selection`: file_share_files. */
    scope: text('scope', { enum: ['all', 'selection'] }).notNull(),
    allowDownloads: boolean('allow_downloads').notNull(),
    /** Whose memories the page names (« Marie D. »), frozen when the share was made. */
    sharerName: text('sharer_name').notNull(),
    /** The customer's own word for it (« Pour les cousins »), shown to them only. */
    label: text('label'),
    /** The customer's message to the relatives, in the invitations and on the page. */
    message: text('message'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    accessCount: integer('access_count').notNull().default(0),
    lastAccessAt: timestamp('last_access_at', { withTimezone: true }),
    /** The account's user id, or `guest` (the token holder of a guest order). */
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('file_shares_order_idx').on(t.orderId, t.createdAt),
    check('file_shares_scope_check', sql`${t.scope} in ('all', 'selection')`),
    check('file_shares_token_hash_check', sql`${t.tokenHash} ~ '^[0-9a-f]{64}$'`),
  ],
);

/** The files of a `selection` share. */
export const fileShareFiles = pgTable(
  'file_share_files',
  {
    shareId: uuid('share_id')
      .notNull()
      .references(() => fileShares.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id')
      .notNull()
      .references(() => orderFiles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.shareId, t.fileId] }), index('file_share_files_file_idx').on(t.fileId)],
);

/** The addresses invited by e-mail (one e-mail each, queued in the outbox with the share). */
export const fileShareInvitations = pgTable(
  'file_share_invitations',
  {
    shareId: uuid('share_id')
      .notNull()
      .references(() => fileShares.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shareId, t.email] })],
);
