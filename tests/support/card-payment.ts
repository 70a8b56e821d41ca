import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { db } from '~/server/db/client.server';
import { applyPaymentNotification } from '~/server/payments/notifications.server';

/**
 * A card payment of `amountCents` on the order (or on its supplement, `adjustmentId`), as the
 * gateway's notification settles it: the payment attempt's row, then the notification through the
 * shop's own path. For integration tests on the current process's database.
 */
export async function payByCard(
  orderId: string,
  amountCents: number,
  adjustmentId: string | null = null,
  provider: 'sandbox' | 'stripe' = 'sandbox',
): Promise<void> {
  const ref = `${provider}_${randomUUID()}`;
  await db().execute(sql`
    insert into payments (order_id, provider, provider_ref, amount, status, method, adjustment_id)
    values (${orderId}, ${provider}, ${ref}, ${amountCents}, 'pending', 'card', ${adjustmentId})`);
  await applyPaymentNotification({
    provider,
    eventId: `evt_${randomUUID()}`,
    providerRef: ref,
    orderId,
    outcome: 'paid',
    amountCents,
    currency: 'EUR',
    method: 'card',
    raw: {},
  });
}
