import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orders } from './shop';

/*
 * Gift cards (decision 037). A card is sold by an ordinary order (priced, placed, paid and invoiced
 * with its VAT by the lifecycle); `gift_card_sales` says what the buyer asked for, and the card
 * itself exists only once that order is paid (`gift_cards`, made by the lifecycle's
 * `issue_gift_card` effect). Its balance is never stored: it is the sum of its ledger.
 */

/** What a buyer chose on « Offrir une carte cadeau »: one row per sale order, from the draft on. */
export const giftCardSales = pgTable(
  'gift_card_sales',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    amountCents: integer('amount').notNull(),
    buyerName: text('buyer_name').notNull(),
    recipientName: text('recipient_name').notNull(),
    recipientEmail: text('recipient_email').notNull(),
    message: text('message'),
    /** `email`: sent to the recipient on `send_on`; `print`: sent to the buyer, who prints it. */
    delivery: text('delivery', { enum: ['email', 'print'] }).notNull(),
    /** The day (Paris) the card leaves for the recipient; null when the buyer prints it. */
    sendOn: date('send_on', { mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('gift_card_sales_amount_check', sql`${t.amountCents} > 0`),
    check('gift_card_sales_delivery_check', sql`${t.delivery} in ('email', 'print')`),
    check('gift_card_sales_send_on_check', sql`${t.delivery} = 'print' or ${t.sendOn} is not null`),
  ],
);

/** An issued card. The code is stored twice: hashed (to find it) and sealed (to send it again). */
export const giftCards = pgTable(
  'gift_cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    saleOrderId: uuid('sale_order_id')
      .notNull()
      .unique()
      .references(() => orders.id, { onDelete: 'restrict' }),
    /**
     * SHA-256 (hex) of the normalised code: how a typed code is found. 75 random bits behind it: a
     * leaked table gives no usable code.
     */
    codeHash: text('code_hash').notNull().unique(),
    /** The code encrypted with the shop's secret key (secrets.server.ts), for the card's e-mail and PDF. */
    codeSealed: text('code_sealed').notNull(),
    /** The code's last four characters: what the back office, the account and the logs show. */
    codeLast4: text('code_last4').notNull(),
    initialCents: integer('initial_amount').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true }),
  },
  (t) => [
    index('gift_cards_expires_at_idx').on(t.expiresAt),
    check('gift_cards_initial_amount_check', sql`${t.initialCents} > 0`),
  ],
);

/**
 * Every movement of a card's value, never updated nor deleted: its balance is their sum, with
 * `issued` and `restored` adding, `spent`, `expired` and `refunded` taking away. Amounts are
 * positive; the kind gives the sign.
 */
export const giftCardLedger = pgTable(
  'gift_card_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    cardId: uuid('card_id')
      .notNull()
      .references(() => giftCards.id, { onDelete: 'restrict' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind', { enum: ['issued', 'spent', 'restored', 'expired', 'refunded'] }).notNull(),
    amountCents: integer('amount').notNull(),
    /** The order it paid (spent) or that gave it back (restored). */
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'restrict' }),
    /** A staff member's user id, `customer`, or `system`. */
    actor: text('actor').notNull(),
  },
  (t) => [
    index('gift_card_ledger_card_id_idx').on(t.cardId, t.at),
    index('gift_card_ledger_order_id_idx').on(t.orderId),
    check('gift_card_ledger_amount_check', sql`${t.amountCents} > 0`),
    check('gift_card_ledger_kind_check', sql`${t.kind} in ('issued', 'spent', 'restored', 'expired', 'refunded')`),
    check('gift_card_ledger_order_check', sql`${t.kind} not in ('spent', 'restored') or ${t.orderId} is not null`),
  ],
);
