import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { SessionUser } from '~/domain/account/session-user';
import type { OrderMessage } from '~/domain/admin/order-message';
import { orderEvent } from '~/domain/orders/events';
import { recordAudit } from '../audit/audit.server';
import { db } from '../db/client.server';
import { orderEvents } from '../db/schema';
import { guestLinkToken } from '../email/guest-links.server';
import { enqueueEmail } from '../email/outbox.server';
import { customerName, loadOrderFacts } from '../invoices/order-facts.server';
import { orderFollowUrl } from '../orders/create-order.server';

export type OrderMessageResult = { ok: true; to: string } | { ok: false; reason: 'not-found' | 'no-email' };

/**
 * « Contacter le client »: the staff's message about an order goes to the customer by
 * e-mail (Reply-To the shop's contact address, as every e-mail) with a link to the order, and the
 * history keeps it, both in one transaction: a message is never recorded without being sent, nor
 * sent without a trace.
 */
export async function sendOrderMessage(input: {
  orderId: string;
  actor: Pick<SessionUser, 'id' | 'firstName'>;
  message: OrderMessage;
}): Promise<OrderMessageResult> {
  return db().transaction(async (tx) => {
    const facts = await loadOrderFacts(tx, input.orderId);
    if (!facts) return { ok: false, reason: 'not-found' } as const;
    const to = facts.customer.email?.trim() ?? '';
    if (!z.email().safeParse(to).success) return { ok: false, reason: 'no-email' } as const;
    await enqueueEmail(tx, {
      to,
      template: 'order-message',
      data: {
        orderNumber: facts.number,
        subject: input.message.subject,
        message: input.message.message,
        orderUrl: orderFollowUrl(facts.id, await guestLinkToken(tx, facts.id, null)),
        customerName: customerName(facts),
        signature: input.actor.firstName.trim() || undefined,
      },
      dedupeKey: `order-message:${facts.id}:${randomUUID()}`,
      orderId: facts.id,
    });
    await tx.insert(orderEvents).values({
      orderId: facts.id,
      actor: input.actor.id,
      ...orderEvent('customer_message', { to, subject: input.message.subject, message: input.message.message }),
    });
    // The Journal names who wrote to whom and about what; the text stays in the order's history.
    await recordAudit(tx, {
      actor: input.actor.id,
      kind: 'order.message',
      subject: facts.id,
      subjectLabel: facts.number,
      after: { recipient: to, messageSubject: input.message.subject },
    });
    return { ok: true, to } as const;
  });
}
