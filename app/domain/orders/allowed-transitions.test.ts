import { describe, expect, it } from 'vitest';
import type { OrderStatus, PaymentStatus } from '../order-status';
import { allowedTransitions, offeredStatuses, type TransitionOption } from './allowed-transitions';
import { LIFECYCLE_MESSAGES, type OrderState } from './lifecycle';

const TOTAL = 60_655;
const NOW = new Date('2026-11-27T10:00:00Z');

function order(overrides: Partial<OrderState> = {}): OrderState {
  const paymentStatus = overrides.paymentStatus ?? 'pending';
  const paid = paymentStatus === 'paid' || paymentStatus === 'partially_refunded' || paymentStatus === 'refunded';
  return {
    status: 'pending',
    paymentStatus,
    paymentMethod: 'transfer',
    placed: true,
    withdrawn: false,
    totalCents: TOTAL,
    paidCents: paid ? TOTAL : 0,
    refundedCents: paymentStatus === 'refunded' ? TOTAL : 0,
    stage: 'awaiting_originals',
    physical: false,
    hasDeliveryAddress: false,
    supplement: null,
    workNotBefore: null,
    ...overrides,
  };
}

/** `ok`, `ok (avant paiement)`, or the refusal's French reason: what a menu would show. */
const shown = (option: TransitionOption) =>
  option.allowed ? (option.needsStartBeforePayment ? 'ok (avant paiement)' : 'ok') : option.reason;

describe('the status menu of one order', () => {
  const cases: Array<[string, Partial<OrderState>, OrderStatus[], Partial<Record<OrderStatus, string>>]> = [
    [
      'unpaid, awaiting its transfer',
      {},
      ['pending', 'processing', 'completed', 'shipped', 'canceled'],
      { processing: 'ok (avant paiement)', completed: 'ok', canceled: 'ok' },
    ],
    [
      'paid',
      { paymentStatus: 'paid' },
      ['pending', 'processing', 'completed', 'shipped', 'canceled'],
      { processing: 'ok' },
    ],
    [
      'payment failed',
      { paymentStatus: 'failed' },
      ['pending', 'completed', 'shipped', 'canceled'],
      { processing: LIFECYCLE_MESSAGES.processingFailedPayment },
    ],
    [
      'refunded',
      { paymentStatus: 'refunded', status: 'completed', stage: 'ready' },
      ['completed', 'shipped', 'canceled'],
      {
        processing: LIFECYCLE_MESSAGES.processingRefunded,
        pending: LIFECYCLE_MESSAGES.notAllowed('completed', 'pending'),
      },
    ],
    [
      'shipped',
      { paymentStatus: 'paid', status: 'shipped', stage: 'ready' },
      ['completed', 'shipped'],
      { canceled: LIFECYCLE_MESSAGES.notAllowed('shipped', 'canceled') },
    ],
    ['cancelled', { paymentStatus: 'paid', status: 'canceled' }, ['canceled'], {}],
    ['a draft', { placed: false }, ['pending'], { processing: LIFECYCLE_MESSAGES.draft }],
  ];

  it.each(cases)('%s: offers %j', (_name, overrides, offered, reasons) => {
    const state = order(overrides);
    const allowed = allowedTransitions(state, NOW);
    expect(offeredStatuses(state.status, allowed)).toEqual(offered);
    for (const [status, expected] of Object.entries(reasons)) {
      expect(shown(allowed.status[status as OrderStatus])).toBe(expected);
    }
  });
});

describe('stage moves and payment actions', () => {
  it('offers digitising only once paid, with the guard’s reason otherwise', () => {
    const received = order({ status: 'processing', stage: 'received' });
    expect(shown(allowedTransitions(received, NOW).stage.digitising)).toBe(LIFECYCLE_MESSAGES.unpaidWork);
    const paid = { ...received, paymentStatus: 'paid' as const, paidCents: TOTAL };
    expect(allowedTransitions(paid, NOW).stage).toMatchObject({
      digitising: { allowed: true },
      quality_check: { allowed: false, code: 'stage_not_allowed' },
      ready: { allowed: false, code: 'stage_not_allowed' },
    });
  });

  it.each<[PaymentStatus, string, string, string]>([
    ['pending', 'ok', 'ok', LIFECYCLE_MESSAGES.notPaid],
    ['failed', 'ok', 'ok', LIFECYCLE_MESSAGES.notPaid],
    ['paid', LIFECYCLE_MESSAGES.alreadyPaid, LIFECYCLE_MESSAGES.alreadyPaid, 'ok'],
    ['refunded', LIFECYCLE_MESSAGES.alreadyPaid, LIFECYCLE_MESSAGES.alreadyPaid, LIFECYCLE_MESSAGES.refundTooLarge(0)],
  ])('payment %s: validate %s, reject %s, refund %s', (paymentStatus, validate, reject, refund) => {
    const { payment } = allowedTransitions(order({ paymentStatus }), NOW);
    expect([shown(payment.validate), shown(payment.reject), shown(payment.refund)]).toEqual([validate, reject, refund]);
  });

  it('answers for every transition of the rule book (reception, shipping, withdrawal…)', () => {
    const { any } = allowedTransitions(order({ paymentStatus: 'paid' }), NOW);
    expect(any.receive).toEqual({ allowed: true, needsStartBeforePayment: false });
    expect(any.ship).toMatchObject({ allowed: false, code: 'not_allowed' });
    expect(any.settle_withdrawal).toEqual({
      allowed: false,
      code: 'not_withdrawn',
      reason: LIFECYCLE_MESSAGES.notWithdrawn,
    });
  });
});
