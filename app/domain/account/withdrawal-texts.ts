import { formatEurosFromCents, frenchTypography } from '../format';
import { wasPaid } from '../order-status';
import { type WithdrawalCase, withdrawalCase } from '../orders/lifecycle';

/*
 * What a withdrawal means for this order, in the customer's words: the money
 * and the originals. Which case applies is the lifecycle's rule (withdrawalCase, the one `withdraw`
 * applies); this only words it, before the request (the page's « Renoncer au contrat »), after it
 * (the page, the order page) and in the dated acknowledgement e-mail.
 */

/** Where the originals are: not sent to us yet, at the workshop, or already back home. */
export type OriginalsState = 'not_sent' | 'at_workshop' | 'returned';

export interface OriginalsFacts {
  /** The workshop stage: awaiting_originals until the parcel is received. */
  stage: string;
  /** When the return parcel left (orders.shipped_at). */
  shippedAt: Date | null;
  returnOriginals: boolean;
}

export function originalsState(order: OriginalsFacts): OriginalsState {
  if (order.stage === 'awaiting_originals') return 'not_sent';
  return order.shippedAt && order.returnOriginals ? 'returned' : 'at_workshop';
}

export interface WithdrawalExplanation {
  case: WithdrawalCase;
  /** What becomes of the money. */
  money: string;
  /** What becomes of the originals. */
  originals: string;
}

/**
 * The case of an order withdrawn already: the rule applied to the order as it was when the request
 * reached us (its status then, kept in the history, and whether it had been paid: a withdrawn order
 * is never paid afterwards, and a refund leaves it « paid » in this sense).
 */
export function withdrawnCase(statusAtRequest: string, paymentStatus: string): WithdrawalCase {
  return withdrawalCase({ status: statusAtRequest, paymentStatus: wasPaid(paymentStatus) ? 'paid' : 'pending' });
}

const MONEY_BEFORE: Record<WithdrawalCase, (paidCents: number) => string> = {
  unpaid: () => 'Votre commande n’est pas réglée : elle sera annulée et rien ne vous sera demandé.',
  paid_not_started: (paid) =>
    `Les travaux n’ont pas commencé : nous vous rembourserons la totalité des sommes versées${
      paid > 0 ? ` (${formatEurosFromCents(paid)})` : ''
    } au plus tard 14 jours après votre demande, par le même moyen de paiement.`,
  started: () =>
    'Les travaux ont commencé à votre demande avant la fin du délai de rétractation : le montant correspondant au service déjà fourni reste dû, et nous vous rembourserons le reste des sommes versées au plus tard 14 jours après votre demande.',
};

const MONEY_AFTER: Record<WithdrawalCase, (refundCents: number) => string> = {
  unpaid: () => 'Votre commande n’avait pas été réglée : elle est annulée et rien ne vous sera demandé.',
  paid_not_started: (refund) =>
    `Les travaux n’avaient pas commencé : nous vous remboursons la totalité des sommes versées${
      refund > 0 ? ` (${formatEurosFromCents(refund)})` : ''
    }, au plus tard 14 jours après la réception de votre décision, par le même moyen de paiement.`,
  started: () =>
    'Les travaux avaient commencé à votre demande : nous calculons le montant correspondant au service déjà fourni, qui reste dû, et vous remboursons le reste des sommes versées au plus tard 14 jours après la réception de votre décision, avec un avoir.',
};

const ORIGINALS: Record<OriginalsState, { before: string; after: string }> = {
  not_sent: {
    before:
      'Vos originaux ne nous sont pas encore parvenus : ne nous les envoyez pas. S’ils sont déjà en route, nous vous les renverrons dès leur arrivée.',
    after:
      'Vos originaux ne nous sont pas parvenus : ne nous les envoyez pas. S’ils étaient déjà en route, nous vous les renverrons dès leur arrivée.',
  },
  at_workshop: {
    before: 'Vos originaux sont à l’atelier : nous les gardons en lieu sûr et vous les renvoyons.',
    after: 'Vos originaux sont à l’atelier : nous les gardons en lieu sûr jusqu’à leur renvoi chez vous.',
  },
  returned: {
    before: 'Vos originaux vous ont déjà été renvoyés.',
    after: 'Vos originaux vous ont déjà été renvoyés.',
  },
};

/** Before the request: what withdrawing now would mean (`paidCents`: what was paid, refundable). */
export function withdrawalOutcome(
  order: { status: string; paymentStatus: string } & OriginalsFacts,
  paidCents: number,
): WithdrawalExplanation {
  const which = withdrawalCase(order);
  return {
    case: which,
    money: frenchTypography(MONEY_BEFORE[which](paidCents)),
    originals: frenchTypography(ORIGINALS[originalsState(order)].before),
  };
}

/** After the request: what happens now (`refundCents`: the full refund of a paid, unstarted order). */
export function withdrawalFollowUp(
  which: WithdrawalCase,
  originals: OriginalsState,
  refundCents = 0,
): WithdrawalExplanation {
  return {
    case: which,
    money: frenchTypography(MONEY_AFTER[which](refundCents)),
    originals: frenchTypography(ORIGINALS[originals].after),
  };
}
