import { describe, expect, it } from 'vitest';
import {
  ORDER_STATUSES,
  type OrderStatus,
  PAYMENT_STATUSES,
  type PaymentStatus,
  WORKSHOP_STAGES,
} from '../order-status';
import { allowedTransitions, TRANSITION_SAMPLES } from './allowed-transitions';
import {
  amountDueCents,
  type Decision,
  decide,
  dimensionStepAllowed,
  LIFECYCLE_MESSAGES,
  type OrderState,
  type RefusalCode,
  ruleOf,
  STATE_DIMENSIONS,
  statusStepAllowed,
  TRANSITIONS,
  type Transition,
  type TransitionType,
} from './lifecycle';
import { acceptsFiles, acceptsOriginals, OPEN_WORK_MESSAGES } from './open-work';

const TOTAL = 12_500;

function state(overrides: Partial<OrderState> = {}): OrderState {
  const paymentStatus = overrides.paymentStatus ?? 'pending';
  const paid = paymentStatus === 'paid' || paymentStatus === 'partially_refunded' || paymentStatus === 'refunded';
  return {
    status: 'pending',
    paymentStatus,
    paymentMethod: 'card',
    placed: true,
    withdrawn: false,
    totalCents: TOTAL,
    paidCents: paid ? TOTAL : 0,
    refundedCents: paymentStatus === 'refunded' ? TOTAL : paymentStatus === 'partially_refunded' ? 2_500 : 0,
    stage: 'awaiting_originals',
    physical: false,
    hasDeliveryAddress: false,
    supplement: null,
    workNotBefore: null,
    ...overrides,
  };
}

const refusal = (d: Decision): RefusalCode | 'ok' => (d.ok ? 'ok' : d.code);

/** Every state the rule book distinguishes: status, payment, stage, placed, withdrawn, an open supplement, an open review. */
const EVERY_STATE: OrderState[] = ORDER_STATUSES.flatMap((status) =>
  PAYMENT_STATUSES.flatMap((paymentStatus) =>
    WORKSHOP_STAGES.flatMap((stage) =>
      [true, false].flatMap((placed) =>
        [false, true].flatMap((withdrawn) =>
          [null, { id: 'adj-1', amountCents: 700 }].flatMap((supplement) =>
            [false, true].map((reviewOpen) =>
              state({ status, paymentStatus, stage, placed, withdrawn, supplement, reviewOpen }),
            ),
          ),
        ),
      ),
    ),
  ),
);
const NOW = new Date('2026-11-27T10:00:00Z');

// Every transition of the rule book (its samples, allowed-transitions.ts) from every state: a new
// transition is walked here as soon as it has its samples, without a line of this test changing.
describe.each(Object.keys(TRANSITION_SAMPLES) as TransitionType[])('%s from every state', (type) => {
  const pairs = EVERY_STATE.flatMap((from) => TRANSITION_SAMPLES[type](from, NOW).map((t) => [from, t] as const));

  it('refuses in French, or moves only between statuses the table allows', () => {
    for (const [from, transition] of pairs) {
      const decision = decide(from, transition, NOW);
      if (!decision.ok) {
        expect(decision.message, `${JSON.stringify(from)} ${JSON.stringify(transition)}`).toMatch(/^\p{Lu}.*\.$/u);
        continue;
      }
      const { status } = decision.next;
      expect(statusStepAllowed(from.status, status, transition.type), `${from.status} → ${status}`).toBe(true);
    }
  });

  it('changes only the dimensions its rule declares, each as that dimension’s table allows', () => {
    const rule = ruleOf(type);
    // A draft's payment is awaited: nothing else can be true of one (fail_payment refuses drafts).
    for (const [from, transition] of pairs.filter(([from]) => from.placed || from.paymentStatus === 'pending')) {
      const decision = decide(from, transition, NOW);
      if (!decision.ok) continue;
      for (const dimension of STATE_DIMENSIONS) {
        const moved = from[dimension] !== decision.next[dimension];
        const where = `${dimension}: ${String(from[dimension])} → ${String(decision.next[dimension])}`;
        if (moved) expect(rule.changes, where).toContain(dimension);
        expect(dimensionStepAllowed(dimension, from, decision.next, type), where).toBe(true);
      }
    }
  });

  it('is accepted from some state and refused from another, the refusal being one of the rule book’s French messages', () => {
    const decisions = pairs.map(([from, transition]) => decide(from, transition, NOW));
    expect(decisions.some((d) => d.ok)).toBe(true);
    const messages = [
      ...Object.values(LIFECYCLE_MESSAGES),
      ...Object.values(OPEN_WORK_MESSAGES),
      LIFECYCLE_MESSAGES.refundTooLarge(0),
    ].filter((m): m is string => typeof m === 'string');
    const refusals = decisions.filter((d): d is Extract<Decision, { ok: false }> => !d.ok);
    expect(refusals.length).toBeGreaterThan(0);
    for (const refused of refusals) {
      // A fixed message is the rule book's own; a built one (amounts, statuses) is checked above.
      if (messages.includes(refused.message) || /\d|«/.test(refused.message)) continue;
      expect.fail(`${type}: « ${refused.message} » is not a message of LIFECYCLE_MESSAGES`);
    }
  });

  it('never puts « En traitement » by hand an order whose payment failed, was refunded, or is awaited unasked', () => {
    for (const [from, transition] of pairs) {
      const decision = decide(from, transition, NOW);
      if (!decision.ok || transition.type !== 'set_status' || decision.next.status !== 'processing') continue;
      const paid = from.paymentStatus === 'paid' || from.paymentStatus === 'partially_refunded';
      const startedEarly = from.paymentStatus === 'pending' && transition.startBeforePayment === true;
      expect(paid || startedEarly, `${from.paymentStatus} ${JSON.stringify(transition)}`).toBe(true);
    }
  });

  it('is offered by allowedTransitions exactly when the rule book accepts one of its samples', () => {
    for (const from of EVERY_STATE) {
      const accepted = TRANSITION_SAMPLES[type](from, NOW).some((t) => decide(from, t, NOW).ok);
      expect(allowedTransitions(from, NOW).any[type].allowed).toBe(accepted);
    }
  });
});

describe('the rule book is a table', () => {
  it('has one rule per transition type, and samples for each (so the walk above covers it)', () => {
    expect(Object.keys(TRANSITIONS).sort()).toEqual(Object.keys(TRANSITION_SAMPLES).sort());
  });
});

describe('status moves by the back office: every pair', () => {
  // from → the outcome of set_status / cancel towards each status, written out by hand.
  const table: Record<OrderStatus, Record<OrderStatus, RefusalCode | 'ok'>> = {
    pending: { pending: 'same_status', processing: 'ok', completed: 'ok', shipped: 'ok', canceled: 'ok' },
    processing: { pending: 'ok', processing: 'same_status', completed: 'ok', shipped: 'ok', canceled: 'ok' },
    completed: { pending: 'not_allowed', processing: 'ok', completed: 'same_status', shipped: 'ok', canceled: 'ok' },
    shipped: {
      pending: 'not_allowed',
      processing: 'not_allowed',
      completed: 'ok',
      shipped: 'same_status',
      canceled: 'not_allowed',
    },
    canceled: {
      pending: 'not_allowed',
      processing: 'not_allowed',
      completed: 'not_allowed',
      shipped: 'not_allowed',
      canceled: 'canceled',
    },
  };
  const pairs = ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.map((to) => [from, to, table[from][to]] as const));

  it.each(pairs)('%s → %s: %s', (from, to, expected) => {
    const transition: Transition =
      to === 'canceled' ? { type: 'cancel', refundCents: 0, refundRight: true } : { type: 'set_status', to };
    // Paid: the moves of the table alone (« En traitement » also asks about the payment, below).
    const decision = decide(state({ status: from, paymentStatus: 'paid' }), transition);
    expect(refusal(decision)).toBe(expected);
    if (decision.ok) {
      expect(decision.next.status).toBe(to);
      expect(decision.effects).toContainEqual({ kind: 'email', template: 'order-status' });
    } else {
      expect(decision.message).toMatch(/[a-zé]/);
    }
  });

  // « En traitement » by hand, from « En attente » and from « Traité » (a rework), for each payment
  // status, without and with the staff's explicit « Commencer avant le paiement ».
  const processing: Record<PaymentStatus, [RefusalCode | 'ok', RefusalCode | 'ok']> = {
    pending: ['not_paid', 'ok'],
    paid: ['ok', 'ok'],
    failed: ['payment_failed', 'payment_failed'],
    partially_refunded: ['ok', 'ok'],
    refunded: ['payment_refunded', 'payment_refunded'],
  };
  const processingCases = (['pending', 'completed'] as const).flatMap((from) =>
    PAYMENT_STATUSES.flatMap((paymentStatus) =>
      [false, true].map((early) => [from, paymentStatus, early, processing[paymentStatus][early ? 1 : 0]] as const),
    ),
  );
  it.each(processingCases)(
    '%s → processing, payment %s, started before payment: %s → %s',
    (from, paymentStatus, early, expected) => {
      const transition: Transition = {
        type: 'set_status',
        to: 'processing',
        ...(early ? { startBeforePayment: true } : {}),
      };
      expect(refusal(decide(state({ status: from, paymentStatus }), transition))).toBe(expected);
    },
  );

  it('says why « En traitement » is refused, in French', () => {
    const toProcessing: Transition = { type: 'set_status', to: 'processing' };
    expect(decide(state(), toProcessing)).toMatchObject({
      message:
        'Cette commande n’est pas payée : elle ne passe « En traitement » que si vous choisissez de commencer avant le paiement.',
    });
    expect(decide(state({ paymentStatus: 'failed' }), toProcessing)).toMatchObject({
      message: 'Le paiement de cette commande a échoué : elle ne peut pas passer « En traitement » avant d’être payée.',
    });
    expect(decide(state({ paymentStatus: 'refunded' }), toProcessing)).toMatchObject({
      message: 'Cette commande a été remboursée : elle ne peut pas passer « En traitement ».',
    });
    // The other statuses do not ask about the payment.
    expect(refusal(decide(state(), { type: 'set_status', to: 'completed' }))).toBe('ok');
  });

  it('refuses to move a draft, in French', () => {
    const decision = decide(state({ placed: false }), { type: 'set_status', to: 'processing' });
    expect(decision).toMatchObject({
      ok: false,
      code: 'draft',
      message: 'Cette commande n’a pas encore été confirmée par le client.',
    });
  });

  it('cancelling closes the open payment sessions and refunds what the staff chose', () => {
    const decision = decide(state({ paymentStatus: 'paid' }), {
      type: 'cancel',
      refundCents: TOTAL,
      refundRight: true,
    });
    expect(decision.ok && decision.effects).toEqual([
      { kind: 'close_payment_sessions', reason: 'canceled' },
      { kind: 'email', template: 'order-status' },
      { kind: 'refund', amountCents: TOTAL, approved: true },
    ]);
    expect(
      refusal(decide(state({ paymentStatus: 'paid' }), { type: 'cancel', refundCents: TOTAL + 1, refundRight: true })),
    ).toBe('amount_invalid');
    expect(refusal(decide(state(), { type: 'cancel', refundCents: 1, refundRight: true }))).toBe('amount_invalid');
  });

  it('cancelled by someone without the refund right, a paid order owes all of it back, for approval', () => {
    const paid = state({ paymentStatus: 'paid', refundedCents: 2_000 });
    const decision = decide(paid, { type: 'cancel', refundCents: 0, refundRight: false });
    expect(decision.ok && decision.effects).toContainEqual({
      kind: 'refund',
      amountCents: TOTAL - 2_000,
      approved: false,
    });
    expect(decision.ok && decision.next.owedCents).toBe(TOTAL - 2_000);
    // Unpaid: nothing is owed.
    const unpaid = decide(state(), { type: 'cancel', refundCents: 0, refundRight: false });
    expect(unpaid.ok && unpaid.effects.some((effect) => effect.kind === 'refund')).toBe(false);
  });
});

describe('a failed payment', () => {
  it('is refused for a draft: nothing was asked to be paid yet', () => {
    expect(refusal(decide(state({ placed: false }), { type: 'fail_payment', rejected: true }))).toBe('draft');
  });
});

describe('a reduction at reception, and money already owed back', () => {
  const paid = (overrides: Partial<OrderState> = {}) =>
    state({ paymentStatus: 'paid', status: 'processing', ...overrides });

  it('owes the difference back: made at once with the refund right, for approval without it', () => {
    const approved = decide(paid(), { type: 'record_reduction', amountCents: 350, refundRight: true });
    expect(approved.ok && approved.effects).toEqual([{ kind: 'refund', amountCents: 350, approved: true }]);
    const toApprove = decide(paid(), { type: 'record_reduction', amountCents: 350, refundRight: false });
    expect(toApprove.ok && toApprove.effects).toEqual([{ kind: 'refund', amountCents: 350, approved: false }]);
    expect(toApprove.ok && toApprove.event).toEqual({ kind: 'reduction_recorded', from: null, to: 'to_approve' });
  });

  it('refuses a reduction on an unpaid order, or beyond what can still be given back', () => {
    expect(
      refusal(decide(state({ status: 'processing' }), { type: 'record_reduction', amountCents: 1, refundRight: true })),
    ).toBe('not_paid');
    const owing = paid({ owedCents: TOTAL - 100 });
    expect(refusal(decide(owing, { type: 'record_reduction', amountCents: 101, refundRight: true }))).toBe(
      'amount_invalid',
    );
  });

  it('what is owed is reserved: neither refunded twice nor counted as refunded', () => {
    const owing = paid({ owedCents: 3_000 });
    expect(refusal(decide(owing, { type: 'refund', amountCents: TOTAL - 2_999 }))).toBe('amount_invalid');
    const rest = decide(owing, { type: 'refund', amountCents: TOTAL - 3_000 });
    // 3 000 still owed: the order is not refunded in full yet.
    expect(rest.ok && rest.next.paymentStatus).toBe('partially_refunded');
    const settled = decide(paid({ withdrawn: true, owedCents: 3_000 }), { type: 'settle_withdrawal', keptCents: 0 });
    expect(settled.ok && settled.effects).toContainEqual({
      kind: 'refund',
      amountCents: TOTAL - 3_000,
      approved: true,
    });
  });
});

describe('settling a payment: paid only when placed, live, unpaid and for the exact amount', () => {
  const pay: Transition = { type: 'settle_payment', amountCents: TOTAL, currency: 'eur', method: 'card' };
  const cases: Array<[string, Partial<OrderState>, Transition, RefusalCode | 'ok']> = [
    ['a placed, unpaid order', {}, pay, 'ok'],
    ['after a failed attempt', { paymentStatus: 'failed' }, pay, 'ok'],
    ['a draft', { placed: false }, pay, 'draft'],
    ['a cancelled order', { status: 'canceled' }, pay, 'canceled'],
    ['a withdrawn order', { withdrawn: true }, pay, 'withdrawn'],
    ['an order already paid', { paymentStatus: 'paid' }, pay, 'already_paid'],
    ['an order partly refunded', { paymentStatus: 'partially_refunded' }, pay, 'already_paid'],
    ['an order refunded', { paymentStatus: 'refunded' }, pay, 'already_paid'],
    ['another amount', {}, { ...pay, amountCents: TOTAL - 1 }, 'amount_mismatch'],
    ['another currency', {}, { ...pay, currency: 'usd' }, 'amount_mismatch'],
  ];
  it.each(cases)('%s → %s', (_name, overrides, transition, expected) => {
    expect(refusal(decide(state(overrides), transition))).toBe(expected);
  });

  it('a card payment is invoiced, notified and e-mailed', () => {
    const decision = decide(state(), pay);
    expect(decision).toMatchObject({
      ok: true,
      next: { paymentStatus: 'paid', paidCents: TOTAL },
      event: { kind: 'payment_paid', from: 'pending', to: 'paid' },
    });
    expect(decision.ok && decision.effects.map((e) => e.kind)).toEqual(['notify', 'invoice', 'email']);
  });

  it('a transfer validated by hand is recorded as validated', () => {
    const decision = decide(state({ paymentMethod: 'transfer' }), { ...pay, method: 'transfer' });
    expect(decision.ok && decision.event.kind).toBe('payment_validated');
  });

  it('says what was received and what was expected', () => {
    const decision = decide(state(), { ...pay, amountCents: 100 });
    expect(decision.ok ? '' : decision.message).toBe(
      'Le montant reçu (1,00\u00a0€) ne correspond pas au montant de la commande (125,00\u00a0€).',
    );
  });
});

describe('failing a payment', () => {
  it.each(PAYMENT_STATUSES.map((s) => [s, s === 'pending' || s === 'failed' ? 'ok' : 'already_paid'] as const))(
    'from %s: %s',
    (paymentStatus: PaymentStatus, expected) => {
      expect(refusal(decide(state({ paymentStatus }), { type: 'fail_payment' }))).toBe(expected);
    },
  );

  it('e-mails the customer when the staff rejects the payment, not on a failed card attempt', () => {
    const emails = (rejected: boolean) => {
      const decision = decide(state(), { type: 'fail_payment', rejected });
      return decision.ok ? decision.effects.filter((effect) => effect.kind === 'email') : null;
    };
    expect(emails(true)).toEqual([{ kind: 'email', template: 'payment-rejected' }]);
    expect(emails(false)).toEqual([]);
  });
});

describe('placing a draft and choosing how to pay', () => {
  it.each<[string, Partial<OrderState>, Transition, RefusalCode | 'ok']>([
    ['a draft is placed', { placed: false }, { type: 'place', method: 'card' }, 'ok'],
    ['a placed order is not placed twice', {}, { type: 'place', method: 'card' }, 'placed'],
    ['an empty draft', { placed: false, totalCents: 0 }, { type: 'place', method: 'card' }, 'nothing_to_pay'],
    ['another method on a placed order', {}, { type: 'choose_payment_method', method: 'transfer' }, 'ok'],
    ['on a draft', { placed: false }, { type: 'choose_payment_method', method: 'transfer' }, 'draft'],
    ['once paid', { paymentStatus: 'paid' }, { type: 'choose_payment_method', method: 'cheque' }, 'already_paid'],
    ['once refunded', { paymentStatus: 'refunded' }, { type: 'choose_payment_method', method: 'card' }, 'already_paid'],
    ['when cancelled', { status: 'canceled' }, { type: 'choose_payment_method', method: 'card' }, 'canceled'],
    ['when withdrawn', { withdrawn: true }, { type: 'choose_payment_method', method: 'card' }, 'withdrawn'],
  ])('%s → %s', (_name, overrides, transition, expected) => {
    expect(refusal(decide(state(overrides), transition))).toBe(expected);
  });

  it('placing notifies the shop and e-mails the confirmation; nothing before', () => {
    const decision = decide(state({ placed: false }), { type: 'place', method: 'transfer' });
    expect(decision).toMatchObject({ ok: true, next: { placed: true, paymentMethod: 'transfer' } });
    expect(decision.ok && decision.effects).toEqual([
      { kind: 'notify', about: 'new_order' },
      { kind: 'email', template: 'order-confirmation' },
    ]);
  });

  it('choosing a transfer after a failed card closes the card sessions and reopens the payment', () => {
    const decision = decide(state({ paymentStatus: 'failed' }), { type: 'choose_payment_method', method: 'transfer' });
    expect(decision).toMatchObject({ ok: true, next: { paymentStatus: 'pending', paymentMethod: 'transfer' } });
    expect(decision.ok && decision.effects[0]).toEqual({ kind: 'close_payment_sessions', reason: 'replaced' });
  });
});

describe('withdrawal', () => {
  const withdraw: Transition = { type: 'withdraw', withinPeriod: true };
  it.each<[string, Partial<OrderState>, Transition, RefusalCode | 'ok']>([
    ['unpaid, within 14 days', {}, withdraw, 'ok'],
    ['after 14 days', {}, { type: 'withdraw', withinPeriod: false }, 'expired'],
    ['a draft', { placed: false }, withdraw, 'draft'],
    ['twice', { withdrawn: true }, withdraw, 'withdrawn'],
    ['a cancelled order', { status: 'canceled' }, withdraw, 'canceled'],
    ['service performed (Traité)', { status: 'completed', paymentStatus: 'paid' }, withdraw, 'performed'],
    ['service performed (Expédié)', { status: 'shipped', paymentStatus: 'paid' }, withdraw, 'performed'],
  ])('%s → %s', (_name, overrides, transition, expected) => {
    expect(refusal(decide(state(overrides), transition))).toBe(expected);
  });

  it('unpaid: the order is cancelled and its sessions closed, nothing to refund', () => {
    const decision = decide(state({ paymentStatus: 'failed' }), withdraw);
    expect(decision).toMatchObject({ ok: true, next: { status: 'canceled', withdrawn: true } });
    expect(decision.ok && decision.effects.some((e) => e.kind === 'refund')).toBe(false);
    expect(decision.ok && decision.effects).toContainEqual({ kind: 'close_payment_sessions', reason: 'withdrawn' });
  });

  it('paid and not started: refunded in full at once', () => {
    const decision = decide(state({ paymentStatus: 'paid' }), withdraw);
    expect(decision).toMatchObject({ ok: true, next: { status: 'canceled', withdrawn: true } });
    expect(decision.ok && decision.effects).toContainEqual({ kind: 'refund', amountCents: TOTAL, approved: true });
  });

  it('paid and started at the customer’s request: withdrawn, left to the staff to settle', () => {
    const decision = decide(state({ paymentStatus: 'paid', status: 'processing' }), withdraw);
    expect(decision).toMatchObject({ ok: true, next: { status: 'processing', withdrawn: true } });
    expect(decision.ok && decision.effects.some((e) => e.kind === 'refund')).toBe(false);
  });

  it.each<[string, Partial<OrderState>, number, RefusalCode | 'ok', number | null]>([
    [
      'keeps a part, refunds the rest',
      { withdrawn: true, status: 'processing', paymentStatus: 'paid' },
      4_000,
      'ok',
      8_500,
    ],
    ['keeps everything', { withdrawn: true, status: 'processing', paymentStatus: 'paid' }, TOTAL, 'ok', null],
    [
      'keeps more than paid',
      { withdrawn: true, status: 'processing', paymentStatus: 'paid' },
      TOTAL + 1,
      'amount_invalid',
      null,
    ],
    ['negative', { withdrawn: true, status: 'processing', paymentStatus: 'paid' }, -1, 'amount_invalid', null],
    ['no withdrawal', { status: 'processing', paymentStatus: 'paid' }, 0, 'not_withdrawn', null],
    ['already settled', { withdrawn: true, status: 'canceled', paymentStatus: 'paid' }, 0, 'canceled', null],
  ])('settling: %s → %s', (_name, overrides, keptCents, expected, refunded) => {
    const decision = decide(state(overrides), { type: 'settle_withdrawal', keptCents });
    expect(refusal(decision)).toBe(expected);
    if (decision.ok) {
      const refund = decision.effects.find((e) => e.kind === 'refund');
      expect(refund ? refund.amountCents : null).toBe(refunded);
      expect(decision.next.status).toBe('canceled');
    }
  });
});

describe('a gift card’s sale (decision 037)', () => {
  const card = (overrides: Partial<OrderState> = {}) => state({ kind: 'gift_card', stage: 'ready', ...overrides });
  const withdraw: Transition = { type: 'withdraw', withinPeriod: true };

  it('is issued by its payment: « Traitée », with its invoice and the issue of the card', () => {
    const decision = decide(card(), { type: 'settle_payment', method: 'card', amountCents: TOTAL, currency: 'EUR' });
    expect(decision).toMatchObject({ ok: true, next: { status: 'completed', paymentStatus: 'paid' } });
    const kinds = decision.ok ? decision.effects.map((e) => e.kind) : [];
    expect(kinds).toEqual(expect.arrayContaining(['invoice', 'issue_gift_card']));
  });

  it('stays withdrawable while its card is unused, and is then refunded in full with the card closed', () => {
    const decision = decide(card({ status: 'completed', paymentStatus: 'paid' }), withdraw);
    expect(decision).toMatchObject({ ok: true, next: { status: 'canceled', withdrawn: true } });
    expect(decision.ok && decision.effects).toContainEqual({ kind: 'refund', amountCents: TOTAL, approved: true });
    expect(decision.ok && decision.effects).toContainEqual({ kind: 'cancel_gift_card' });
  });

  it.each<[string, Partial<OrderState>, Transition, RefusalCode | 'ok']>([
    ['used, within 14 days', { status: 'completed', paymentStatus: 'paid', giftCardUsed: true }, withdraw, 'performed'],
    [
      'unused, after 14 days',
      { status: 'completed', paymentStatus: 'paid' },
      { type: 'withdraw', withinPeriod: false },
      'expired',
    ],
    ['unpaid', {}, withdraw, 'ok'],
  ])('withdrawal of a card %s → %s', (_name, overrides, transition, expected) => {
    expect(refusal(decide(card(overrides), transition))).toBe(expected);
  });

  it('is cancelled with its card closed, and not once the card has paid something', () => {
    const paid = card({ status: 'completed', paymentStatus: 'paid', paidCents: TOTAL });
    const cancel: Transition = { type: 'cancel', refundCents: TOTAL, refundRight: true };
    const decision = decide(paid, cancel);
    expect(decision.ok && decision.effects).toContainEqual({ kind: 'cancel_gift_card' });
    expect(decision.ok && decision.effects).toContainEqual({ kind: 'refund', amountCents: TOTAL, approved: true });
    expect(decide({ ...paid, giftCardUsed: true }, cancel)).toMatchObject({
      ok: false,
      message: LIFECYCLE_MESSAGES.giftCardUsed,
    });
    // Unpaid: no card was issued, nothing to close.
    const unpaid = decide(card(), { type: 'cancel', refundCents: 0, refundRight: true });
    expect(unpaid.ok && unpaid.effects.some((e) => e.kind === 'cancel_gift_card')).toBe(false);
  });

  it('gives money back only once cancelled or withdrawn: no refund nor reduction beside a live card', () => {
    const paid = card({ status: 'completed', paymentStatus: 'paid', paidCents: TOTAL });
    expect(decide(paid, { type: 'refund', amountCents: 1_000 })).toMatchObject({
      ok: false,
      message: LIFECYCLE_MESSAGES.giftCardRefundByCancel,
    });
    expect(decide(paid, { type: 'record_reduction', amountCents: 1_000, refundRight: true })).toMatchObject({
      ok: false,
      message: LIFECYCLE_MESSAGES.giftCardRefundByCancel,
    });
    expect(refusal(decide({ ...paid, status: 'canceled' }, { type: 'refund', amountCents: TOTAL }))).toBe('ok');
  });

  it('is never received at the workshop', () => {
    expect(
      refusal(
        decide(card({ stage: 'awaiting_originals', paymentStatus: 'paid' }), { type: 'receive', dueAt: '2026-12-24' }),
      ),
    ).toBe('not_allowed');
  });
});

describe('refunds: at most paid minus refunded, each with its credit note', () => {
  it.each<[string, Partial<OrderState>, number, RefusalCode | 'ok', PaymentStatus | null]>([
    ['part of a paid order', { paymentStatus: 'paid' }, 2_500, 'ok', 'partially_refunded'],
    ['all of a paid order', { paymentStatus: 'paid' }, TOTAL, 'ok', 'refunded'],
    ['the rest after a partial refund', { paymentStatus: 'partially_refunded' }, TOTAL - 2_500, 'ok', 'refunded'],
    ['more than the rest', { paymentStatus: 'partially_refunded' }, TOTAL - 2_499, 'amount_invalid', null],
    ['zero', { paymentStatus: 'paid' }, 0, 'amount_invalid', null],
    ['a fraction of a cent', { paymentStatus: 'paid' }, 0.5, 'amount_invalid', null],
    ['an unpaid order', {}, 100, 'not_paid', null],
    ['a failed payment', { paymentStatus: 'failed' }, 100, 'not_paid', null],
    ['an order refunded in full', { paymentStatus: 'refunded' }, 100, 'amount_invalid', null],
    ['a cancelled paid order', { paymentStatus: 'paid', status: 'canceled' }, TOTAL, 'ok', 'refunded'],
  ])('%s → %s', (_name, overrides, amountCents, expected, paymentStatus) => {
    const decision = decide(state(overrides), { type: 'refund', amountCents });
    expect(refusal(decision)).toBe(expected);
    if (decision.ok) {
      expect(decision.next.paymentStatus).toBe(paymentStatus);
      expect(decision.effects).toEqual([
        { kind: 'credit_note', amountCents },
        { kind: 'email', template: 'refund-issued' },
      ]);
    }
  });

  it('names the largest amount allowed', () => {
    const decision = decide(state({ paymentStatus: 'partially_refunded' }), { type: 'refund', amountCents: TOTAL });
    expect(decision.ok ? '' : decision.message).toBe(
      'Le montant à rembourser doit être compris entre 0,01\u00a0€ et 100,00\u00a0€.',
    );
  });
});

describe('an order a gift card pays in part or in full (decision 037)', () => {
  const CARD = 3_500;

  it('asks the rest in money: a payment of the total is refused, the rest settles it with the card counted as paid', () => {
    const order = state({ giftCardCents: CARD });
    expect(amountDueCents(order)).toBe(TOTAL - CARD);
    const whole = decide(order, { type: 'settle_payment', amountCents: TOTAL, currency: 'EUR', method: 'card' });
    expect(whole.ok ? '' : whole.message).toBe(LIFECYCLE_MESSAGES.amountMismatch(TOTAL, TOTAL - CARD));
    const rest = decide(order, { type: 'settle_payment', amountCents: TOTAL - CARD, currency: 'EUR', method: 'card' });
    expect(rest.ok && rest.next).toMatchObject({ paymentStatus: 'paid', paidCents: TOTAL });
  });

  it('is settled by the card alone when it pays it all (nothing left to collect)', () => {
    const decision = decide(state({ giftCardCents: TOTAL }), {
      type: 'settle_payment',
      amountCents: 0,
      currency: 'EUR',
      method: 'gift_card',
    });
    expect(decision.ok && decision.next).toMatchObject({ paymentStatus: 'paid', paymentMethod: 'gift_card' });
    expect(decision.ok && decision.effects.map((effect) => effect.kind)).toContain('invoice');
  });

  it('gives the card back what it held when the unpaid order is cancelled or withdrawn, nothing being refunded', () => {
    for (const transition of [
      { type: 'cancel', refundCents: 0, refundRight: false },
      { type: 'withdraw', withinPeriod: true },
    ] as const) {
      const decision = decide(state({ giftCardCents: CARD }), transition);
      expect(
        decision.ok &&
          decision.effects.filter((effect) => effect.kind === 'restore_gift_card' || effect.kind === 'refund'),
      ).toEqual([{ kind: 'restore_gift_card', amountCents: CARD }]);
    }
  });

  it('a paid order gives the card back through its refunds: at most what the card paid, without a credit note', () => {
    const paid = state({ paymentStatus: 'paid', giftCardCents: CARD });
    const toCard = decide(paid, { type: 'refund', amountCents: CARD, toGiftCard: true });
    expect(toCard.ok && toCard.effects).toEqual([
      { kind: 'restore_gift_card', amountCents: CARD },
      { kind: 'email', template: 'refund-issued' },
    ]);
    expect(toCard.ok && toCard.next).toMatchObject({ giftCardCents: 0, paymentStatus: 'partially_refunded' });
    expect(refusal(decide(paid, { type: 'refund', amountCents: CARD + 1, toGiftCard: true }))).toBe('amount_invalid');
    // A card expired since keeps its part: only the money paid can still go back.
    const expired = state({ paymentStatus: 'paid', giftCardCents: CARD, giftCardOpen: false });
    expect(refusal(decide(expired, { type: 'refund', amountCents: TOTAL - CARD }))).toBe('ok');
    expect(refusal(decide(expired, { type: 'refund', amountCents: TOTAL - CARD + 1 }))).toBe('amount_invalid');
    // A paid order's cancellation owes its money back (split card-first by the server), no release.
    const canceled = decide(paid, { type: 'cancel', refundCents: TOTAL, refundRight: true });
    expect(canceled.ok && canceled.effects.filter((effect) => effect.kind === 'restore_gift_card')).toEqual([]);
  });
});

describe('the originals’ journey: addresses, reception, stages, shipping, supplements', () => {
  const physical = { physical: true, hasDeliveryAddress: false } as const;

  it('refuses to ship an order with something physical and no delivery address', () => {
    const done = state({ status: 'completed', paymentStatus: 'paid', stage: 'ready', ...physical });
    expect(decide(done, { type: 'ship', parcelNumber: '6A123', carrier: 'other' })).toMatchObject({
      ok: false,
      code: 'no_address',
      message: LIFECYCLE_MESSAGES.noAddress,
    });
  });

  it('places an order with something physical only once its delivery address is frozen', () => {
    const draft = state({ placed: false, ...physical });
    expect(decide(draft, { type: 'place', method: 'card' })).toMatchObject({
      ok: false,
      code: 'no_address',
      message: LIFECYCLE_MESSAGES.noAddress,
    });
    expect(refusal(decide({ ...draft, hasDeliveryAddress: true }, { type: 'place', method: 'card' }))).toBe('ok');
    // Nothing travels (files to download, originals kept by the workshop): no address needed.
    expect(refusal(decide(state({ placed: false }), { type: 'place', method: 'card' }))).toBe('ok');
  });

  it('refuses « Expédiée » by hand for something physical with no delivery address', () => {
    for (const from of ['processing', 'completed'] as const) {
      const order = state({ status: from, paymentStatus: 'paid', ...physical });
      expect(decide(order, { type: 'set_status', to: 'shipped' })).toMatchObject({ ok: false, code: 'no_address' });
      expect(refusal(decide({ ...order, hasDeliveryAddress: true }, { type: 'set_status', to: 'shipped' }))).toBe('ok');
    }
    expect(
      refusal(
        decide(state({ status: 'completed', paymentStatus: 'paid', ...physical }), {
          type: 'set_status',
          to: 'processing',
        }),
      ),
    ).toBe('ok');
  });

  it('receives the parcel once, into « Reçu » and « En traitement », with the reception e-mail', () => {
    const decision = decide(state({ paymentStatus: 'paid' }), { type: 'receive', dueAt: '2026-12-01T00:00:00Z' });
    expect(decision).toMatchObject({
      ok: true,
      next: { stage: 'received', status: 'processing' },
      event: { kind: 'parcel_received' },
      effects: [{ kind: 'email', template: 'originals-received' }],
    });
    expect(refusal(decide(state({ stage: 'received' }), { type: 'receive', dueAt: '2026-12-01T00:00:00Z' }))).toBe(
      'already_received',
    );
    expect(refusal(decide(state({ status: 'canceled' }), { type: 'receive', dueAt: '2026-12-01T00:00:00Z' }))).toBe(
      'canceled',
    );
  });

  it('receives nothing for a closed order: cancelled, withdrawn or refunded in full, in French', () => {
    const receive = { type: 'receive', dueAt: '2026-12-01T00:00:00Z' } as const;
    const refunded = state({ paymentStatus: 'refunded', paidCents: 9490, refundedCents: 9490 });
    expect(decide(refunded, receive)).toEqual({
      ok: false,
      code: 'refunded',
      message: 'Cette commande est entièrement remboursée\u00a0: elle ne reçoit plus d’originaux ni de fichiers.',
    });
    expect(decide(state({ withdrawn: true }), receive)).toMatchObject({ ok: false, code: 'withdrawn' });
    expect(decide(state({ status: 'canceled', paymentStatus: 'refunded' }), receive)).toMatchObject({
      ok: false,
      code: 'canceled',
      message: OPEN_WORK_MESSAGES.canceled,
    });
    // A partial refund leaves the order open.
    expect(refusal(decide(state({ paymentStatus: 'partially_refunded' }), receive))).toBe('ok');
    for (const closed of [
      refunded,
      state({ status: 'canceled' }),
      state({ withdrawn: true }),
      state({ placed: false }),
    ]) {
      expect(acceptsOriginals(closed)).toBe(false);
      expect(acceptsFiles(closed)).toBe(false);
    }
    expect(acceptsOriginals(state({ paymentStatus: 'paid' }))).toBe(true);
    expect(acceptsOriginals(state({ paymentStatus: 'paid', stage: 'received' }))).toBe(false);
    expect(acceptsFiles(state({ paymentStatus: 'paid', stage: 'received' }))).toBe(true);
  });

  it('keeps a shipped order « Expédiée » when its stage moves (the originals went home first)', () => {
    const shipped = state({ status: 'shipped', stage: 'digitising', paymentStatus: 'paid' });
    expect(decide(shipped, { type: 'advance_stage', to: 'quality_check' })).toMatchObject({
      ok: true,
      next: { status: 'shipped', stage: 'quality_check' },
    });
  });

  it('moves through the stages one step at a time; digitising needs the payment and no open supplement', () => {
    const received = state({ status: 'processing', stage: 'received', paymentStatus: 'paid' });
    expect(refusal(decide(received, { type: 'advance_stage', to: 'digitising' }))).toBe('ok');
    expect(refusal(decide(received, { type: 'advance_stage', to: 'ready' }))).toBe('stage_not_allowed');
    expect(
      refusal(
        decide({ ...received, paymentStatus: 'pending', paidCents: 0 }, { type: 'advance_stage', to: 'digitising' }),
      ),
    ).toBe('not_paid');
    expect(
      refusal(
        decide({ ...received, supplement: { id: 'a', amountCents: 700 } }, { type: 'advance_stage', to: 'digitising' }),
      ),
    ).toBe('supplement_open');
    expect(refusal(decide(state({ stage: 'awaiting_originals' }), { type: 'advance_stage', to: 'digitising' }))).toBe(
      'not_received',
    );
    const checked = { ...received, stage: 'quality_check' as const };
    expect(refusal(decide(checked, { type: 'advance_stage', to: 'digitising' }))).toBe('ok');
    // « Prêt » e-mails nobody: « Vos fichiers sont prêts » is sent once, at publication, with its link.
    expect(decide(checked, { type: 'advance_stage', to: 'ready' })).toEqual(
      expect.objectContaining({
        ok: true,
        next: expect.objectContaining({ stage: 'ready', status: 'completed' }),
        effects: [],
      }),
    );
  });

  it('does not start digitising before the end of the withdrawal period the customer kept', () => {
    const notBefore = new Date('2026-12-08T23:00:00Z'); // 09/12/2026, Paris midnight
    const kept = state({ status: 'processing', stage: 'received', paymentStatus: 'paid', workNotBefore: notBefore });
    const digitise = { type: 'advance_stage', to: 'digitising' } as const;
    const before = decide(kept, digitise, new Date('2026-12-08T22:59:59Z'));
    expect(before).toEqual({
      ok: false,
      code: 'withdrawal_period',
      message:
        'Le client n’a pas demandé à commencer avant la fin de son délai de rétractation. Ne pas commencer avant le 09/12/2026.',
    });
    expect(refusal(decide(kept, digitise, notBefore))).toBe('ok');
    // With the customer's early-start request (no date), the work may start at once.
    expect(refusal(decide({ ...kept, workNotBefore: null }, digitise, new Date('2026-11-24T10:00:00Z')))).toBe('ok');
    // Quality check back to digitising is rework, already after the start: the same date applies.
    expect(
      refusal(
        decide(
          { ...kept, stage: 'quality_check' },
          { type: 'advance_stage', to: 'ready' },
          new Date('2026-12-01T10:00:00Z'),
        ),
      ),
    ).toBe('ok');
  });

  it('ships a finished order with its parcel number, and only then', () => {
    const done = state({
      status: 'completed',
      stage: 'ready',
      paymentStatus: 'paid',
      physical: true,
      hasDeliveryAddress: true,
    });
    expect(decide(done, { type: 'ship', parcelNumber: '6A12345678901', carrier: 'colissimo' })).toMatchObject({
      ok: true,
      next: { status: 'shipped' },
      event: { kind: 'shipped' },
      effects: [{ kind: 'email', template: 'order-shipped' }],
    });
    expect(
      refusal(decide({ ...done, status: 'processing' }, { type: 'ship', parcelNumber: '6A1', carrier: 'other' })),
    ).toBe('not_allowed');
    expect(refusal(decide(done, { type: 'ship', parcelNumber: '  ', carrier: 'other' }))).toBe('amount_invalid');
  });

  it('asks a supplement of a paid order once, settles it for its exact amount, or records the refusal', () => {
    const paid = state({ status: 'processing', stage: 'received', paymentStatus: 'paid' });
    expect(decide(paid, { type: 'request_supplement', amountCents: 700 })).toMatchObject({
      ok: true,
      effects: [{ kind: 'email', template: 'supplement-requested' }],
    });
    expect(refusal(decide(state(), { type: 'request_supplement', amountCents: 700 }))).toBe('not_paid');
    const open = { ...paid, supplement: { id: 'adj-1', amountCents: 700 } };
    expect(refusal(decide(open, { type: 'request_supplement', amountCents: 700 }))).toBe('supplement_open');
    expect(
      refusal(decide(open, { type: 'settle_supplement', adjustmentId: 'adj-1', amountCents: 699, method: 'card' })),
    ).toBe('amount_mismatch');
    expect(
      refusal(decide(open, { type: 'settle_supplement', adjustmentId: 'adj-2', amountCents: 700, method: 'card' })),
    ).toBe('no_supplement');
    const settled = decide(open, {
      type: 'settle_supplement',
      adjustmentId: 'adj-1',
      amountCents: 700,
      method: 'card',
    });
    expect(settled).toMatchObject({ ok: true, next: { supplement: null, paidCents: TOTAL + 700 } });
    // The notification is the supplement's (its amount), not a payment of the order.
    expect(settled.ok && settled.effects).toEqual([
      { kind: 'notify', about: 'supplement_paid' },
      { kind: 'supplement_invoice', adjustmentId: 'adj-1', amountCents: 700 },
      { kind: 'email', template: 'supplement-paid' },
    ]);
    if (!settled.ok) return;
    // What can be refunded afterwards includes the supplement.
    expect(refusal(decide(settled.next, { type: 'refund', amountCents: TOTAL + 700 }))).toBe('ok');
    expect(
      decide(open, { type: 'decline_supplement', adjustmentId: 'adj-1', decision: 'digitise_paid' }),
    ).toMatchObject({
      ok: true,
      next: { supplement: null },
      event: { kind: 'supplement_declined', to: 'digitise_paid' },
    });
  });

  it('publishes the files of a paid, received order: « Prêt », « Traité », the e-mail; again after a rework', () => {
    const publish = { type: 'publish_files', fileCount: 12, expiresAt: '2027-01-22T23:00:00.000Z' } as const;
    const checked = state({ status: 'processing', stage: 'quality_check', paymentStatus: 'paid' });
    const published = decide(checked, publish);
    expect(published).toMatchObject({
      ok: true,
      next: { stage: 'ready', status: 'completed' },
      event: { kind: 'files_published', from: 'quality_check', to: 'ready' },
      effects: [{ kind: 'email', template: 'order-ready' }],
    });
    if (!published.ok) return;
    expect(refusal(decide(published.next, publish))).toBe('ok');
    // Shipped before the files were ready (the originals went home first): it stays shipped.
    expect(decide({ ...checked, status: 'shipped' }, publish)).toMatchObject({ ok: true, next: { status: 'shipped' } });
    expect(refusal(decide(checked, { ...publish, fileCount: 0 }))).toBe('no_files');
    expect(refusal(decide({ ...checked, paymentStatus: 'pending' }, publish))).toBe('not_paid');
    expect(refusal(decide({ ...checked, stage: 'awaiting_originals' }, publish))).toBe('not_received');
    expect(refusal(decide({ ...checked, status: 'canceled' }, publish))).toBe('canceled');
    expect(refusal(decide({ ...checked, supplement: { id: 'adj-1', amountCents: 700 } }, publish))).toBe(
      'supplement_open',
    );
  });
});
