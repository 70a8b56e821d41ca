import { ORDER_STATUSES, type OrderStatus } from '../order-status';
import {
  decide,
  type OrderState,
  type RefusalCode,
  refundableCents,
  type Transition,
  type TransitionType,
} from './lifecycle';

/*
 * What the back office may offer for one order: its status menu, its stage button, its
 * payment actions and the bulk preview all ask this one query instead of listing every choice. It
 * holds no rule of its own: each answer is the rule book's (`decide`) on a sample of the transition,
 * so a refusal carries the guard's own French reason.
 */

/** Allowed (maybe only with the staff's explicit « Commencer avant le paiement »), or refused and why. */
export type TransitionOption =
  | { allowed: true; needsStartBeforePayment: boolean }
  | { allowed: false; code: RefusalCode; reason: string };

/** The stages the staff move an order to by hand (reception has its own panel). */
export const STAGE_TARGETS = ['digitising', 'quality_check', 'ready'] as const;
export type StageTarget = (typeof STAGE_TARGETS)[number];

export const PAYMENT_ACTIONS = ['validate', 'reject', 'refund'] as const;
export type PaymentAction = (typeof PAYMENT_ACTIONS)[number];

export interface AllowedTransitions {
  /** Each status the menu could offer; « Annulé » is a cancellation without refund. */
  status: Record<OrderStatus, TransitionOption>;
  stage: Record<StageTarget, TransitionOption>;
  payment: Record<PaymentAction, TransitionOption>;
  /** Every transition of the rule book: allowed when one of its samples is (reception, shipping, …). */
  any: Record<TransitionType, TransitionOption>;
}

/** A status change as the back office asks it: cancelling is its own transition. */
export function statusTransition(to: OrderStatus, startBeforePayment = false): Transition {
  // Whether a cancellation is allowed does not depend on who refunds (only what it owes does).
  if (to === 'canceled') return { type: 'cancel', refundCents: 0, refundRight: false };
  return startBeforePayment ? { type: 'set_status', to, startBeforePayment: true } : { type: 'set_status', to };
}

/**
 * A sample of each payment action on this order: validating settles its exact amount by its own
 * method, rejecting tells the customer, refunding gives back what remains (the amount is the
 * staff's choice; the guard only says whether anything may be refunded).
 */
const PAYMENT_SAMPLES: Record<PaymentAction, (state: OrderState) => Transition> = {
  validate: (state) => ({
    type: 'settle_payment',
    amountCents: state.totalCents,
    currency: 'EUR',
    method: state.paymentMethod,
  }),
  reject: () => ({ type: 'fail_payment', rejected: true }),
  refund: (state) => ({ type: 'refund', amountCents: Math.max(1, refundableCents(state)) }),
};

/**
 * Samples of every transition of the rule book, with the values the staff or the customer would
 * typically give (a parcel number, the exact amount, each stage). A transition added to the rule
 * book must have its samples here (the type requires it), which puts it in `allowedTransitions`
 * and in the table-driven tests (lifecycle.test.ts) at once.
 */
export const TRANSITION_SAMPLES: Readonly<Record<TransitionType, (state: OrderState, now: Date) => Transition[]>> = {
  place: (state) => [{ type: 'place', method: state.paymentMethod }],
  choose_payment_method: () => [{ type: 'choose_payment_method', method: 'transfer' }],
  settle_payment: (state) => [PAYMENT_SAMPLES.validate(state)],
  fail_payment: () => [{ type: 'fail_payment', rejected: true }],
  set_status: () =>
    ORDER_STATUSES.flatMap((to) => (to === 'canceled' ? [] : [statusTransition(to), statusTransition(to, true)])),
  cancel: (state) => [
    { type: 'cancel', refundCents: 0, refundRight: false },
    { type: 'cancel', refundCents: refundableCents(state), refundRight: true },
  ],
  withdraw: () => [{ type: 'withdraw', withinPeriod: true }],
  settle_withdrawal: (state) => [{ type: 'settle_withdrawal', keptCents: Math.floor(refundableCents(state) / 2) }],
  refund: (state) => [{ type: 'refund', amountCents: Math.max(1, refundableCents(state)) }],
  record_reduction: () => [
    { type: 'record_reduction', amountCents: 700, refundRight: true },
    { type: 'record_reduction', amountCents: 700, refundRight: false },
  ],
  receive: (_state, now) => [{ type: 'receive', dueAt: now.toISOString() }],
  advance_stage: () => STAGE_TARGETS.map((to) => ({ type: 'advance_stage', to })),
  ship: () => [{ type: 'ship', parcelNumber: '6A12345678901', carrier: 'colissimo' }],
  request_supplement: () => [{ type: 'request_supplement', amountCents: 700 }],
  settle_supplement: (state) =>
    state.supplement
      ? [
          {
            type: 'settle_supplement',
            adjustmentId: state.supplement.id,
            amountCents: state.supplement.amountCents,
            method: state.paymentMethod,
          },
        ]
      : [{ type: 'settle_supplement', adjustmentId: '', amountCents: 700, method: state.paymentMethod }],
  decline_supplement: (state) => [
    { type: 'decline_supplement', adjustmentId: state.supplement?.id ?? '', decision: 'digitise_paid' },
  ],
  publish_files: (_state, now) => [{ type: 'publish_files', fileCount: 1, expiresAt: now.toISOString() }],
  open_review: (_state, now) => [{ type: 'open_review', fileCount: 1, endsAt: now.toISOString() }],
  close_review: () => [
    { type: 'close_review', droppedCount: 2, lapsed: false },
    { type: 'close_review', droppedCount: 0, lapsed: true },
  ],
};

function firstAllowed(state: OrderState, samples: readonly Transition[], now: Date): TransitionOption {
  const options = samples.map((sample) => option(state, sample, now));
  return options.find((o) => o.allowed) ?? options[0] ?? { allowed: false, code: 'not_allowed', reason: '' };
}

function option(state: OrderState, transition: Transition, now: Date): TransitionOption {
  const decision = decide(state, transition, now);
  return decision.ok
    ? { allowed: true, needsStartBeforePayment: false }
    : { allowed: false, code: decision.code, reason: decision.message };
}

/** A status change, allowed as asked, or only when the staff start the work before the payment. */
export function statusOption(state: OrderState, to: OrderStatus, now: Date = new Date()): TransitionOption {
  const asked = option(state, statusTransition(to), now);
  if (asked.allowed || to === 'canceled') return asked;
  const early = decide(state, statusTransition(to, true), now);
  return early.ok ? { allowed: true, needsStartBeforePayment: true } : asked;
}

/** The one query of the UI: every status, stage and payment action of this order, allowed or refused and why. */
export function allowedTransitions(state: OrderState, now: Date = new Date()): AllowedTransitions {
  const status = Object.fromEntries(ORDER_STATUSES.map((to) => [to, statusOption(state, to, now)])) as Record<
    OrderStatus,
    TransitionOption
  >;
  const stage = Object.fromEntries(
    STAGE_TARGETS.map((to) => [to, option(state, { type: 'advance_stage', to }, now)]),
  ) as Record<StageTarget, TransitionOption>;
  const payment = Object.fromEntries(
    PAYMENT_ACTIONS.map((action) => [action, option(state, PAYMENT_SAMPLES[action](state), now)]),
  ) as Record<PaymentAction, TransitionOption>;
  const any = Object.fromEntries(
    (Object.keys(TRANSITION_SAMPLES) as TransitionType[]).map((type) => [
      type,
      firstAllowed(state, TRANSITION_SAMPLES[type](state, now), now),
    ]),
  ) as Record<TransitionType, TransitionOption>;
  return { status, stage, payment, any };
}

/** The statuses a menu offers: the current one first (nothing changes), then every one allowed. */
export function offeredStatuses(current: OrderStatus, allowed: AllowedTransitions): OrderStatus[] {
  return ORDER_STATUSES.filter((to) => to === current || allowed.status[to].allowed);
}
