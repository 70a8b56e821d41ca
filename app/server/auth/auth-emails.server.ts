import { queueAccountEmail } from '../email/account-emails.server';

/** The e-mails Better Auth asks us to send, queued in the transactional outbox. */

export type AuthEmailKind = 'password-reset' | 'magic-link' | 'email-verification';

export interface AuthEmail {
  to: string;
  kind: AuthEmailKind;
  /** The link the recipient follows (it carries a single-use token). */
  url: string;
  firstName?: string;
  /** The account's id: its first address confirmation is the welcome e-mail (account-emails.server.ts). */
  userId?: string;
}

export async function sendAuthEmail(email: AuthEmail): Promise<void> {
  await queueAccountEmail(email);
}
