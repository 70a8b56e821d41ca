import type { PaymentConfig, PaymentProviderName } from '~/domain/payments/payment-config';
import { loadPaymentConfig } from './config.server';
import { createMoneticoProvider } from './monetico.server';
import { sandboxProvider } from './sandbox.server';
import { createStripeProvider } from './stripe.server';
import type { PaymentProvider, RefundResult } from './types';

/*
 * Refunds at the gateway (docs/payments.md): the order lifecycle asks here to give money back
 * through the gateway that took it, then records the refund and its credit note. A refund goes to
 * the gateway of the payment, not the active one: the shop may have switched from Stripe to
 * Monetico since, and the Stripe keys are still in the saved configuration (payment_config keeps
 * every gateway's fields; only the chosen gateway's are required when saving).
 *
 * Monetico is not asked: its refunds (« recrédit », recredit_paiement.cgi) are a separate
 * server-to-server API sold as an option of the merchant's contract, which needs the payment's
 * authorisation number and capture date and has no test peer here. A Monetico payment is refunded
 * by the staff in Monetico's back office and recorded by hand (supportsRefund('monetico') is false).
 */

export type GatewayRefundResult = RefundResult | { status: 'unsupported' };

export interface GatewayRefundInput {
  /** The gateway of the payment (payments.provider), whatever the active one is now. */
  provider: PaymentProviderName;
  /** payments.provider_ref */
  providerRef: string;
  /** payments.raw_event */
  raw: unknown;
  amountCents: number;
  /** Same key, same refund (use the refunds row's id). */
  idempotencyKey: string;
  reason?: string;
}

/** A configuration without keys: enough to ask a gateway what it supports. */
const NO_KEYS: PaymentConfig = {
  type: 'sandbox',
  testMode: true,
  apiKey: '',
  webhookSecret: '',
  merchantId: '',
  companyCode: '',
  secretKey: '',
};

function providerFor(name: PaymentProviderName, config: PaymentConfig): PaymentProvider {
  switch (name) {
    case 'stripe':
      return createStripeProvider(config);
    case 'monetico':
      return createMoneticoProvider(config);
    default:
      return sandboxProvider;
  }
}

/** Whether money taken by this gateway can be given back through it by the shop (else: by hand). */
export function supportsRefund(provider: string): boolean {
  if (provider !== 'sandbox' && provider !== 'stripe' && provider !== 'monetico') return false;
  return typeof providerFor(provider, NO_KEYS).refund === 'function';
}

/**
 * Asks the payment's gateway to give `amountCents` back. `unsupported`: the gateway cannot be asked
 * (record a manual refund). Throws PaymentProviderError (publicMessage in French) when the gateway
 * refuses or cannot be reached; nothing was refunded then.
 */
export async function refundAtGateway(input: GatewayRefundInput): Promise<GatewayRefundResult> {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) {
    throw new RangeError(`refund amount must be a positive number of cents: ${input.amountCents}`);
  }
  if (!supportsRefund(input.provider)) return { status: 'unsupported' };
  const config = input.provider === 'sandbox' ? NO_KEYS : await loadPaymentConfig();
  const provider = providerFor(input.provider, config);
  if (!provider.refund) return { status: 'unsupported' };
  return provider.refund({
    providerRef: input.providerRef,
    raw: input.raw,
    amountCents: input.amountCents,
    idempotencyKey: input.idempotencyKey,
    ...(input.reason ? { reason: input.reason } : {}),
  });
}
