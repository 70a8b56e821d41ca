import { LIFECYCLE_MESSAGES, type OrderKind, withdrawalBar } from '../orders/lifecycle';
import { WITHDRAWAL_PERIOD_DAYS, withdrawalPeriod } from '../orders/withdrawal-period';

/*
 * What the customer's pages show of the right of withdrawal (Code de la consommation, L221-18 and
 * following). The rule itself is the order lifecycle's (`withdrawalBar`, the guard of `withdraw`,
 * with its French messages); the period's calendar is withdrawal-period.ts. This module only puts
 * the two together for a page: open until when, or why not.
 */

export { WITHDRAWAL_PERIOD_DAYS, withdrawalPeriod };

export type WithdrawalState =
  | { kind: 'open'; deadline: Date; lastDay: Date }
  | { kind: 'expired'; deadline: Date; lastDay: Date }
  | { kind: 'withdrawn'; withdrawnAt: Date }
  | { kind: 'canceled' }
  /** A draft never confirmed at checkout: no contract yet, nothing to withdraw from. */
  | { kind: 'draft' }
  /** The service was fully performed (Traité, Expédié): the right of withdrawal ends (L221-28). */
  | { kind: 'performed' };

/** The messages of the rule (the lifecycle's, one home), and the page's own two. */
export const WITHDRAWAL_MESSAGES = {
  expired: LIFECYCLE_MESSAGES.expired,
  withdrawn: LIFECYCLE_MESSAGES.alreadyWithdrawn,
  canceled: LIFECYCLE_MESSAGES.withdrawalCanceled,
  draft: LIFECYCLE_MESSAGES.withdrawalDraft,
  performed: LIFECYCLE_MESSAGES.performed,
  notFound: 'Commande introuvable',
  failed: 'Votre rétractation n’a pas pu être enregistrée. Veuillez réessayer.',
} as const;

export interface WithdrawableOrder {
  createdAt: Date;
  withdrawnAt: Date | null;
  status: string;
  /** Null for a draft; absent when the caller knows the order is placed. */
  placedAt?: Date | null;
  /** A gift card's sale is withdrawable while its card is unused (lifecycle.ts, withdrawalBar). */
  kind?: OrderKind;
  giftCardUsed?: boolean;
}

/** Whether the customer may still withdraw from this order at `now`, and why not. */
export function withdrawalState(order: WithdrawableOrder, now: Date = new Date()): WithdrawalState {
  const bar = withdrawalBar({
    placed: order.placedAt !== null,
    withdrawn: order.withdrawnAt !== null,
    status: order.status,
    ...(order.kind ? { kind: order.kind } : {}),
    ...(order.giftCardUsed !== undefined ? { giftCardUsed: order.giftCardUsed } : {}),
  });
  if (bar === 'withdrawn' && order.withdrawnAt) return { kind: 'withdrawn', withdrawnAt: order.withdrawnAt };
  if (bar === 'draft' || bar === 'canceled' || bar === 'performed') return { kind: bar };
  const { lastDay, deadline } = withdrawalPeriod(order.createdAt);
  return now.getTime() < deadline.getTime()
    ? { kind: 'open', deadline, lastDay }
    : { kind: 'expired', deadline, lastDay };
}
