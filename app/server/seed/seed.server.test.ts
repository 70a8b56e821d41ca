import { describe, expect, it } from 'vitest';
import { workNotBefore } from '~/domain/orders/early-start';
import { decide, type OrderState, shipsSomethingPhysical, type Transition } from '~/domain/orders/lifecycle';
import { DEFAULT_PRICE_LIST } from '~/domain/pricing/default-price-list';
import { priceLine } from '~/domain/pricing/pricing';
import { auth } from '../auth/auth.server';
import { pool } from '../db/client.server';
import { seedDemo } from './demo.server';
import { DEMO_PASSWORD, type DemoEvent, type DemoOrder, planDemoData } from './demo-data';
import { ensureDefaultPriceList } from './price-list.server';

// Vitest exposes Vite's BASE_URL ("/") in process.env; the shop's BASE_URL is an absolute URL.
process.env.BASE_URL = 'http://localhost:3000';

// A fixed "now", so that the generated data is the same at every run.
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const DAY = 86_400_000;
const ORDERS = 500;

/** The lifecycle transition a demo history event stands for (null for the order's creation). */
function demoTransition(event: DemoEvent, order: DemoOrder): Transition | null {
  switch (event.kind) {
    case 'payment_paid':
      return {
        type: 'settle_payment',
        amountCents: order.price.totalPriceCents,
        currency: 'EUR',
        method: order.paymentMethod,
      };
    case 'payment_failed':
      return { type: 'fail_payment' };
    case 'payment_refunded':
      return { type: 'refund', amountCents: order.price.totalPriceCents };
    case 'parcel_received':
      return { type: 'receive', dueAt: new Date(event.at).toISOString() };
    case 'stage_changed':
      return { type: 'advance_stage', to: event.to as 'digitising' | 'quality_check' | 'ready' };
    case 'status_changed':
      return event.to === 'canceled'
        ? { type: 'cancel', refundCents: 0, refundRight: true }
        : { type: 'set_status', to: event.to as 'pending' | 'processing' | 'completed' | 'shipped' };
    default:
      return null;
  }
}

async function rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await pool().query(sql, params)).rows as T[];
}

async function one<T>(sql: string, params: unknown[] = []): Promise<T> {
  const [row] = await rows<T>(sql, params);
  if (!row) throw new Error(`no row: ${sql}`);
  return row;
}

/** Numbers "XX-YYYY-NNNNNN" of a table, per year in the order of `dateColumn`: each year must be 1..n. */
async function numbersPerYear(table: string, dateColumn: string): Promise<Map<number, number[]>> {
  const found = await rows<{ number: string }>(`select number from ${table} order by ${dateColumn}, number`);
  const perYear = new Map<number, number[]>();
  for (const { number } of found) {
    const [, year, sequence] = /^[A-Z]{2}-(\d{4})-(\d{6})$/.exec(number) ?? [];
    expect(year, number).toBeDefined();
    const list = perYear.get(Number(year)) ?? [];
    list.push(Number(sequence));
    perYear.set(Number(year), list);
  }
  return perYear;
}

async function counters(table: string, where = ''): Promise<Map<number, number>> {
  const found = await rows<{ year: number; last: number }>(`select year, last from ${table} ${where}`);
  return new Map(found.filter((row) => row.last > 0).map((row) => [row.year, row.last]));
}

describe('the default price list', () => {
  it('is created once, active, with the default prices in cents', async () => {
    const first = await ensureDefaultPriceList();
    const second = await ensureDefaultPriceList();
    expect(second).toEqual({ id: first.id, version: 1, action: 'unchanged' });

    const lists = await rows<{ version: number; is_active: boolean; data: typeof DEFAULT_PRICE_LIST }>(
      'select version, is_active, data from price_lists',
    );
    expect(lists).toHaveLength(1);
    expect(lists[0]).toMatchObject({ version: 1, is_active: true });
    expect(lists[0]?.data).toEqual(DEFAULT_PRICE_LIST);
    const data = lists[0]?.data as typeof DEFAULT_PRICE_LIST;
    expect(data.supports.photos.basePrice).toBe(35);
    expect(data.supports['plaques-de-verre'].basePrice).toBe(250);
    expect(data.filmReelPricing.large.price).toBe(3500);
    expect(data.deliveryCosts).toEqual({ digital: 0, usb: 1590, disc: 1290 });
  });

  it('runs concurrently without creating two lists', async () => {
    await Promise.all([ensureDefaultPriceList(), ensureDefaultPriceList(), ensureDefaultPriceList()]);
    expect(await one('select count(*)::int as n from price_lists')).toEqual({ n: 1 });
  });
});

describe('the demo line prices', () => {
  it('decomposes a line into parts that add up to the line, rounded once', () => {
    const line = priceLine(DEFAULT_PRICE_LIST, {
      type: 'photos',
      quantity: 100,
      quality: 'premium',
      resolution: '4800dpi',
      format: 'tif',
      restoration: 3,
      denoise: false,
      reelSize: null,
    });
    // 3 500 x 1.3 = 4 550; x 1.45 = 6 597.5 -> 6 598; x 1.15 = 7 587.125 -> 7 587 (unit: 75.87 -> 76)
    expect(line).toMatchObject({
      unitPriceCents: 76,
      basePriceCents: 3500,
      qualityPriceCents: 1050,
      resolutionPriceCents: 2048,
      formatPriceCents: 989,
      restorationPriceCents: 3000,
      denoisePriceCents: 0,
      lineTotalCents: 7587 + 3000,
    });
  });

  it('prices film by reel and denoise per reel, without resolution or format', () => {
    const line = priceLine(DEFAULT_PRICE_LIST, {
      type: 'film',
      quantity: 4,
      quality: 'standard',
      resolution: '4800dpi',
      format: 'tif',
      restoration: 0,
      denoise: true,
      reelSize: 'medium',
    });
    expect(line).toMatchObject({
      unitPriceCents: 2500,
      resolutionPriceCents: 0,
      formatPriceCents: 0,
      denoisePriceCents: 2000,
    });
    expect(line.lineTotalCents).toBe(4 * 2500 + 4 * 500);
  });

  it('gives every order a state the rule book reaches: its history replayed through the lifecycle', () => {
    const plan = planDemoData({ orders: 400, seed: 'etapes', now: NOW, priceList: DEFAULT_PRICE_LIST });
    const seen = new Set<string>();
    for (const record of plan.records) {
      if (record.kind !== 'order') continue;
      const { order } = record;
      const physical = shipsSomethingPhysical(order);
      let state: OrderState = {
        status: 'pending',
        paymentStatus: 'pending',
        paymentMethod: order.paymentMethod,
        placed: true,
        withdrawn: false,
        totalCents: order.price.totalPriceCents,
        paidCents: 0,
        refundedCents: 0,
        stage: 'awaiting_originals',
        physical,
        hasDeliveryAddress: physical,
        supplement: null,
        workNotBefore: workNotBefore({
          createdAt: new Date(order.createdAt),
          earlyStartConsentAt: order.earlyStartConsentAt === null ? null : new Date(order.earlyStartConsentAt),
        }),
      };
      for (const event of order.events) {
        const transition = demoTransition(event, order);
        if (!transition) continue;
        const decision = decide(state, transition, new Date(event.at));
        expect(decision.ok ? null : decision.message, `${order.number}: ${event.kind} → ${event.to}`).toBeNull();
        if (decision.ok) state = decision.next;
      }
      expect({ status: state.status, stage: state.stage, paymentStatus: state.paymentStatus }, order.number).toEqual({
        status: order.status,
        stage: order.stage,
        paymentStatus: order.paymentStatus,
      });
      seen.add(`${order.status}/${order.stage}`);
    }
    // Stages agree with statuses: awaiting the originals while pending, at the workshop while
    // processing, ready once done (shipped included); every one of them occurs.
    expect([...seen].sort()).toEqual(
      expect.arrayContaining([
        'completed/ready',
        'pending/awaiting_originals',
        'processing/digitising',
        'processing/quality_check',
        'processing/received',
        'shipped/ready',
      ]),
    );
    for (const pair of seen) {
      expect(
        [
          'pending/awaiting_originals',
          'processing/received',
          'processing/digitising',
          'processing/quality_check',
          'completed/ready',
          'shipped/ready',
          'canceled/awaiting_originals',
          'canceled/received',
        ],
        pair,
      ).toContain(pair);
    }
  });

  it('gives the same data for the same seed value', () => {
    const summary = (seed: string) => {
      const plan = planDemoData({ orders: 300, seed, now: NOW, priceList: DEFAULT_PRICE_LIST });
      const orders: string[] = [];
      for (const record of plan.records) {
        if (record.kind === 'order') {
          const { order } = record;
          orders.push(`${order.number} ${order.createdAt} ${order.price.totalPriceCents} ${order.status}`);
        } else {
          orders.push(`${record.document.number} ${record.document.issuedAt}`);
        }
      }
      return { customers: plan.customers.map((c) => `${c.email} ${c.createdAt}`), orders };
    };
    const a = summary('graine');
    expect(summary('graine')).toEqual(a);
    expect(summary('autre graine').orders).not.toEqual(a.orders);
  });
});

describe('demo seeding', () => {
  it(`writes ${ORDERS} consistent orders`, async () => {
    const progress: string[] = [];
    const result = await seedDemo({
      orders: ORDERS,
      seed: 'test',
      now: NOW,
      batchSize: 120, // several batches, and invoices released across batch boundaries
      onProgress: ({ phase, done, total }) => progress.push(`${phase} ${done}/${total}`),
    });
    if (!result.ok) throw new Error('refused');
    expect(result.orders).toBe(ORDERS);
    expect(result.customers).toBeGreaterThan(ORDERS / 3 - 5);
    expect(progress.at(-1)).toBe(`orders ${ORDERS}/${ORDERS}`);

    const counts = await one<Record<string, number>>(`select
      (select count(*)::int from orders) as orders,
      (select count(*)::int from order_items) as items,
      (select count(*)::int from order_events) as events,
      (select count(*)::int from payments) as payments,
      (select count(*)::int from invoices) as invoices,
      (select count(*)::int from credit_notes) as credit_notes,
      (select count(*)::int from "user") as users`);
    expect(counts).toEqual({
      orders: ORDERS,
      items: result.items,
      events: result.events,
      payments: result.payments,
      invoices: result.invoices,
      credit_notes: result.creditNotes,
      users: result.customers,
    });
  });

  it('makes the price fields of every order add up to its total, and its lines to the line fields', async () => {
    const wrong = await rows(`
      select o.number from orders o
      left join (select order_id, sum(line_total)::int as lines from order_items group by order_id) i on i.order_id = o.id
      where o.base_price + o.quality_price + o.resolution_price + o.format_price + o.restoration_price
              + o.denoise_price + o.delivery_cost + o.send_shipping_cost + o.return_shipping_cost <> o.total_price
         or coalesce(i.lines, 0) <> o.base_price + o.quality_price + o.resolution_price + o.format_price
              + o.restoration_price + o.denoise_price
         or o.total_price <= 0`);
    expect(wrong).toEqual([]);
    expect(
      await one(
        'select count(*)::int as n from orders where not exists (select 1 from order_items i where i.order_id = orders.id)',
      ),
    ).toEqual({ n: 0 });
  });

  it('prices every line from the default price list', async () => {
    const items = await rows<{
      type: string;
      quantity: number;
      quality: string;
      resolution: string | null;
      format: string | null;
      restoration: number;
      denoise: boolean;
      reel_size: string | null;
      unit_price: number;
      line_total: number;
    }>('select * from order_items');
    for (const item of items) {
      const priced = priceLine(DEFAULT_PRICE_LIST, {
        type: item.type,
        quantity: item.quantity,
        quality: item.quality,
        resolution: item.resolution,
        format: item.format,
        restoration: item.restoration,
        denoise: item.denoise,
        reelSize: item.reel_size,
      } as Parameters<typeof priceLine>[1]);
      expect([item.unit_price, item.line_total]).toEqual([priced.unitPriceCents, priced.lineTotalCents]);
    }
    const types = new Set(items.map((item) => item.type));
    for (const type of ['photos', 'slides', 'negatives', 'vhs', 'film']) expect(types).toContain(type);
    const photos = items.filter((item) => item.type === 'photos').map((item) => item.quantity);
    expect(Math.min(...photos)).toBeGreaterThanOrEqual(50);
    expect(Math.max(...photos)).toBeLessThanOrEqual(2000);
    const vhs = items.filter((item) => item.type === 'vhs').map((item) => item.quantity);
    expect(Math.max(...vhs)).toBeLessThanOrEqual(20);
  });

  it('numbers orders SV-YYYY-NNNNNN per year in creation order, and updates the counters', async () => {
    const perYear = await numbersPerYear('orders', 'created_at');
    for (const [year, numbers] of perYear) {
      expect(numbers, String(year)).toEqual(numbers.map((_, i) => i + 1));
    }
    expect(await counters('order_counters')).toEqual(new Map([...perYear].map(([y, n]) => [y, n.length])));
  });

  it('numbers invoices FA-YYYY-NNNNNN without gaps per year in issue order, and updates the counters', async () => {
    const perYear = await numbersPerYear('invoices', 'issued_at');
    expect(perYear.size).toBeGreaterThan(0);
    for (const [year, numbers] of perYear) {
      expect(numbers, String(year)).toEqual(numbers.map((_, i) => i + 1));
    }
    expect(await counters('invoice_counters', `where kind = 'invoice'`)).toEqual(
      new Map([...perYear].map(([y, n]) => [y, n.length])),
    );
    const notes = await numbersPerYear('credit_notes', 'issued_at');
    for (const [, numbers] of notes) expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    expect(await counters('invoice_counters', `where kind = 'credit_note'`)).toEqual(
      new Map([...notes].map(([y, n]) => [y, n.length])),
    );
  });

  it('invoices and records a payment for exactly the orders that were paid', async () => {
    const mismatches = await rows(`
      select o.number, o.payment_status, i.number as invoice, p.status as payment
      from orders o
      left join invoices i on i.order_id = o.id
      left join payments p on p.order_id = o.id
      where (o.payment_status in ('paid', 'refunded')) <> (i.id is not null)
         or (o.payment_status in ('paid', 'refunded') and (p.status is distinct from o.payment_status
              or p.amount <> o.total_price or o.paid_at is null))
         or (i.id is not null and (i.amount <> o.total_price or i.issued_at <> o.paid_at or not i.is_paid))
         or (o.payment_status = 'refunded') <> exists (select 1 from credit_notes c where c.order_id = o.id)`);
    expect(mismatches).toEqual([]);
    const providers = await one<{ providers: string[]; refs: number; payments: number }>(
      `select array_agg(distinct provider) as providers, count(distinct provider_ref)::int as refs, count(*)::int as payments from payments`,
    );
    expect(providers).toMatchObject({ providers: ['sandbox'] });
    expect(providers.refs).toBe(providers.payments);
    // VAT included at 20 %.
    expect(await rows('select number from invoices where vat <> amount - round(amount / 1.2)')).toEqual([]);
    // The frozen lines: quantity x unit price = line total, lines adding up to the amount.
    type Line = { quantity: number; unitPriceCents: number; totalCents: number };
    const documents = await rows<{ number: string; amount: number; snapshot: { lines: Line[]; totalCents: number } }>(
      'select number, amount, snapshot from invoices union all select number, amount, snapshot from credit_notes',
    );
    for (const { number, amount, snapshot } of documents) {
      for (const line of snapshot.lines) expect(line.quantity * line.unitPriceCents, number).toBe(line.totalCents);
      expect(
        snapshot.lines.reduce((sum, line) => sum + line.totalCents, 0),
        number,
      ).toBe(amount);
      expect(snapshot.totalCents).toBe(amount);
    }
  });

  it('mixes statuses realistically: old orders done and paid, recent ones pending or in progress', async () => {
    const mix = await rows<{ status: string; payment_status: string; old: boolean; n: number }>(
      `select status, payment_status, created_at < $1 as old, count(*)::int as n from orders group by 1, 2, 3`,
      [new Date(NOW - 60 * DAY)],
    );
    const count = (filter: (row: (typeof mix)[number]) => boolean) =>
      mix.filter(filter).reduce((sum, row) => sum + row.n, 0);
    const old = count((r) => r.old);
    expect(
      count((r) => r.old && ['completed', 'shipped'].includes(r.status) && r.payment_status === 'paid'),
    ).toBeGreaterThan(0.8 * old);
    for (const status of ['pending', 'processing', 'completed', 'shipped', 'canceled']) {
      expect(
        count((r) => r.status === status),
        status,
      ).toBeGreaterThan(0);
    }
    for (const status of ['pending', 'paid', 'failed', 'refunded']) {
      expect(
        count((r) => r.payment_status === status),
        status,
      ).toBeGreaterThan(0);
    }
    expect(count((r) => !r.old && r.status === 'pending')).toBeGreaterThan(0);
    expect(
      await one(
        `select count(*)::int as n from orders where status in ('completed', 'shipped') and payment_status <> 'paid'`,
      ),
    ).toEqual({ n: 0 });

    const span = await one<{ first: Date; last: Date }>(
      'select min(created_at) as first, max(created_at) as last from orders',
    );
    expect(span.first.getTime()).toBeGreaterThanOrEqual(NOW - 549 * DAY);
    expect(span.first.getTime()).toBeLessThan(NOW - 450 * DAY);
    expect(span.last.getTime()).toBeLessThanOrEqual(NOW);
  });

  it('keeps a history that ends in the order’s current status', async () => {
    const wrong = await rows(
      `
      select o.number from orders o
      where not exists (select 1 from order_events e where e.order_id = o.id and e.kind = 'created' and e.at = o.created_at)
         -- The status follows the last event that sets it, as the lifecycle writes them: a status
         -- change, the parcel received (« En traitement »), the stage « Prêt » (« Traitée »).
         or o.status <> coalesce((select case e.kind when 'status_changed' then e.to
                                                     when 'parcel_received' then 'processing'
                                                     else 'completed' end
                                  from order_events e
                                  where e.order_id = o.id
                                    and (e.kind in ('status_changed', 'parcel_received')
                                         or (e.kind = 'stage_changed' and e.to = 'ready'))
                                  order by e.at desc limit 1), 'pending')
         or (o.payment_status <> 'refunded'
             and (o.payment_status = 'paid') <> exists (select 1 from order_events e
                                                        where e.order_id = o.id and e.kind = 'payment_paid'))
         or exists (select 1 from order_events e where e.order_id = o.id and (e.at < o.created_at or e.at > $1))`,
      [new Date(NOW)],
    );
    expect(wrong).toEqual([]);
    // The stages written agree with the statuses (the replay above proves the rule book reaches them).
    const stages = await rows<{ status: string; stage: string }>(
      'select distinct status, stage from orders order by status, stage',
    );
    expect(stages.filter((row) => ['completed', 'shipped'].includes(row.status) && row.stage !== 'ready')).toEqual([]);
    expect(stages.filter((row) => row.status === 'processing' && row.stage === 'awaiting_originals')).toEqual([]);
    expect(stages.filter((row) => row.status === 'pending' && row.stage !== 'awaiting_originals')).toEqual([]);
  });

  it('creates French customers who can sign in with the documented password, one hash for all', async () => {
    const customers = await rows<{ email: string; phone: string; city: string; postal_code: string; role: string }>(
      'select email, phone, city, postal_code, role from "user"',
    );
    for (const c of customers) {
      expect(c.email).toMatch(/^[a-z0-9.-]+@example\.fr$/);
      expect(c.phone).toMatch(/^0[67]( \d\d){4}$/);
      expect(['Paris', 'Orléans', 'Lyon']).toContain(c.city);
      expect(c.role).toBe('customer');
    }
    expect(await one('select count(distinct password)::int as n from account')).toEqual({ n: 1 });
    // Accounts exist before their orders.
    expect(
      await rows('select o.number from orders o join "user" u on u.id = o.user_id where u.created_at > o.created_at'),
    ).toEqual([]);
    const guests = await one<{ n: number; without: number }>(
      `select count(*)::int as n, count(*) filter (where guest_email is null or access_token_hash is null)::int as without
       from orders where user_id is null`,
    );
    expect(guests.n).toBeGreaterThan(0);
    expect(guests.without).toBe(0);

    const email = customers[0]?.email as string;
    const signedIn = await auth().api.signInEmail({ body: { email, password: DEMO_PASSWORD } });
    expect(signedIn.user.email).toBe(email);
  });

  it('refuses to add demo data to a shop that has orders, unless forced', async () => {
    const before = await one<{ n: number }>('select count(*)::int as n from orders');
    expect(await seedDemo({ orders: 10, now: NOW })).toEqual({
      ok: false,
      reason: 'orders-exist',
      existingOrders: ORDERS,
    });
    expect(await one('select count(*)::int as n from orders')).toEqual(before);

    // Forced, with the same seed: new ids and e-mails, numbers continuing from the counters.
    const forced = await seedDemo({ orders: 60, seed: 'test', now: NOW, force: true });
    expect(forced).toMatchObject({ ok: true, orders: 60 });
    expect(await one('select count(*)::int as n from orders')).toEqual({ n: ORDERS + 60 });
    for (const [year, numbers] of await numbersPerYear('orders', 'number')) {
      expect(numbers, String(year)).toEqual(numbers.map((_, i) => i + 1));
    }
    for (const [year, numbers] of await numbersPerYear('invoices', 'number')) {
      expect(numbers, String(year)).toEqual(numbers.map((_, i) => i + 1));
    }
    const invoices = await numbersPerYear('invoices', 'number');
    expect(await counters('invoice_counters', `where kind = 'invoice'`)).toEqual(
      new Map([...invoices].map(([y, n]) => [y, n.length])),
    );
    expect(await rows('select email from "user" group by email having count(*) > 1')).toEqual([]);
    expect(await one('select count(*)::int as n from price_lists where is_active')).toEqual({ n: 1 });
  });
});

describe('the default price list, later', () => {
  it('never replaces a published list, and re-activates the latest when none is active', async () => {
    await pool().query('insert into price_lists (version, data, is_active) values (2, $1, false)', [
      DEFAULT_PRICE_LIST,
    ]);
    await pool().query('update price_lists set is_active = false');
    const result = await ensureDefaultPriceList();
    expect(result).toMatchObject({ version: 2, action: 'activated' });
    expect(await rows('select version from price_lists where is_active')).toEqual([{ version: 2 }]);
    expect(await ensureDefaultPriceList()).toMatchObject({ version: 2, action: 'unchanged' });
    expect(await one('select count(*)::int as n from price_lists')).toEqual({ n: 2 });
  });
});
