import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/*
 * The carrier's events of the shop's parcels (decision 026), read from La Poste's tracking
 * service (server/shipping/tracking.server.ts) and kept here, so that a page shows them without
 * calling the carrier and the carrier is asked at most every few minutes per parcel.
 *
 * Keyed by parcel number, not by shipment row: the return parcel of an order shipped again replaces
 * its number, and the events of the old parcel stay true of that parcel.
 */

/** When each parcel was last asked about, and whether it needs asking again. */
export const parcelTracking = pgTable('parcel_tracking', {
  parcelNumber: text('parcel_number').primaryKey(),
  /** The last time the carrier was asked (claimed before the call: two callers never both ask). */
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
  /** Delivered or back to its sender (the carrier's `isFinal`): never asked again. */
  final: boolean('final').notNull().default(false),
  /** Why the last call gave nothing (unknown yet, service down…), null after a good answer. */
  lastError: text('last_error'),
});

export const parcelEvents = pgTable(
  'parcel_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    parcelNumber: text('parcel_number').notNull(),
    /** La Poste's event code (PC1, ET1, DI1…). */
    code: text('code').notNull(),
    /** The carrier's own wording, kept for codes the shop has no words for. */
    label: text('label').notNull(),
    /** When the carrier scanned it. */
    at: timestamp('at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The carrier lists every event again at each call: stored once.
    uniqueIndex('parcel_events_parcel_code_at_idx').on(t.parcelNumber, t.code, t.at),
    index('parcel_events_parcel_number_idx').on(t.parcelNumber, t.at),
    check('parcel_events_code_check', sql`char_length(${t.code}) between 1 and 10`),
  ],
);
