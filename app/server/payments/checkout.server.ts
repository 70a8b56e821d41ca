import { and, eq, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { wasPaid } from '~/domain/order-status';
import { PAYMENT_MESSAGES } from '~/domain/payments/messages';
import {
  missingPaymentKeys,
  PAYMENT_PROVIDER_LABELS,
  type PaymentConfig,
  type PaymentProviderName,
} from '~/domain/payments/payment-config';
import { SANDBOX_POLICY_MESSAGES } from '~/domain/payments/sandbox-policy';
import { safeRedirect } from '~/domain/redirect';
import { db } from '../db/client.server';
import { orderEvents, payments } from '../db/schema';
import { baseUrl } from '../env.server';
import { loadOrderFacts } from '../invoices/order-facts.server';
import { log } from '../log.server';
import { loadPaymentConfig } from './config.server';
import { createMoneticoProvider } from './monetico.server';
import { sandboxProvider } from './sandbox.server';
import { getCardAvailability, sandboxMayTakePayments } from './sandbox-mode.server';
import { createStripeProvider, expireStripeSession } from './stripe.server';
import { type PaymentProvider, PaymentProviderError, type ProbeResult } from './types';

/*
 * `create-checkout`: a payment session for an order, at the
 * order's own amount (never one sent by a browser), with the gateway the back office chose. The
 * route (routes/api/create-checkout.ts) checks who asks first; this module trusts its caller.
 */

export function providerFor(name: PaymentProviderName, config: PaymentConfig): PaymentProvider {
  switch (name) {
    case 'sandbox':
      return sandboxProvider;
    case 'stripe':
      return createStripeProvider(config);
    case 'monetico':
      return createMoneticoProvider(config);
  }
}

export class CheckoutError extends Error {
  constructor(
    readonly status: 404 | 409 | 422 | 429 | 502 | 503,
    message: string,
  ) {
    super(message);
    this.name = 'CheckoutError';
  }
}

/** The checkout page of an order, where the gateways send the customer back by default. */
export function checkoutPath(orderId: string, canceled = false): string {
  return `/checkout?${new URLSearchParams({ orderId, ...(canceled ? { canceled: 'true' } : {}) })}`;
}

/**
 * Where to come back after paying: a local path, or an absolute URL on this shop's origin, as the
 * caller's returnUrl; anything else (another site: an open redirect) falls back to the checkout page.
 */
export function returnPathFor(returnUrl: unknown, orderId: string): string {
  const fallback = checkoutPath(orderId);
  if (typeof returnUrl !== 'string' || returnUrl === '') return fallback;
  let candidate = returnUrl;
  if (/^https?:\/\//i.test(returnUrl)) {
    try {
      const url = new URL(returnUrl);
      if (url.origin !== new URL(baseUrl()).origin) return fallback;
      candidate = `${url.pathname}${url.search}${url.hash}`;
    } catch {
      return fallback;
    }
  }
  return safeRedirect(candidate, fallback);
}

/** The back office's gateway, when it may take a card payment now (else CheckoutError 503). */
export async function activeGateway(): Promise<{ config: PaymentConfig; provider: PaymentProvider }> {
  const config = await loadPaymentConfig();
  const card = await getCardAvailability(undefined, config);
  // A production shop without a real gateway: no test card may "pay" an order (docs/payments.md).
  if (!card.available && card.reason === 'sandbox-disabled') {
    throw new CheckoutError(503, SANDBOX_POLICY_MESSAGES.cardUnavailable);
  }
  if (missingPaymentKeys(config).length > 0) throw new CheckoutError(503, PAYMENT_MESSAGES.notConfigured);
  return { config, provider: providerFor(config.type, config) };
}

export interface CreateCheckoutInput {
  orderId: string;
  /** The caller's returnUrl: where to come back after paying (sanitised, see returnPathFor). */
  returnUrl?: string | null;
  /** The caller's customerEmail: only used when the order itself has no e-mail address. */
  customerEmail?: string | null;
}

export interface CheckoutSession {
  url: string;
  sessionId: string;
  provider: PaymentProviderName;
}

/**
 * Opens a payment session for the order with the configured gateway and records the attempt
 * (a pending `payments` row). Throws CheckoutError with the HTTP status and French message.
 */
export async function createCheckout(input: CreateCheckoutInput): Promise<CheckoutSession> {
  const order = await loadOrderFacts(db(), input.orderId);
  if (!order) throw new CheckoutError(404, PAYMENT_MESSAGES.orderNotFound);
  if (wasPaid(order.paymentStatus)) {
    throw new CheckoutError(409, PAYMENT_MESSAGES.alreadyPaid);
  }
  if (order.status === 'canceled') throw new CheckoutError(409, PAYMENT_MESSAGES.orderCanceled);
  if (order.withdrawnAt) throw new CheckoutError(409, PAYMENT_MESSAGES.orderWithdrawn);
  if (order.amountDueCents <= 0) throw new CheckoutError(422, PAYMENT_MESSAGES.nothingToPay);

  const { config, provider } = await activeGateway();

  const origin = baseUrl();
  const returnUrl = `${origin}${returnPathFor(input.returnUrl, order.id)}`;
  const cancelUrl = `${origin}${checkoutPath(order.id, true)}`;
  const bodyEmail = z.email().safeParse(input.customerEmail?.trim());
  const customerEmail = order.customer.email ?? (bodyEmail.success ? bodyEmail.data : null);

  let session: Awaited<ReturnType<PaymentProvider['createSession']>>;
  try {
    session = await provider.createSession({ order, returnUrl, cancelUrl, customerEmail });
  } catch (error) {
    if (error instanceof PaymentProviderError) {
      throw new CheckoutError(
        error.publicMessage === PAYMENT_MESSAGES.notConfigured ? 503 : 502,
        PAYMENT_MESSAGES.sessionFailed(error.publicMessage),
      );
    }
    throw error;
  }

  const others = await db().transaction(async (tx) => {
    await tx
      .insert(payments)
      .values({
        orderId: order.id,
        provider: provider.name,
        providerRef: session.sessionId,
        amountCents: order.amountDueCents,
        status: 'pending',
        method: 'card',
        rawEvent: { session: session.raw },
      })
      // A notification may have arrived first and recorded the attempt already.
      .onConflictDoNothing();
    await tx.insert(orderEvents).values({
      orderId: order.id,
      actor: provider.name,
      kind: 'payment_session_created',
      data: { provider: provider.name, sessionId: session.sessionId, amountCents: order.amountDueCents },
    });
    // One open attempt per order: the earlier ones of this gateway are closed (or expired at Stripe).
    const condition = and(
      eq(payments.orderId, order.id),
      eq(payments.provider, provider.name),
      eq(payments.status, 'pending'),
      ne(payments.providerRef, session.sessionId),
    );
    if (provider.name === 'stripe') {
      return tx.select({ ref: payments.providerRef }).from(payments).where(condition);
    }
    await tx.update(payments).set({ status: 'canceled', updatedAt: sql`now()` }).where(condition);
    return [];
  });
  for (const other of others) await expireStripeSession(config, other.ref);

  log.info({ orderId: order.id, provider: provider.name, sessionId: session.sessionId }, 'payment session created');
  return { url: session.url, sessionId: session.sessionId, provider: provider.name };
}

export interface PaymentProbe extends ProbeResult {
  provider: PaymentProviderName;
  providerLabel: string;
  testMode: boolean;
}

/** The probe (`create-checkout` with test: true, for the back office): are the keys configured? */
export async function probePayments(): Promise<PaymentProbe> {
  const config = await loadPaymentConfig();
  const base = {
    provider: config.type,
    providerLabel: PAYMENT_PROVIDER_LABELS[config.type],
    testMode: config.testMode,
  };
  if (missingPaymentKeys(config).length > 0) {
    return { ...base, configured: false, message: PAYMENT_MESSAGES.notConfigured };
  }
  if (config.type === 'sandbox' && !sandboxMayTakePayments()) {
    return { ...base, configured: false, message: SANDBOX_POLICY_MESSAGES.sandboxRefused };
  }
  return { ...base, ...(await providerFor(config.type, config).probe()) };
}
