import { describe, expect, it } from 'vitest';
import { nextPaymentRecordStatus, type PaymentOutcome, type PaymentRecordStatus } from './status';

describe('payment attempt status after a notification', () => {
  it.each<[PaymentRecordStatus, PaymentOutcome, PaymentRecordStatus]>([
    ['pending', 'paid', 'paid'],
    ['pending', 'failed', 'failed'],
    ['pending', 'canceled', 'canceled'],
    ['pending', 'pending', 'pending'],
    // Money received is never ignored, even after a failure or an expiry delivered first.
    ['failed', 'paid', 'paid'],
    ['canceled', 'paid', 'paid'],
    ['failed', 'canceled', 'failed'],
    ['canceled', 'failed', 'canceled'],
    // Never back from paid or refunded.
    ['paid', 'failed', 'paid'],
    ['paid', 'canceled', 'paid'],
    ['paid', 'pending', 'paid'],
    ['refunded', 'paid', 'refunded'],
    ['refunded', 'failed', 'refunded'],
  ])('%s + %s -> %s', (current, outcome, expected) => {
    expect(nextPaymentRecordStatus(current, outcome)).toBe(expected);
  });
});
