import { BULK_MESSAGES, type BulkOrdersRequest, type BulkOutcome, bulkTransition } from '~/domain/admin/bulk-orders';
import { decide } from '~/domain/orders/lifecycle';
import { db } from '../db/client.server';
import { type Actor, applyTransition, lockOrderState } from '../orders/lifecycle.server';
import { invalidateDashboardStats } from './stats.server';

/*
 * Bulk status and stage changes of the Commandes tab. The preview asks the lifecycle's rule book
 * (`decide`) about each order's current state without changing anything; applying runs each
 * order's transition through applyTransition (its own transaction, history entry with the staff
 * member as actor, and e-mail), so that one refusal does not stop the others.
 */

type BulkChange = Pick<BulkOrdersRequest, 'kind' | 'target' | 'ids'>;

const unique = (ids: readonly string[]) => [...new Set(ids)];

/** What applying would do, order by order, read in one short transaction (rows locked, then released). */
export async function previewBulkChange(change: BulkChange): Promise<BulkOutcome> {
  const transition = bulkTransition(change);
  const now = new Date();
  return db().transaction(async (tx) => {
    const outcome: BulkOutcome = { accepted: [], refused: [] };
    for (const orderId of unique(change.ids)) {
      const locked = await lockOrderState(tx, orderId);
      if (!locked) {
        outcome.refused.push({ orderId, number: '', reason: BULK_MESSAGES.unknownOrder });
        continue;
      }
      const decision = decide(locked.state, transition, now);
      if (decision.ok) outcome.accepted.push({ orderId, number: locked.facts.number });
      else outcome.refused.push({ orderId, number: locked.facts.number, reason: decision.message });
    }
    return outcome;
  });
}

/** Applies the change to each order through the lifecycle; the refused ones keep their French reason. */
export async function applyBulkChange(change: BulkChange, actor: Actor): Promise<BulkOutcome> {
  const transition = bulkTransition(change);
  const outcome: BulkOutcome = { accepted: [], refused: [] };
  for (const orderId of unique(change.ids)) {
    const result = await applyTransition(orderId, transition, actor);
    if (result.ok) outcome.accepted.push({ orderId, number: result.orderNumber });
    else outcome.refused.push({ orderId, number: result.orderNumber ?? '', reason: result.message });
  }
  if (outcome.accepted.length > 0) await invalidateDashboardStats();
  return outcome;
}
