import { and, desc, eq } from 'drizzle-orm';
import { db } from '../db/client.server';
import { payments } from '../db/schema';

/**
 * When the order's latest card attempt still waiting for its gateway's notification was opened,
 * or null: the confirmation page tells "being confirmed" from "unpaid" with it. The caller has
 * checked who may see the order.
 */
export async function openCardAttemptAt(orderId: string): Promise<Date | null> {
  const [row] = await db()
    .select({ createdAt: payments.createdAt })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, 'pending'), eq(payments.method, 'card')))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return row?.createdAt ?? null;
}
