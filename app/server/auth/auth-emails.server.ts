import { queueAccountEmail } from '../email/account-emails.server';

/** The e-mails Better Auth asks us to send, queued in the transactional outbox. */

export type AuthEmailKind = 'password-reset' | 'magic-link' | 'email-verification';

export interface AuthEmail {
  to: string;
  kind: AuthEmailKind;
  /** The link the recipient follows (it carries a single-use token). */
  url: string;
  firstName?: string;
}

export async function sendAuthEmail({ to, kind, url, firstName }: AuthEmail): Promise<void> {
  await queueAccountEmail({ to, kind, url, firstName });
}
