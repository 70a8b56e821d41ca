import { z } from 'zod';
import { PAYMENT_MESSAGES } from '~/domain/payments/messages';
import { ROUTE_ACCESS } from '~/domain/staff/access-rules';
import { decideRequest } from '../access/door.server';
import { createSharedRateLimiter } from '../db/rate-limit.server';
import { log } from '../log.server';
import { getOrderForViewer, orderAccessCookieName } from '../orders/access.server';
import { readCookie } from '../orders/order-response.server';
import { CheckoutError, createCheckout, probePayments } from './checkout.server';
import { confirmCheckout } from './offline.server';

/*
 * POST /api/create-checkout:
 *  - { orderId, amount, customerEmail, returnUrl } -> { url, sessionId }: a payment session for the
 *    order, at the order's own amount (the body's `amount` is ignored), for the order's owner or the
 *    guest holding its access cookie; anyone else gets 404, as for an order that does not exist;
 *  - { test: true } -> whether the payment keys are configured (administrators only): 200
 *    { configured: true, ... }, or 503 { error } when they are not ("an error means the payment
 *    keys are not configured").
 * Rate limited per client address.
 */

const bodySchema = z.object({
  orderId: z.string().max(100).optional(),
  amount: z.unknown().optional(),
  customerEmail: z.string().max(254).nullish(),
  returnUrl: z.string().max(2000).nullish(),
  test: z.boolean().optional(),
});

/** The address the Express server saw (server/app.ts sets it; a client cannot forge it). */
const CLIENT_IP_HEADER = 'x-soovenirs-client-ip';
const WINDOW_MS = 60_000;

function limit(): number {
  const value = Number(process.env.CHECKOUT_RATE_LIMIT ?? 30);
  return Number.isFinite(value) && value > 0 ? value : 30;
}

// Per client address over a sliding minute, counted in PostgreSQL so that it holds across instances.
const limiter = createSharedRateLimiter({ name: 'checkout', limit, windowMs: WINDOW_MS });

export async function checkoutRateLimited(request: Request): Promise<boolean> {
  const key = request.headers.get(CLIENT_IP_HEADER) || 'unknown';
  return !(await limiter.hit(key)).allowed;
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store', ...headers } });
}

export async function handleCreateCheckoutRequest(request: Request): Promise<Response> {
  if (request.method !== 'POST') {
    return json({ error: 'Méthode non autorisée' }, 405, { Allow: 'POST' });
  }
  let raw: unknown;
  try {
    raw = await request.json();
  } catch {
    return json({ error: PAYMENT_MESSAGES.invalidRequest }, 400);
  }
  const parsed = bodySchema.safeParse(raw);
  if (!parsed.success) return json({ error: PAYMENT_MESSAGES.invalidRequest }, 400);
  const body = parsed.data;

  if (body.test === true) {
    // The Tests tab's probe of the gateway: its line's capability, at the door.
    const { decision } = await decideRequest(request.headers, ROUTE_ACCESS['routes/admin/tests'].write);
    if (!decision.allow) return json({ error: PAYMENT_MESSAGES.orderNotFound }, 404);
    const probe = await probePayments();
    return probe.configured ? json(probe) : json({ ...probe, error: probe.message }, 503);
  }

  if (await checkoutRateLimited(request)) {
    return json({ error: PAYMENT_MESSAGES.tooManyRequests }, 429, { 'Retry-After': '60' });
  }
  const orderId = body.orderId ?? '';
  const viewable = await getOrderForViewer(request, orderId);
  // Only the customer pays: the owner, or the guest with the order's token. Others: as if it did not exist.
  if (!viewable || viewable.viewer === 'admin') return json({ error: PAYMENT_MESSAGES.orderNotFound }, 404);
  try {
    // The checkout calls this on « Payer »: the customer confirms the order with a card.
    await confirmCheckout({
      orderId: viewable.order.id,
      method: 'card',
      actor: viewable.viewer === 'owner' && viewable.order.userId ? viewable.order.userId : 'customer',
      accessToken: viewable.viewer === 'guest' ? readCookie(request, orderAccessCookieName(viewable.order.id)) : null,
    });
    const session = await createCheckout({
      orderId: viewable.order.id,
      returnUrl: body.returnUrl,
      customerEmail: body.customerEmail,
    });
    return json({ url: session.url, sessionId: session.sessionId });
  } catch (error) {
    if (error instanceof CheckoutError) return json({ error: error.message }, error.status);
    log.error({ err: error, orderId }, 'create-checkout failed');
    return json({ error: PAYMENT_MESSAGES.sessionFailed('erreur interne') }, 500);
  }
}
