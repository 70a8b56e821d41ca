import { addDays, isWorkingDay, parisDay, parisMidnight } from '../calendar';

/*
 * The right of withdrawal for services bought at a distance (Code de la consommation, L221-18 and
 * following): 14 days from the conclusion of the contract, i.e. the order. Days are counted from the
 * day after the order, in the shop's time zone (Paris), and the period ends at midnight of its last
 * day; a last day falling on a Saturday, a Sunday or a French public holiday moves to the next
 * working day (L221-19, article 642 of the Code de procédure civile). When in doubt the rule is
 * generous to the customer.
 */

export const WITHDRAWAL_PERIOD_DAYS = 14;

export type WithdrawalState =
  | { kind: 'open'; deadline: Date; lastDay: Date }
  | { kind: 'expired'; deadline: Date; lastDay: Date }
  | { kind: 'withdrawn'; withdrawnAt: Date }
  | { kind: 'canceled' }
  /** A draft never confirmed at checkout: no contract yet, nothing to withdraw from. */
  | { kind: 'draft' }
  /** The service was fully performed (Traité, Expédié): the right of withdrawal ends (L221-28). */
  | { kind: 'performed' };

export const WITHDRAWAL_MESSAGES = {
  expired: 'Le délai de rétractation de 14 jours est dépassé pour cette commande.',
  withdrawn: 'Votre rétractation a déjà été enregistrée pour cette commande.',
  canceled: 'Cette commande est annulée : aucune rétractation n’est nécessaire.',
  draft:
    'Cette commande n’a pas été confirmée : aucun contrat n’est conclu, il n’y a rien à quoi renoncer. Elle reste dans « Devis et brouillons » tant que vous ne la validez pas.',
  performed:
    'La prestation a été entièrement exécutée : la rétractation n’est plus possible (article L221-28 du Code de la consommation).',
  notFound: 'Commande introuvable',
  failed: 'Votre rétractation n’a pas pu être enregistrée. Veuillez réessayer.',
} as const;

/**
 * The last day of the withdrawal period (its Paris midnight) and the instant the period ends (the
 * midnight after it), for an order placed at `orderedAt`.
 */
export function withdrawalPeriod(orderedAt: Date): { lastDay: Date; deadline: Date } {
  let last = addDays(parisDay(orderedAt), WITHDRAWAL_PERIOD_DAYS);
  while (!isWorkingDay(last)) last = addDays(last, 1);
  return { lastDay: parisMidnight(last), deadline: parisMidnight(addDays(last, 1)) };
}

export interface WithdrawableOrder {
  createdAt: Date;
  withdrawnAt: Date | null;
  status: string;
  /** Null for a draft; absent when the caller knows the order is placed. */
  placedAt?: Date | null;
}

/** Whether the customer may still withdraw from this order at `now`, and why not. */
export function withdrawalState(order: WithdrawableOrder, now: Date = new Date()): WithdrawalState {
  if (order.placedAt === null) return { kind: 'draft' };
  if (order.withdrawnAt) return { kind: 'withdrawn', withdrawnAt: order.withdrawnAt };
  if (order.status === 'canceled') return { kind: 'canceled' };
  if (order.status === 'completed' || order.status === 'shipped') return { kind: 'performed' };
  const { lastDay, deadline } = withdrawalPeriod(order.createdAt);
  return now.getTime() < deadline.getTime()
    ? { kind: 'open', deadline, lastDay }
    : { kind: 'expired', deadline, lastDay };
}
