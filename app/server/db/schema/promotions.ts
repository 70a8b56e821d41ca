import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { SupportType } from '../../../domain/pricing/default-price-list';
import { user } from './auth';
import { orders } from './shop';

/*
 * Promotion codes (decision 038). A code's terms never change once created (only its pause): an
 * order keeps pricing its recount, supplements and refunds with the terms it was placed with.
 * What an order took is one `promotion_code_uses` row per code, written in the transaction that
 * places it; the order's `discount` column is their sum and its total is already net of it.
 */
export const promotionCodes = pgTable(
  'promotion_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Upper-case, without spaces (domain/vouchers/promotions.ts normalisePromotionCode). */
    code: text('code').notNull().unique(),
    /** What the back office and the customer read: « 20 % sur les photos pour Noël ». */
    label: text('label').notNull(),
    kind: text('kind', { enum: ['percent', 'amount'] }).notNull(),
    /** `percent`: 1 to 100. */
    percent: integer('percent'),
    /** `amount`: cents taken off the eligible items. */
    amountCents: integer('amount'),
    /** The supports it applies to; empty: every digitisation item of the order. */
    supports: text('supports').array().$type<SupportType[]>().notNull().default(sql`'{}'::text[]`),
    /** The items' total (shipping and delivery apart) an order must reach. */
    minimumOrderCents: integer('minimum_order').notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    maxUses: integer('max_uses'),
    maxUsesPerCustomer: integer('max_uses_per_customer'),
    firstOrderOnly: boolean('first_order_only').notNull().default(false),
    /** Whether another code may be used on the same order (both must say so). */
    combinable: boolean('combinable').notNull().default(false),
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('promotion_codes_kind_check', sql`${t.kind} in ('percent', 'amount')`),
    check(
      'promotion_codes_value_check',
      sql`(${t.kind} = 'percent' and ${t.percent} between 1 and 100 and ${t.amountCents} is null) or (${t.kind} = 'amount' and ${t.amountCents} > 0 and ${t.percent} is null)`,
    ),
    check('promotion_codes_minimum_check', sql`${t.minimumOrderCents} >= 0`),
    check('promotion_codes_dates_check', sql`${t.endsAt} is null or ${t.endsAt} > ${t.startsAt}`),
    check(
      'promotion_codes_limits_check',
      sql`coalesce(${t.maxUses}, 1) > 0 and coalesce(${t.maxUsesPerCustomer}, 1) > 0`,
    ),
    index('promotion_codes_created_at_idx').on(t.createdAt.desc()),
    index('promotion_codes_created_by_idx').on(t.createdBy),
  ],
);

/**
 * One code taken by one order: what it took off, for whom (`customer_key`, the customer's e-mail
 * in lower case, counts the per-customer limit). `released_at`: the order was cancelled or
 * withdrawn before being paid, so the use no longer counts.
 */
export const promotionCodeUses = pgTable(
  'promotion_code_uses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    promotionId: uuid('promotion_id')
      .notNull()
      .references(() => promotionCodes.id, { onDelete: 'restrict' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** Order of application on the order (a second code applies to what the first left). */
    position: integer('position').notNull().default(0),
    customerKey: text('customer_key').notNull(),
    discountCents: integer('discount').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('promotion_code_uses_order_promotion_idx').on(t.orderId, t.promotionId),
    index('promotion_code_uses_promotion_idx').on(t.promotionId, t.customerKey),
    check('promotion_code_uses_discount_check', sql`${t.discountCents} >= 0`),
  ],
);
