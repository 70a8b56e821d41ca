import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { buildDocumentSnapshot, partyName } from '../../domain/invoices/snapshot';
import { normalisePhone } from '../../domain/orders/address';
import { shipsSomethingPhysical } from '../../domain/orders/lifecycle';
import type { PriceListDocument } from '../../domain/pricing/default-price-list';
import { includedVatCents } from '../../domain/pricing/pricing';
import { hashPassword } from '../auth/password.server';
import { pool } from '../db/client.server';
import { BulkInsert } from './bulk.server';
import {
  type Counters,
  DEMO_EMAIL_DOMAIN,
  DEMO_PASSWORD,
  DEMO_SPAN_DAYS,
  type DemoOrder,
  type DemoRecord,
  planDemoData,
} from './demo-data';
import { ensureDefaultPriceList } from './price-list.server';

/*
 * `npm run seed -- --demo`: writes generated demo data in one transaction (all or nothing), with
 * multi-row `unnest` inserts of a few thousand rows each. Refuses when the shop already has orders,
 * unless forced: demo invoices take numbers in the legal invoice sequence, which must never be mixed
 * into a real shop's books.
 */

export interface SeedDemoOptions {
  orders: number;
  seed?: string | number;
  /** Add demo data even when orders exist. */
  force?: boolean;
  now?: number;
  /** Orders written per batch; their items, events, payments and invoices go with them. */
  batchSize?: number;
  onProgress?: (progress: { phase: 'customers' | 'orders'; done: number; total: number }) => void;
}

export type SeedDemoResult =
  | {
      ok: true;
      customers: number;
      orders: number;
      items: number;
      events: number;
      payments: number;
      invoices: number;
      creditNotes: number;
      milliseconds: number;
    }
  | { ok: false; reason: 'orders-exist'; existingOrders: number };

export const DEFAULT_DEMO_SEED = 'soovenirs';
/** Serialises demo seeding: two runs at once would both see an empty shop. */
const DEMO_LOCK = 72023003;

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

// biome-ignore format: one column per line would hide the tables' shapes
const tables = () => ({
  users: new BulkInsert('"user"', {
    id: 'text', name: 'text', email: 'text', email_verified: 'boolean', role: 'text', first_name: 'text',
    last_name: 'text', phone: 'text', street: 'text', postal_code: 'text', city: 'text',
    created_at: 'timestamptz', updated_at: 'timestamptz',
  }),
  accounts: new BulkInsert('account', {
    id: 'text', account_id: 'text', provider_id: 'text', user_id: 'text', password: 'text',
    created_at: 'timestamptz', updated_at: 'timestamptz',
  }),
  orders: new BulkInsert('orders', {
    id: 'uuid', number: 'text', created_at: 'timestamptz', updated_at: 'timestamptz', user_id: 'text',
    guest_email: 'text', guest_phone: 'text', guest_first_name: 'text', guest_last_name: 'text',
    guest_address: 'text', guest_postal_code: 'text', guest_city: 'text', access_token_hash: 'text',
    status: 'text', stage: 'text', payment_status: 'text', payment_method: 'text', delivery_method: 'text',
    return_originals: 'boolean', send_method: 'text', base_price: 'int4', quality_price: 'int4',
    resolution_price: 'int4', format_price: 'int4', restoration_price: 'int4', denoise_price: 'int4',
    delivery_cost: 'int4', send_shipping_cost: 'int4', return_shipping_cost: 'int4', total_price: 'int4',
    price_list_id: 'uuid', early_start_consent_at: 'timestamptz', paid_at: 'timestamptz', search_text: 'text',
  }),
  addresses: new BulkInsert('order_addresses', {
    order_id: 'uuid', kind: 'text', first_name: 'text', last_name: 'text', line1: 'text', postal_code: 'text',
    city: 'text', country: 'text', phone: 'text',
  }),
  items: new BulkInsert('order_items', {
    order_id: 'uuid', position: 'int4', type: 'text', quantity: 'int4', quality: 'text', resolution: 'text',
    format: 'text', restoration: 'int4', denoise: 'boolean', reel_size: 'text', unit_price: 'int4',
    line_total: 'int4',
  }),
  events: new BulkInsert('order_events', {
    order_id: 'uuid', at: 'timestamptz', actor: 'text', kind: 'text', from: 'text', to: 'text', data: 'jsonb',
  }),
  payments: new BulkInsert('payments', {
    id: 'uuid', order_id: 'uuid', provider: 'text', provider_ref: 'text', amount: 'int4', status: 'text',
    method: 'text', raw_event: 'jsonb', created_at: 'timestamptz', updated_at: 'timestamptz',
  }),
  invoices: new BulkInsert('invoices', {
    id: 'uuid', number: 'text', order_id: 'uuid', issued_at: 'timestamptz', amount: 'int4', vat: 'int4',
    snapshot: 'jsonb', is_paid: 'boolean',
  }),
  creditNotes: new BulkInsert('credit_notes', {
    id: 'uuid', number: 'text', order_id: 'uuid', issued_at: 'timestamptz', amount: 'int4', vat: 'int4',
    snapshot: 'jsonb', invoice_id: 'uuid', reason: 'text',
  }),
});

/**
 * The frozen content of a demo invoice or credit note: the shop's own snapshot builder
 * (domain/invoices/snapshot.ts), so that demo documents read exactly like real ones (the /facture
 * page, the PDF), marked `demo`.
 */
function documentSnapshot(
  order: DemoOrder,
  list: PriceListDocument,
  document: { number: string; issuedAt: number },
  creditNoteOf?: string,
) {
  const buyer = order.customer ?? order.guest;
  const { price } = order;
  return buildDocumentSnapshot({
    kind: creditNoteOf === undefined ? 'invoice' : 'credit_note',
    number: document.number,
    issuedAt: new Date(document.issuedAt),
    order: {
      id: order.id,
      number: order.number,
      createdAt: order.createdAt,
      deliveryMethod: order.deliveryMethod,
      deliveryCostCents: price.deliveryCostCents,
      sendShippingCostCents: price.sendShippingCostCents,
      returnShippingCostCents: price.returnShippingCostCents,
      totalPriceCents: price.totalPriceCents,
      items: order.items,
    },
    priceList: list,
    buyer: buyer && {
      name: partyName(buyer.firstName, buyer.lastName, buyer.email),
      email: buyer.email,
      phone: buyer.phone,
      street: buyer.street,
      postalCode: buyer.postalCode,
      city: buyer.city,
      country: 'France',
    },
    payment:
      creditNoteOf === undefined && order.paidAt !== null
        ? { method: order.paymentMethod, paidAt: new Date(order.paidAt), provider: 'sandbox' }
        : null,
    ...(creditNoteOf === undefined ? {} : { invoiceNumber: creditNoteOf, reason: 'Commande annulée et remboursée' }),
    demo: true,
  });
}

function addOrder(t: ReturnType<typeof tables>, order: DemoOrder, priceListId: string) {
  const { price, guest, customer } = order;
  const who = customer ?? guest;
  t.orders.add({
    id: order.id,
    number: order.number,
    created_at: iso(order.createdAt),
    updated_at: iso(order.updatedAt),
    user_id: customer?.id ?? null,
    guest_email: guest?.email ?? null,
    guest_phone: guest?.phone ?? null,
    guest_first_name: guest?.firstName ?? null,
    guest_last_name: guest?.lastName ?? null,
    guest_address: guest?.street ?? null,
    guest_postal_code: guest?.postalCode ?? null,
    guest_city: guest?.city ?? null,
    access_token_hash: guest?.accessTokenHash ?? null,
    status: order.status,
    stage: order.stage,
    payment_status: order.paymentStatus,
    payment_method: order.paymentMethod,
    delivery_method: order.deliveryMethod,
    return_originals: order.returnOriginals,
    send_method: order.sendMethod,
    base_price: price.basePriceCents,
    quality_price: price.qualityPriceCents,
    resolution_price: price.resolutionPriceCents,
    format_price: price.formatPriceCents,
    restoration_price: price.restorationPriceCents,
    denoise_price: price.denoisePriceCents,
    delivery_cost: price.deliveryCostCents,
    send_shipping_cost: price.sendShippingCostCents,
    return_shipping_cost: price.returnShippingCostCents,
    total_price: price.totalPriceCents,
    price_list_id: priceListId,
    early_start_consent_at: isoOrNull(order.earlyStartConsentAt),
    paid_at: isoOrNull(order.paidAt),
    search_text: who ? `${who.firstName} ${who.lastName} ${who.email}`.toLowerCase() : '',
  });
  // Something travels: the delivery address the checkout would have frozen (the buyer's own).
  if (who && shipsSomethingPhysical(order)) {
    t.addresses.add({
      order_id: order.id,
      kind: 'delivery',
      first_name: who.firstName,
      last_name: who.lastName,
      line1: who.street,
      postal_code: who.postalCode,
      city: who.city,
      country: 'FR',
      phone: normalisePhone('FR', who.phone),
    });
  }
  order.items.forEach((item, position) => {
    t.items.add({
      order_id: order.id,
      position,
      type: item.type,
      quantity: item.quantity,
      quality: item.quality,
      resolution: item.resolution,
      format: item.format,
      restoration: item.restoration,
      denoise: item.denoise,
      reel_size: item.reelSize,
      unit_price: item.unitPriceCents,
      line_total: item.lineTotalCents,
    });
  });
  for (const event of order.events) {
    t.events.add({
      order_id: order.id,
      at: iso(event.at),
      actor: event.actor,
      kind: event.kind,
      from: event.from,
      to: event.to,
      data: event.data && JSON.stringify(event.data),
    });
  }
  if (order.payment) {
    t.payments.add({
      id: order.payment.id,
      order_id: order.id,
      provider: 'sandbox',
      provider_ref: order.payment.providerRef,
      amount: price.totalPriceCents,
      status: order.payment.status,
      method: order.paymentMethod,
      raw_event: JSON.stringify({ demo: true, status: order.payment.status }),
      created_at: iso(order.payment.createdAt),
      updated_at: iso(order.payment.updatedAt),
    });
  }
}

function addDocument(
  t: ReturnType<typeof tables>,
  record: Exclude<DemoRecord, { kind: 'order' }>,
  list: PriceListDocument,
) {
  const { order, document } = record;
  const row = {
    id: document.id,
    number: document.number,
    order_id: order.id,
    issued_at: iso(document.issuedAt),
    amount: order.price.totalPriceCents,
    vat: includedVatCents(order.price.totalPriceCents),
    snapshot: '',
  };
  if (record.kind === 'creditNote') {
    row.snapshot = JSON.stringify(documentSnapshot(order, list, document, order.invoiceNumber ?? ''));
    t.creditNotes.add(
      Object.assign(row, { invoice_id: record.document.invoiceId, reason: 'Commande annulée et remboursée' }),
    );
  } else {
    row.snapshot = JSON.stringify(documentSnapshot(order, list, document));
    t.invoices.add(Object.assign(row, { is_paid: true }));
  }
}

export async function seedDemo(options: SeedDemoOptions): Promise<SeedDemoResult> {
  const started = Date.now();
  const now = options.now ?? started;
  const batchSize = options.batchSize ?? 2500;
  const priceList = await ensureDefaultPriceList();
  // argon2 is slow on purpose: one hash, shared by every demo account.
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  const client = await pool().connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock($1)', [DEMO_LOCK]);
    const existing = (await client.query<{ n: number }>('select count(*)::int as n from orders')).rows[0]?.n ?? 0;
    if (existing > 0 && !options.force) {
      await client.query('rollback');
      return { ok: false, reason: 'orders-exist', existingOrders: existing };
    }

    const { rows: lists } = await client.query<{ id: string; data: PriceListDocument }>(
      'select id, data from price_lists where id = $1',
      [priceList.id],
    );
    const list = lists[0];
    if (!list) throw new Error('The active price list disappeared while seeding.');

    const taken = new Set(
      (
        await client.query<{ email: string }>('select email from "user" where email like $1', [
          `%@${DEMO_EMAIL_DOMAIN}`,
        ])
      ).rows.map((row) => row.email),
    );
    const staffActor =
      (await client.query<{ id: string }>(`select id from "user" where role = 'admin' order by created_at limit 1`))
        .rows[0]?.id ?? 'system';

    // Lock the counters of every year the demo can touch, so that a server issuing numbers at the
    // same time waits for the end of the seed instead of taking the same numbers.
    const firstYear = new Date(now - (DEMO_SPAN_DAYS + 1) * 86_400_000).getUTCFullYear();
    const years = Array.from({ length: new Date(now).getUTCFullYear() - firstYear + 1 }, (_, i) => firstYear + i);
    const orderCounters = await lockCounters(client, 'order_counters', years);
    const invoiceCounters = await lockCounters(client, 'invoice_counters', years, 'invoice');
    const creditNoteCounters = await lockCounters(client, 'invoice_counters', years, 'credit_note');

    const data = planDemoData({
      orders: options.orders,
      seed: options.seed ?? DEFAULT_DEMO_SEED,
      now,
      priceList: list.data,
      takenEmails: taken,
      orderCounters,
      invoiceCounters,
      creditNoteCounters,
      staffActor,
    });

    let t = tables();
    for (const [index, customer] of data.customers.entries()) {
      const created = iso(customer.createdAt);
      t.users.add({
        id: customer.id,
        name: `${customer.firstName} ${customer.lastName}`,
        email: customer.email,
        email_verified: customer.emailVerified,
        role: 'customer',
        first_name: customer.firstName,
        last_name: customer.lastName,
        phone: customer.phone,
        street: customer.street,
        postal_code: customer.postalCode,
        city: customer.city,
        created_at: created,
        updated_at: created,
      });
      t.accounts.add({
        id: randomUUID(),
        account_id: customer.id,
        provider_id: 'credential',
        user_id: customer.id,
        password: passwordHash,
        created_at: created,
        updated_at: created,
      });
      if (t.users.size >= 5000 || index === data.customers.length - 1) {
        await t.users.flush(client);
        await t.accounts.flush(client);
        options.onProgress?.({ phase: 'customers', done: index + 1, total: data.customers.length });
      }
    }

    const counts = { items: 0, events: 0, payments: 0, invoices: 0, creditNotes: 0 };
    const total = data.orderCount;
    let done = 0;
    // While PostgreSQL writes one batch, the next one is being built.
    let pending: Promise<unknown> = Promise.resolve();
    const send = async () => {
      counts.items += t.items.size;
      counts.events += t.events.size;
      counts.payments += t.payments.size;
      counts.invoices += t.invoices.size;
      counts.creditNotes += t.creditNotes.size;
      await pending;
      const current = t;
      const progress = { phase: 'orders' as const, done, total };
      t = tables();
      pending = (async () => {
        // Parents before children (foreign keys).
        await current.orders.flush(client);
        await current.addresses.flush(client);
        await current.items.flush(client);
        await current.events.flush(client);
        await current.payments.flush(client);
        await current.invoices.flush(client);
        await current.creditNotes.flush(client);
        options.onProgress?.(progress);
      })();
      // Reported by the next `await pending`; this keeps it from counting as unhandled meanwhile.
      pending.catch(() => {});
    };
    t = tables();
    for (const record of data.records) {
      if (record.kind === 'order') {
        addOrder(t, record.order, priceList.id);
        done++;
        if (t.orders.size >= batchSize) await send();
      } else {
        addDocument(t, record, list.data);
      }
    }
    await send();
    await pending;

    await saveCounters(client, 'order_counters', data.orderCounters);
    await saveCounters(client, 'invoice_counters', data.invoiceCounters, 'invoice');
    await saveCounters(client, 'invoice_counters', data.creditNoteCounters, 'credit_note');
    await client.query('commit');
    // Planner statistics and the visibility map for the rows just loaded: without them the back
    // office's searches pick poor plans until autovacuum passes (measured 23x slower at 200 000).
    await client.query('vacuum analyze');
    return {
      ok: true,
      customers: data.customers.length,
      orders: data.orderCount,
      ...counts,
      milliseconds: Date.now() - started,
    };
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

async function lockCounters(
  client: pg.PoolClient,
  table: 'order_counters' | 'invoice_counters',
  years: number[],
  kind?: 'invoice' | 'credit_note',
): Promise<Counters> {
  const kindColumn = kind ? 'kind, ' : '';
  const kindValue = kind ? '$2::text, ' : '';
  const kindFilter = kind ? 'and kind = $2' : '';
  const params: unknown[] = kind ? [years, kind] : [years];
  await client.query(
    `insert into ${table} (${kindColumn}year, last) select ${kindValue}y, 0 from unnest($1::int[]) as y on conflict do nothing`,
    params,
  );
  const { rows } = await client.query<{ year: number; last: number }>(
    `select year, last from ${table} where year = any($1::int[]) ${kindFilter} for update`,
    params,
  );
  return new Map(rows.map((row) => [row.year, row.last]));
}

async function saveCounters(
  client: pg.PoolClient,
  table: 'order_counters' | 'invoice_counters',
  counters: Counters,
  kind?: 'invoice' | 'credit_note',
): Promise<void> {
  const years = [...counters.keys()];
  const lasts = years.map((year) => counters.get(year) as number);
  const params: unknown[] = kind ? [years, lasts, kind] : [years, lasts];
  await client.query(
    `update ${table} set last = v.last from unnest($1::int[], $2::int[]) as v(year, last)
     where ${table}.year = v.year ${kind ? 'and kind = $3' : ''}`,
    params,
  );
}
