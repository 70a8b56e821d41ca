import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/*
 * What several instances of the shop share through their one PostgreSQL (docs/operations.md,
 * « Several instances »).
 */

/**
 * One row: a fingerprint of APP_SECRET (an HMAC keyed by the secret, never the secret), written by
 * the first instance; an instance whose secret gives another fingerprint refuses to start
 * (secrets.server.ts).
 */
export const appSecretFingerprint = pgTable(
  'app_secret_fingerprint',
  {
    id: smallint('id').primaryKey().default(1),
    fingerprint: text('fingerprint').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('app_secret_fingerprint_single_row', sql`${t.id} = 1`)],
);

/**
 * Counters of the rate limits (contact, checkout, every form post), shared by every instance: one
 * row per (key, window start), kept two windows (the sliding estimate reads the previous one), then
 * pruned (db/rate-limit.server.ts).
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull().default(1),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('rate_limit_hits_expires_idx').on(t.expiresAt)],
);
