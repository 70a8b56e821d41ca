import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orders } from './shop';

/**
 * The customer's bank details for a refund by transfer (decision 025): one row
 * per order from the moment money is owed back that no card gateway can return (the request), the
 * details once the customer gave them. `details` is the holder, IBAN and BIC as JSON, encrypted
 * with AES-256-GCM (crypto.server.ts, bound to the order's id): the database never holds them in
 * clear. `masked` (`FR76 •••• •••• 0189`) is what staff without the refund right see. The row is
 * deleted with the refund's payment, or by the housekeeping when unused (IBAN_MAX_KEEP_DAYS).
 */
export const refundBankDetails = pgTable(
  'refund_bank_details',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** When the customer was first asked (the e-mail queued with the refund). */
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    /** The one reminder, IBAN_REMINDER_DAYS after the request when nothing was given. */
    reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true }),
    details: text('details'),
    masked: text('masked'),
    receivedAt: timestamp('received_at', { withTimezone: true }),
  },
  (t) => [
    index('refund_bank_details_received_idx').on(t.receivedAt),
    // Never in clear: only what encryptSecret writes (`v1.<iv>.<ciphertext>.<tag>`).
    check('refund_bank_details_encrypted_check', sql`${t.details} is null or ${t.details} like 'v1.%'`),
    check(
      'refund_bank_details_given_check',
      sql`(${t.details} is null) = (${t.masked} is null) and (${t.details} is null) = (${t.receivedAt} is null)`,
    ),
  ],
);
