import type { PaymentProviderName } from '~/domain/payments/payment-config';
import type { PaymentOutcome } from '~/domain/payments/status';
import type { OrderFacts } from '../invoices/order-facts.server';

/*
 * One interface for the three gateways (DESIGN.md, payments): create a payment session for an
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
}

/** A gateway refused or failed to create a session: shown as "Échec de création de la session de paiement: ...". */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly publicMessage: string,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}
