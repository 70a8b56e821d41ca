import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { BusinessBuyer } from '../../../domain/invoices/snapshot';
import type { OrderStatus, PaymentStatus, WorkshopStage } from '../../../domain/order-status';
import type { OrderEventKind } from '../../../domain/orders/events';
import type { OrderPaymentMethod } from '../../../domain/payments/offline';
import { user } from './auth';

/*
 * The shop's tables (docs/architecture.md, « Data »). Money is in integer cents, timestamps are timestamptz.
 * Status columns hold the English code values of domain/; French labels live in domain/ maps.
 */

/** Binary content (PDF labels, reception photos) as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const priceLists = pgTable(
  'price_lists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    version: integer('version').notNull().unique(),
    /** The pricingData shape plus our entries (see docs/pricing.md). */
    data: jsonb('data').notNull(),
    isActive: boolean('is_active').notNull().default(false),
    createdAt,
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
  },
  (t) => [
    // At most one active price list.
    uniqueIndex('price_lists_one_active_idx').on(t.isActive).where(sql`${t.isActive}`),
    index('price_lists_created_by_idx').on(t.createdBy),
  ],
);

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull().unique(),
    createdAt,
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
    guestEmail: text('guest_email'),
    guestPhone: text('guest_phone'),
    guestFirstName: text('guest_first_name'),
    guestLastName: text('guest_last_name'),
    guestAddress: text('guest_address'),
    guestPostalCode: text('guest_postal_code'),
    guestCity: text('guest_city'),
    /** SHA-256 of the token that lets a guest open their order; the token itself is never stored. */
    accessTokenHash: text('access_token_hash'),
    // The statuses are the domain's unions (domain/order-status.ts), typed at the column; the CHECK
    // constraints below refuse anything else in the database.
    status: text('status').$type<OrderStatus>().notNull().default('pending'),
    paymentStatus: text('payment_status').$type<PaymentStatus>().notNull().default('pending'),
    paymentMethod: text('payment_method').$type<OrderPaymentMethod>().notNull().default('card'),
    deliveryMethod: text('delivery_method', { enum: ['digital', 'usb', 'disc'] })
      .notNull()
      .default('digital'),
    returnOriginals: boolean('return_originals').notNull().default(false),
    sendMethod: text('send_method').notNull().default('self'),
    basePriceCents: integer('base_price').notNull().default(0),
    qualityPriceCents: integer('quality_price').notNull().default(0),
    resolutionPriceCents: integer('resolution_price').notNull().default(0),
    formatPriceCents: integer('format_price').notNull().default(0),
    restorationPriceCents: integer('restoration_price').notNull().default(0),
    denoisePriceCents: integer('denoise_price').notNull().default(0),
    deliveryCostCents: integer('delivery_cost').notNull().default(0),
    sendShippingCostCents: integer('send_shipping_cost').notNull().default(0),
    returnShippingCostCents: integer('return_shipping_cost').notNull().default(0),
    /** The express turnaround's surcharge (0 when standard) and the return's ad valorem insurance. */
    expressPriceCents: integer('express_price').notNull().default(0),
    insurancePriceCents: integer('insurance_price').notNull().default(0),
    /**
     * What promotion codes took off (decision 038; promotion_code_uses holds each code's part): the
     * total is the price fields' sum less this.
     */
    discountCents: integer('discount').notNull().default(0),
    totalPriceCents: integer('total_price').notNull().default(0),
    /** The promised turnaround: express (priced in Tarifs) or standard. */
    express: boolean('express').notNull().default(false),
    /**
     * The buyer as a business (company, SIREN, VAT number, purchase order, Chorus Pro references),
     * frozen when the order is placed; null for a consumer. Its invoices state it and are
     * e-invoices deposited on the shop's plateforme agréée.
     */
    business: jsonb('business').$type<BusinessBuyer>(),
    /** The value the customer declared for the return parcel's insurance (0: not insured). */
    insuredValueCents: integer('insured_value').notNull().default(0),
    /**
     * The workshop stage (docs/product.md, « The lifecycle »): awaiting_originals until the parcel is
     * received, then received -> digitising -> quality_check -> ready. Written by the lifecycle only.
     */
    stage: text('stage').$type<WorkshopStage>().notNull().default('awaiting_originals'),
    receivedAt: timestamp('received_at', { withTimezone: true }),
    /** When the workshop promised to be done: the reception date plus the promised turnaround. */
    dueAt: timestamp('due_at', { withTimezone: true }),
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
    /**
     * The digital delivery (decision 011): when « Publier la livraison » made the files visible to the
     * customer (set by the lifecycle's publish_files), until when they are kept (the retention
     * period from then, extendable by the staff), when the reminder went and when they were deleted.
     */
    filesPublishedAt: timestamp('files_published_at', { withTimezone: true }),
    filesExpireAt: timestamp('files_expire_at', { withTimezone: true }),
    filesReminderSentAt: timestamp('files_reminder_sent_at', { withTimezone: true }),
    filesDeletedAt: timestamp('files_deleted_at', { withTimezone: true }),
    /**
     * SHA-256 of the token in the « Vos fichiers sont prêts » e-mail of a guest's order: the shop
     * keeps only the hash of the order's own token, so publishing makes a second one that opens
     * the order (and its files) on any device, like the order's.
     */
    deliveryTokenHash: text('delivery_token_hash'),
    priceListId: uuid('price_list_id').references(() => priceLists.id, { onDelete: 'restrict' }),
    /** The customer's express request to start before the end of the 14-day withdrawal period. */
    earlyStartConsentAt: timestamp('early_start_consent_at', { withTimezone: true }),
    // The terms of sale accepted when the order was placed (domain/terms.ts).
    termsVersion: text('terms_version'),
    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /**
     * When the customer confirmed the order at checkout; null for a draft (« Commander » not
     * confirmed yet). createOrder writes null explicitly: an order inserted any other way (imports,
     * the demo seed) is a placed one.
     */
    placedAt: timestamp('placed_at', { withTimezone: true }).defaultNow(),
    /** Lower-cased "first last email" of the customer, for the back office's search. */
    searchText: text('search_text').notNull().default(''),
  },
  (t) => [
    index('orders_user_id_created_at_idx').on(t.userId, t.createdAt.desc()),
    index('orders_created_at_idx').on(t.createdAt.desc()),
    index('orders_status_created_at_idx').on(t.status, t.createdAt.desc()),
    index('orders_payment_status_created_at_idx').on(t.paymentStatus, t.createdAt.desc()),
    index('orders_total_price_idx').on(t.totalPriceCents),
    index('orders_guest_email_idx').on(sql`lower(${t.guestEmail})`),
    index('orders_price_list_id_idx').on(t.priceListId),
    index('orders_search_text_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    // Drafts are hidden by default and swept after 30 days: both read this partial index.
    index('orders_drafts_created_at_idx').on(t.createdAt).where(sql`${t.placedAt} is null`),
    // The order lifecycle (domain/orders/lifecycle.ts) is the only writer; the database refuses the rest.
    check('orders_status_check', sql`${t.status} in ('pending', 'processing', 'completed', 'shipped', 'canceled')`),
    check(
      'orders_payment_status_check',
      sql`${t.paymentStatus} in ('pending', 'paid', 'failed', 'partially_refunded', 'refunded')`,
    ),
    // `gift_card`: a gift card paid the whole order at checkout (decision 037).
    check('orders_payment_method_check', sql`${t.paymentMethod} in ('card', 'transfer', 'cheque', 'gift_card')`),
    check('orders_discount_check', sql`${t.discountCents} >= 0`),
    check(
      'orders_stage_check',
      sql`${t.stage} in ('awaiting_originals', 'received', 'digitising', 'quality_check', 'ready')`,
    ),
    // The workshop board: placed orders still in the workshop, by stage and due date.
    // The retention job: published orders whose files are still kept, by expiry.
    index('orders_files_expire_at_idx')
      .on(t.filesExpireAt)
      .where(sql`${t.filesExpireAt} is not null and ${t.filesDeletedAt} is null`),
    index('orders_workshop_board_idx')
      .on(t.stage, t.dueAt, t.createdAt)
      .where(sql`${t.placedAt} is not null and ${t.status} in ('pending', 'processing', 'completed')`),
  ],
);

/**
 * The postal addresses frozen on an order when it is placed (docs/fulfilment.md): `delivery`
 * whenever something physical travels, `billing` when the customer gave a different one.
 */
export const orderAddresses = pgTable(
  'order_addresses',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['delivery', 'billing'] }).notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    company: text('company'),
    line1: text('line1').notNull(),
    line2: text('line2'),
    postalCode: text('postal_code').notNull(),
    city: text('city').notNull(),
    /** ISO 3166-1 alpha-2 (FR, BE, …): one of the countries the shop ships to. */
    country: text('country').notNull(),
    phone: text('phone'),
    createdAt,
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.kind] }),
    check('order_addresses_kind_check', sql`${t.kind} in ('delivery', 'billing')`),
  ],
);

/**
 * Parcels: `inbound` (the customer's originals to the workshop, on the prepaid label) and
 * `outbound` (the return of originals, USB key or DVD). A Colissimo label keeps its PDF; a parcel
 * number typed in by the staff has none.
 */
export const shipments = pgTable(
  'shipments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    direction: text('direction', { enum: ['inbound', 'outbound'] }).notNull(),
    carrier: text('carrier', { enum: ['colissimo', 'other'] }).notNull(),
    parcelNumber: text('parcel_number').notNull(),
    labelPdf: bytea('label_pdf'),
    insuredValueCents: integer('insured_value').notNull().default(0),
    /** Staff member (user id) or `system` / `customer`. */
    createdBy: text('created_by').notNull(),
    createdAt,
  },
  (t) => [
    // One parcel each way: a label is generated once, then downloaded as often as needed.
    uniqueIndex('shipments_order_direction_idx').on(t.orderId, t.direction),
    index('shipments_parcel_number_idx').on(t.parcelNumber),
    check('shipments_direction_check', sql`${t.direction} in ('inbound', 'outbound')`),
  ],
);

/**
 * What arrived at the workshop: the counted quantities per order line (and reels per size), the
 * remarks per group of supports, who received it and when. One per order.
 */
export const receptions = pgTable('receptions', {
  id: uuid('id').primaryKey().defaultRandom(),
  orderId: uuid('order_id')
    .notNull()
    .references(() => orders.id, { onDelete: 'restrict' })
    .unique(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  /** The staff member's user id, and their name as it was (the history shows names, not ids). */
  receivedBy: text('received_by').notNull(),
  receivedByName: text('received_by_name').notNull(),
  /** [{ position, type, reelSize, ordered, counted }] (domain/orders/reception.ts). */
  counts: jsonb('counts').notNull(),
  /** [{ group, text }]: mould, broken cassette… */
  remarks: jsonb('remarks').notNull().default(sql`'[]'::jsonb`),
  createdAt,
});

export const receptionPhotos = pgTable(
  'reception_photos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    receptionId: uuid('reception_id')
      .notNull()
      .references(() => receptions.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    content: bytea('content').notNull(),
    size: integer('size').notNull(),
    createdAt,
  },
  (t) => [index('reception_photos_reception_id_idx').on(t.receptionId)],
);

/**
 * The customer's files (docs/fulfilment.md, decision 011): one row per delivered file, its bytes
 * in the file storage (app/server/files/storage.server.ts) under `storage_key`. `name` is the
 * sanitised name the customer sees and downloads, unique among the order's live files (a file is
 * never silently overwritten); `sha256` and `crc32` are computed while it is stored (the ZIP is
 * streamed with the CRC known in advance). Previews are made in the background (`preview_status`).
 * `deleted_at` is set when the retention job (or the staff) removed the bytes; the row stays as
 * the record of what was delivered.
 */
export const orderFiles = pgTable(
  'order_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull().unique(),
    name: text('name').notNull(),
    /** The support the file belongs to (a service key: photos, vhs…), for the gallery's groups. */
    support: text('support').notNull(),
    kind: text('kind', { enum: ['image', 'video', 'other'] }).notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    crc32: bigint('crc32', { mode: 'number' }).notNull(),
    uploadedBy: text('uploaded_by').notNull(),
    createdAt,
    previewStatus: text('preview_status', { enum: ['pending', 'ready', 'none', 'failed'] })
      .notNull()
      .default('pending'),
    /** Storage keys of the small thumbnail and the web-size preview (or a video's poster frame). */
    thumbnailKey: text('thumbnail_key'),
    previewKey: text('preview_key'),
    width: integer('width'),
    height: integer('height'),
    durationSeconds: integer('duration_seconds'),
    previewAttempts: integer('preview_attempts').notNull().default(0),
    /** The customer asked for this file to be redone (« À refaire »), with their comment. */
    reworkRequestedAt: timestamp('rework_requested_at', { withTimezone: true }),
    reworkComment: text('rework_comment'),
    downloadCount: integer('download_count').notNull().default(0),
    lastDownloadedAt: timestamp('last_downloaded_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('order_files_order_name_idx').on(t.orderId, t.name).where(sql`${t.deletedAt} is null`),
    index('order_files_order_id_idx').on(t.orderId, t.support, t.name),
    index('order_files_preview_pending_idx').on(t.createdAt).where(sql`${t.previewStatus} = 'pending'`),
    check('order_files_kind_check', sql`${t.kind} in ('image', 'video', 'other')`),
    check('order_files_preview_status_check', sql`${t.previewStatus} in ('pending', 'ready', 'none', 'failed')`),
    check('order_files_sha256_check', sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

/**
 * A difference between what was ordered and what was counted at reception, re-priced with the
 * order's own price list: a `supplement` the customer approves and pays (its own invoice), or a
 * `reduction` refunded with its credit note. Changed by the order lifecycle only.
 */
export const orderAdjustments = pgTable(
  'order_adjustments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    receptionId: uuid('reception_id').references(() => receptions.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: ['supplement', 'reduction'] }).notNull(),
    amountCents: integer('amount').notNull(),
    /** The re-priced lines and totals (domain/orders/reception.ts), as shown to the customer. */
    pricing: jsonb('pricing').notNull(),
    /** A reduction is `refund_due` until its refund is made (decision 022), then `refunded`. */
    status: text('status', { enum: ['awaiting_customer', 'paid', 'declined', 'refund_due', 'refunded', 'canceled'] })
      .notNull()
      .default('awaiting_customer'),
    /** When the supplement is declined: digitise only what was paid, or return the extra items. */
    decision: text('decision', { enum: ['digitise_paid', 'return_extra'] }),
    /** SHA-256 of the token of the e-mail's « payer le supplément » link. */
    accessTokenHash: text('access_token_hash'),
    createdAt,
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    index('order_adjustments_order_id_idx').on(t.orderId),
    index('order_adjustments_reception_id_idx').on(t.receptionId),
    // At most one supplement waiting for the customer per order.
    uniqueIndex('order_adjustments_one_open_idx').on(t.orderId).where(sql`${t.status} = 'awaiting_customer'`),
    check('order_adjustments_amount_check', sql`${t.amountCents} > 0`),
    check('order_adjustments_kind_check', sql`${t.kind} in ('supplement', 'reduction')`),
    check(
      'order_adjustments_status_check',
      sql`${t.status} in ('awaiting_customer', 'paid', 'declined', 'refund_due', 'refunded', 'canceled')`,
    ),
  ],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    type: text('type').notNull(),
    quantity: integer('quantity').notNull(),
    quality: text('quality').notNull().default('standard'),
    resolution: text('resolution'),
    format: text('format'),
    /** Number of items to restore. */
    restoration: integer('restoration').notNull().default(0),
    denoise: boolean('denoise').notNull().default(false),
    reelSize: text('reel_size'),
    unitPriceCents: integer('unit_price').notNull(),
    lineTotalCents: integer('line_total').notNull(),
  },
  (t) => [
    index('order_items_order_id_idx').on(t.orderId, t.position),
    // The workshop board's and orders list's filter by support: the orders holding a type.
    index('order_items_type_order_id_idx').on(t.type, t.orderId),
  ],
);

export const orderEvents = pgTable(
  'order_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** User id of the actor, or a system name such as `system`, `stripe`, `customer`. */
    actor: text('actor').notNull(),
    /** A kind of the registry (domain/orders/events.ts), each with its French label and its data. */
    kind: text('kind').$type<OrderEventKind>().notNull(),
    from: text('from'),
    to: text('to'),
    data: jsonb('data'),
  },
  (t) => [index('order_events_order_id_at_idx').on(t.orderId, t.at)],
);

export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    provider: text('provider', { enum: ['sandbox', 'stripe', 'monetico'] }).notNull(),
    providerRef: text('provider_ref').notNull(),
    amountCents: integer('amount').notNull(),
    status: text('status', { enum: ['pending', 'paid', 'failed', 'canceled', 'refunded'] })
      .notNull()
      .default('pending'),
    method: text('method').notNull().default('card'),
    rawEvent: jsonb('raw_event'),
    /**
     * This payment is the one that paid the order. Money received for an order that could not be
     * paid (cancelled, withdrawn, already paid, another amount) stays `false`: it is never invoiced
     * and is refunded (domain/orders/lifecycle.ts, money rules).
     */
    settlesOrder: boolean('settles_order').notNull().default(false),
    /** The reception supplement this payment pays, null when it pays the order itself. */
    adjustmentId: uuid('adjustment_id').references(() => orderAdjustments.id, { onDelete: 'restrict' }),
    createdAt,
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payments_provider_ref_idx').on(t.provider, t.providerRef),
    index('payments_order_id_idx').on(t.orderId),
    index('payments_adjustment_id_idx').on(t.adjustmentId),
    index('payments_status_created_at_idx').on(t.status, t.createdAt.desc()),
    check('payments_status_check', sql`${t.status} in ('pending', 'paid', 'failed', 'canceled', 'refunded')`),
  ],
);

/**
 * Money given back to a customer, fully or partly: through the gateway that took it (`payment_id`
 * names the attempt, `gateway_ref` the gateway's refund), or by hand (transfer, cheque). Each refund
 * has its own credit note for its amount.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'restrict' }),
    /**
     * `gateway` (the gateway of payment_id), `transfer` or `cheque` (made by hand by the staff), or
     * `gift_card`: the part a gift card paid, given back to that card (a `restored` entry, decision 037).
     */
    method: text('method', { enum: ['gateway', 'transfer', 'cheque', 'gift_card'] }).notNull(),
    amountCents: integer('amount').notNull(),
    reason: text('reason').notNull(),
    /**
     * `due` (« à rembourser »): owed to the customer and reserved, waiting for someone with the
     * refund right to make it, or for a retry after the gateway refused (decision 022); `pending`
     * while the gateway has not confirmed it, `succeeded`, or `failed` (a refund the staff asked for
     * that did not happen: nothing is owed by it).
     */
    status: text('status', { enum: ['due', 'pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    gatewayRef: text('gateway_ref'),
    /** The staff member (user id) or system name (`system`, `customer`) that asked for it. */
    actor: text('actor').notNull(),
    creditNoteId: uuid('credit_note_id').references(() => creditNotes.id, { onDelete: 'restrict' }),
    /** The reception's reduction this refund gives back, if it is one. */
    adjustmentId: uuid('adjustment_id').references(() => orderAdjustments.id, { onDelete: 'restrict' }),
    /** Why the last attempt did not give the money back (a `due` refund after the gateway refused). */
    lastError: text('last_error'),
    createdAt,
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('refunds_order_id_idx').on(t.orderId),
    index('refunds_due_idx').on(t.orderId).where(sql`${t.status} = 'due'`),
    index('refunds_payment_id_idx').on(t.paymentId),
    index('refunds_credit_note_id_idx').on(t.creditNoteId),
    index('refunds_adjustment_id_idx').on(t.adjustmentId),
    index('refunds_created_at_idx').on(t.createdAt.desc()),
    check('refunds_amount_check', sql`${t.amountCents} > 0`),
    check('refunds_method_check', sql`${t.method} in ('gateway', 'transfer', 'cheque', 'gift_card')`),
    check('refunds_status_check', sql`${t.status} in ('due', 'pending', 'succeeded', 'failed')`),
  ],
);

/** Provider event ids already processed, so that a notification delivered twice is applied once. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] }), index('payment_events_payment_id_idx').on(t.paymentId)],
);

/** The last invoice number issued per year, locked in the issuing transaction (gapless numbering). */
export const invoiceCounters = pgTable(
  'invoice_counters',
  {
    kind: text('kind', { enum: ['invoice', 'credit_note', 'demo_invoice', 'demo_credit_note'] }).notNull(),
    year: integer('year').notNull(),
    last: integer('last').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.kind, t.year] })],
);

// A function: each table needs its own column builders, or drizzle names their constraints alike.
const documentColumns = () => ({
  id: uuid('id').primaryKey().defaultRandom(),
  number: text('number').notNull().unique(),
  orderId: uuid('order_id')
    .notNull()
    .references(() => orders.id, { onDelete: 'restrict' }),
  issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  /** Total including VAT, in cents. */
  amountCents: integer('amount').notNull(),
  vatCents: integer('vat').notNull(),
  /** Seller, buyer and lines as they were at issue: an invoice never changes afterwards. */
  snapshot: jsonb('snapshot').notNull(),
  /**
   * A demonstration document (money through the built-in sandbox: no real payment): its own number
   * series (TEST-FA-…, TEST-AV-…), « sans valeur », never counted in revenue.
   */
  isDemo: boolean('is_demo').notNull().default(false),
});

export const invoices = pgTable(
  'invoices',
  {
    ...documentColumns(),
    isPaid: boolean('is_paid').notNull().default(false),
    /** A reception supplement's own invoice; null for the order's invoice (one per order). */
    adjustmentId: uuid('adjustment_id').references(() => orderAdjustments.id, { onDelete: 'restrict' }),
    /**
     * The invoice this one replaces: rejected by the plateforme agréée (213), cancelled by a credit
     * note and issued again under the next number with the buyer corrected (decision 047).
     */
    replacesInvoiceId: uuid('replaces_invoice_id').references((): AnyPgColumn => invoices.id, {
      onDelete: 'restrict',
    }),
  },
  (t) => [
    // One invoice per order and per supplement, replacements apart (each replaces one invoice, once).
    uniqueIndex('invoices_order_id_idx')
      .on(t.orderId)
      .where(sql`${t.adjustmentId} is null and ${t.replacesInvoiceId} is null`),
    uniqueIndex('invoices_adjustment_id_idx').on(t.adjustmentId).where(sql`${t.replacesInvoiceId} is null`),
    uniqueIndex('invoices_replaces_invoice_id_idx').on(t.replacesInvoiceId),
    index('invoices_issued_at_idx').on(t.issuedAt.desc()),
  ],
);

export const creditNotes = pgTable(
  'credit_notes',
  {
    ...documentColumns(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'restrict' }),
    reason: text('reason'),
    /**
     * Issued on the buyer's refusal of the invoice (« Refusée » on the plateforme agréée, decision
     * 047): it credits money not yet given back, which a later refund of the order gives under it.
     */
    refusal: boolean('refusal').notNull().default(false),
  },
  (t) => [
    index('credit_notes_order_id_idx').on(t.orderId),
    index('credit_notes_invoice_id_idx').on(t.invoiceId),
    index('credit_notes_issued_at_idx').on(t.issuedAt.desc()),
  ],
);

export const quotes = pgTable(
  'quotes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    createdAt,
    userId: text('user_id').references(() => user.id, { onDelete: 'cascade' }),
    /** SHA-256 of a guest's private link token. */
    accessTokenHash: text('access_token_hash'),
    email: text('email'),
    selection: jsonb('selection').notNull(),
    totalPriceCents: integer('total_price').notNull(),
    priceListId: uuid('price_list_id')
      .notNull()
      .references(() => priceLists.id, { onDelete: 'restrict' }),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('quotes_user_id_created_at_idx').on(t.userId, t.createdAt.desc()),
    uniqueIndex('quotes_access_token_hash_idx').on(t.accessTokenHash),
    index('quotes_price_list_id_idx').on(t.priceListId),
    index('quotes_order_id_idx').on(t.orderId),
  ],
);

/** email_config, payment_config, coliship_credentials; secret fields encrypted (AES-256-GCM). */
export const configOptions = pgTable('config_options', {
  optionName: text('option_name').primaryKey(),
  optionValue: text('option_value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    createdAt,
    to: text('to').notNull(),
    template: text('template').notNull(),
    data: jsonb('data').notNull(),
    status: text('status', { enum: ['queued', 'sent', 'failed', 'held'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
    dedupeKey: text('dedupe_key').unique(),
    providerMessageId: text('provider_message_id'),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
  },
  (t) => [
    // The worker's claim query: due rows in order.
    index('email_outbox_due_idx').on(t.nextAt).where(sql`${t.status} = 'queued'`),
    index('email_outbox_status_idx').on(t.status, t.createdAt.desc()),
    index('email_outbox_order_id_idx').on(t.orderId),
  ],
);

export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    createdAt,
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    service: text('service'),
    isPro: boolean('is_pro').notNull().default(false),
    handledAt: timestamp('handled_at', { withTimezone: true }),
  },
  (t) => [index('contact_messages_created_at_idx').on(t.createdAt.desc())],
);

/** The back office's feed: new order, payment, contact message, withdrawal. */
export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt,
    kind: text('kind', { enum: ['order', 'payment', 'contact', 'withdrawal', 'status'] }).notNull(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    contactMessageId: uuid('contact_message_id').references(() => contactMessages.id, { onDelete: 'cascade' }),
    status: text('status'),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
  },
  (t) => [
    index('notifications_created_at_idx').on(t.createdAt.desc()),
    index('notifications_order_id_idx').on(t.orderId),
    index('notifications_contact_message_id_idx').on(t.contactMessageId),
  ],
);

/** Which admin has read which notification. */
export const notificationReads = pgTable(
  'notification_reads',
  {
    notificationId: bigint('notification_id', { mode: 'number' })
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.notificationId, t.userId] }), index('notification_reads_user_id_idx').on(t.userId)],
);

/** Per-year sequence of human order numbers (SV-2026-000042). */
export const orderCounters = pgTable('order_counters', {
  year: integer('year').primaryKey(),
  last: integer('last').notNull().default(0),
});
