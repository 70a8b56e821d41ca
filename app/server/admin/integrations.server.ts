import type { Tx } from '../db/client.server';
import { creditableCents, issueCreditNote } from '../invoices/invoices.server';

/*
 * Where the back office calls the invoicing of issue 7 for a status change. Kept apart so that
 * the status change depends on this one signature.
 */

export type CreditNoteOutcome = { kind: 'none' } | { kind: 'issued'; number: string };

export const CANCELLATION_REASON = 'Commande annulée par l’administration';

/**
 * A paid order is cancelled: the credit note that cancels its invoice, inside the caller's
 * transaction (the status change). Nothing when the order has no invoice.
 */
export async function issueCreditNoteForCanceledOrder(
  tx: Tx,
  input: { orderId: string; actorId: string },
): Promise<CreditNoteOutcome> {
  // Already credited in full (cancelled before, then reopened): an invoice is cancelled once. After
  // partial refunds, what remains is credited.
  if ((await creditableCents(input.orderId, tx)) <= 0) return { kind: 'none' };
  const note = await issueCreditNote(tx, { orderId: input.orderId, actor: input.actorId, reason: CANCELLATION_REASON });
  return note ? { kind: 'issued', number: note.number } : { kind: 'none' };
}
