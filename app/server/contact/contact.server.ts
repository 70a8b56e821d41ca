import { CONTACT_SERVICE_LABELS } from '~/domain/content/contact-fields';
import type { ContactMessageInput } from '~/domain/content/contact-form';
import { db } from '../db/client.server';
import { createSharedRateLimiter, type SharedRateLimiter } from '../db/rate-limit.server';
import { contactMessages, notifications } from '../db/schema';
import { enqueueEmail } from '../email/outbox.server';
import { shopContactAddress } from '../email/shop-contact.server';

/*
 * A message of the contact form: stored, e-mailed to the shop, acknowledged to the sender and put
 * in the back office's notifications, in one transaction (side effects in the same
 * transaction, through the outbox). Either all of it happens or none.
 */

export { shopContactAddress };

export interface StoredContactMessage {
  id: string;
  receivedAt: Date;
}

export async function submitContactMessage(input: ContactMessageInput): Promise<StoredContactMessage> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .insert(contactMessages)
      .values({
        name: input.name,
        email: input.email,
        phone: input.phone ?? null,
        subject: input.subject,
        message: input.message,
        service: input.service ?? null,
        isPro: input.pro,
      })
      .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });
    if (!row) throw new Error('contact_messages: the insert returned no row');

    await enqueueEmail(tx, {
      to: shopContactAddress(),
      template: 'contact-to-shop',
      data: {
        name: input.name,
        email: input.email,
        phone: input.phone,
        subject: input.subject,
        message: input.message,
        service: input.service,
        isPro: input.pro,
        receivedAt: row.createdAt.toISOString(),
      },
      dedupeKey: `contact:${row.id}:shop`,
    });
    await enqueueEmail(tx, {
      to: input.email,
      template: 'contact-acknowledgement',
      // Neutral: the visitor's words go only to the shop's own inbox (templates/contact.tsx).
      data: {},
      dedupeKey: `contact:${row.id}:acknowledgement`,
    });

    const service = input.service ? ` · ${CONTACT_SERVICE_LABELS[input.service]}` : '';
    await tx.insert(notifications).values({
      kind: 'contact',
      contactMessageId: row.id,
      title: `${input.pro ? 'Demande professionnelle' : 'Nouveau message'} de ${input.name}`,
      body: `${input.subject}${service}`,
    });
    return { id: row.id, receivedAt: row.createdAt };
  });
}

/** Five messages per address in ten minutes (CONTACT_RATE_LIMIT changes the number). */
export const CONTACT_RATE_WINDOW_MS = 10 * 60_000;

// Counted in PostgreSQL, so that the limit holds across every instance of the shop.
const limiter = createSharedRateLimiter({
  name: 'contact',
  limit: () => Number(process.env.CONTACT_RATE_LIMIT ?? 5),
  windowMs: CONTACT_RATE_WINDOW_MS,
});

export function contactRateLimiter(): SharedRateLimiter {
  return limiter;
}
