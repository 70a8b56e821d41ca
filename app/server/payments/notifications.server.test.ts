import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentYear } from '~/domain/invoices/number';
import { insertTestOrder, orderState, type TestOrder } from '../../../tests/support/orders';
import { decidePayments, listPendingPayments } from '../admin/payments.server';
import { db } from '../db/client.server';
import { revealEmailData } from '../email/sealed-data.server';
import { log } from '../log.server';
import { accessTokenMatches } from '../orders/access.server';
import { applyPaymentNotification } from './notifications.server';
import type { PaymentNotification } from './types';

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';

const YEAR = documentYear(new Date());
const databaseUrl = () => process.env.DATABASE_URL as string;

function notification(order: TestOrder, overrides: Partial<PaymentNotification> = {}): PaymentNotification {
  const ref = overrides.providerRef ?? `sbx_${randomUUID()}`;
  return {
    provider: 'sandbox',
    eventId: `evt_${randomUUID()}`,
    providerRef: ref,
    orderId: order.id,
    outcome: 'paid',
    amountCents: order.totalCents,
    currency: 'EUR',
    method: 'card',
    raw: { test: true },
    ...overrides,
  };
}

async function attempt(order: TestOrder, ref: string) {
  await db().execute(sql`
    insert into payments (order_id, provider, provider_ref, amount, status, method, raw_event)
    values (${order.id}, 'sandbox', ${ref}, ${order.totalCents}, 'pending', 'card',
            ${JSON.stringify({ session: { object: 'sandbox.session', returnUrl: '/r', cancelUrl: '/c', expiresAt: new Date().toISOString() } })}::jsonb)`);
}

describe('a verified payment notification', () => {
  let ownerId: string;
  beforeAll(async () => {
    ownerId = `user_${randomUUID()}`;
    await db().execute(sql`
      insert into "user" (id, name, email, first_name, last_name, street, postal_code, city)
      values (${ownerId}, 'Jeanne Martin', ${`${ownerId}@example.fr`}, 'Jeanne', 'Martin', '3 rue Lepic', '75018', 'Paris')`);
  });

  it('pays the order, issues its invoice and records everything in one go', async () => {
    const order = await insertTestOrder(databaseUrl());
    const ref = `sbx_${randomUUID()}`;
    await attempt(order, ref);
    const result = await applyPaymentNotification(notification(order, { providerRef: ref, eventId: `${ref}_ok` }));
    expect(result).toMatchObject({ status: 'applied', orderPaid: true, paymentStatus: 'paid' });

    const state = await orderState(databaseUrl(), order.id);
    expect(state).toMatchObject({
      paymentStatus: 'paid',
      // Paid through the sandbox: a demonstration invoice, in its own series.
      invoices: [expect.stringMatching(new RegExp(`^TEST-FA-${YEAR}-\\d{6}$`))],
      payments: [{ provider: 'sandbox', status: 'paid', amount: order.totalCents }],
      notifications: 1,
    });
    expect(state.paidAt).toBeInstanceOf(Date);
    expect(state.events).toEqual(['created', 'payment_paid', 'invoice_issued']);
    expect(state.outbox).toEqual([
      {
        template: 'payment-received',
        to: 'invite@example.fr',
        data: {
          orderNumber: order.number,
          amountCents: order.totalCents,
          paidAt: state.paidAt?.toISOString(),
          invoiceNumber: state.invoices[0],
          // A guest's link carries a token (sealed in the outbox): no e-mail had one, so a new
          // delivery token, whose hash the order keeps.
          invoiceUrl: expect.stringMatching(/^v1\./),
          customerArea: false,
          customerName: 'Marie Curie',
        },
      },
    ]);
    const { invoiceUrl } = revealEmailData('payment-received', state.outbox[0]?.data) as { invoiceUrl: string };
    const link = new URL(invoiceUrl);
    expect(link.pathname).toBe(`/facture/${order.id}`);
    const [stored] = (await db().execute(sql`select delivery_token_hash from orders where id = ${order.id}`)).rows as {
      delivery_token_hash: string;
    }[];
    expect(accessTokenMatches(link.searchParams.get('token'), stored?.delivery_token_hash)).toBe(true);
    const [event] = (
      await db().execute(
        sql`select payment_id from payment_events where provider = 'sandbox' and event_id = ${`${ref}_ok`}`,
      )
    ).rows as { payment_id: string | null }[];
    expect(event?.payment_id).not.toBeNull();
  });

  it('is applied once, however many times it is delivered', async () => {
    const order = await insertTestOrder(databaseUrl());
    const paid = notification(order);
    const results = await Promise.all([1, 2, 3].map(() => applyPaymentNotification(paid)));
    expect(results.filter((r) => r.status === 'duplicate')).toHaveLength(2);
    expect(await applyPaymentNotification(paid)).toEqual({ status: 'duplicate' });
    const state = await orderState(databaseUrl(), order.id);
    expect(state.invoices).toHaveLength(1);
    expect(state.outbox).toHaveLength(1);
    expect(state.events.filter((e) => e === 'payment_paid')).toHaveLength(1);
  });

  it('e-mails an account holder at their account address', async () => {
    const order = await insertTestOrder(databaseUrl(), { userId: ownerId });
    await applyPaymentNotification(notification(order));
    const state = await orderState(databaseUrl(), order.id);
    expect(state.outbox).toMatchObject([{ to: `${ownerId}@example.fr`, data: { customerName: 'Jeanne Martin' } }]);
  });

  it('pays an order without e-mail address, sending no e-mail', async () => {
    const order = await insertTestOrder(databaseUrl(), { guestEmail: null });
    await applyPaymentNotification(notification(order));
    const state = await orderState(databaseUrl(), order.id);
    expect(state.paymentStatus).toBe('paid');
    expect(state.outbox).toEqual([]);
  });

  it('of a failure leaves the order unpaid, and a later payment still pays it', async () => {
    const order = await insertTestOrder(databaseUrl());
    const failed = await applyPaymentNotification(notification(order, { outcome: 'failed', detail: 'refusée' }));
    expect(failed).toMatchObject({ status: 'applied', paymentStatus: 'failed', orderPaid: false });
    let state = await orderState(databaseUrl(), order.id);
    expect(state).toMatchObject({ paymentStatus: 'failed', paidAt: null, invoices: [], outbox: [] });
    expect(state.events).toContain('payment_failed');

    await applyPaymentNotification(notification(order));
    state = await orderState(databaseUrl(), order.id);
    expect(state.paymentStatus).toBe('paid');
    expect(state.invoices).toHaveLength(1);
  });

  it('never takes back a payment: a late failure or expiry of a paid attempt changes nothing', async () => {
    const order = await insertTestOrder(databaseUrl());
    const ref = `sbx_${randomUUID()}`;
    await applyPaymentNotification(notification(order, { providerRef: ref }));
    const before = await orderState(databaseUrl(), order.id);
    for (const outcome of ['failed', 'canceled', 'pending'] as const) {
      await applyPaymentNotification(notification(order, { providerRef: ref, outcome }));
    }
    expect(await orderState(databaseUrl(), order.id)).toEqual(before);
  });

  it('does not pay an order for another amount or currency: the money is recorded, refunded, never invoiced', async () => {
    const order = await insertTestOrder(databaseUrl());
    await applyPaymentNotification(notification(order, { amountCents: 100 }));
    await applyPaymentNotification(notification(order, { currency: 'USD' }));
    const state = await orderState(databaseUrl(), order.id);
    expect(state).toMatchObject({ paymentStatus: 'pending', invoices: [], outbox: [] });
    expect(state.events.filter((e) => e === 'payment_unapplied')).toHaveLength(2);
    // The sandbox allows refunds: both are given back at once.
    expect(state.payments.map((p) => p.status)).toEqual(['refunded', 'refunded']);
    expect(state.notifications).toBe(2);
  });

  it('refunds a second payment of a paid order, without a second invoice', async () => {
    const order = await insertTestOrder(databaseUrl());
    await applyPaymentNotification(notification(order));
    await applyPaymentNotification(notification(order));
    const state = await orderState(databaseUrl(), order.id);
    expect(state.paymentStatus).toBe('paid');
    expect(state.invoices).toHaveLength(1);
    expect(state.payments.map((p) => p.status).sort()).toEqual(['paid', 'refunded']);
    expect(state.events).toContain('payment_unapplied');
    expect(state.events).toContain('payment_refunded');
    expect(state.outbox.map((m) => m.template)).toEqual(['payment-received']);
  });

  // Paying an order that cannot be paid any more: never paid twice nor invoiced, always refunded.
  it.each([
    ['a cancelled order', sql`status = 'canceled'`],
    ['a withdrawn order', sql`withdrawn_at = now(), status = 'canceled'`],
    ['a draft', sql`placed_at = null`],
  ])('money for %s is refunded through the gateway and never invoiced', async (_name, change) => {
    const order = await insertTestOrder(databaseUrl());
    const ref = `sbx_${randomUUID()}`;
    await attempt(order, ref);
    await db().execute(sql`update orders set ${change} where id = ${order.id}`);
    const result = await applyPaymentNotification(notification(order, { providerRef: ref }));
    expect(result).toMatchObject({ status: 'applied', orderPaid: false, unapplied: true });
    const state = await orderState(databaseUrl(), order.id);
    expect(state).toMatchObject({ paymentStatus: 'pending', invoices: [], outbox: [] });
    expect(state.payments).toMatchObject([{ status: 'refunded', amount: order.totalCents }]);
    const refunds = await db().execute(
      sql`select status, method, credit_note_id from refunds where order_id = ${order.id}`,
    );
    expect(refunds.rows).toEqual([{ status: 'succeeded', method: 'gateway', credit_note_id: null }]);
  });

  it('money for a cancelled order through Monetico, which cannot refund from the shop, raises the « à rembourser » alert', async () => {
    const order = await insertTestOrder(databaseUrl());
    await db().execute(sql`update orders set status = 'canceled' where id = ${order.id}`);
    const result = await applyPaymentNotification(
      notification(order, { provider: 'monetico', providerRef: 'MONETICO0001' }),
    );
    expect(result).toMatchObject({ status: 'applied', orderPaid: false, unapplied: true });
    const state = await orderState(databaseUrl(), order.id);
    expect(state).toMatchObject({ paymentStatus: 'pending', invoices: [], outbox: [] });
    expect(state.payments).toMatchObject([{ provider: 'monetico', status: 'paid' }]);
    const alerts = await db().execute<{ title: string }>(
      sql`select title from notifications where order_id = ${order.id} and status = 'refund_due' order by id`,
    );
    expect(alerts.rows.map((a) => a.title)).toContain(`À rembourser — commande ${order.number}`);
    const refunds = await db().execute(sql`select status from refunds where order_id = ${order.id}`);
    expect(refunds.rows).toEqual([{ status: 'failed' }]);
  });

  it('a cancelled order awaiting its transfer is not offered for validation, and validating it anyway changes nothing', async () => {
    const order = await insertTestOrder(databaseUrl());
    await db().execute(sql`update orders set payment_method = 'transfer', status = 'canceled' where id = ${order.id}`);
    expect((await listPendingPayments({ q: order.number, page: 1 })).rows).toEqual([]);
    const [result] = await decidePayments([`o:${order.id}`], 'validate', { id: 'system' });
    expect(result).toMatchObject({ ok: false, message: 'Cette commande est annulée.' });
    expect(await orderState(databaseUrl(), order.id)).toMatchObject({ paymentStatus: 'pending', invoices: [] });
  });

  it('is ignored when it names another order than its payment attempt, or an unknown order', async () => {
    const order = await insertTestOrder(databaseUrl());
    const other = await insertTestOrder(databaseUrl());
    const ref = `sbx_${randomUUID()}`;
    await attempt(order, ref);
    expect(await applyPaymentNotification(notification(other, { providerRef: ref }))).toEqual({
      status: 'ignored',
      reason: 'order mismatch',
    });
    expect(await applyPaymentNotification(notification(other, { orderId: randomUUID() }))).toEqual({
      status: 'ignored',
      reason: 'unknown order',
    });
    expect((await orderState(databaseUrl(), order.id)).paymentStatus).toBe('pending');
    expect((await orderState(databaseUrl(), other.id)).paymentStatus).toBe('pending');
  });
});
