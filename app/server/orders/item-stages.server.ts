import { and, eq, isNull } from 'drizzle-orm';
import { itemStages, type SupportProgress } from '~/domain/orders/item-stages';
import { db } from '../db/client.server';
import { orderFiles, orders, receptions } from '../db/schema';

/*
 * Each counted item's stage for the customer's order page (domain/orders/item-stages.ts), from the
 * workshop's own records: the reception's counts, the order's stage on the workshop board and the
 * files delivered per support. Empty before the reception. Callers check access.
 */
export async function loadItemStages(orderId: string): Promise<SupportProgress[]> {
  const database = db();
  const [[reception], [order], files] = await Promise.all([
    database.select({ counts: receptions.counts }).from(receptions).where(eq(receptions.orderId, orderId)),
    database.select({ stage: orders.stage, status: orders.status }).from(orders).where(eq(orders.id, orderId)),
    database
      .select({ support: orderFiles.support, name: orderFiles.name })
      .from(orderFiles)
      .where(and(eq(orderFiles.orderId, orderId), isNull(orderFiles.deletedAt))),
  ]);
  if (!reception || !order || order.status === 'canceled') return [];
  return itemStages({ counts: reception.counts, stage: order.stage, status: order.status, files });
}
