import { GUEST_INFO_MESSAGES } from '~/domain/orders/guest-info';
import { updateGuestOrder } from '~/server/orders/guest-info.server';
import type { Route } from './+types/update-guest-order';

/*
 * POST /api/update-guest-order: JSON
 * { orderId, guestInfo: { email, phone, address, city, postalCode } } -> { success: true, guestInfo },
 * 400 { error, fieldErrors } (French), or 404 { error: 'Commande introuvable' } for anyone but the
 * guest holding the order's access cookie. See server/orders/guest-info.server.ts.
 */

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store', ...headers } });
}

export function loader() {
  return json({ error: 'Méthode non autorisée' }, 405, { Allow: 'POST' });
}

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== 'POST') return json({ error: 'Méthode non autorisée' }, 405, { Allow: 'POST' });
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return json({ error: 'Requête invalide' }, 400);
  }
  if (!body || typeof body !== 'object') return json({ error: 'Requête invalide' }, 400);
  const { orderId, guestInfo } = body as { orderId?: unknown; guestInfo?: unknown };
  const result = await updateGuestOrder(request, { orderId, guestInfo });
  if (result.ok) return json({ success: true, guestInfo: result.guestInfo });
  if (result.status === 400) return json({ error: result.error, fieldErrors: result.fieldErrors }, 400);
  return json({ error: result.status === 500 ? GUEST_INFO_MESSAGES.saveError : result.error }, result.status);
}
