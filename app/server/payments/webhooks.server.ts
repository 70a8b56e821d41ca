import { MONETICO_RECEIPT_ERROR, MONETICO_RECEIPT_OK } from '~/domain/payments/monetico';
import type { PaymentProviderName } from '~/domain/payments/payment-config';
import { SANDBOX_POLICY_MESSAGES } from '~/domain/payments/sandbox-policy';
import { log } from '../log.server';
import { readBodyUpTo } from '../request-body.server';
import { providerFor } from './checkout.server';
import { loadPaymentConfig } from './config.server';
import { applyPaymentNotification } from './notifications.server';
import { sandboxMayTakePayments } from './sandbox-mode.server';

/*
 * The gateways' notifications (POST /api/webhooks/{stripe,monetico,sandbox}): the raw body is read
 * as bytes and verified by the gateway's own rules before anything is parsed or changed; a bad
 * signature changes nothing. A verified notification is applied once (notifications.server.ts).
 * An error on our side answers 500, so that the gateway delivers it again later.
 *
 * A notification is verified with the credentials stored for its gateway even when the back office
 * has since switched to another one: attempts opened before the switch still complete (real
 * money moved). Except the sandbox's: it is heard only while it is the active gateway and may take
 * payments (sandbox-mode.server.ts).
 */

const MAX_BODY_BYTES = 1024 * 1024;

function json(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } });
}

function moneticoReceipt(body: string, status = 200): Response {
  return new Response(body, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

export async function handlePaymentWebhook(name: PaymentProviderName, request: Request): Promise<Response> {
  const monetico = name === 'monetico';
  if (request.method !== 'POST') {
    return new Response(null, { status: 405, headers: { Allow: 'POST' } });
  }
  // Never more than the cap in memory (server/body-limits.ts gives these paths the same 1 MB).
  const body = await readBodyUpTo(request, MAX_BODY_BYTES);
  if (body === null) {
    return monetico ? moneticoReceipt(MONETICO_RECEIPT_ERROR) : json({ error: 'Notification trop volumineuse' }, 413);
  }
  try {
    const config = await loadPaymentConfig();
    if (name === 'sandbox' && !(config.type === 'sandbox' && sandboxMayTakePayments())) {
      // Unlike Stripe or Monetico, no money moved behind a sandbox notification: once the sandbox
      // is not the active gateway, or may not take payments here, none of its sessions completes.
      log.warn({ provider: name, active: config.type }, 'sandbox notification refused: the sandbox is not active');
      return json({ error: SANDBOX_POLICY_MESSAGES.sandboxRefused }, 403);
    }
    const check = await providerFor(name, config).verifyNotification({ body, headers: request.headers });
    if (!check.ok) {
      log.warn({ provider: name, reason: check.reason }, 'payment notification refused');
      return monetico ? moneticoReceipt(MONETICO_RECEIPT_ERROR) : json({ error: check.reason }, check.status);
    }
    if (!check.notification) return monetico ? moneticoReceipt(MONETICO_RECEIPT_OK) : json({ received: true });
    const result = await applyPaymentNotification(check.notification);
    return monetico ? moneticoReceipt(MONETICO_RECEIPT_OK) : json({ received: true, result: result.status });
  } catch (error) {
    log.error({ err: error, provider: name }, 'payment notification could not be applied');
    return monetico
      ? moneticoReceipt(MONETICO_RECEIPT_ERROR, 500)
      : json({ error: 'Erreur interne, la notification sera rejouée' }, 500);
  }
}
