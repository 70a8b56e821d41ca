import { handleCreateCheckoutRequest } from '~/server/payments/checkout-api.server';
import type { Route } from './+types/create-checkout';

// POST /api/create-checkout (JSON { orderId, amount, customerEmail, returnUrl } -> { url, sessionId },
// or { test: true } for the back office's probe). See server/payments/checkout-api.server.ts.

export function loader() {
  return Response.json({ error: 'Méthode non autorisée' }, { status: 405, headers: { Allow: 'POST' } });
}

export async function action({ request }: Route.ActionArgs) {
  return handleCreateCheckoutRequest(request);
}
