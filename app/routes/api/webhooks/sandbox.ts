import { handlePaymentWebhook } from '~/server/payments/webhooks.server';
import type { Route } from './+types/sandbox';

// POST /api/webhooks/sandbox: the gateway's signed notification, verified on the raw body
// (server/payments/webhooks.server.ts). Servers send no Origin header; Express lets them through.

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: 'POST' } });
}

export async function action({ request }: Route.ActionArgs) {
  return handlePaymentWebhook('sandbox', request);
}
