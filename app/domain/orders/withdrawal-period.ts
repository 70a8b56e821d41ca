import { addDays, isWorkingDay, parisDay, parisMidnight } from '../calendar';

/*
 * The calendar of the right of withdrawal (Code de la consommation, L221-18 and following): 14 days
 * from the conclusion of the contract, i.e. the order. Days are counted from the day after the
 * order, in the shop's time zone (Paris), and the period ends at midnight of its last day; a last
 * day falling on a Saturday, a Sunday or a French public holiday moves to the next working day
 * (L221-19, article 642 of the Code de procédure civile). When in doubt the rule is generous to the
 * customer. Its own module, below the rule book (lifecycle.ts, through early-start.ts) and the
 * pages (account/withdrawal.ts), so that neither imports the other in a circle.
 */

export const WITHDRAWAL_PERIOD_DAYS = 14;

/**
 * The last day of the withdrawal period (its Paris midnight) and the instant the period ends (the
 * midnight after it), for an order placed at `orderedAt`.
 */
export function withdrawalPeriod(orderedAt: Date): { lastDay: Date; deadline: Date } {
  let last = addDays(parisDay(orderedAt), WITHDRAWAL_PERIOD_DAYS);
  while (!isWorkingDay(last)) last = addDays(last, 1);
  return { lastDay: parisMidnight(last), deadline: parisMidnight(addDays(last, 1)) };
}
