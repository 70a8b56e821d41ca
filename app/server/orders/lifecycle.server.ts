import { eq, sql } from 'drizzle-orm';
import { buyerChanges } from '~/domain/einvoicing/buyer-correction';
import type { BusinessBuyer } from '~/domain/invoices/snapshot';
import { orderEvent } from '~/domain/orders/events';
import type { Transition } from '~/domain/orders/lifecycle';
import { recordAudit } from '../audit/audit.server';
import { type Database, db, type Tx } from '../db/client.server';
import { orderEvents, orders } from '../db/schema';
import { loadPaymentConfig } from '../payments/config.server';
import { expireStripeSession } from '../payments/stripe.server';
import { createLabelAfterPayment } from '../shipping/labels.server';
import type { IbanRequestOutcome } from './refund-iban.server';
import { makeDueRefund } from './refunds.server';
import {
  type Actor,
  type AppliedTransition,
  applyTransitionInTx,
  type RefundResult,
  type TransitionContext,
  type TransitionResult,
} from './transition.server';

/*
 * The one place that changes an order's states (docs/product.md, « The lifecycle »;
 * docs/decisions/034-lifecycle-tables.md). A change is two halves that no caller may separate:
 *  - inside ONE transaction (transition.server.ts, `applyTransitionInTx`): lock the order, ask the
 *    rule book (domain/orders/lifecycle.ts), write the state, the history event and every effect
 *    (notification, outbox e-mail, invoice, credit note, money owed back as a `due` refund);
 *  - after the commit (`afterCommit`): what talks to the outside (expiring Stripe sessions, the
 *    prepaid sending label once paid, the approved refunds through their gateway), so that a slow
 *    gateway never holds the order's lock.
 * `applyTransition` is one transition in its own transaction; `withLifecycle` is a use case that
 * writes more in the same transaction (a payment row, a reception, a review) and may apply several
 * transitions: each applied one gets its post-commit work once the whole transaction committed.
 * refunds.server.ts imports transition.server.ts, never this module: no import cycle.
 * The staff's edits of what an order froze when placed (`correctBusinessBuyer`) live here too: the
 * column, its history event and the journal's entry written together.
 */

export {
  type Actor,
  type AppliedTransition,
  type LockedOrder,
  lockOrderState,
  NOT_FOUND_MESSAGE,
  REDUCTION_REASON,
  type RefundResult,
  readOrderState,
  type StatusEmailOutcome,
  type TransitionContext,
  type TransitionResult,
} from './transition.server';

/** What the staff read when a refund owed by their change waits for a transfer. */
export const IBAN_AWAITED_MESSAGE = (iban: NonNullable<IbanRequestOutcome>) =>
  iban === 'iban_on_file'
    ? 'à faire par virement sur l’IBAN déjà indiqué par le client.'
    : 'en attente de l’IBAN du client, demandé par e-mail.';

/** The transaction of a use case: `apply` is the lifecycle's, remembered for the post-commit work. */
export interface LifecycleTx {
  tx: Tx;
  apply(orderId: string, transition: Transition, actor: Actor, context?: TransitionContext): Promise<TransitionResult>;
  /**
   * A savepoint inside the use case: what `work` applies gets its post-commit work only if the
   * savepoint is kept (a throw rolls it back and the use case goes on without it).
   */
  savepoint<T>(work: (lifecycle: LifecycleTx) => Promise<T>): Promise<T>;
}

interface Applied {
  result: AppliedTransition;
  actor: Actor;
  context: TransitionContext;
}

function lifecycleIn(tx: Tx, applied: Applied[]): LifecycleTx {
  return {
    tx,
    async apply(orderId, transition, actor, context = {}) {
      const result = await applyTransitionInTx(tx, orderId, transition, actor, context);
      if (result.ok) applied.push({ result, actor, context });
      return result;
    },
    async savepoint(work) {
      const kept: Applied[] = [];
      const value = await tx.transaction((inner) => work(lifecycleIn(inner, kept)));
      applied.push(...kept);
      return value;
    },
  };
}

/**
 * Runs a use case in one transaction, then the post-commit work of every transition it applied
 * (each result's `refundResults` is filled then). A throw rolls everything back and nothing runs after.
 */
export async function withLifecycle<T>(
  work: (lifecycle: LifecycleTx) => Promise<T>,
  database: Database = db(),
): Promise<T> {
  const applied: Applied[] = [];
  const value = await database.transaction((tx) => work(lifecycleIn(tx, applied)));
  for (const { result, actor, context } of applied) result.refundResults = await afterCommit(result, actor, context);
  return value;
}

/**
 * Applies a transition in its own transaction, then what must happen after the commit (gateways).
 * Returns the French refusal when the rule book refuses.
 */
export function applyTransition(
  orderId: string,
  transition: Transition,
  actor: Actor,
  context: TransitionContext = {},
  database: Database = db(),
): Promise<TransitionResult> {
  return withLifecycle(({ apply }) => apply(orderId, transition, actor, context), database);
}

/**
 * The gateway work of an applied transition: expire the closed Stripe sessions, make the prepaid
 * label once paid, give money back. Run by withLifecycle only, once the use case committed: no
 * caller can forget it or run it inside the transaction. (refunds.server.ts applies its `refund`
 * transitions in its own transactions: it IS that post-commit work, and has none of its own.)
 */
async function afterCommit(
  result: AppliedTransition,
  actor: Actor,
  context: TransitionContext = {},
): Promise<RefundResult[]> {
  if (result.stripeSessions.length > 0) {
    const config = await loadPaymentConfig();
    for (const session of result.stripeSessions) await expireStripeSession(config, session);
  }
  // Paid: the prepaid sending label, when bought, is made now, outside the transaction.
  if (result.decision.effects.some((effect) => effect.kind === 'invoice'))
    await createLabelAfterPayment(result.orderId);
  const outcomes: RefundResult[] = [];
  for (const refund of result.refunds.filter((owed) => owed.approved)) {
    if (refund.iban) {
      // No card can take it back: it is paid by transfer once the customer's IBAN is in (decision 025).
      outcomes.push({ ok: false, message: IBAN_AWAITED_MESSAGE(refund.iban), due: true });
      continue;
    }
    // The change is committed with the refund reserved (`due`): a refusal of the gateway leaves it
    // « à rembourser », visible with its reason and a retry, never half done (decision 022).
    outcomes.push(await makeDueRefund({ refundId: refund.refundId, method: context.refundMethod ?? 'gateway', actor }));
  }
  return outcomes;
}

/**
 * A staff member's edit of the business buyer frozen on an order, in the caller's transaction (the
 * order's row locked): « Corriger et réémettre » after the plateforme agréée rejected the invoice
 * (decision 047), before the replacement invoice is issued with it. Writes `orders.business`, the
 * history event `business_buyer_corrected` with each field changed, and the journal's entry (before
 * → after). The invoices already issued keep the buyer they name (their snapshot). A correction
 * that changes nothing writes nothing; returns whether something changed.
 */
export async function correctBusinessBuyer(
  tx: Tx,
  input: { orderId: string; orderNumber: string; before: BusinessBuyer; after: BusinessBuyer; actor: string },
): Promise<boolean> {
  const changes = buyerChanges(input.before, input.after);
  if (changes.length === 0) return false;
  await tx.update(orders).set({ business: input.after, updatedAt: sql`now()` }).where(eq(orders.id, input.orderId));
  await tx.insert(orderEvents).values({
    orderId: input.orderId,
    actor: input.actor,
    ...orderEvent('business_buyer_corrected', { changes }),
  });
  await recordAudit(tx, {
    actor: input.actor,
    kind: 'order.business_buyer',
    subject: input.orderId,
    subjectLabel: input.orderNumber,
    before: Object.fromEntries(changes.map((change) => [change.field, change.before])),
    after: Object.fromEntries(changes.map((change) => [change.field, change.after])),
  });
  return true;
}
