import { describe, expect, it } from 'vitest';
import {
  arrivedFromGateway,
  confirmationPaymentState,
  gatewayReturnPath,
  OPEN_ATTEMPT_MAX_AGE_MS,
} from './confirmation';

const now = new Date('2026-11-21T10:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('confirmationPaymentState', () => {
  it.each([
    ['paid', 'card', null, { kind: 'paid' }],
    ['refunded', 'card', null, { kind: 'paid' }],
    ['pending', 'transfer', null, { kind: 'offline', method: 'transfer' }],
    ['pending', 'cheque', ago(1000), { kind: 'offline', method: 'cheque' }],
    // Back from the gateway before its notification: under way, not unpaid.
    ['pending', 'card', ago(5_000), { kind: 'confirming' }],
    ['pending', 'card', ago(OPEN_ATTEMPT_MAX_AGE_MS - 1), { kind: 'confirming' }],
    // An attempt abandoned long ago, or none at all.
    ['pending', 'card', ago(OPEN_ATTEMPT_MAX_AGE_MS), { kind: 'unpaid' }],
    ['pending', 'card', null, { kind: 'unpaid' }],
    ['failed', 'card', ago(5_000), { kind: 'unpaid' }],
    ['failed', 'transfer', null, { kind: 'unpaid' }],
  ] as const)('%s by %s (attempt %s)', (paymentStatus, paymentMethod, openAttemptAt, expected) => {
    expect(confirmationPaymentState({ paymentStatus, paymentMethod, openAttemptAt, now })).toEqual(expected);
  });
});

describe('the return from a gateway', () => {
  it('is marked on the return address, and Stripe’s session_id counts as one', () => {
    const path = gatewayReturnPath('0b6c1f2e-0000-4000-8000-000000000001');
    expect(path).toBe('/confirmation?orderId=0b6c1f2e-0000-4000-8000-000000000001&paiement=retour');
    expect(arrivedFromGateway(new URL(path, 'https://x.test').searchParams)).toBe(true);
    expect(arrivedFromGateway(new URLSearchParams('orderId=1&session_id=cs_test_1'))).toBe(true);
    expect(arrivedFromGateway(new URLSearchParams('orderId=1'))).toBe(false);
    expect(arrivedFromGateway(new URLSearchParams('orderId=1&paiement=autre'))).toBe(false);
  });
});

describe('a cancelled or withdrawn order', () => {
  it('asks for no payment any more, whatever its payment status', () => {
    for (const paymentStatus of ['pending', 'failed', 'paid', 'refunded']) {
      expect(
        confirmationPaymentState({
          paymentStatus,
          paymentMethod: 'transfer',
          openAttemptAt: null,
          now: new Date(),
          closed: true,
        }),
      ).toEqual({ kind: 'closed' });
    }
  });
});
