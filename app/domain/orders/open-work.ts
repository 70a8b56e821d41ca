import { NBSP } from '../format';
import type { OrderState, RefusalCode } from './lifecycle';

/*
 * A closed order takes no more work: no originals received, no files deposited. Closed means not
 * placed, cancelled, withdrawn, or refunded in full (nothing paid remains for the work). The rule
 * book's `receive` refuses with these words, the upload endpoint asks `filesRefusal`, and the back
 * office hides « Réception des originaux » and the file upload for such an order, so that the
 * screens and the server say the same thing from the same order state.
 */

export type WorkState = Pick<OrderState, 'placed' | 'status' | 'withdrawn' | 'paymentStatus'>;

export const OPEN_WORK_MESSAGES = {
  draft: `Cette commande n’est pas encore passée${NBSP}: elle ne reçoit ni originaux ni fichiers.`,
  canceled: `Cette commande est annulée${NBSP}: elle ne reçoit plus d’originaux ni de fichiers.`,
  withdrawn: `Le client s’est rétracté de cette commande${NBSP}: elle ne reçoit plus d’originaux ni de fichiers.`,
  refunded: `Cette commande est entièrement remboursée${NBSP}: elle ne reçoit plus d’originaux ni de fichiers.`,
} as const;

/** Why the order takes no more work, as the rule book's refusal; null while it is open. */
export function closedWorkRefusal(state: WorkState): { code: RefusalCode; message: string } | null {
  if (!state.placed) return { code: 'draft', message: OPEN_WORK_MESSAGES.draft };
  if (state.status === 'canceled') return { code: 'canceled', message: OPEN_WORK_MESSAGES.canceled };
  if (state.withdrawn) return { code: 'withdrawn', message: OPEN_WORK_MESSAGES.withdrawn };
  if (state.paymentStatus === 'refunded') return { code: 'refunded', message: OPEN_WORK_MESSAGES.refunded };
  return null;
}

/** The order may still be received (« Colis reçu »): open, and its parcel not received yet. */
export function acceptsOriginals(state: WorkState & Pick<OrderState, 'stage'>): boolean {
  return closedWorkRefusal(state) === null && state.stage === 'awaiting_originals';
}

/** Files may still be deposited on the order. */
export function acceptsFiles(state: WorkState): boolean {
  return closedWorkRefusal(state) === null;
}
