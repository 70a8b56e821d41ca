/*
 * A payment attempt (a `payments` row: one gateway session or reference) and what a gateway's
 * notification does to it. The gateway decides; the shop only refuses to go back on money
 * received: once paid (or refunded), a late "failed" or "expired" notification changes nothing,
 * whatever order the gateway delivers its notifications in.
 */

export const PAYMENT_RECORD_STATUSES = ['pending', 'paid', 'failed', 'canceled', 'refunded'] as const;
export type PaymentRecordStatus = (typeof PAYMENT_RECORD_STATUSES)[number];

/** What a verified notification says about a payment attempt. */
export type PaymentOutcome = 'paid' | 'failed' | 'canceled' | 'pending';

/** The attempt's status after a notification (the same status when the notification changes nothing). */
export function nextPaymentRecordStatus(current: PaymentRecordStatus, outcome: PaymentOutcome): PaymentRecordStatus {
  if (current === 'paid' || current === 'refunded') return current;
  switch (outcome) {
    case 'paid':
      // Even after a failure or an expiry: money the gateway says it received is never ignored.
      return 'paid';
    case 'failed':
      return current === 'pending' ? 'failed' : current;
    case 'canceled':
      return current === 'pending' ? 'canceled' : current;
    case 'pending':
      return current;
  }
}
