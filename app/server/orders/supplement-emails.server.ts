import { z } from 'zod';
import type { Tx } from '../db/client.server';
import { guestLinkToken, withGuestToken } from '../email/guest-links.server';
import { enqueueEmail } from '../email/outbox.server';
import { baseUrl } from '../env.server';
import { customerName, type OrderFacts } from '../invoices/order-facts.server';
import { log } from '../log.server';
import type { JourneyEmailInput } from './journey-emails.server';

/**
 * The reception supplement's e-mails: the difference to approve and pay (with the pay link of the
 * supplement's own token, handed over by the reception in `data.supplementToken`), then its receipt
 * with the supplement invoice. Queued in the lifecycle's transaction, one per history event.
 */
export async function enqueueSupplementEmail(
  tx: Tx,
  facts: OrderFacts,
  input: JourneyEmailInput & { template: 'supplement-requested' | 'supplement-paid' },
): Promise<void> {
  const email = facts.customer.email?.trim();
  if (!email || !z.email().safeParse(email).success || !input.adjustmentId) {
    log.warn({ orderId: facts.id, template: input.template }, 'supplement e-mail without a recipient: not queued');
    return;
  }
  const common = {
    orderNumber: facts.number,
    amountCents: Number(input.data.amountCents ?? 0),
    customerName: customerName(facts),
  };
  if (input.template === 'supplement-requested') {
    const token = typeof input.data.supplementToken === 'string' ? input.data.supplementToken : '';
    const counts = Array.isArray(input.data.counts) ? input.data.counts : [];
    await enqueueEmail(tx, {
      to: email,
      template: 'supplement-requested',
      data: {
        ...common,
        counts,
        payUrl: `${baseUrl()}/supplement/${input.adjustmentId}${token ? `?t=${encodeURIComponent(token)}` : ''}`,
      },
      dedupeKey: `supplement-requested:${input.eventKey}`,
      orderId: facts.id,
    });
    return;
  }
  if (!input.invoiceNumber) return;
  await enqueueEmail(tx, {
    to: email,
    template: 'supplement-paid',
    data: {
      ...common,
      invoiceNumber: input.invoiceNumber,
      invoiceUrl: withGuestToken(
        `/facture/${facts.id}/pdf?facture=${encodeURIComponent(input.invoiceNumber)}`,
        await guestLinkToken(tx, facts.id, input.accessToken),
      ),
    },
    dedupeKey: `supplement-paid:${input.eventKey}`,
    orderId: facts.id,
  });
}
