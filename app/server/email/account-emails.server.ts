import { createHash } from 'node:crypto';
import { type EnqueuedEmail, queueEmail } from './outbox.server';

/*
 * The account e-mails Better Auth asks for (password reset, magic link, address confirmation), queued in the outbox.
 * Better Auth does not share its transaction, so each is queued in a transaction of its own. The
 * link carries a single-use token: it is the dedupe key's source (the same link is never queued
 * twice) and it is wiped from the outbox once the message is sent (the templates are `sensitive`).
 */

export interface AccountEmail {
  to: string;
  kind: 'password-reset' | 'magic-link' | 'email-verification';
  /** The link the recipient follows (absolute, with its token). */
  url: string;
  firstName?: string;
  /** The account's id (address confirmation): its first one is the welcome e-mail. */
  userId?: string;
}

/** The dedupe key of an account's welcome e-mail: one per account, whoever queues it. */
export function welcomeDedupeKey(userId: string): string {
  return `welcome:${userId}`;
}

export async function queueAccountEmail({ to, kind, url, firstName, userId }: AccountEmail): Promise<EnqueuedEmail> {
  // A hash, not the link itself: the dedupe key stays after the data is wiped.
  const dedupeKey = `${kind}:${createHash('sha256').update(url).digest('base64url')}`;
  if (kind === 'password-reset') {
    return queueEmail({ to, template: 'password-reset', data: { url, firstName: firstName || undefined }, dedupeKey });
  }
  if (kind === 'email-verification') {
    // Registration: the welcome e-mail carries the confirmation (one e-mail for one event). Later
    // requests (« Renvoyer l’e-mail ») find it queued already and get the confirmation alone.
    if (userId) {
      const welcome = await queueEmail({
        to,
        template: 'welcome',
        data: { firstName: firstName || undefined, confirmUrl: url },
        dedupeKey: welcomeDedupeKey(userId),
      });
      if (welcome.created) return welcome;
    }
    return queueEmail({
      to,
      template: 'email-verification',
      data: { url, firstName: firstName || undefined },
      dedupeKey,
    });
  }
  return queueEmail({ to, template: 'magic-link', data: { url }, dedupeKey });
}
