import Stripe from 'stripe';
import { buildDocumentLines } from '~/domain/invoices/snapshot';
import { PAYMENT_MESSAGES } from '~/domain/payments/messages';
import type { PaymentConfig } from '~/domain/payments/payment-config';
import type { OrderFacts } from '../invoices/order-facts.server';
import { log } from '../log.server';
import {
  type CreatedSession,
  type NotificationCheck,
  type PaymentNotification,
  type PaymentProvider,
  PaymentProviderError,
  type RefundRequest,
  type RefundResult,
  type SessionRequest,
} from './types';

/*
 * Stripe, through the official SDK: a Checkout Session per payment attempt (mode payment, the
 * order's lines at the server's prices, client_reference_id and metadata naming the order, success
 * and cancel addresses), and a webhook whose signature is verified on the raw body with the
 * endpoint's signing secret (stripe.webhooks.constructEvent). The order is paid on
 * checkout.session.completed when the session is paid, or on
 * checkout.session.async_payment_succeeded for the payment methods that settle later.
 *
 * Refunds go through the Refunds API against the session's payment intent (a partial refund, then
 * others, up to what the payment intent took), with an idempotency key so that a retried call
 * never gives the money back twice.
 *
 * STRIPE_API_URL (e.g. http://127.0.0.1:12111) points the SDK at another server speaking Stripe's
 * API: the tests' fake Stripe (tests/support/fake-stripe.ts), or stripe-mock. Never set in
 * production.
 */

const HANDLED_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
]);

export function stripeClient(apiKey: string): Stripe {
  const config: Stripe.StripeConfig = { maxNetworkRetries: 2, timeout: 20_000, appInfo: { name: 'Soovenirs' } };
  const override = process.env.STRIPE_API_URL;
  if (override) {
    const url = new URL(override);
    config.host = url.hostname;
    config.protocol = url.protocol === 'http:' ? 'http' : 'https';
    config.port = url.port || (url.protocol === 'http:' ? 80 : 443);
  }
  return new Stripe(apiKey, config);
}

/** `returnUrl` with Stripe's session placeholder added to its query (left unencoded, as Stripe wants it). */
export function successUrl(returnUrl: string): string {
  return `${returnUrl}${returnUrl.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`;
}

/**
 * The session's line items: the invoice's lines at the server's prices. A line whose total is not
 * quantity x a whole-cent unit price (an exact price like 0,455 €), or a negative adjustment, is
 * sent as one item of its total, so that Stripe's total is the order's total to the cent.
 */
export function stripeLineItems(order: OrderFacts): Stripe.Checkout.SessionCreateParams.LineItem[] {
  const lines = buildDocumentLines(order, order.priceList ?? undefined);
  if (lines.length > 100 || lines.some((line) => line.totalCents < 0)) {
    return [
      {
        quantity: 1,
        price_data: {
          currency: 'eur',
          unit_amount: order.amountDueCents,
          product_data: { name: `Commande ${order.number}` },
        },
      },
    ];
  }
  return lines.map((line) => {
    const exact = line.quantity * line.unitPriceCents === line.totalCents;
    const name = exact || line.quantity === 1 ? line.label : `${line.label} (× ${line.quantity})`;
    return {
      quantity: exact ? line.quantity : 1,
      price_data: {
        currency: 'eur',
        unit_amount: exact ? line.unitPriceCents : line.totalCents,
        product_data: { name, ...(line.detail ? { description: line.detail } : {}) },
      },
    };
  });
}

function sessionNotification(event: Stripe.Event, session: Stripe.Checkout.Session): PaymentNotification {
  let outcome: PaymentNotification['outcome'];
  switch (event.type) {
    case 'checkout.session.completed':
      outcome = session.payment_status === 'paid' ? 'paid' : 'pending';
      break;
    case 'checkout.session.async_payment_succeeded':
      outcome = 'paid';
      break;
    case 'checkout.session.async_payment_failed':
      outcome = 'failed';
      break;
    default:
      outcome = 'canceled';
  }
  const orderId = session.client_reference_id ?? session.metadata?.orderId ?? null;
  return {
    provider: 'stripe',
    eventId: event.id,
    providerRef: session.id,
    orderId,
    outcome,
    amountCents: session.amount_total,
    currency: session.currency,
    method: 'card',
    detail: outcome === 'failed' ? 'paiement différé refusé' : undefined,
    raw: {
      id: event.id,
      type: event.type,
      created: event.created,
      livemode: event.livemode,
      session: {
        id: session.id,
        status: session.status,
        payment_status: session.payment_status,
        amount_total: session.amount_total,
        currency: session.currency,
        client_reference_id: session.client_reference_id,
        payment_intent: typeof session.payment_intent === 'string' ? session.payment_intent : null,
      },
    },
  };
}

/** Why Stripe refused a refund, in French for the back office (Stripe's codes, not its English messages). */
export const STRIPE_REFUND_MESSAGES = {
  alreadyRefunded: 'Stripe refuse le remboursement : ce paiement a déjà été entièrement remboursé.',
  amountTooLarge: 'Stripe refuse le remboursement : le montant dépasse ce qui reste à rembourser sur ce paiement.',
  noPaymentIntent: 'Stripe ne trouve pas le paiement de cette session : remboursez depuis le tableau de bord Stripe.',
  failed: 'Stripe a refusé le remboursement.',
  unreachable: 'Stripe ne répond pas : le remboursement n’a pas été fait, réessayez plus tard.',
} as const;

/**
 * The payment intent named in payments.raw_event: the checkout.session notification that paid it is
 * kept under `event` (notifications.server.ts), beside the session as created; either may name it.
 */
export function paymentIntentOf(raw: unknown): string | null {
  const stored = raw as { event?: { session?: { payment_intent?: unknown } }; session?: { payment_intent?: unknown } };
  for (const value of [stored?.event?.session?.payment_intent, stored?.session?.payment_intent]) {
    if (typeof value === 'string' && value.startsWith('pi_')) return value;
  }
  return null;
}

/** The payment intent to refund: the one the notification kept, else the session's (asked of Stripe). */
async function paymentIntentToRefund(stripe: Stripe, request: RefundRequest): Promise<string> {
  let paymentIntent = paymentIntentOf(request.raw);
  if (!paymentIntent) {
    // Older notifications did not keep it: the session knows it.
    const session = await stripe.checkout.sessions.retrieve(request.providerRef);
    paymentIntent =
      typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
  }
  if (!paymentIntent) {
    throw new PaymentProviderError(
      `Stripe session ${request.providerRef} has no payment intent`,
      STRIPE_REFUND_MESSAGES.noPaymentIntent,
    );
  }
  return paymentIntent;
}

/** Stripe's refusal codes the back office is told about in its own words; any other is « refusé ». */
const REFUND_MESSAGE_OF_CODE = new Map<string, string>([
  ['charge_already_refunded', STRIPE_REFUND_MESSAGES.alreadyRefunded],
  ['amount_too_large', STRIPE_REFUND_MESSAGES.amountTooLarge],
  ['resource_missing', STRIPE_REFUND_MESSAGES.noPaymentIntent],
]);

/** The French message of an error Stripe's client threw (connection and key errors first: they are StripeErrors too). */
function refundErrorMessage(error: unknown): string {
  if (error instanceof Stripe.errors.StripeConnectionError) return STRIPE_REFUND_MESSAGES.unreachable;
  if (error instanceof Stripe.errors.StripeAuthenticationError) return PAYMENT_MESSAGES.notConfigured;
  if (error instanceof Stripe.errors.StripeError) {
    return REFUND_MESSAGE_OF_CODE.get(error.code ?? '') ?? STRIPE_REFUND_MESSAGES.failed;
  }
  return STRIPE_REFUND_MESSAGES.failed;
}

async function refundAtStripe(config: PaymentConfig, request: RefundRequest): Promise<RefundResult> {
  if (!config.apiKey) throw new PaymentProviderError('no Stripe key', PAYMENT_MESSAGES.notConfigured);
  const stripe = stripeClient(config.apiKey);
  try {
    const paymentIntent = await paymentIntentToRefund(stripe, request);
    const refund = await stripe.refunds.create(
      {
        payment_intent: paymentIntent,
        amount: request.amountCents,
        metadata: {
          providerRef: request.providerRef,
          ...(request.reason ? { reason: request.reason.slice(0, 500) } : {}),
        },
      },
      { idempotencyKey: request.idempotencyKey },
    );
    if (refund.status === 'failed' || refund.status === 'canceled') {
      log.error({ refund: refund.id, status: refund.status, reason: refund.failure_reason }, 'Stripe refund failed');
      throw new PaymentProviderError(`Stripe refund ${refund.id} ${refund.status}`, STRIPE_REFUND_MESSAGES.failed);
    }
    return { status: refund.status === 'succeeded' ? 'succeeded' : 'pending', gatewayRef: refund.id };
  } catch (error) {
    if (error instanceof PaymentProviderError) throw error;
    log.error({ err: error, providerRef: request.providerRef }, 'Stripe refused a refund');
    throw new PaymentProviderError(String((error as Error).message), refundErrorMessage(error));
  }
}

export function createStripeProvider(config: PaymentConfig): PaymentProvider {
  return {
    name: 'stripe',

    async createSession(request: SessionRequest): Promise<CreatedSession> {
      if (!config.apiKey) throw new PaymentProviderError('no Stripe key', PAYMENT_MESSAGES.notConfigured);
      const { order } = request;
      try {
        const session = await stripeClient(config.apiKey).checkout.sessions.create({
          mode: 'payment',
          line_items: stripeLineItems(order),
          client_reference_id: order.id,
          metadata: { orderId: order.id, orderNumber: order.number },
          payment_intent_data: {
            description: `Commande ${order.number}`,
            metadata: { orderId: order.id, orderNumber: order.number },
          },
          ...(request.customerEmail ? { customer_email: request.customerEmail } : {}),
          locale: 'fr',
          success_url: successUrl(request.returnUrl),
          cancel_url: request.cancelUrl,
        });
        if (!session.url || session.amount_total !== order.amountDueCents) {
          log.error({ session: session.id, amount: session.amount_total }, 'unexpected Stripe Checkout Session');
          throw new PaymentProviderError('unexpected Stripe session', PAYMENT_MESSAGES.invalidResponse);
        }
        return {
          sessionId: session.id,
          url: session.url,
          raw: {
            object: 'checkout.session',
            id: session.id,
            amount_total: session.amount_total,
            currency: session.currency,
            expires_at: session.expires_at,
          },
        };
      } catch (error) {
        if (error instanceof PaymentProviderError) throw error;
        log.error({ err: error }, 'Stripe refused to create a Checkout Session');
        const message =
          error instanceof Stripe.errors.StripeConnectionError
            ? PAYMENT_MESSAGES.providerUnreachable
            : PAYMENT_MESSAGES.providerRefused;
        throw new PaymentProviderError(String((error as Error).message), message);
      }
    },

    async verifyNotification({ body, headers }): Promise<NotificationCheck> {
      const signature = headers.get('stripe-signature');
      if (!signature) return { ok: false, status: 400, reason: 'Signature absente' };
      if (!config.webhookSecret) return { ok: false, status: 503, reason: 'Secret de webhook non configuré' };
      let event: Stripe.Event;
      try {
        event = Stripe.webhooks.constructEvent(body, signature, config.webhookSecret);
      } catch {
        return { ok: false, status: 400, reason: 'Signature invalide' };
      }
      if (!HANDLED_EVENTS.has(event.type)) return { ok: true, notification: null };
      const session = event.data.object as Stripe.Checkout.Session;
      if (session.object !== 'checkout.session' || session.mode !== 'payment') return { ok: true, notification: null };
      return { ok: true, notification: sessionNotification(event, session) };
    },

    refund: (request) => refundAtStripe(config, request),

    async probe() {
      if (!config.apiKey || !config.webhookSecret) {
        return { configured: false, message: PAYMENT_MESSAGES.notConfigured };
      }
      try {
        await stripeClient(config.apiKey).balance.retrieve();
        return { configured: true, message: `Stripe répond (mode ${config.testMode ? 'test' : 'production'}).` };
      } catch (error) {
        log.warn({ err: error }, 'Stripe probe failed');
        return {
          configured: false,
          message:
            error instanceof Stripe.errors.StripeAuthenticationError
              ? 'Stripe refuse la clé secrète configurée'
              : PAYMENT_MESSAGES.providerUnreachable,
        };
      }
    },
  };
}

/** Asks Stripe to close an open session (a newer one replaces it); Stripe then sends checkout.session.expired. */
export async function expireStripeSession(config: PaymentConfig, sessionId: string): Promise<void> {
  if (!config.apiKey) return;
  try {
    await stripeClient(config.apiKey).checkout.sessions.expire(sessionId);
  } catch (error) {
    // Already completed or expired: nothing to do.
    log.info({ err: error, sessionId }, 'Stripe session not expired');
  }
}
