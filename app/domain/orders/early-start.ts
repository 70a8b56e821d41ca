import { formatDateFr, NBSP } from '../format';
import { withdrawalPeriod } from './withdrawal-period';

/*
 * The customer's choice about the withdrawal period (Code de la consommation, L221-25): they may ask
 * for the work to start before it ends (`orders.early_start_consent_at`), or keep their 14 days. In
 * the second case the workshop must not start digitising before the period is over: the first day
 * after its last day (withdrawalPeriod: counted from the order, moved past week-ends and public
 * holidays), so that a withdrawal sent on the last day still finds nothing started.
 */

export interface EarlyStartFacts {
  createdAt: Date;
  earlyStartConsentAt: Date | null;
}

/** The instant the work may start (Paris midnight), or null when the customer asked to start at once. */
export function workNotBefore(order: EarlyStartFacts): Date | null {
  if (order.earlyStartConsentAt) return null;
  return withdrawalPeriod(order.createdAt).deadline;
}

/** The work is held back at `now` (no consent and the period still running). */
export function workHeldBack(notBefore: Date | null, now: Date): boolean {
  return notBefore !== null && now.getTime() < notBefore.getTime();
}

export const EARLY_START_TEXT = {
  /** The checkout's box, word for word in the history when ticked. */
  consentLabel:
    'Je demande expressément que la numérisation de ma commande commence avant la fin du délai de rétractation de 14 jours. Je reconnais que, si j’exerce mon droit de rétractation après ce début d’exécution, je devrai payer la part du travail déjà réalisée, et que je perds ce droit une fois le travail entièrement exécuté.',
  /** Under the checkout's box, and on the confirmation of an order without the request. */
  startsAfterPeriod: (notBefore: Date) =>
    `Les travaux commenceront le ${formatDateFr(notBefore)}, à la fin de votre délai de rétractation.`,
  /** Under the checkout's box: the choice and what follows from leaving it. */
  optional: (notBefore: Date) =>
    `Cette demande est facultative${NBSP}: sans elle, les travaux commenceront le ${formatDateFr(notBefore)}, à la fin de votre délai de rétractation.`,
  /** The workshop board's mark. */
  notBefore: (notBefore: Date) => `Ne pas commencer avant le ${formatDateFr(notBefore)}`,
} as const;
