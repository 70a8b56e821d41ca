import { frenchTypography } from '../format';
import { wasPaid } from '../order-status';
import { isOfflinePaymentMethod, type OfflinePaymentMethod } from './offline';

/*
 * What /confirmation says about the payment. After paying at Stripe or Monetico the customer may
 * come back before the gateway's verified notification (server to server) has reached us: the
 * order is still "pending", but a payment is under way, and the page must not look unpaid. It
 * then shows "Paiement en cours de confirmation" and reloads its data every few seconds for a
 * minute; after that it says the e-mail will follow.
 */

/**
 * The mark of a return from a gateway on /confirmation (the checkout's return address; Stripe adds
 * its own `session_id`): only then is a pending attempt a payment being confirmed. Reached from the
 * account, after a payment cancelled at Stripe or Monetico (whose attempt stays open until it
 * expires), the order is simply unpaid.
 */
export const RETURN_PARAM = { name: 'paiement', value: 'retour' } as const;

/** Where a gateway sends the customer back after paying. */
export function gatewayReturnPath(orderId: string): string {
  return `/confirmation?${new URLSearchParams({ orderId, [RETURN_PARAM.name]: RETURN_PARAM.value })}`;
}

export function arrivedFromGateway(search: URLSearchParams): boolean {
  return search.get(RETURN_PARAM.name) === RETURN_PARAM.value || search.has('session_id');
}

/** How often the page asks again, and for how long. */
export const CONFIRMATION_POLL_INTERVAL_MS = 3_000;
export const CONFIRMATION_POLL_MAX_MS = 60_000;

/** A card attempt opened longer ago than this is an abandoned one, not one being confirmed. */
export const OPEN_ATTEMPT_MAX_AGE_MS = 30 * 60_000;

export type ConfirmationPaymentState =
  | { kind: 'paid' }
  | { kind: 'confirming' }
  | { kind: 'offline'; method: OfflinePaymentMethod }
  | { kind: 'unpaid' }
  /** Cancelled or withdrawn: nothing is asked to be paid any more. */
  | { kind: 'closed' };

export function confirmationPaymentState(input: {
  paymentStatus: string;
  paymentMethod: string;
  /** When the latest card attempt still pending was opened, or null. */
  openAttemptAt: Date | null;
  now: Date;
  /** The order was cancelled or the customer withdrew. */
  closed?: boolean;
}): ConfirmationPaymentState {
  if (input.closed) return { kind: 'closed' };
  if (wasPaid(input.paymentStatus)) return { kind: 'paid' };
  if (input.paymentStatus === 'pending' && isOfflinePaymentMethod(input.paymentMethod)) {
    return { kind: 'offline', method: input.paymentMethod };
  }
  if (
    input.paymentStatus === 'pending' &&
    input.openAttemptAt &&
    input.now.getTime() - input.openAttemptAt.getTime() < OPEN_ATTEMPT_MAX_AGE_MS
  ) {
    return { kind: 'confirming' };
  }
  return { kind: 'unpaid' };
}

export const CONFIRMATION_TEXT = {
  paid: frenchTypography('Merci pour votre commande ! Votre paiement a bien été reçu.'),
  unpaid: 'Votre commande est enregistrée. Elle sera traitée dès réception de votre paiement.',
  closed: frenchTypography('Cette commande est annulée : aucun paiement n’est attendu.'),
  confirmingTitle: 'Paiement en cours de confirmation',
  confirming:
    'Nous attendons la confirmation de votre paiement par notre prestataire. Cette page se met à jour toute seule, inutile de payer à nouveau.',
  confirmingLate: frenchTypography(
    'La confirmation prend plus de temps que prévu. Vous recevrez un e-mail dès que votre paiement sera confirmé ; vous pouvez fermer cette page sans risque.',
  ),
  offline: 'Votre commande est enregistrée. Elle sera traitée dès réception de votre paiement.',
} as const;
