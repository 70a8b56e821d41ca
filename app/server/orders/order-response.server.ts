import { eq } from 'drizzle-orm';
import { redirect } from 'react-router';
import { db } from '../db/client.server';
import { orders } from '../db/schema';
import { accessTokenMatches, orderAccessCookie, orderAccessCookieName } from './access.server';
import type { CreatedOrder } from './create-order.server';

/**
 * Where `Commander` leads: the checkout of the new order, with the guest's access cookie, and the
 * promotion code the configurator announced (it fills the checkout's field, nothing more).
 */
export function redirectToCheckout(order: Pick<CreatedOrder, 'id' | 'accessToken'>, promotionCode = ''): Response {
  const headers = new Headers();
  if (order.accessToken) headers.append('Set-Cookie', orderAccessCookie(order.id, order.accessToken));
  const query = new URLSearchParams({ orderId: order.id });
  if (promotionCode) query.set('code', promotionCode);
  return redirect(`/checkout?${query}`, { headers });
}

/** The value of one cookie of a request, or null. */
export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() !== name) continue;
    const value = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value; // a malformed escape is not ours: it will simply not match
    }
  }
  return null;
}

/** Whether this browser holds the guest access cookie of an order. */
export async function requestHoldsOrderToken(request: Request, orderId: string): Promise<boolean> {
  const token = readCookie(request, orderAccessCookieName(orderId));
  if (!token) return false;
  const [row] = await db().select({ hash: orders.accessTokenHash }).from(orders).where(eq(orders.id, orderId)).limit(1);
  return accessTokenMatches(token, row?.hash ?? null);
}
