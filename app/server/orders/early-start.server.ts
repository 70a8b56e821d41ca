import { and, eq, isNull, sql } from 'drizzle-orm';
import { EARLY_START_TEXT } from '~/domain/orders/early-start';
import { orderEvent } from '~/domain/orders/events';
import type { Tx } from '../db/client.server';
import { orderEvents, orders } from '../db/schema';

/*
 * The customer's express request, at checkout, to start the work before the end of the withdrawal
 * period (L221-25): kept once with its time (orders.early_start_consent_at), and each time it is
 * ticked in the history with the words the customer read. Without it the work waits for the end of
 * the period (domain/orders/early-start.ts); it is never taken back by paying without ticking.
 * Inside the caller's transaction: the checkout records it with the placing of the order.
 */
export async function recordEarlyStartConsentInTx(tx: Tx, orderId: string, actor: string) {
  const updated = await tx
    .update(orders)
    .set({ earlyStartConsentAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(orders.id, orderId), isNull(orders.earlyStartConsentAt)))
    .returning({ at: orders.earlyStartConsentAt });
  await tx.insert(orderEvents).values({
    orderId,
    actor,
    ...orderEvent('early_start_consent', { text: EARLY_START_TEXT.consentLabel, first: updated.length > 0 }),
  });
}
