import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseCustomerListParams, parseOrderListParams } from '~/domain/admin/list-params';
import { guestCustomerKey } from '~/domain/admin/views';
import { FORBIDDEN_CHARACTER_MESSAGE } from '~/domain/text-input';
import { startFakeColissimo } from '../../../tests/support/fake-colissimo';
import { insertTestOrder } from '../../../tests/support/orders';
import { pool } from '../db/client.server';
import { saveEmailConfig } from '../email/email-config.server';
import { savePaymentConfig } from '../payments/config.server';
import { seedDemo } from '../seed/demo.server';
import { saveAndCheckColishipCredentials } from './coliship.server';
import { getCustomerDetails, listCustomers } from './customers.server';
import { exportStream } from './exports.server';
import { listCreditNotes, listInvoices } from './invoices.server';
import { getNotificationFeed, markNotificationsRead, subscribeToNotifications } from './notifications.server';
import { addOrderNote, changeOrderStatus, getOrderDetails, listOrders } from './orders.server';
import { listOutbox, resendEmail } from './outbox.server';
import { decidePayments, listPendingPayments } from './payments.server';
import { searchEverything } from './search.server';
import { countStats } from './stats.server';

// Vitest exposes Vite's BASE_URL ("/"); the shop's BASE_URL is an absolute URL.
process.env.BASE_URL = 'http://localhost:3000';

const ORDERS = 400;
const ADMIN = { id: 'admin-under-test', email: 'admin@soovenirs.test' };

async function rows<T>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await pool().query(text, params)).rows as T[];
}

async function one<T>(text: string, params: unknown[] = []): Promise<T> {
  const [row] = await rows<T>(text, params);
  if (!row) throw new Error(`no row: ${text}`);
  return row;
}

interface OrderRow {
  id: string;
  number: string;
  created_at: Date;
  paid_at: Date | null;
  status: string;
  payment_status: string;
  total_price: number;
  user_id: string | null;
  search_text: string;
}

beforeAll(async () => {
  const result = await seedDemo({ orders: ORDERS, seed: 'admin-tests' });
  expect(result.ok).toBe(true);
  await pool().query(
    `insert into "user" (id, name, email, role, first_name, last_name) values ($1, 'Ada Admin', $2, 'admin', 'Ada', 'Admin')`,
    [ADMIN.id, ADMIN.email],
  );
}, 120_000);

describe('the statistics cards', () => {
  it('count in SQL what the orders say', async () => {
    const now = new Date();
    const orders = await rows<OrderRow>('select * from orders');
    const day = 86_400_000;
    const last = now.getTime() - 30 * day;
    const previous = now.getTime() - 60 * day;
    const paid = orders.filter((o) => o.payment_status === 'paid');
    // Revenue is what the accounts say: invoices in, credit notes out, on their issue dates.
    const documents = await rows<{ issued_at: Date; amount: number }>(
      `select issued_at, amount from invoices where not is_demo
       union all select issued_at, -amount from credit_notes where not is_demo`,
    );
    const revenue = (from: number, to: number) =>
      documents
        .filter((d) => d.issued_at.getTime() >= from && d.issued_at.getTime() < to)
        .reduce((sum, d) => sum + d.amount, 0);
    const counts = await countStats(now);
    expect(counts).toEqual({
      totalOrders: ORDERS,
      pendingOrders: orders.filter((o) => o.status === 'pending').length,
      totalRevenueCents: revenue(0, Number.POSITIVE_INFINITY),
      revenueLast30Cents: revenue(last, now.getTime()),
      revenuePrevious30Cents: revenue(previous, last),
      ordersLast30: orders.filter((o) => o.created_at.getTime() >= last).length,
      ordersPrevious30: orders.filter((o) => o.created_at.getTime() >= previous && o.created_at.getTime() < last)
        .length,
      paidOrders: paid.length,
      paymentPendingOrders: orders.filter((o) => o.payment_status === 'pending').length,
      paymentFailedOrders: orders.filter((o) => o.payment_status === 'failed').length,
      totalCustomers: Number((await one<{ n: string }>(`select count(*) as n from "user" where role = 'customer'`)).n),
    });
    expect(counts.totalRevenueCents).toBeGreaterThan(0);
    expect(counts.ordersLast30).toBeGreaterThan(0);
  });
});

describe('the orders list', () => {
  it('pages through the orders newest first, 20 at a time, with the exact count', async () => {
    const first = await listOrders(parseOrderListParams(new URLSearchParams()));
    const second = await listOrders(parseOrderListParams(new URLSearchParams('page=2')));
    expect(first).toMatchObject({ total: ORDERS, totalIsCapped: false, pageCount: ORDERS / 20, page: 1 });
    expect(first.rows).toHaveLength(20);
    const both = [...first.rows, ...second.rows];
    expect(new Set(both.map((o) => o.id)).size).toBe(40);
    const expected = await rows<{ id: string }>('select id from orders order by created_at desc limit 40');
    expect(both.map((o) => o.id)).toEqual(expected.map((o) => o.id));
    const row = first.rows[0];
    expect(row?.customer).not.toBe('');
    expect(row?.items.length).toBeGreaterThan(0);
  });

  it('filters by status, payment status and period (days in Paris), and sorts by amount', async () => {
    const processing = await listOrders(parseOrderListParams(new URLSearchParams('status=processing&payment=paid')));
    const expected = await one<{ n: string }>(
      `select count(*) as n from orders where status = 'processing' and payment_status = 'paid'`,
    );
    expect(processing.total).toBe(Number(expected.n));
    expect(processing.rows.every((o) => o.status === 'processing' && o.paymentStatus === 'paid')).toBe(true);

    const { created_at } = await one<{ created_at: Date }>(
      'select created_at from orders order by created_at desc offset 50 limit 1',
    );
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(created_at);
    const sameDay = await listOrders(parseOrderListParams(new URLSearchParams({ from: day, to: day })));
    expect(sameDay.total).toBeGreaterThan(0);
    for (const order of sameDay.rows) {
      expect(new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date(order.createdAt))).toBe(
        day,
      );
    }

    const byAmount = await listOrders(parseOrderListParams(new URLSearchParams('sort=amount&dir=asc')));
    const amounts = byAmount.rows.map((o) => o.totalCents);
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    const { min } = await one<{ min: number }>('select min(total_price) as min from orders');
    expect(amounts[0]).toBe(min);
  });

  it('searches by number (whole, prefix, sequence), name and e-mail', async () => {
    const target = await one<OrderRow>(
      'select * from orders where user_id is not null order by created_at desc offset 7 limit 1',
    );
    const whole = await listOrders(parseOrderListParams(new URLSearchParams({ q: target.number })));
    expect(whole.rows.map((o) => o.id)).toEqual([target.id]);

    const sequence = String(Number(target.number.slice(-6)));
    const bySequence = await listOrders(parseOrderListParams(new URLSearchParams({ q: sequence })));
    expect(bySequence.rows.map((o) => o.number)).toContain(target.number);
    expect(bySequence.rows.every((o) => o.number.endsWith(target.number.slice(-6)))).toBe(true);

    const prefix = target.number.slice(0, 12);
    const byPrefix = await listOrders(parseOrderListParams(new URLSearchParams({ q: prefix.toLowerCase() })));
    expect(byPrefix.total).toBeGreaterThan(0);
    expect(byPrefix.rows.every((o) => o.number.startsWith(prefix))).toBe(true);

    const [, last, email] = /^\S+ (\S+) (\S+)$/.exec(target.search_text) ?? [];
    const byName = await listOrders(parseOrderListParams(new URLSearchParams({ q: (last as string).toUpperCase() })));
    const expected = await one<{ n: string }>('select count(*) as n from orders where search_text like $1', [
      `%${last}%`,
    ]);
    expect(byName.total).toBe(Number(expected.n));
    expect(byName.rows.map((o) => o.id)).toContain(
      (await listOrders(parseOrderListParams(new URLSearchParams({ q: email as string })))).rows[0]?.id,
    );
    const nothing = await listOrders(parseOrderListParams(new URLSearchParams({ q: 'zzqxw' })));
    expect(nothing).toMatchObject({ total: 0, rows: [] });
  });

  it('opens an order with its customer, items, invoice and history', async () => {
    const target = await one<{ id: string }>(
      `select o.id from orders o join invoices i on i.order_id = o.id where o.user_id is not null limit 1`,
    );
    const details = await getOrderDetails(target.id);
    expect(details).not.toBeNull();
    expect(details?.customer.email).toMatch(/@example\.fr$/);
    expect(details?.items.length).toBeGreaterThan(0);
    expect(details?.invoice?.number).toMatch(/^FA-\d{4}-\d{6}$/);
    expect(details?.history.map((e) => e.kind)).toContain('created');
    const sum = details?.items.reduce((total, item) => total + item.lineTotalCents, 0) ?? 0;
    expect(sum).toBeLessThanOrEqual(details?.prices.totalPriceCents ?? 0);
    expect(await getOrderDetails(randomUUID())).toBeNull();
  });
});

describe('the customers, invoices and global search', () => {
  it('lists customers with their number of orders and what they spent', async () => {
    const page = await listCustomers(parseCustomerListParams(new URLSearchParams('sort=name')));
    expect(page.rows).toHaveLength(20);
    const names = page.rows.map((c) => c.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    const busy = await one<{ user_id: string; n: string; spent: string }>(
      // What they spent is what the accounts say: invoices minus credit notes (refunds).
      `select o.user_id, count(*) as n,
         coalesce(sum((select coalesce(sum(i.amount), 0) from invoices i where i.order_id = o.id and not i.is_demo)
           - (select coalesce(sum(c.amount), 0) from credit_notes c where c.order_id = o.id and not c.is_demo)), 0)
           as spent
       from orders o where o.user_id is not null group by o.user_id order by count(*) desc limit 1`,
    );
    const details = await getCustomerDetails(busy.user_id);
    expect(details).toMatchObject({ ordersCount: Number(busy.n), spentCents: Number(busy.spent) });
    const found = await listCustomers(parseCustomerListParams(new URLSearchParams({ q: details?.email ?? '' })));
    expect(found.rows).toEqual([
      expect.objectContaining({ id: busy.user_id, orders: Number(busy.n), spentCents: Number(busy.spent) }),
    ]);
  });

  it('lists guests grouped by e-mail, and sorts everyone by orders and by what they spent', async () => {
    const guest = await one<{ email: string; n: string }>(
      `select lower(o.guest_email) as email, count(*) as n from orders o
       where o.user_id is null and o.placed_at is not null and o.guest_email is not null
         and not exists (select 1 from "user" u where u.email = lower(o.guest_email))
       group by 1 order by 2 desc, 1 limit 1`,
    );
    const found = await listCustomers(parseCustomerListParams(new URLSearchParams({ q: guest.email })));
    expect(found.rows).toEqual([
      expect.objectContaining({ id: guestCustomerKey(guest.email), account: false, orders: Number(guest.n) }),
    ]);
    const details = await getCustomerDetails(guestCustomerKey(guest.email));
    expect(details).toMatchObject({ account: false, email: guest.email, ordersCount: Number(guest.n) });
    expect(details?.orders).toHaveLength(Math.min(Number(guest.n), 50));

    const byOrders = await listCustomers(parseCustomerListParams(new URLSearchParams('sort=orders')));
    const counts = byOrders.rows.map((c) => c.orders);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const most = await one<{ n: string }>(
      `select max(n) as n from (
         select count(*) as n from orders where user_id is not null group by user_id
         union all
         select count(*) from orders where user_id is null and placed_at is not null and guest_email is not null
         group by lower(guest_email)) t`,
    );
    expect(counts[0]).toBeGreaterThanOrEqual(Number(most.n));
    const bySpent = await listCustomers(parseCustomerListParams(new URLSearchParams('sort=spent&dir=asc')));
    const spent = bySpent.rows.map((c) => c.spentCents);
    expect(spent).toEqual([...spent].sort((a, b) => a - b));
    expect(bySpent.total).toBe(byOrders.total);
  });

  it('finds invoices by their number, the order’s number or the customer', async () => {
    const invoice = await one<{ number: string; order_number: string; last_name: string }>(
      `select i.number, o.number as order_number, split_part(o.search_text, ' ', 2) as last_name
       from invoices i join orders o on o.id = i.order_id order by i.issued_at desc limit 1`,
    );
    expect((await listInvoices({ q: invoice.number, page: 1 })).rows.map((i) => i.number)).toEqual([invoice.number]);
    expect((await listInvoices({ q: invoice.order_number, page: 1 })).rows.map((i) => i.number)).toEqual([
      invoice.number,
    ]);
    const byName = await listInvoices({ q: invoice.last_name, page: 1 });
    expect(byName.rows.map((i) => i.number)).toContain(invoice.number);
    const all = await listInvoices({ q: '', page: 1 });
    expect(all.total).toBe(Number((await one<{ n: string }>('select count(*) as n from invoices')).n));
    const notes = await listCreditNotes({ q: '', page: 1 });
    expect(notes.total).toBe(Number((await one<{ n: string }>('select count(*) as n from credit_notes')).n));
  });

  it('searches orders, customers and invoices at once', async () => {
    const target = await one<{ number: string; search_text: string }>(
      `select o.number, o.search_text from orders o join invoices i on i.order_id = o.id where o.user_id is not null limit 1`,
    );
    const email = target.search_text.split(' ')[2] as string;
    const results = await searchEverything(email);
    expect(results.orders.rows.length).toBeGreaterThan(0);
    expect(results.customers.rows.map((c) => c.email)).toEqual([email]);
    expect(results.invoices.count).toBeGreaterThan(0);
    expect((await searchEverything('a')).orders.count).toBe(0);
  });
});

describe('the status change', () => {
  beforeEach(async () => {
    await pool().query('delete from email_outbox');
    await pool().query(`delete from config_options where option_name = 'email_config'`);
  });

  it('changes the status, writes the history and queues the customer’s e-mail, in one transaction', async () => {
    const order = await one<OrderRow & { email: string }>(
      `select o.*, u.email from orders o join "user" u on u.id = o.user_id where o.status = 'processing' limit 1`,
    );
    const result = await changeOrderStatus({ refundRight: true, orderId: order.id, status: 'shipped', actor: ADMIN });
    expect(result).toMatchObject({
      ok: true,
      changed: true,
      from: 'processing',
      to: 'shipped',
      email: { kind: 'queued' },
    });
    expect(await one(`select status from orders where id = $1`, [order.id])).toEqual({ status: 'shipped' });
    const events = await rows<{ kind: string; actor: string; from: string | null; to: string | null }>(
      `select kind, actor, "from", "to" from order_events where order_id = $1 and actor = $2 order by id`,
      [order.id, ADMIN.id],
    );
    expect(events.map((e) => e.kind)).toEqual(['status_changed', 'email_queued']);
    expect(events[0]).toMatchObject({ from: 'processing', to: 'shipped' });
    const outbox = await rows<{
      to: string;
      template: string;
      status: string;
      data: { status: string; orderNumber: string };
    }>('select "to", template, status, data from email_outbox');
    // No SMTP configuration yet: the message waits, held, until one is saved.
    expect(outbox).toEqual([
      expect.objectContaining({
        to: order.email,
        template: 'order-status',
        status: 'held',
        data: expect.objectContaining({ status: 'shipped', orderNumber: order.number }),
      }),
    ]);

    const again = await changeOrderStatus({ refundRight: true, orderId: order.id, status: 'shipped', actor: ADMIN });
    expect(again).toMatchObject({ ok: true, changed: false, email: { kind: 'skipped', reason: 'unchanged' } });
  });

  it('sends nothing when notifications are disabled, and refuses an unknown order', async () => {
    const saved = await saveEmailConfig({
      enabled: false,
      senderEmail: 'no-reply@soovenirs.fr',
      senderName: 'Soovenirs',
      smtpHost: 'smtp.example.fr',
      smtpPort: 587,
      smtpUsername: 'shop',
      smtpPassword: 'secret-password',
    });
    expect(saved.success).toBe(true);
    const order = await one<{ id: string }>(
      `select id from orders where status = 'pending' and payment_status = 'paid' and placed_at is not null limit 1`,
    );
    const result = await changeOrderStatus({
      orderId: order.id,
      status: 'processing',
      actor: ADMIN,
      refundRight: true,
    });
    expect(result).toMatchObject({
      ok: true,
      changed: true,
      email: { kind: 'skipped', reason: 'notifications-disabled' },
    });
    expect(await rows('select id from email_outbox')).toEqual([]);
    expect(
      await changeOrderStatus({ refundRight: true, orderId: randomUUID(), status: 'shipped', actor: ADMIN }),
    ).toEqual({
      ok: false,
      reason: 'not-found',
    });
  });

  it('issues a credit note when a paid, invoiced order is cancelled', async () => {
    const order = await one<{ id: string; invoice: string }>(
      `select o.id, i.number as invoice from orders o join invoices i on i.order_id = o.id
       where o.payment_status = 'paid' and o.status = 'completed'
         and not exists (select 1 from credit_notes c where c.order_id = o.id) limit 1`,
    );
    const { total } = await one<{ total: number }>('select total_price as total from orders where id = $1', [order.id]);
    const result = await changeOrderStatus({
      refundRight: true,
      orderId: order.id,
      status: 'canceled',
      actor: ADMIN,
      refund: { amountCents: total, method: 'transfer', reason: 'Commande annulée à la demande du client' },
    });
    expect(result).toMatchObject({
      ok: true,
      creditNote: { kind: 'issued' },
      refund: { ok: true, amountCents: total },
    });
    expect(await one('select status, payment_status from orders where id = $1', [order.id])).toEqual({
      status: 'canceled',
      payment_status: 'refunded',
    });
    const notes = await rows<{ number: string; invoice: string }>(
      `select c.number, i.number as invoice from credit_notes c join invoices i on i.id = c.invoice_id where c.order_id = $1`,
      [order.id],
    );
    expect(notes).toHaveLength(1);
    expect(notes[0]?.invoice).toBe(order.invoice);
    expect(result.ok && result.creditNote.kind === 'issued' ? result.creditNote.number : '').toBe(notes[0]?.number);
  });

  it('keeps internal notes in the history', async () => {
    const order = await one<{ id: string }>('select id from orders limit 1');
    expect(
      await addOrderNote({ orderId: order.id, text: '  Client rappelé, bobines reçues.  ', actor: ADMIN }),
    ).toEqual({
      ok: true,
    });
    expect(await addOrderNote({ orderId: order.id, text: '   ', actor: ADMIN })).toEqual({
      ok: false,
      reason: 'empty',
    });
    const details = await getOrderDetails(order.id);
    expect(details?.history.filter((e) => e.kind === 'note').map((e) => e.detail)).toEqual([
      'Client rappelé, bobines reçues.',
    ]);
    expect(details?.history.find((e) => e.kind === 'note')?.actorName).toBe('Ada Admin');
  });

  it('answers the form’s French message, not a server error, for a NUL character or an overlong text', async () => {
    const order = await one<{ id: string }>('select id from orders limit 1');
    expect(await addOrderNote({ orderId: order.id, text: 'Rappel\u0000client', actor: ADMIN })).toEqual({
      ok: false,
      reason: 'forbidden',
    });
    expect(await addOrderNote({ orderId: order.id, text: 'x'.repeat(2001), actor: ADMIN })).toEqual({
      ok: false,
      reason: 'too-long',
    });
  });
});

describe('settings forms of the back office', () => {
  const NUL = 'a\u0000b';
  it.each([
    ['senderName', NUL, FORBIDDEN_CHARACTER_MESSAGE],
    ['smtpUsername', NUL, FORBIDDEN_CHARACTER_MESSAGE],
    ['smtpPassword', NUL, FORBIDDEN_CHARACTER_MESSAGE],
    ['senderName', 'x'.repeat(121), '120 caractères au maximum'],
    ['smtpPassword', 'x'.repeat(1001), '1000 caractères au maximum'],
  ])('e-mail: %s %#', async (field, value, message) => {
    const result = await saveEmailConfig({
      enabled: true,
      senderEmail: 'no-reply@soovenirs.fr',
      senderName: 'Soovenirs',
      smtpHost: 'ssl0.ovh.net',
      smtpPort: 587,
      smtpUsername: 'no-reply@soovenirs.fr',
      smtpPassword: 'secret',
      [field]: value,
    });
    expect(result).toMatchObject({ success: false, fieldErrors: { [field]: [message] } });
  });

  it.each([
    ['merchantId', NUL, FORBIDDEN_CHARACTER_MESSAGE],
    ['companyCode', 'x'.repeat(501), '500 caractères au maximum'],
  ])('payment: %s (of the solution not chosen, stored all the same) %#', async (field, value, message) => {
    const result = await savePaymentConfig({
      type: 'stripe',
      testMode: 'on',
      apiKey: 'sk_test_0123456789abcdef',
      webhookSecret: 'whsec_0123456789abcdef',
      [field]: value,
    });
    expect(result).toMatchObject({ success: false, fieldErrors: { [field]: [message] } });
  });

  it.each([
    ['username', NUL, FORBIDDEN_CHARACTER_MESSAGE],
    ['password', NUL, FORBIDDEN_CHARACTER_MESSAGE],
    ['contractNumber', '1'.repeat(21), '20 caractères au maximum'],
  ])('Coliship: %s %#', async (field, value, message) => {
    const result = await saveAndCheckColishipCredentials({
      username: 'atelier',
      password: 'secret',
      contractNumber: '123456',
      [field]: value,
    });
    expect(result).toMatchObject({ ok: false, fieldErrors: { [field]: [message] } });
  });
});

/** A placed order waiting for its transfer or cheque. */
async function awaitedOrder(method: 'transfer' | 'cheque'): Promise<{ id: string; number: string }> {
  const order = await insertTestOrder(process.env.DATABASE_URL as string);
  await one('update orders set payment_method = $1 where id = $2 returning id', [method, order.id]);
  return order;
}

describe('the payment validation', () => {
  it('validates an awaited bank transfer: order paid, invoice issued, customer e-mailed', async () => {
    const transfer = await awaitedOrder('transfer');
    const found = await listPendingPayments({ q: transfer.number, page: 1 });
    expect(found.rows).toEqual([
      expect.objectContaining({
        id: `o:${transfer.id}`,
        reference: transfer.number,
        method: 'transfer',
        provider: null,
      }),
    ]);

    const [result] = await decidePayments([`o:${transfer.id}`], 'validate', ADMIN);
    expect(result).toMatchObject({
      ok: true,
      reference: transfer.number,
      invoiceNumber: expect.stringMatching(/^FA-/),
    });
    expect(await one('select payment_status from orders where id = $1', [transfer.id])).toEqual({
      payment_status: 'paid',
    });
    expect(await rows('select number from invoices where order_id = $1', [transfer.id])).toHaveLength(1);
    expect(
      await rows(`select id from email_outbox where order_id = $1 and template = 'payment-received'`, [transfer.id]),
    ).toHaveLength(1);
    expect((await listPendingPayments({ q: transfer.number, page: 1 })).rows).toEqual([]);
    // Deciding twice changes nothing.
    expect(await decidePayments([`o:${transfer.id}`], 'validate', ADMIN)).toEqual([
      {
        id: `o:${transfer.id}`,
        ok: false,
        reference: transfer.number,
        reason: 'not-pending',
        message: 'Cette commande est déjà payée.',
      },
    ]);
  });

  it('never offers nor validates a card attempt: only its gateway settles it', async () => {
    const cards = await rows<{ id: string; total_price: number }>(
      `select id, total_price from orders where payment_method = 'card' and payment_status in ('pending', 'failed')
         and status <> 'canceled' and withdrawn_at is null limit 2`,
    );
    expect(cards).toHaveLength(2);
    const attempts: string[] = [];
    for (const [index, order] of cards.entries()) {
      const inserted = await one<{ id: string }>(
        `insert into payments (order_id, provider, provider_ref, amount, status, method)
         values ($1, 'sandbox', $2, $3, $4, 'card') returning id`,
        [order.id, `sbx_admin_test_${index}`, order.total_price, index === 0 ? 'pending' : 'failed'],
      );
      attempts.push(inserted.id);
    }
    expect((await listPendingPayments({ q: 'sbx_admin_test', page: 1 })).rows).toEqual([]);
    for (const order of cards)
      expect((await listPendingPayments({ q: '', page: 1 })).rows.map((r) => r.orderId)).not.toContain(order.id);
    const decided = await decidePayments(
      [`p:${attempts[0]}`, `o:${cards[0]?.id}`, `o:${cards[1]?.id}`],
      'validate',
      ADMIN,
    );
    expect(decided.map((r) => r.ok)).toEqual([false, false, false]);
    expect(await one('select status from payments where id = $1', [attempts[0]])).toEqual({ status: 'pending' });
    for (const order of cards) {
      expect(await rows('select id from invoices where order_id = $1', [order.id])).toEqual([]);
    }
  });

  it('rejects a selection of awaited transfers and cheques', async () => {
    const awaited = [await awaitedOrder('transfer'), await awaitedOrder('cheque')];
    const rejected = await decidePayments(
      awaited.map((o) => `o:${o.id}`),
      'reject',
      ADMIN,
      'Aucun virement reçu à ce jour.',
    );
    expect(rejected.every((r) => r.ok)).toBe(true);
    for (const order of awaited) {
      expect(await one('select payment_status from orders where id = $1', [order.id])).toEqual({
        payment_status: 'failed',
      });
      // The customer is told, once per rejection, with a link to pay again.
      const emails = await rows<{ template: string; to: string; reason: string }>(
        `select template, "to", data->>'reason' as reason from email_outbox
         where order_id = $1 and template = 'payment-rejected'`,
        [order.id],
      );
      expect(emails).toHaveLength(1);
      // The staff's reason reaches the customer's e-mail.
      expect(emails[0]?.reason).toBe('Aucun virement reçu à ce jour.');
    }
  });
});

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

describe('the exports', () => {
  const period = async () => {
    const bounds = await one<{ from: string; to: string }>(
      `select to_char(min(created_at) at time zone 'Europe/Paris', 'YYYY-MM-DD') as from,
              to_char(max(created_at) at time zone 'Europe/Paris', 'YYYY-MM-DD') as to
       from orders where created_at > now() - interval '300 days'`,
    );
    const count = await one<{ n: string }>(
      `select count(*) as n from orders
       where created_at >= ($1::date)::timestamp at time zone 'Europe/Paris'
         and created_at < ($2::date + 1)::timestamp at time zone 'Europe/Paris'`,
      [bounds.from, bounds.to],
    );
    return { ...bounds, count: Number(count.n) };
  };

  it('streams the orders of a period as CSV, in French', async () => {
    const { from, to, count } = await period();
    const { body, contentType } = exportStream({ dataset: 'commandes', format: 'csv', from, to });
    expect(contentType).toBe('text/csv; charset=utf-8');
    const text = (await readAll(body)).toString('utf8');
    expect(text.startsWith('\uFEFFN° commande;Date;Client;Email;')).toBe(true);
    const lines = text.trim().split('\r\n');
    expect(lines).toHaveLength(count + 1);
    expect(lines[1]).toMatch(/^SV-\d{4}-\d{6};\d{2}\/\d{2}\/\d{4};/);
    expect(lines[1]).toMatch(/;\d+,\d{2};\d+,\d{2};\d+,\d{2};/);
  });

  it('streams an Excel workbook that Excel (and exceljs) can open', async () => {
    const { from, to, count } = await period();
    const { body } = exportStream({ dataset: 'commandes', format: 'xlsx', from, to });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await readAll(body)) as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Commandes');
    expect(sheet?.rowCount).toBe(count + 1);
    expect(sheet?.getRow(1).getCell(1).value).toBe('N° commande');
    const number = String(sheet?.getRow(2).getCell(1).value);
    const order = await one<{ total_price: number }>('select total_price from orders where number = $1', [number]);
    expect(sheet?.getRow(2).getCell(14).value).toBe(order.total_price / 100);
    expect(sheet?.getRow(2).getCell(2).value).toBeInstanceOf(Date);

    const invoices = exportStream({ dataset: 'factures', format: 'xlsx', from, to });
    const invoiceBook = new ExcelJS.Workbook();
    await invoiceBook.xlsx.load((await readAll(invoices.body)) as unknown as ArrayBuffer);
    expect(invoiceBook.getWorksheet('Factures')?.getRow(1).getCell(1).value).toBe('N° pièce');
  });
});

describe('the Coliship credentials', () => {
  let fake: Awaited<ReturnType<typeof startFakeColissimo>>;
  beforeAll(async () => {
    fake = await startFakeColissimo();
  });
  afterAll(() => fake.close());

  it('requires the three fields', async () => {
    const result = await saveAndCheckColishipCredentials(
      { username: 'atelier', password: '', contractNumber: '' },
      { url: fake.url },
    );
    expect(result).toMatchObject({ ok: false, error: 'Veuillez remplir tous les champs' });
    expect(fake.requests).toHaveLength(0);
  });

  it('stores them encrypted and checks them against the web service', async () => {
    const wrong = await saveAndCheckColishipCredentials(
      { username: 'atelier', password: 'wrong-password', contractNumber: fake.contractNumber },
      { url: fake.url },
    );
    expect(wrong).toMatchObject({
      ok: true,
      check: {
        ok: false,
        kind: 'invalid',
        message: 'Échec de la connexion à Coliship',
        description: 'Vérifiez vos identifiants et réessayez.',
      },
    });
    const right = await saveAndCheckColishipCredentials(
      { username: 'atelier', password: fake.password, contractNumber: fake.contractNumber },
      { url: fake.url },
    );
    expect(right).toMatchObject({
      ok: true,
      check: { ok: true, message: 'Connexion à Coliship réussie' },
      credentials: {
        username: 'atelier',
        contractNumber: fake.contractNumber,
        passwordSet: true,
        lastCheck: { ok: true },
      },
    });
    const request = fake.requests.at(-1);
    expect(request?.contentType).toContain('application/json');
    expect(request?.body).toMatchObject({ contractNumber: fake.contractNumber, password: fake.password });
    const stored = await one<{ option_value: string }>(
      `select option_value from config_options where option_name = 'coliship_credentials'`,
    );
    expect(stored.option_value).not.toContain(fake.password);
    // An empty password keeps the stored one.
    const kept = await saveAndCheckColishipCredentials(
      { username: 'atelier', password: '', contractNumber: fake.contractNumber },
      { url: fake.url },
    );
    expect(kept).toMatchObject({ ok: true, check: { ok: true } });
    fake.setDown(true);
    const down = await saveAndCheckColishipCredentials(
      { username: 'atelier', password: '', contractNumber: fake.contractNumber },
      { url: fake.url },
    );
    expect(down).toMatchObject({
      ok: true,
      check: { ok: false, kind: 'error', message: 'Erreur lors de la validation' },
    });
    fake.setDown(false);
  });
});

describe('the notifications', () => {
  it('are read per administrator, and new ones reach the listeners', async () => {
    const other = { id: 'second-admin' };
    await pool().query(
      `insert into "user" (id, name, email, role) values ($1, 'Bob Admin', 'bob@soovenirs.test', 'admin') on conflict do nothing`,
      [other.id],
    );
    const received: number[] = [];
    const unsubscribe = subscribeToNotifications((list) => received.push(...list.map((n) => n.id)), 50);
    await new Promise((r) => setTimeout(r, 120));
    const inserted = await one<{ id: number }>(
      `insert into notifications (kind, title, body) values ('contact', 'Nouveau message', 'Bonjour') returning id`,
    );
    for (let i = 0; i < 60 && !received.includes(Number(inserted.id)); i++) await new Promise((r) => setTimeout(r, 50));
    unsubscribe();
    expect(received).toContain(Number(inserted.id));

    const before = await getNotificationFeed(ADMIN.id);
    expect(before.unread).toBeGreaterThan(0);
    expect(before.notifications[0]).toMatchObject({ id: Number(inserted.id), read: false, title: 'Nouveau message' });
    await markNotificationsRead(ADMIN.id, 'all');
    expect((await getNotificationFeed(ADMIN.id)).unread).toBe(0);
    expect((await getNotificationFeed(other.id)).unread).toBe(before.unread);
  });
});

describe('the outbox', () => {
  it('resends a failed message and refuses a held one', async () => {
    const failed = await one<{ id: string }>(
      `insert into email_outbox ("to", template, data, status, attempts, last_error)
       values ('client@example.fr', 'test-email', '{"sentAt":"2026-11-21T10:00:00.000Z","smtpHost":"smtp.example.fr","smtpPort":587}', 'failed', 5, 'boom')
       returning id`,
    );
    expect(await resendEmail(failed.id)).toEqual({ ok: true, kind: 'retried', id: failed.id });
    expect(await one('select status, attempts from email_outbox where id = $1', [failed.id])).toMatchObject({
      status: expect.stringMatching(/queued|held/),
      attempts: 0,
    });
    const held = await one<{ id: string }>(
      `insert into email_outbox ("to", template, data, status) values ('client@example.fr', 'test-email', '{}', 'held') returning id`,
    );
    expect(await resendEmail(held.id)).toEqual({ ok: false, reason: 'held' });
  });

  it('does not offer nor re-send an e-mail whose link served once, and says why in French', async () => {
    const before = await one<{ n: number }>('select count(*)::int as n from email_outbox');
    const resends = () => one<{ n: number }>(`select count(*)::int as n from audit_log where kind = 'email.resend'`);
    const journaled = await resends();
    // As the worker leaves them once sent or failed: the link wiped (the templates are sensitive).
    for (const template of ['password-reset', 'magic-link', 'staff-invitation']) {
      for (const status of ['sent', 'failed']) {
        const mail = await one<{ id: string }>(
          `insert into email_outbox ("to", template, data, status, sent_at)
           values ('equipe@example.fr', $1, '{"redacted":true}', $2, now()) returning id`,
          [template, status],
        );
        expect(await resendEmail(mail.id, ADMIN.id), `${template} ${status}`).toEqual({
          ok: false,
          reason: 'single-use',
          message:
            'Cet e-mail contient un lien à usage unique\u00a0: il ne peut pas être renvoyé. Demandez un nouveau lien.',
        });
      }
    }
    expect(await one<{ n: number }>('select count(*)::int as n from email_outbox')).toEqual({ n: before.n + 6 });
    expect(await resends()).toEqual(journaled);

    const sent = await listOutbox('sent', 1, 50);
    const offered = (template: string) => sent.rows.find((row) => row.template === template)?.resendable;
    expect(offered('password-reset')).toBe(false);
    expect(offered('magic-link')).toBe(false);
    expect(offered('staff-invitation')).toBe(false);
    await one(
      `insert into email_outbox ("to", template, data, status, sent_at)
       values ('client@example.fr', 'test-email', '{"sentAt":"2026-11-21T10:00:00.000Z","smtpHost":"smtp.example.fr","smtpPort":587}', 'sent', now()) returning id`,
    );
    expect((await listOutbox('sent', 1, 50)).rows.find((row) => row.template === 'test-email')?.resendable).toBe(true);
  });
});
