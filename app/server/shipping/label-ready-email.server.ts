import { and, eq, isNotNull } from 'drizzle-orm';
import { z } from 'zod';
import { prepaidLabelPath } from '~/domain/shipping/labels';
import type { Executor } from '../config/config-options.server';
import type { Tx } from '../db/client.server';
import { shipments } from '../db/schema';
import { guestLinkToken, withGuestToken } from '../email/guest-links.server';
import { enqueueEmail } from '../email/outbox.server';
import { customerName, loadOrderFacts } from '../invoices/order-facts.server';
import { log } from '../log.server';

/*
 * The prepaid sending label reaches the customer's mailbox once it exists. The order confirmation
 * of a transfer or cheque order is written before the payment, so before the label (made once the
 * order is paid): it says the label will come, and this e-mail, queued in the transaction that
 * stores the label, brings its link. One per order (dedupe key), whoever made the label.
 */

/** The order's prepaid sending label is made (its PDF stored). */
export async function hasInboundLabel(executor: Executor, orderId: string): Promise<boolean> {
  const [row] = await executor
    .select({ id: shipments.id })
    .from(shipments)
    .where(and(eq(shipments.orderId, orderId), eq(shipments.direction, 'inbound'), isNotNull(shipments.labelPdf)))
    .limit(1);
  return Boolean(row);
}

/** Queues « Votre étiquette prépayée est prête » in the label's transaction; skipped without a valid address. */
export async function enqueueLabelReady(tx: Tx, orderId: string, parcelNumber: string): Promise<void> {
  const facts = await loadOrderFacts(tx, orderId);
  const to = facts?.customer.email?.trim();
  if (!facts || !to || !z.email().safeParse(to).success) {
    log.info({ orderId }, 'label-ready e-mail skipped: no valid address');
    return;
  }
  const token = await guestLinkToken(tx, orderId, null);
  await enqueueEmail(tx, {
    to,
    template: 'label-ready',
    data: {
      orderNumber: facts.number,
      customerName: customerName(facts),
      parcelNumber,
      labelUrl: withGuestToken(prepaidLabelPath(orderId), token),
    },
    dedupeKey: `label-ready:${orderId}`,
    orderId,
  });
}
