import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { type CardForm, cardBrand, cardLast4 } from '~/domain/payments/card';
import { PAYMENT_MESSAGES } from '~/domain/payments/messages';
import { sandboxCardOutcome } from '~/domain/payments/sandbox-cards';
import { SANDBOX_POLICY_MESSAGES } from '~/domain/payments/sandbox-policy';
import { db } from '../db/client.server';
import { orders, payments } from '../db/schema';
import { baseUrl } from '../env.server';
import { log } from '../log.server';
import { loadPaymentConfig } from './config.server';
import { sandboxMayTakePayments } from './sandbox-mode.server';
import type { CreatedSession, NotificationCheck, PaymentProvider, SessionRequest } from './types';

/*
 * The sandbox: a payment gateway built into the shop, the default solution, for development, demos
 * and tests. It behaves like a real gateway on purpose: it has its own payment page
 * (/paiement/sandbox/{sessionId}, routes/shop/sandbox-payment.tsx) with the shop's card
 * form and Stripe's test cards, and it tells the shop the outcome with a signed server-to-server
 * notification (POST /api/webhooks/sandbox, HMAC-SHA256 with a key derived from APP_SECRET),
 * before sending the browser back to the shop. The shop marks the order paid on that verified
 * notification only, exactly as for Stripe or Monetico. It never charges anything.
 *
 * Its sessions are the `payments` rows of provider `sandbox`; raw_event.session holds the return and
 * cancel addresses.
 */

export const SANDBOX_SIGNATURE_HEADER = 'soovenirs-sandbox-signature';
const SIGNATURE_TOLERANCE_SECONDS = 300;
/** How long a sandbox payment page stays usable. */
export const SANDBOX_SESSION_TTL_MS = 60 * 60 * 1000;

function signingKey(): Buffer {
  const secret = process.env.APP_SECRET;
  if (!secret) throw new Error('APP_SECRET is not set: sandbox notifications cannot be signed.');
  return Buffer.from(hkdfSync('sha256', secret, 'soovenirs/sandbox-gateway', 'webhook v1', 32));
}

/** The signature header of a notification body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signSandboxPayload(body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', signingKey()).update(`${timestamp}.${body}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

export function verifySandboxSignature(body: Buffer, header: string | null, now = Date.now()): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(
    header.split(',').map((part) => {
      const i = part.indexOf('=');
      return [part.slice(0, i).trim(), part.slice(i + 1).trim()];
    }),
  );
  const timestamp = Number(parts.t);
  const received = parts.v1;
  if (!Number.isInteger(timestamp) || typeof received !== 'string' || !/^[0-9a-f]{64}$/.test(received)) return false;
  if (Math.abs(now / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', signingKey())
    .update(Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), body]))
    .digest();
  return timingSafeEqual(expected, Buffer.from(received, 'hex'));
}

const sandboxEventSchema = z.object({
  id: z.string().min(1).max(200),
  type: z.enum(['payment.succeeded', 'payment.failed', 'payment.canceled']),
  created: z.number().int(),
  data: z.object({
    sessionId: z.string().min(1).max(200),
    orderId: z.uuid(),
    amountCents: z.number().int().nonnegative(),
    currency: z.string().length(3),
    card: z.object({ brand: z.string(), last4: z.string().max(4) }).nullable(),
    reason: z.string().nullable().optional(),
  }),
});
export type SandboxEvent = z.infer<typeof sandboxEventSchema>;

const sessionRawSchema = z.object({
  object: z.literal('sandbox.session'),
  returnUrl: z.string(),
  cancelUrl: z.string(),
  expiresAt: z.string(),
});

export const sandboxProvider: PaymentProvider = {
  name: 'sandbox',

  async createSession(request: SessionRequest): Promise<CreatedSession> {
    const sessionId = `sbx_${randomBytes(18).toString('base64url')}`;
    return {
      sessionId,
      url: `${baseUrl()}/paiement/sandbox/${sessionId}`,
      raw: {
        object: 'sandbox.session',
        returnUrl: request.returnUrl,
        cancelUrl: request.cancelUrl,
        expiresAt: new Date(Date.now() + SANDBOX_SESSION_TTL_MS).toISOString(),
      },
    };
  },

  async verifyNotification({ body, headers }): Promise<NotificationCheck> {
    if (!verifySandboxSignature(body, headers.get(SANDBOX_SIGNATURE_HEADER))) {
      return { ok: false, status: 400, reason: 'Signature invalide' };
    }
    let parsed: SandboxEvent;
    try {
      parsed = sandboxEventSchema.parse(JSON.parse(body.toString('utf8')));
    } catch {
      return { ok: false, status: 400, reason: 'Notification illisible' };
    }
    const outcome =
      parsed.type === 'payment.succeeded' ? 'paid' : parsed.type === 'payment.failed' ? 'failed' : 'canceled';
    return {
      ok: true,
      notification: {
        provider: 'sandbox',
        eventId: parsed.id,
        providerRef: parsed.data.sessionId,
        orderId: parsed.data.orderId,
        outcome,
        amountCents: parsed.data.amountCents,
        currency: parsed.data.currency,
        method: 'card',
        detail: parsed.data.reason ?? undefined,
        raw: parsed,
      },
    };
  },

  async probe() {
    return { configured: true, message: 'Bac à sable : paiements de test, aucun montant n’est encaissé.' };
  },

  // No money was taken, so none goes back: the refund succeeds at once. The reference is derived
  // from the idempotency key, so that a retried call names the same refund, as a gateway would.
  async refund(request) {
    const digest = createHmac('sha256', 'soovenirs/sandbox-refund').update(request.idempotencyKey).digest('base64url');
    return { status: 'succeeded', gatewayRef: `sandbox_re_${digest.slice(0, 24)}` };
  },
};

/**
 * Whether the sandbox may complete a payment now: it is the back office's gateway, and this shop
 * lets it take payments (not production, or PAYMENT_SANDBOX=on). The webhook checks the same.
 */
export async function sandboxIsActive(): Promise<boolean> {
  if (!sandboxMayTakePayments()) return false;
  return (await loadPaymentConfig()).type === 'sandbox';
}

export type SandboxSessionState = 'open' | 'paid' | 'closed' | 'expired';

export interface SandboxSession {
  sessionId: string;
  orderId: string;
  orderNumber: string;
  amountCents: number;
  state: SandboxSessionState;
  returnUrl: string;
  cancelUrl: string;
  expiresAt: Date;
}

/** The sandbox's session `sessionId` (its payment page), or null. */
export async function getSandboxSession(sessionId: string, now = new Date()): Promise<SandboxSession | null> {
  if (!/^sbx_[\w-]{10,60}$/.test(sessionId)) return null;
  const [row] = await db()
    .select({ payment: payments, orderNumber: orders.number })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(and(eq(payments.provider, 'sandbox'), eq(payments.providerRef, sessionId)))
    .limit(1);
  if (!row) return null;
  const { payment } = row;
  const raw = sessionRawSchema.safeParse((payment.rawEvent as { session?: unknown } | null)?.session);
  if (!raw.success) return null;
  const expiresAt = new Date(raw.data.expiresAt);
  const state: SandboxSessionState =
    payment.status === 'paid'
      ? 'paid'
      : payment.status !== 'pending'
        ? 'closed'
        : expiresAt.getTime() < now.getTime()
          ? 'expired'
          : 'open';
  return {
    sessionId,
    orderId: payment.orderId,
    orderNumber: row.orderNumber,
    amountCents: payment.amountCents,
    state,
    returnUrl: raw.data.returnUrl,
    cancelUrl: raw.data.cancelUrl,
    expiresAt,
  };
}

export interface DeliveryOptions {
  /** Where the sandbox sends its notifications; the shop's own webhook by default. */
  webhookUrl?: string;
}

/** Sends a signed notification to the shop, as a gateway's server does. Returns the HTTP status. */
export async function deliverSandboxEvent(event: SandboxEvent, options: DeliveryOptions = {}): Promise<number> {
  const body = JSON.stringify(event);
  const url = options.webhookUrl ?? `${baseUrl()}/api/webhooks/sandbox`;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signSandboxPayload(body) },
      body,
      signal: AbortSignal.timeout(15_000),
      redirect: 'manual',
    });
    await response.arrayBuffer().catch(() => undefined);
    return response.status;
  } catch (error) {
    log.error({ err: error, url }, 'the sandbox could not deliver its notification');
    return 0;
  }
}

function event(session: SandboxSession, type: SandboxEvent['type'], card: CardForm | null): SandboxEvent {
  return {
    // One id per session and outcome: the same outcome sent twice (a double click, a retry) is one event.
    id: `sbxevt_${session.sessionId}_${type.slice('payment.'.length)}`,
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      sessionId: session.sessionId,
      orderId: session.orderId,
      amountCents: session.amountCents,
      currency: 'EUR',
      card: card ? { brand: cardBrand(card.cardNumber), last4: cardLast4(card.cardNumber) } : null,
    },
  };
}

export type SandboxPayResult =
  | { status: 'paid'; redirectTo: string }
  | { status: 'declined'; message: string }
  | { status: 'unavailable'; message: string; redirectTo?: string }
  | { status: 'error'; message: string };

/**
 * The sandbox takes a payment: the card decides the outcome (Stripe's test cards). A declined card
 * changes nothing anywhere. An accepted one is notified to the shop, and the customer goes back to
 * the shop's return address once the shop has acknowledged the notification.
 */
export async function paySandboxSession(
  sessionId: string,
  card: CardForm,
  options: DeliveryOptions = {},
): Promise<SandboxPayResult> {
  const session = await getSandboxSession(sessionId);
  if (!session) return { status: 'unavailable', message: PAYMENT_MESSAGES.sessionNotFound };
  if (!(await sandboxIsActive())) return { status: 'unavailable', message: SANDBOX_POLICY_MESSAGES.sandboxRefused };
  if (session.state === 'paid') return { status: 'paid', redirectTo: session.returnUrl };
  if (session.state === 'expired') return { status: 'unavailable', message: PAYMENT_MESSAGES.sessionExpired };
  if (session.state === 'closed') {
    return { status: 'unavailable', message: PAYMENT_MESSAGES.sessionClosed, redirectTo: session.cancelUrl };
  }
  const outcome = sandboxCardOutcome(card.cardNumber);
  if (outcome.outcome === 'declined') return { status: 'declined', message: outcome.message };
  const status = await deliverSandboxEvent(event(session, 'payment.succeeded', card), options);
  if (status < 200 || status >= 300) {
    return {
      status: 'error',
      message: PAYMENT_MESSAGES.processingError(
        status === 0 ? 'la boutique ne répond pas' : `la boutique a refusé la notification (HTTP ${status})`,
      ),
    };
  }
  return { status: 'paid', redirectTo: session.returnUrl };
}

/** The customer gives up on the sandbox's page: the attempt is closed and the browser goes back to the shop. */
export async function cancelSandboxSession(
  sessionId: string,
  options: DeliveryOptions = {},
): Promise<{ redirectTo: string } | null> {
  const session = await getSandboxSession(sessionId);
  if (!session) return null;
  // A disabled sandbox would refuse its own notification: just send the customer back.
  if (session.state === 'open' && (await sandboxIsActive())) {
    const status = await deliverSandboxEvent(event(session, 'payment.canceled', null), options);
    if (status < 200 || status >= 300) log.warn({ sessionId, status }, 'sandbox cancellation not acknowledged');
  }
  return { redirectTo: session.cancelUrl };
}
