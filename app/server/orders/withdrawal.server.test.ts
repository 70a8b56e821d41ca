import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { WITHDRAWAL_MESSAGES } from '~/domain/account/withdrawal';
import { insertOrder, registeredAccount, TEST_BASE } from '../account/testing/fixtures';
import { db } from '../db/client.server';
import { emailOutbox, notifications, orderEvents, orders } from '../db/schema';
import { withdrawFromOrder } from './withdrawal.server';

process.env.BASE_URL = TEST_BASE;

const DAY = 24 * 60 * 60 * 1000;

async function recorded(orderId: string) {
  const [order] = await db()
    .select({ withdrawnAt: orders.withdrawnAt, status: orders.status })
    .from(orders)
    .where(eq(orders.id, orderId));
  const events = await db().select().from(orderEvents).where(eq(orderEvents.orderId, orderId));
  const feed = await db().select().from(notifications).where(eq(notifications.orderId, orderId));
  const emails = await db().select().from(emailOutbox).where(eq(emailOutbox.orderId, orderId));
  return { order, events: events.filter((e) => e.kind === 'withdrawal_requested'), feed, emails };
}

describe('withdrawFromOrder', () => {
  it('records the withdrawal, its history entry, a notification and the dated acknowledgement at once', async () => {
    const customer = await registeredAccount('customer', { firstName: 'Éloïse', lastName: 'Durand' });
    const order = await insertOrder({
      userId: customer.id,
      createdAt: new Date(Date.now() - 3 * DAY),
      status: 'processing',
    });
    const now = new Date();
    const result = await withdrawFromOrder({ orderId: order.id, actor: customer.id, now });
    expect(result).toEqual({ ok: true, withdrawnAt: now, orderNumber: order.number });

    const after = await recorded(order.id);
    expect(after.order?.withdrawnAt?.getTime()).toBe(now.getTime());
    // Nothing was paid: the order ends with the withdrawal (no payment is asked any more).
    expect(after.order?.status).toBe('canceled');
    expect(after.events).toMatchObject([
      { actor: customer.id, kind: 'withdrawal_requested', data: { requestedAt: now.toISOString() } },
    ]);
    expect(after.feed).toMatchObject([{ kind: 'withdrawal', title: `Rétractation — commande ${order.number}` }]);
    expect(after.feed[0]?.body).toContain('Éloïse Durand');
    expect(after.emails).toHaveLength(1);
    expect(after.emails[0]).toMatchObject({
      to: customer.email,
      template: 'withdrawal-acknowledgement',
      dedupeKey: `withdrawal:${order.id}`,
      data: { orderNumber: order.number, requestedAt: now.toISOString(), customerName: 'Éloïse' },
    });
  });

  it('refuses a second withdrawal without recording anything more', async () => {
    const customer = await registeredAccount();
    const order = await insertOrder({ userId: customer.id });
    expect((await withdrawFromOrder({ orderId: order.id, actor: customer.id })).ok).toBe(true);
    const again = await withdrawFromOrder({ orderId: order.id, actor: customer.id });
    expect(again).toEqual({ ok: false, reason: 'withdrawn', message: WITHDRAWAL_MESSAGES.withdrawn });
    const after = await recorded(order.id);
    expect(after.events).toHaveLength(1);
    expect(after.feed).toHaveLength(1);
    expect(after.emails).toHaveLength(1);
  });

  it('refuses after the 14 days, and for a cancelled order', async () => {
    const customer = await registeredAccount();
    const old = await insertOrder({ userId: customer.id, createdAt: new Date(Date.now() - 20 * DAY) });
    expect(await withdrawFromOrder({ orderId: old.id, actor: customer.id })).toEqual({
      ok: false,
      reason: 'expired',
      message: 'Le délai de rétractation de 14 jours est dépassé pour cette commande.',
    });
    const canceled = await insertOrder({ userId: customer.id, status: 'canceled' });
    expect((await withdrawFromOrder({ orderId: canceled.id, actor: customer.id })).ok).toBe(false);
    for (const id of [old.id, canceled.id]) {
      const after = await recorded(id);
      expect(after.order?.withdrawnAt).toBeNull();
      expect([after.events, after.feed, after.emails]).toEqual([[], [], []]);
    }
    expect((await withdrawFromOrder({ orderId: '00000000-0000-4000-8000-000000000000', actor: 'guest' })).ok).toBe(
      false,
    );
  });

  it('acknowledges a guest at the order address', async () => {
    const order = await insertOrder({ guestEmail: 'paul@example.fr' });
    expect((await withdrawFromOrder({ orderId: order.id, actor: 'guest' })).ok).toBe(true);
    expect((await recorded(order.id)).emails).toMatchObject([
      { to: 'paul@example.fr', data: { customerName: 'Paul' } },
    ]);
  });

  it('records one withdrawal when two requests arrive at once', async () => {
    const customer = await registeredAccount();
    const order = await insertOrder({ userId: customer.id });
    const results = await Promise.all([
      withdrawFromOrder({ orderId: order.id, actor: customer.id }),
      withdrawFromOrder({ orderId: order.id, actor: customer.id }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect((await recorded(order.id)).events).toHaveLength(1);
  });

  it('records nothing when the acknowledgement cannot be queued', async () => {
    const order = await insertOrder({ guestEmail: 'pas-une-adresse' });
    await expect(withdrawFromOrder({ orderId: order.id, actor: 'guest' })).rejects.toThrow();
    const after = await recorded(order.id);
    expect(after.order?.withdrawnAt).toBeNull();
    expect([after.events, after.feed, after.emails]).toEqual([[], [], []]);
  });
});
