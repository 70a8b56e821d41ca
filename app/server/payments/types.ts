import type { PaymentProviderName } from '~/domain/payments/payment-config';
import type { PaymentOutcome } from '~/domain/payments/status';
import type { OrderFacts } from '../invoices/order-facts.server';

/*
 * One interface for the three gateways (docs/payments.md): create a payment session for an
 * order, verify a notification, and say what it reports (paid, failed, cancelled, still pending).
 * The order becomes paid only through a verified notification (notifications.server.ts), never
 * through the browser coming back from the gateway.
 */

export interface SessionRequest {
  order: OrderFacts;
  /** Where the gateway sends the customer after paying (absolute URL of this shop). */
  returnUrl: string;
  /** Where the gateway sends the customer who cancels (absolute URL of this shop). */
  cancelUrl: string;
  customerEmail: string | null;
}

export interface CreatedSession {
  /** The gateway's reference of the attempt: payments.provider_ref. */
  sessionId: string;
  /** Where to send the customer's browser. */
  url: string;
  /** What to keep of the gateway's answer (payments.raw_event until a notification replaces it). */
  raw: Record<string, unknown>;
}

/** A notification whose signature was verified: what the gateway says happened. */
export interface PaymentNotification {
  provider: PaymentProviderName;
  /** Unique per provider: a replay of the same notification is applied once (payment_events). */
  eventId: string;
  /** The payment attempt: payments.provider_ref. */
  providerRef: string;
  /** The order the gateway names (client_reference_id, texte-libre...), checked against the attempt. */
  orderId: string | null;
  outcome: PaymentOutcome;
  /** Amount the gateway reports for the attempt, in cents. */
  amountCents: number | null;
  currency: string | null;
  /** Payment method (card...). */
  method: string;
  /** Why it failed, in the gateway's words (kept in the history, never shown as is to customers). */
  detail?: string;
  /** The notification, kept in payments.raw_event. */
  raw: unknown;
}

export type NotificationCheck =
  | { ok: true; notification: PaymentNotification | null }
  | { ok: false; status: 400 | 401 | 503; reason: string };

export interface ProbeResult {
  configured: boolean;
  message: string;
}

export interface RefundRequest {
  /** The paid attempt: payments.provider_ref (a Checkout Session for Stripe). */
  providerRef: string;
  /** payments.raw_event of that attempt (the notification that paid it), where the gateway's own ids are. */
  raw: unknown;
  /** What to give back, in cents: at most what the attempt took and was not refunded yet. */
  amountCents: number;
  /** Same key, same refund: a retried call never refunds twice (the refunds row's id suits). */
  idempotencyKey: string;
  reason?: string;
}

export interface RefundResult {
  /** `pending`: the gateway accepted it and will settle it later (Stripe's pending refunds). */
  status: 'succeeded' | 'pending';
  /** The gateway's reference of the refund (re_… for Stripe): refunds.gateway_ref. */
  gatewayRef: string;
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createSession(request: SessionRequest): Promise<CreatedSession>;
  /**
   * Verifies a notification on its raw bytes and headers. `notification: null` is a verified
   * notification of an event the shop does not act on (acknowledged, nothing changes).
   */
  verifyNotification(input: { body: Buffer; headers: Headers }): Promise<NotificationCheck>;
  /** Whether the keys are there (and, where the gateway allows, accepted). */
  probe(): Promise<ProbeResult>;
  /**
   * Gives money back through the gateway. Absent for a gateway the shop cannot ask (Monetico: its
   * refunds go through the merchant's back office, see payments/refunds.server.ts). Throws
   * PaymentProviderError, with a French publicMessage, when the gateway refuses or cannot be reached.
   */
  refund?(request: RefundRequest): Promise<RefundResult>;
}

/**
 * A gateway refused or failed: for a session, shown as "Échec de création de la session de
 * paiement: ..."; for a refund, publicMessage is the whole French sentence for the back office.
 */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly publicMessage: string,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}
