import { formatEurosFromCents } from '../format';
import {
  ORDER_STATUS_LABELS,
  type OrderStatus,
  type PaymentStatus,
  WORKSHOP_STAGE_LABELS,
  type WorkshopStage,
} from '../order-status';
import type { OrderPaymentMethod } from '../payments/offline';
import { EARLY_START_TEXT, workHeldBack } from './early-start';
import type { OrderEventKind } from './events';
import { closedWorkRefusal } from './open-work';

/*
 * The order lifecycle (docs/product.md, « The lifecycle »): every change of an order's status, payment
 * status, placement or withdrawal is one of the transitions below. `decide` is the whole rule
 * book: from the order's state and a transition it returns either a French refusal, or the next
 * state with the history event and the side effects the change requires. It is pure; the server
 * (app/server/orders/lifecycle.server.ts) locks the order, asks `decide`, and writes the state and
 * every effect in one transaction. No other code changes these states.
 *
 * Money rules: an order is paid only when it is placed, not cancelled, not withdrawn, not already
 * paid, and for its exact amount; money that arrives anyway is refused here (`settle_payment`
 * refusals), and the server records and refunds it without invoicing it. Every refund is bounded by
 * what was paid minus what was refunded, and has its credit note.
 */

/** How an order is paid: the customer's choice at checkout, or `gift_card` when a card paid it all. */
export type CheckoutMethod = OrderPaymentMethod;

/**
 * What an order is (decision 029): a digitisation (originals sent to the workshop), extra copies
 * of another order's delivered files (nothing to receive: the workshop copies them once paid), a
 * year more of another order's retention (performed when paid), or a gift card (decision 037:
 * issued when paid, withdrawable while unused).
 */
export const ORDER_KINDS = ['digitisation', 'extra_copy', 'retention_extension', 'gift_card'] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];

export function isOrderKind(value: unknown): value is OrderKind {
  return (ORDER_KINDS as readonly unknown[]).includes(value);
}

export interface OrderState {
  /** A digitisation when absent (every order before extra copies existed). */
  kind?: OrderKind;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  paymentMethod: CheckoutMethod;
  /** Confirmed by the customer at checkout; false for a draft (« Commander » only). */
  placed: boolean;
  withdrawn: boolean;
  totalCents: number;
  /** What paid the order (its total once paid, 0 before). */
  paidCents: number;
  /** Refunded or being refunded at the gateway (refunds pending or succeeded). */
  refundedCents: number;
  /**
   * Owed back and reserved, not made yet (« à rembourser », refunds `due`: waiting for someone
   * with the refund right, or for a retry after the gateway refused). 0 when absent.
   */
  owedCents?: number;
  /** The workshop stage (awaiting_originals until the parcel is received). */
  stage: WorkshopStage;
  /** Something physical travels (USB key, DVD, return of the originals, prepaid label). */
  physical: boolean;
  /** A delivery address is frozen on the order. */
  hasDeliveryAddress: boolean;
  /** The reception supplement waiting for the customer's answer, if any. */
  supplement: { id: string; amountCents: number } | null;
  /**
   * The customer kept their withdrawal period (no early-start request): digitising may not start
   * before this instant (early-start.ts, workNotBefore). Null when they asked to start at once.
   */
  workNotBefore: Date | null;
  /**
   * « Preview and keep » (decision 030): the files are published for the customer's review, which
   * is not closed yet (« En attente de votre sélection »). Delivery waits for its end. 0/absent: no review open.
   */
  reviewOpen?: boolean;
  /** A gift card's sale: whether the card it issued has paid anything yet (absent: no card, unused). */
  giftCardUsed?: boolean;
  /**
   * What a gift card pays of this order (decision 037): its `spent` entries minus its `restored`
   * ones. Taken at placement, it is part of what paid the order (paidCents) but not money to
   * collect: the payment settles the rest (amountDueCents). 0 when absent.
   */
  giftCardCents?: number;
  /**
   * Whether that card can still take money back (neither past its end nor closed). A card expired
   * since keeps its part: by its terms that value is spent, so it is neither restored nor refunded
   * in money (no credit note could cancel what the order's invoice never counted). True when absent.
   */
  giftCardOpen?: boolean;
  /** What promotion codes took off the order (decision 038); 0 when absent. */
  discountCents?: number;
}

/** What the order still asks for in money: its total less what a gift card pays of it. */
export function amountDueCents(state: Pick<OrderState, 'totalCents' | 'giftCardCents'>): number {
  return Math.max(0, state.totalCents - (state.giftCardCents ?? 0));
}

/**
 * A cancellation or withdrawal of an unpaid order gives its gift card back what the card was
 * holding for it, and its promotion codes their use: nothing was paid, nothing is refunded, the
 * reservation ends.
 */
function releaseGiftCard(state: OrderState): { changes: Partial<OrderState>; effects: Effect[] } {
  if (isPaid(state)) return { changes: {}, effects: [] };
  // Its promotion codes too: an order never paid does not use up a code's uses.
  const codes: Effect[] = (state.discountCents ?? 0) > 0 ? [{ kind: 'release_promotions' }] : [];
  const cents = state.giftCardCents ?? 0;
  if (cents <= 0) return { changes: {}, effects: codes };
  return { changes: { giftCardCents: 0 }, effects: [{ kind: 'restore_gift_card', amountCents: cents }, ...codes] };
}

/** Something physical travels: it needs a delivery address (docs/fulfilment.md). */
export function shipsSomethingPhysical(order: {
  deliveryMethod: string;
  returnOriginals: boolean;
  sendMethod: string;
}): boolean {
  return order.deliveryMethod !== 'digital' || order.returnOriginals || order.sendMethod === 'label';
}

/** The stage moves of the workshop: forward one step, or back from quality check to digitising (rework). */
export const STAGE_MOVES: Readonly<Record<WorkshopStage, readonly WorkshopStage[]>> = {
  awaiting_originals: [],
  received: ['digitising'],
  digitising: ['quality_check'],
  quality_check: ['ready', 'digitising'],
  ready: [],
};

/** The next stage of the board's « étape suivante » (null at the last one or before reception). */
export function nextStage(stage: WorkshopStage): WorkshopStage | null {
  return STAGE_MOVES[stage][0] ?? null;
}

export type Transition =
  /** The customer confirms the draft at checkout, choosing how to pay. */
  | { type: 'place'; method: CheckoutMethod }
  /** A placed, unpaid order: the customer chooses another way to pay (after a failed card, say). */
  | { type: 'choose_payment_method'; method: CheckoutMethod }
  /** Money received for the order: by its gateway (card), or validated by hand (transfer, cheque). */
  | { type: 'settle_payment'; amountCents: number; currency: string | null; method: CheckoutMethod }
  /**
   * A card attempt failed (the customer is on the page), or the staff rejected an awaited transfer
   * or cheque (`rejected`: the customer is told by e-mail).
   */
  | { type: 'fail_payment'; rejected?: boolean }
  /**
   * The back office moves the order along (cancelling is its own transition). `startBeforePayment`:
   * the staff say explicitly that the work on an unpaid order starts before its payment (« En
   * traitement » is refused otherwise); it is kept in the history.
   */
  | { type: 'set_status'; to: Exclude<OrderStatus, 'canceled'>; startBeforePayment?: boolean }
  /**
   * The back office cancels. `refundRight`: who cancels holds the refund right; then a paid order
   * is refunded in the same step (`refundCents`, the rest is kept). Without it, everything still
   * refundable is owed back (« à rembourser ») for someone with the right to approve (decision 022).
   */
  | { type: 'cancel'; refundCents: number; refundRight: boolean }
  /** The customer withdraws (L221-18); `withinPeriod` is computed from the order's date. */
  | { type: 'withdraw'; withinPeriod: boolean }
  /** Withdrawal after the work started: the staff keep a proportionate amount, the rest is refunded. */
  | { type: 'settle_withdrawal'; keptCents: number }
  /**
   * A refund was given back (gateway or by hand): its credit note, the new payment status.
   * `toGiftCard`: the part a gift card paid goes back to that card (a `restored` entry, no credit
   * note: that money was invoiced at the card's sale and stays owed on the card).
   */
  | { type: 'refund'; amountCents: number; toGiftCard?: boolean }
  /**
   * Fewer items counted at reception than paid for: the difference is owed back. Given back at once
   * when who counted holds the refund right (`refundRight`), else « à rembourser » for approval.
   */
  | { type: 'record_reduction'; amountCents: number; refundRight: boolean }
  /** The originals arrived at the workshop (« Colis reçu »); `dueAt` is the promised date (ISO). */
  | { type: 'receive'; dueAt: string }
  /**
   * The workshop moves the order to another stage (STAGE_MOVES); `ready` makes it « Traité »,
   * silently: the customer's « Vos fichiers sont prêts » comes with the publication of the files.
   */
  | { type: 'advance_stage'; to: Exclude<WorkshopStage, 'awaiting_originals' | 'received'> }
  /** Something physical leaves the workshop with its parcel number. */
  | { type: 'ship'; parcelNumber: string; carrier: 'colissimo' | 'other' }
  /** More items counted than ordered: the customer is asked to approve and pay the difference. */
  | { type: 'request_supplement'; amountCents: number }
  /** The supplement was paid (by its gateway, or validated by hand): its own invoice. */
  | { type: 'settle_supplement'; adjustmentId: string; amountCents: number; method: CheckoutMethod }
  /** The customer (or the staff for them) declines the supplement: what is done with the extra items. */
  | { type: 'decline_supplement'; adjustmentId: string; decision: 'digitise_paid' | 'return_extra' }
  /**
   * « Publier la livraison »: the order's files become visible to the customer, kept until
   * `expiresAt` (ISO, the retention period from now); the order reaches « Prêt » and « Traité ».
   * Again after a rework: the customer is told once more and the period starts again.
   */
  | { type: 'publish_files'; fileCount: number; expiresAt: string }
  /**
   * « Preview and keep » (decision 030): the files of the flagged supports are published for the
   * customer's review until `endsAt` (ISO) instead of being delivered.
   */
  | { type: 'open_review'; fileCount: number; endsAt: string }
  /**
   * The review ends: the customer validated their selection, or the period lapsed (`lapsed`, all
   * kept). The money of the dropped items goes back with `record_reduction` in the same transaction.
   */
  | { type: 'close_review'; droppedCount: number; lapsed: boolean };

export type TransitionType = Transition['type'];

export type Effect =
  | {
      kind: 'notify';
      about: 'new_order' | 'payment_received' | 'supplement_paid' | 'payment_failed' | 'payment_method' | 'withdrawal';
    }
  | { kind: 'email'; template: EmailEffect }
  | { kind: 'invoice' }
  /** The invoice of a paid reception supplement. */
  | { kind: 'supplement_invoice'; adjustmentId: string; amountCents: number }
  | { kind: 'credit_note'; amountCents: number }
  /** Closes the order's open payment sessions (Stripe: expires them). */
  | { kind: 'close_payment_sessions'; reason: 'canceled' | 'withdrawn' | 'replaced' }
  /**
   * Money owed back, reserved with the change (a refund `due`). `approved`: made at once after the
   * commit (through the gateway that took it, or recorded by hand), and left « à rembourser » with
   * its alert if the gateway refuses; not approved: « à rembourser » until someone with the refund
   * right approves it.
   */
  | { kind: 'refund'; amountCents: number; approved: boolean }
  /** A paid retention extension: its source order's files are kept a year more (decision 029). */
  | { kind: 'extend_retention' }
  /** A gift card's sale is paid: its card is issued (decision 037). */
  | { kind: 'issue_gift_card' }
  /** A gift card's sale is withdrawn, unused: the card is closed, its whole value refunded with the order. */
  | { kind: 'cancel_gift_card' }
  /** What a gift card paid of this order goes back to it (a `restored` ledger entry). */
  | { kind: 'restore_gift_card'; amountCents: number }
  /** An unpaid order ends: its promotion codes' uses count no more (decision 038). */
  | { kind: 'release_promotions' };

export type EmailEffect =
  | 'order-confirmation'
  | 'payment-received'
  | 'order-status'
  | 'payment-rejected'
  | 'withdrawal-acknowledgement'
  | 'refund-issued'
  | 'originals-received'
  | 'order-ready'
  | 'order-shipped'
  | 'supplement-requested'
  | 'supplement-paid';

/** The history events the transitions write: kinds of the registry (events.ts), so each has its French label. */
export type EventKind = Extract<
  OrderEventKind,
  | 'placed'
  | 'payment_method_chosen'
  | 'payment_paid'
  | 'payment_validated'
  | 'payment_failed'
  | 'status_changed'
  | 'withdrawal_requested'
  | 'withdrawal_settled'
  | 'refund_issued'
  | 'parcel_received'
  | 'stage_changed'
  | 'shipped'
  | 'supplement_requested'
  | 'supplement_paid'
  | 'supplement_declined'
  | 'reduction_recorded'
  | 'files_published'
  | 'review_opened'
  | 'review_closed'
>;

export type RefusalCode =
  | 'draft'
  | 'placed'
  | 'canceled'
  | 'withdrawn'
  | 'already_paid'
  | 'not_paid'
  | 'amount_mismatch'
  | 'nothing_to_pay'
  | 'same_status'
  | 'not_allowed'
  | 'performed'
  | 'expired'
  | 'not_withdrawn'
  | 'amount_invalid'
  | 'no_address'
  | 'already_received'
  | 'not_received'
  | 'stage_not_allowed'
  | 'supplement_open'
  | 'no_supplement'
  | 'no_files'
  | 'withdrawal_period'
  | 'refunded'
  | 'payment_failed'
  | 'payment_refunded'
  | 'review_open'
  | 'no_review';

export interface Accepted {
  ok: true;
  next: OrderState;
  event: { kind: EventKind; from: string | null; to: string | null };
  effects: Effect[];
}

export interface Refused {
  ok: false;
  code: RefusalCode;
  message: string;
}

export type Decision = Accepted | Refused;

export const LIFECYCLE_MESSAGES = {
  draft: 'Cette commande n’a pas encore été confirmée par le client.',
  placed: 'Cette commande est déjà confirmée.',
  canceled: 'Cette commande est annulée.',
  withdrawn: 'Le client s’est rétracté de cette commande.',
  alreadyPaid: 'Cette commande est déjà payée.',
  notPaid: 'Cette commande n’a pas été payée : il n’y a rien à rembourser.',
  amountMismatch: (received: number, expected: number) =>
    `Le montant reçu (${formatEurosFromCents(received)}) ne correspond pas au montant de la commande (${formatEurosFromCents(expected)}).`,
  nothingToPay: 'Cette commande n’a aucun montant à payer.',
  sameStatus: 'La commande a déjà ce statut.',
  notAllowed: (from: OrderStatus, to: OrderStatus) =>
    `Une commande « ${ORDER_STATUS_LABELS[from]} » ne peut pas passer à « ${ORDER_STATUS_LABELS[to]} ».`,
  giftCardUsed: 'La carte cadeau a déjà servi\u00A0: sa vente ne peut plus être annulée ni remboursée.',
  giftCardRefundByCancel:
    'Une carte cadeau se rembourse en l’annulant (« Cartes cadeaux » ou annulation de sa commande)\u00A0: sa carte est alors fermée.',
  performed:
    'La prestation a été entièrement exécutée : la rétractation n’est plus possible (article L221-28 du Code de la consommation).',
  expired: 'Le délai de rétractation de 14 jours est dépassé pour cette commande.',
  alreadyWithdrawn: 'Votre rétractation a déjà été enregistrée pour cette commande.',
  withdrawalCanceled: 'Cette commande est annulée : aucune rétractation n’est nécessaire.',
  withdrawalDraft:
    'Cette commande n’a pas été confirmée : aucun contrat n’est conclu, il n’y a rien à quoi renoncer. Elle reste dans « Devis et brouillons » tant que vous ne la validez pas.',
  notWithdrawn: 'Le client ne s’est pas rétracté de cette commande.',
  refundTooLarge: (max: number) =>
    max > 0
      ? `Le montant à rembourser doit être compris entre ${formatEurosFromCents(1)} et ${formatEurosFromCents(max)}.`
      : 'Tout ce qui a été payé a déjà été remboursé.',
  noAddress: 'Aucune adresse de livraison n’est enregistrée pour cette commande.',
  alreadyReceived: 'Le colis de cette commande a déjà été reçu.',
  nothingToReceive: 'Cette commande n’attend aucun colis\u00A0: les fichiers à copier sont déjà à l’atelier.',
  notReceived: 'Le colis de cette commande n’a pas encore été reçu.',
  stageNotAllowed: (from: WorkshopStage, to: WorkshopStage) =>
    `Une commande à l’étape « ${WORKSHOP_STAGE_LABELS[from]} » ne peut pas passer à « ${WORKSHOP_STAGE_LABELS[to]} ».`,
  unpaidWork: 'La commande doit être payée avant d’être numérisée.',
  processingFailedPayment:
    'Le paiement de cette commande a échoué : elle ne peut pas passer « En traitement » avant d’être payée.',
  processingRefunded: 'Cette commande a été remboursée : elle ne peut pas passer « En traitement ».',
  processingUnpaid:
    'Cette commande n’est pas payée : elle ne passe « En traitement » que si vous choisissez de commencer avant le paiement.',
  withdrawalPeriod: (notBefore: Date) =>
    `Le client n’a pas demandé à commencer avant la fin de son délai de rétractation. ${EARLY_START_TEXT.notBefore(notBefore)}.`,
  supplementOpen: 'Le client n’a pas encore répondu au supplément demandé.',
  noSupplement: 'Aucun supplément n’attend de réponse pour cette commande.',
  supplementUnpaidOrder: 'La commande doit être payée avant qu’un supplément soit demandé.',
  unpaidDelivery: 'La commande doit être payée avant que ses fichiers soient livrés.',
  noFiles: 'Aucun fichier à livrer : déposez d’abord les fichiers de la commande.',
  notShippable: (from: OrderStatus) =>
    `Une commande « ${ORDER_STATUS_LABELS[from]} » ne peut pas être expédiée : terminez d’abord son traitement.`,
  parcelNumber: 'Indiquez le numéro de suivi du colis.',
  reviewOpen: 'Le client n’a pas encore validé sa sélection : la livraison suivra sa validation ou la fin du délai.',
  noReview: 'Aucune sélection n’est en cours pour cette commande.',
  keptTooLarge: (max: number) =>
    `Le montant conservé doit être compris entre ${formatEurosFromCents(0)} et ${formatEurosFromCents(max)}.`,
} as const;

/**
 * The moves the back office may make between statuses. Cancelled is final: what was paid is then
 * refunded, never un-cancelled. Shipped can go back to Traité (a mistaken click), not further.
 */
export const STATUS_MOVES: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending: ['processing', 'completed', 'shipped', 'canceled'],
  processing: ['pending', 'completed', 'shipped', 'canceled'],
  completed: ['processing', 'shipped', 'canceled'],
  shipped: ['completed'],
  canceled: [],
};

/**
 * Whether one step of the lifecycle may take an order's status from `from` to `to`: it stays, or
 * moves as the table allows; settling a withdrawal ends the order even once its originals went home
 * (« Expédiée »). The tests hold every decision and every random history to it.
 */
export function statusStepAllowed(from: OrderStatus, to: OrderStatus, transition: Transition['type']): boolean {
  return from === to || STATUS_MOVES[from].includes(to) || (transition === 'settle_withdrawal' && to === 'canceled');
}

export function isPaid(state: Pick<OrderState, 'paymentStatus'>): boolean {
  return state.paymentStatus === 'paid' || state.paymentStatus === 'partially_refunded';
}

/**
 * What can still be given back: paid minus refunded (or being refunded) minus what is already owed
 * back, less the part of a gift card that can no longer take it back (giftCardOpen).
 */
export function refundableCents(
  state: Pick<OrderState, 'paidCents' | 'refundedCents' | 'owedCents' | 'giftCardCents' | 'giftCardOpen'>,
): number {
  const lockedOnCard = state.giftCardOpen === false ? (state.giftCardCents ?? 0) : 0;
  return Math.max(0, state.paidCents - state.refundedCents - (state.owedCents ?? 0) - lockedOnCard);
}

/** The refund effect of a change that owes `amountCents` back, and the state that reserves it. */
function owe(
  state: OrderState,
  amountCents: number,
  approved: boolean,
): { owed: Partial<OrderState>; effects: Effect[] } {
  if (amountCents <= 0) return { owed: {}, effects: [] };
  return {
    owed: { owedCents: (state.owedCents ?? 0) + amountCents },
    effects: [{ kind: 'refund', amountCents, approved }],
  };
}

/**
 * Which of the three withdrawals an order's is (L221-18, L221-25), the rule `withdraw` applies and
 * the pages and the acknowledgement tell: not paid (the order is cancelled, nothing is refunded),
 * paid with the work not started (everything paid is refunded), or started at the customer's
 * express request (the amount for the service already provided is kept, the rest refunded).
 */
export type WithdrawalCase = 'unpaid' | 'paid_not_started' | 'started';

export function withdrawalCase(state: { paymentStatus: string; status: string; kind?: OrderKind }): WithdrawalCase {
  // Pages pass the stored strings; an unknown payment status is not a paid one.
  if (!isPaid({ paymentStatus: state.paymentStatus as PaymentStatus })) return 'unpaid';
  // An unused gift card is given back whole (withdrawalBar bars a used one).
  if (state.kind === 'gift_card') return 'paid_not_started';
  return state.status === 'pending' ? 'paid_not_started' : 'started';
}

/** The withdrawal is no longer offered once the service is fully performed. */
export function isFullyPerformed(status: string): boolean {
  return status === 'completed' || status === 'shipped';
}

/**
 * What bars a withdrawal, before its period is even looked at (the guard of `withdraw`, and what the
 * customer's pages show, account/withdrawal.ts): a draft (no contract), a withdrawal already made,
 * a cancelled order, a service fully performed (L221-28); null when only the period decides.
 */
export function withdrawalBar(order: {
  placed: boolean;
  withdrawn: boolean;
  status: string;
  kind?: OrderKind;
  giftCardUsed?: boolean;
}): 'draft' | 'withdrawn' | 'canceled' | 'performed' | null {
  if (!order.placed) return 'draft';
  if (order.withdrawn) return 'withdrawn';
  if (order.status === 'canceled') return 'canceled';
  // A gift card is « Traitée » once issued, but it is performed only when it has paid something.
  if (order.kind === 'gift_card') return order.giftCardUsed ? 'performed' : null;
  if (isFullyPerformed(order.status)) return 'performed';
  return null;
}

const refuse = (code: RefusalCode, message: string): Refused => ({ ok: false, code, message });

/** Refusals shared by every transition that needs a live order (placed, not cancelled, not withdrawn). */
function liveOrderRefusal(state: OrderState): Refused | null {
  if (!state.placed) return refuse('draft', LIFECYCLE_MESSAGES.draft);
  if (state.status === 'canceled') return refuse('canceled', LIFECYCLE_MESSAGES.canceled);
  if (state.withdrawn) return refuse('withdrawn', LIFECYCLE_MESSAGES.withdrawn);
  return null;
}

function accept(
  state: OrderState,
  changes: Partial<OrderState>,
  event: Accepted['event'],
  effects: Effect[],
): Accepted {
  return { ok: true, next: { ...state, ...changes }, event, effects };
}

function afterRefund(state: OrderState, amountCents: number): PaymentStatus {
  return state.refundedCents + amountCents >= state.paidCents ? 'refunded' : 'partially_refunded';
}

/**
 * « En traitement » means the work is under way: never on a failed or refunded payment,
 * and on an unpaid order only when the staff say explicitly that the work starts before the payment.
 */
function processingRefusal(state: OrderState, startBeforePayment: boolean): Refused | null {
  if (state.paymentStatus === 'failed') {
    return refuse('payment_failed', LIFECYCLE_MESSAGES.processingFailedPayment);
  }
  if (state.paymentStatus === 'refunded') return refuse('payment_refunded', LIFECYCLE_MESSAGES.processingRefunded);
  if (!isPaid(state) && !startBeforePayment) return refuse('not_paid', LIFECYCLE_MESSAGES.processingUnpaid);
  return null;
}

/** A transition of one type, as its rule receives it. */
export type TransitionOf<T extends TransitionType> = Extract<Transition, { type: T }>;

/** The state dimensions the lifecycle changes, each with its own table of moves (below). */
export const STATE_DIMENSIONS = ['status', 'paymentStatus', 'stage', 'placed', 'withdrawn'] as const;
export type StateDimension = (typeof STATE_DIMENSIONS)[number];

/**
 * One transition of the rule book: `guard` says why it is refused (or null), `apply` the next state,
 * the history event and the effects of an accepted one; `changes` lists the state dimensions it may
 * move (the table-driven tests hold every accepted decision to it and to each dimension's table).
 */
export interface TransitionRule<T extends TransitionType> {
  changes: readonly StateDimension[];
  guard: (state: OrderState, transition: TransitionOf<T>, now: Date) => Refused | null;
  apply: (state: OrderState, transition: TransitionOf<T>, now: Date) => Accepted;
}

/**
 * The payment status moves (any transition): chosen or failed again while unpaid, paid once, then
 * refunded in part or in full. Refunded in full is final.
 */
export const PAYMENT_STATUS_MOVES: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  pending: ['paid', 'failed'],
  failed: ['pending', 'paid'],
  paid: ['partially_refunded', 'refunded'],
  partially_refunded: ['refunded'],
  refunded: [],
};

/**
 * Every stage move of any transition (STAGE_MOVES are the workshop's manual ones): the parcel is
 * received (or extra copies need none), the workshop moves on, and « Traité » (by hand, by the
 * publication of the files, by the payment of a retention extension) makes it « Prêt » from any stage.
 */
export const STAGE_STEPS: Readonly<Record<WorkshopStage, readonly WorkshopStage[]>> = {
  awaiting_originals: ['received', 'ready'],
  received: ['digitising', 'ready'],
  digitising: ['quality_check', 'ready'],
  quality_check: ['ready', 'digitising'],
  ready: [],
};

/** Placement and withdrawal happen once and never go back. */
export const PLACEMENT_MOVES: Readonly<Record<'true' | 'false', readonly boolean[]>> = { false: [true], true: [] };
export const WITHDRAWAL_MOVES: Readonly<Record<'true' | 'false', readonly boolean[]>> = { false: [true], true: [] };

/**
 * Whether one step of `transition` may take a dimension from `from` to `to`: it stays, or it moves
 * as that dimension's table allows (status: statusStepAllowed, with its one exception).
 */
export function dimensionStepAllowed(
  dimension: StateDimension,
  from: OrderState,
  to: OrderState,
  transition: TransitionType,
): boolean {
  switch (dimension) {
    case 'status':
      return statusStepAllowed(from.status, to.status, transition);
    case 'paymentStatus':
      return (
        from.paymentStatus === to.paymentStatus || PAYMENT_STATUS_MOVES[from.paymentStatus].includes(to.paymentStatus)
      );
    case 'stage':
      return from.stage === to.stage || STAGE_STEPS[from.stage].includes(to.stage);
    case 'placed':
      return from.placed === to.placed || PLACEMENT_MOVES[String(from.placed) as 'true' | 'false'].includes(to.placed);
    case 'withdrawn':
      return (
        from.withdrawn === to.withdrawn ||
        WITHDRAWAL_MOVES[String(from.withdrawn) as 'true' | 'false'].includes(to.withdrawn)
      );
  }
}

/** A refusal of a refund-like amount: a whole number of cents from 1 to `max`. */
function amountRefusal(amountCents: number, max: number): Refused | null {
  if (!Number.isInteger(amountCents) || amountCents <= 0 || amountCents > max) {
    return refuse('amount_invalid', LIFECYCLE_MESSAGES.refundTooLarge(max));
  }
  return null;
}

/** The refusals of a delivery (publication, or its review first): a live, received, paid order, no open supplement. */
function deliveryRefusal(state: OrderState): Refused | null {
  const refusal = liveOrderRefusal(state);
  if (refusal) return refusal;
  if (state.stage === 'awaiting_originals') return refuse('not_received', LIFECYCLE_MESSAGES.notReceived);
  if (!isPaid(state)) return refuse('not_paid', LIFECYCLE_MESSAGES.unpaidDelivery);
  if (state.supplement) return refuse('supplement_open', LIFECYCLE_MESSAGES.supplementOpen);
  return null;
}

/** The reception supplement named by the transition is the one waiting for an answer. */
function supplementRefusal(state: OrderState, adjustmentId: string): Refused | null {
  if (!state.supplement || state.supplement.id !== adjustmentId) {
    return refuse('no_supplement', LIFECYCLE_MESSAGES.noSupplement);
  }
  return null;
}

/**
 * The rule book: one rule per transition (its guard and its effects). `decide` looks the
 * transition up here; `allowedTransitions` and the tests walk the same table.
 */
export const TRANSITIONS: { readonly [T in TransitionType]: TransitionRule<T> } = {
  place: {
    changes: ['placed', 'paymentStatus', 'stage'],
    guard: (state) => {
      if (state.placed) return refuse('placed', LIFECYCLE_MESSAGES.placed);
      if (state.status === 'canceled') return refuse('canceled', LIFECYCLE_MESSAGES.canceled);
      if (state.totalCents <= 0) return refuse('nothing_to_pay', LIFECYCLE_MESSAGES.nothingToPay);
      // Something travels: the carrier needs where to (the checkout freezes the address first).
      if (state.physical && !state.hasDeliveryAddress) return refuse('no_address', LIFECYCLE_MESSAGES.noAddress);
      return null;
    },
    apply: (state, transition) => {
      // Extra copies wait for no parcel: their files are at the workshop, the work follows the payment.
      const stage = state.kind === 'extra_copy' && state.stage === 'awaiting_originals' ? 'received' : state.stage;
      return accept(
        state,
        { placed: true, paymentMethod: transition.method, paymentStatus: 'pending', stage },
        { kind: 'placed', from: null, to: transition.method },
        [
          { kind: 'notify', about: 'new_order' },
          { kind: 'email', template: 'order-confirmation' },
        ],
      );
    },
  },
  choose_payment_method: {
    changes: ['paymentStatus'],
    guard: (state) => {
      const refusal = liveOrderRefusal(state);
      if (refusal) return refusal;
      if (isPaid(state) || state.paymentStatus === 'refunded') {
        return refuse('already_paid', LIFECYCLE_MESSAGES.alreadyPaid);
      }
      return null;
    },
    apply: (state, transition) => {
      const offline = transition.method !== 'card';
      return accept(
        state,
        { paymentMethod: transition.method, paymentStatus: 'pending' },
        { kind: 'payment_method_chosen', from: state.paymentMethod, to: transition.method },
        offline
          ? [
              { kind: 'close_payment_sessions', reason: 'replaced' },
              { kind: 'notify', about: 'payment_method' },
              { kind: 'email', template: 'order-confirmation' },
            ]
          : [],
      );
    },
  },
  settle_payment: {
    changes: ['paymentStatus', 'status', 'stage'],
    guard: (state, transition) => {
      const refusal = liveOrderRefusal(state);
      if (refusal) return refusal;
      if (state.paymentStatus !== 'pending' && state.paymentStatus !== 'failed') {
        return refuse('already_paid', LIFECYCLE_MESSAGES.alreadyPaid);
      }
      // The money asked for: the total less what a gift card pays (0 when the card pays it all).
      const due = amountDueCents(state);
      const currency = transition.currency?.toUpperCase() ?? 'EUR';
      if (transition.amountCents !== due || currency !== 'EUR') {
        return refuse('amount_mismatch', LIFECYCLE_MESSAGES.amountMismatch(transition.amountCents, due));
      }
      return null;
    },
    apply: (state, transition) => {
      // A retention extension is performed by its payment (the files are kept longer), a gift card
      // is issued by it: either is done.
      const extension = state.kind === 'retention_extension';
      const giftCard = state.kind === 'gift_card';
      return accept(
        state,
        {
          paymentStatus: 'paid',
          paymentMethod: transition.method,
          paidCents: transition.amountCents + (state.giftCardCents ?? 0),
          ...(extension || giftCard ? { status: 'completed' as const, stage: 'ready' as const } : {}),
        },
        {
          kind: transition.method === 'card' ? 'payment_paid' : 'payment_validated',
          from: state.paymentStatus,
          to: 'paid',
        },
        [
          { kind: 'notify', about: 'payment_received' },
          { kind: 'invoice' },
          ...(extension ? [{ kind: 'extend_retention' } as const] : []),
          ...(giftCard ? [{ kind: 'issue_gift_card' } as const] : []),
          { kind: 'email', template: 'payment-received' },
        ],
      );
    },
  },
  fail_payment: {
    changes: ['paymentStatus'],
    guard: (state) => {
      // A draft asks for no payment yet: nothing of it can fail (the property test found one « failed »).
      if (!state.placed) return refuse('draft', LIFECYCLE_MESSAGES.draft);
      if (state.paymentStatus !== 'pending' && state.paymentStatus !== 'failed') {
        return refuse('already_paid', LIFECYCLE_MESSAGES.alreadyPaid);
      }
      return null;
    },
    apply: (state, transition) =>
      accept(state, { paymentStatus: 'failed' }, { kind: 'payment_failed', from: state.paymentStatus, to: 'failed' }, [
        { kind: 'notify', about: 'payment_failed' },
        ...(transition.rejected ? [{ kind: 'email', template: 'payment-rejected' } as const] : []),
      ]),
  },
  set_status: {
    changes: ['status', 'stage'],
    guard: (state, transition) => {
      if (!state.placed) return refuse('draft', LIFECYCLE_MESSAGES.draft);
      if (state.status === transition.to) return refuse('same_status', LIFECYCLE_MESSAGES.sameStatus);
      if (!STATUS_MOVES[state.status].includes(transition.to)) {
        return refuse('not_allowed', LIFECYCLE_MESSAGES.notAllowed(state.status, transition.to));
      }
      if (transition.to === 'shipped' && state.physical && !state.hasDeliveryAddress) {
        return refuse('no_address', LIFECYCLE_MESSAGES.noAddress);
      }
      if (transition.to === 'processing') return processingRefusal(state, transition.startBeforePayment === true);
      return null;
    },
    apply: (state, transition) =>
      accept(
        state,
        // « Traité » by hand means the files are ready: the workshop stage follows.
        { status: transition.to, ...(transition.to === 'completed' ? { stage: 'ready' as const } : {}) },
        { kind: 'status_changed', from: state.status, to: transition.to },
        [{ kind: 'email', template: 'order-status' }],
      ),
  },
  cancel: {
    changes: ['status'],
    guard: (state, transition) => {
      if (!state.placed) return refuse('draft', LIFECYCLE_MESSAGES.draft);
      if (!STATUS_MOVES[state.status].includes('canceled')) {
        return state.status === 'canceled'
          ? refuse('canceled', LIFECYCLE_MESSAGES.canceled)
          : refuse('not_allowed', LIFECYCLE_MESSAGES.notAllowed(state.status, 'canceled'));
      }
      // A gift card that paid something is performed: its sale stands (decision 037).
      if (state.kind === 'gift_card' && state.giftCardUsed) return refuse('performed', LIFECYCLE_MESSAGES.giftCardUsed);
      const max = refundableCents(state);
      if (!Number.isInteger(transition.refundCents) || transition.refundCents < 0 || transition.refundCents > max) {
        return refuse('amount_invalid', LIFECYCLE_MESSAGES.refundTooLarge(max));
      }
      return null;
    },
    apply: (state, transition) => {
      // A paid card's sale cancelled: its card is closed in the same transaction, never left open
      // beside its refund.
      const card: Effect[] = state.kind === 'gift_card' && state.paidCents > 0 ? [{ kind: 'cancel_gift_card' }] : [];
      // Without the refund right nothing paid is kept silently: all of it is owed, for approval.
      const { owed, effects } = transition.refundRight
        ? owe(state, transition.refundCents, true)
        : owe(state, refundableCents(state), false);
      const released = releaseGiftCard(state);
      return accept(
        state,
        { status: 'canceled', ...owed, ...released.changes },
        { kind: 'status_changed', from: state.status, to: 'canceled' },
        [
          { kind: 'close_payment_sessions', reason: 'canceled' },
          { kind: 'email', template: 'order-status' },
          ...card,
          ...released.effects,
          ...effects,
        ],
      );
    },
  },
  withdraw: {
    changes: ['withdrawn', 'status'],
    guard: (state, transition) => {
      // The customer reads these (account/withdrawal.ts shows the same before they ask).
      switch (withdrawalBar(state)) {
        case 'draft':
          return refuse('draft', LIFECYCLE_MESSAGES.draft);
        case 'withdrawn':
          return refuse('withdrawn', LIFECYCLE_MESSAGES.alreadyWithdrawn);
        case 'canceled':
          return refuse('canceled', LIFECYCLE_MESSAGES.withdrawalCanceled);
        case 'performed':
          return refuse('performed', LIFECYCLE_MESSAGES.performed);
        case null:
          return transition.withinPeriod ? null : refuse('expired', LIFECYCLE_MESSAGES.expired);
      }
    },
    apply: (state) => {
      const event = { kind: 'withdrawal_requested', from: state.status, to: null } as const;
      const acknowledge: Effect[] = [
        { kind: 'close_payment_sessions', reason: 'withdrawn' },
        { kind: 'notify', about: 'withdrawal' },
        { kind: 'email', template: 'withdrawal-acknowledgement' },
      ];
      const withdrawal = withdrawalCase(state);
      // Not paid: nothing to give back, the order ends here.
      if (withdrawal === 'unpaid') {
        const released = releaseGiftCard(state);
        return accept(state, { withdrawn: true, status: 'canceled', ...released.changes }, event, [
          ...acknowledge,
          ...released.effects,
        ]);
      }
      // Paid, work not started: everything paid is refunded at once (the law asks it, no approval).
      if (withdrawal === 'paid_not_started') {
        const { owed, effects } = owe(state, refundableCents(state), true);
        const card: Effect[] = state.kind === 'gift_card' ? [{ kind: 'cancel_gift_card' }] : [];
        return accept(state, { withdrawn: true, status: 'canceled', ...owed }, event, [
          ...acknowledge,
          ...card,
          ...effects,
        ]);
      }
      // Started at the customer's express request: the staff settle the proportionate amount kept.
      return accept(state, { withdrawn: true }, event, acknowledge);
    },
  },
  settle_withdrawal: {
    changes: ['status'],
    guard: (state, transition) => {
      if (!state.withdrawn) return refuse('not_withdrawn', LIFECYCLE_MESSAGES.notWithdrawn);
      if (state.status === 'canceled') return refuse('canceled', LIFECYCLE_MESSAGES.canceled);
      const max = refundableCents(state);
      if (!Number.isInteger(transition.keptCents) || transition.keptCents < 0 || transition.keptCents > max) {
        return refuse('amount_invalid', LIFECYCLE_MESSAGES.keptTooLarge(max));
      }
      return null;
    },
    apply: (state, transition) => {
      const { owed, effects } = owe(state, refundableCents(state) - transition.keptCents, true);
      return accept(
        state,
        { status: 'canceled', ...owed },
        { kind: 'withdrawal_settled', from: state.status, to: 'canceled' },
        [{ kind: 'close_payment_sessions', reason: 'withdrawn' }, ...effects],
      );
    },
  },
  refund: {
    changes: ['paymentStatus'],
    guard: (state, transition) => {
      if (!isPaid(state)) {
        return state.paymentStatus === 'refunded'
          ? refuse('amount_invalid', LIFECYCLE_MESSAGES.refundTooLarge(0))
          : refuse('not_paid', LIFECYCLE_MESSAGES.notPaid);
      }
      // A card's sale gives money back only once cancelled or withdrawn, its card closed with it.
      if (state.kind === 'gift_card' && state.status !== 'canceled') {
        return refuse('not_allowed', LIFECYCLE_MESSAGES.giftCardRefundByCancel);
      }
      // Back to the card: at most what the card paid of the order.
      const max = transition.toGiftCard
        ? Math.min(state.giftCardCents ?? 0, refundableCents(state))
        : refundableCents(state);
      return amountRefusal(transition.amountCents, max);
    },
    apply: (state, transition) => {
      const paymentStatus = afterRefund(state, transition.amountCents);
      const toCard = transition.toGiftCard === true;
      return accept(
        state,
        {
          paymentStatus,
          refundedCents: state.refundedCents + transition.amountCents,
          ...(toCard ? { giftCardCents: (state.giftCardCents ?? 0) - transition.amountCents } : {}),
        },
        { kind: 'refund_issued', from: state.paymentStatus, to: paymentStatus },
        [
          toCard
            ? { kind: 'restore_gift_card', amountCents: transition.amountCents }
            : { kind: 'credit_note', amountCents: transition.amountCents },
          { kind: 'email', template: 'refund-issued' },
        ],
      );
    },
  },
  record_reduction: {
    changes: [],
    guard: (state, transition) => {
      const refusal = liveOrderRefusal(state);
      if (refusal) return refusal;
      if (!isPaid(state)) return refuse('not_paid', LIFECYCLE_MESSAGES.notPaid);
      if (state.kind === 'gift_card') return refuse('not_allowed', LIFECYCLE_MESSAGES.giftCardRefundByCancel);
      return amountRefusal(transition.amountCents, refundableCents(state));
    },
    apply: (state, transition) => {
      const { owed, effects } = owe(state, transition.amountCents, transition.refundRight);
      return accept(
        state,
        owed,
        { kind: 'reduction_recorded', from: null, to: transition.refundRight ? 'approved' : 'to_approve' },
        effects,
      );
    },
  },
  receive: {
    changes: ['stage', 'status'],
    guard: (state) => {
      // A closed order (cancelled, withdrawn, refunded in full) takes no originals (open-work.ts).
      const closed = closedWorkRefusal(state);
      if (closed) return refuse(closed.code, closed.message);
      if (state.kind && state.kind !== 'digitisation')
        return refuse('not_allowed', LIFECYCLE_MESSAGES.nothingToReceive);
      if (state.stage !== 'awaiting_originals') return refuse('already_received', LIFECYCLE_MESSAGES.alreadyReceived);
      if (state.status !== 'pending' && state.status !== 'processing') {
        return refuse('not_allowed', LIFECYCLE_MESSAGES.notAllowed(state.status, 'processing'));
      }
      return null;
    },
    apply: (state) =>
      accept(
        state,
        { stage: 'received', status: 'processing' },
        { kind: 'parcel_received', from: state.stage, to: 'received' },
        [{ kind: 'email', template: 'originals-received' }],
      ),
  },
  advance_stage: {
    changes: ['stage', 'status'],
    guard: (state, transition, now) => {
      const refusal = liveOrderRefusal(state);
      if (refusal) return refusal;
      if (state.stage === 'awaiting_originals') return refuse('not_received', LIFECYCLE_MESSAGES.notReceived);
      if (!STAGE_MOVES[state.stage].includes(transition.to)) {
        return refuse('stage_not_allowed', LIFECYCLE_MESSAGES.stageNotAllowed(state.stage, transition.to));
      }
      if (transition.to !== 'digitising') return null;
      if (!isPaid(state)) return refuse('not_paid', LIFECYCLE_MESSAGES.unpaidWork);
      if (state.supplement) return refuse('supplement_open', LIFECYCLE_MESSAGES.supplementOpen);
      // Starting the work is what the customer did not ask for before their 14 days are over.
      // Extra copies are goods made to the customer's own order (L221-28 3°): nothing waits.
      if (state.kind !== 'extra_copy' && state.workNotBefore && workHeldBack(state.workNotBefore, now)) {
        return refuse('withdrawal_period', LIFECYCLE_MESSAGES.withdrawalPeriod(state.workNotBefore));
      }
      return null;
    },
    apply: (state, transition) => {
      const ready = transition.to === 'ready';
      // No e-mail at « Prêt »: the customer hears « Vos fichiers sont prêts » once, when the files
      // are published (publish_files), with the link to them; before that there is nothing to open.
      // An order already shipped (its originals went home first) stays « Expédiée », as on publication.
      const status = state.status === 'shipped' ? 'shipped' : ready ? 'completed' : 'processing';
      return accept(
        state,
        { stage: transition.to, status },
        { kind: 'stage_changed', from: state.stage, to: transition.to },
        [],
      );
    },
  },
  ship: {
    changes: ['status'],
    guard: (state, transition) => {
      if (!state.placed) return refuse('draft', LIFECYCLE_MESSAGES.draft);
      if (state.status === 'canceled') return refuse('canceled', LIFECYCLE_MESSAGES.canceled);
      if (state.status === 'shipped') return refuse('same_status', LIFECYCLE_MESSAGES.sameStatus);
      // A withdrawn order's originals still go home; anything else leaves once the work is done.
      if (state.status !== 'completed' && !state.withdrawn) {
        return refuse('not_allowed', LIFECYCLE_MESSAGES.notShippable(state.status));
      }
      if (transition.parcelNumber.trim() === '') return refuse('amount_invalid', LIFECYCLE_MESSAGES.parcelNumber);
      if (state.physical && !state.hasDeliveryAddress) return refuse('no_address', LIFECYCLE_MESSAGES.noAddress);
      return null;
    },
    apply: (state) =>
      accept(state, { status: 'shipped' }, { kind: 'shipped', from: state.status, to: 'shipped' }, [
        { kind: 'email', template: 'order-shipped' },
      ]),
  },
  request_supplement: {
    changes: [],
    guard: (state, transition) => {
      const refusal = liveOrderRefusal(state);
      if (refusal) return refusal;
      if (!isPaid(state)) return refuse('not_paid', LIFECYCLE_MESSAGES.supplementUnpaidOrder);
      if (state.supplement) return refuse('supplement_open', LIFECYCLE_MESSAGES.supplementOpen);
      if (!Number.isInteger(transition.amountCents) || transition.amountCents <= 0) {
        return refuse('amount_invalid', LIFECYCLE_MESSAGES.refundTooLarge(0));
      }
      return null;
    },
    // The id is the adjustment row the server inserts with this transition.
    apply: (state, transition) =>
      accept(
        state,
        { supplement: { id: '', amountCents: transition.amountCents } },
        { kind: 'supplement_requested', from: null, to: 'awaiting_customer' },
        [{ kind: 'email', template: 'supplement-requested' }],
      ),
  },
  settle_supplement: {
    changes: [],
    guard: (state, transition) => {
      const refusal = liveOrderRefusal(state) ?? supplementRefusal(state, transition.adjustmentId);
      if (refusal) return refusal;
      const expected = state.supplement?.amountCents ?? 0;
      if (transition.amountCents !== expected) {
        return refuse('amount_mismatch', LIFECYCLE_MESSAGES.amountMismatch(transition.amountCents, expected));
      }
      return null;
    },
    apply: (state, transition) =>
      accept(
        state,
        { supplement: null, paidCents: state.paidCents + transition.amountCents },
        { kind: 'supplement_paid', from: 'awaiting_customer', to: 'paid' },
        [
          // The back office reads the supplement's amount, not the order's total.
          { kind: 'notify', about: 'supplement_paid' },
          { kind: 'supplement_invoice', adjustmentId: transition.adjustmentId, amountCents: transition.amountCents },
          { kind: 'email', template: 'supplement-paid' },
        ],
      ),
  },
  decline_supplement: {
    changes: [],
    guard: (state, transition) => supplementRefusal(state, transition.adjustmentId),
    apply: (state, transition) =>
      accept(
        state,
        { supplement: null },
        { kind: 'supplement_declined', from: 'awaiting_customer', to: transition.decision },
        [],
      ),
  },
  publish_files: {
    changes: ['stage', 'status'],
    guard: (state, transition) => {
      const refusal = deliveryRefusal(state);
      if (refusal) return refusal;
      if (!Number.isInteger(transition.fileCount) || transition.fileCount <= 0) {
        return refuse('no_files', LIFECYCLE_MESSAGES.noFiles);
      }
      if (state.reviewOpen) return refuse('review_open', LIFECYCLE_MESSAGES.reviewOpen);
      return null;
    },
    // An order already shipped stays « Expédiée »: its files are delivered on top.
    apply: (state) =>
      accept(
        state,
        { stage: 'ready', status: state.status === 'shipped' ? 'shipped' : 'completed' },
        { kind: 'files_published', from: state.stage, to: 'ready' },
        [{ kind: 'email', template: 'order-ready' }],
      ),
  },
  open_review: {
    changes: [],
    // The same conditions as a delivery: the review is the delivery's first step.
    guard: (state, transition) => {
      const refusal = deliveryRefusal(state);
      if (refusal) return refusal;
      if (state.reviewOpen) return refuse('review_open', LIFECYCLE_MESSAGES.reviewOpen);
      if (!Number.isInteger(transition.fileCount) || transition.fileCount <= 0) {
        return refuse('no_files', LIFECYCLE_MESSAGES.noFiles);
      }
      return null;
    },
    // The status and stage stay: the work is done but not delivered; the e-mail is the caller's,
    // in this transaction (it carries the review's link and end date).
    apply: (state) =>
      accept(state, { reviewOpen: true }, { kind: 'review_opened', from: state.stage, to: 'awaiting_selection' }, []),
  },
  close_review: {
    changes: [],
    // Closed even on a cancelled order: nothing is then refunded nor delivered by the caller.
    guard: (state, transition) => {
      if (!state.reviewOpen) return refuse('no_review', LIFECYCLE_MESSAGES.noReview);
      if (!Number.isInteger(transition.droppedCount) || transition.droppedCount < 0) {
        return refuse('amount_invalid', LIFECYCLE_MESSAGES.noReview);
      }
      return null;
    },
    apply: (state, transition) =>
      accept(
        state,
        { reviewOpen: false },
        { kind: 'review_closed', from: 'awaiting_selection', to: transition.lapsed ? 'lapsed' : 'validated' },
        [],
      ),
  },
};

/** The rule of one transition type (the table's entry, typed for its transition). */
export function ruleOf<T extends TransitionType>(type: T): TransitionRule<T> {
  return TRANSITIONS[type] as TransitionRule<T>;
}

/**
 * The rule book's one question: the transition's rule, looked up in TRANSITIONS; its guard, then
 * its effects. `now` is the instant of the change (the withdrawal-period guard reads it); tests pass their own.
 */
export function decide(state: OrderState, transition: Transition, now: Date = new Date()): Decision {
  const rule = ruleOf(transition.type) as TransitionRule<TransitionType>;
  const typed = transition as TransitionOf<TransitionType>;
  return rule.guard(state, typed, now) ?? rule.apply(state, typed, now);
}
