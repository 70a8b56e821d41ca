import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertOrder, registeredAccount, requestWith, TEST_BASE } from '../account/testing/fixtures';
import { db } from '../db/client.server';
import { orderEvents, orders } from '../db/schema';
import { createOrderAccessToken, orderAccessCookieName } from './access.server';
import { claimGuestOrder } from './claim-order.server';

process.env.BASE_URL = TEST_BASE;

async function guestOrder(options: { status?: 'pending' | 'canceled' } = {}) {
  const { token, hash } = createOrderAccessToken();
  const order = await insertOrder({ guestEmail: 'invite@example.fr', accessTokenHash: hash, ...options });
  return { order, holder: requestWith('/checkout', [`${orderAccessCookieName(order.id)}=${token}`]) };
}

async function ownerAndHistory(orderId: string) {
  const [row] = await db().select({ userId: orders.userId }).from(orders).where(eq(orders.id, orderId));
  const events = await db().select().from(orderEvents).where(eq(orderEvents.orderId, orderId));
  return { userId: row?.userId ?? null, attached: events.filter((e) => e.kind === 'attached_to_account') };
}

describe('claimGuestOrder', () => {
  it('attaches the guest order to the account of the browser holding its token, once', async () => {
    const customer = await registeredAccount('customer');
    const { order, holder } = await guestOrder();
    expect(await claimGuestOrder(holder, order.id, customer.id, 'register')).toBe('attached');
    expect(await claimGuestOrder(holder, order.id, customer.id, 'session')).toBe('already-yours');
    const after = await ownerAndHistory(order.id);
    expect(after.userId).toBe(customer.id);
    expect(after.attached).toHaveLength(1);
    expect(after.attached[0]?.data).toEqual({ guestEmail: 'invite@example.fr', how: 'register' });
  });

  it('refuses without the token, for another account’s order, and once paid', async () => {
    const customer = await registeredAccount('customer');
    const other = await registeredAccount('customer');
    const { order, holder } = await guestOrder();
    expect(await claimGuestOrder(requestWith('/checkout'), order.id, customer.id, 'sign-in')).toBe('refused');

    expect(await claimGuestOrder(holder, order.id, other.id, 'sign-in')).toBe('attached');
    expect(await claimGuestOrder(holder, order.id, customer.id, 'sign-in')).toBe('refused');
    expect((await ownerAndHistory(order.id)).userId).toBe(other.id);

    const paid = await guestOrder();
    await db().update(orders).set({ paymentStatus: 'paid' }).where(eq(orders.id, paid.order.id));
    expect(await claimGuestOrder(paid.holder, paid.order.id, customer.id, 'sign-in')).toBe('refused');
    expect(await ownerAndHistory(paid.order.id)).toEqual({ userId: null, attached: [] });
  });
});
