import { createHash } from 'node:crypto';
import { and, eq, like, lt, sql } from 'drizzle-orm';
import { db } from '../db/client.server';
import { verification } from '../db/schema';

/*
 * The single-use tokens Better Auth keeps in its `verification` table (password reset, magic link):
 *  - stored hashed: the identifier `reset-password:<token>` becomes `reset-password:<sha256>`; the
 *    kind stays readable so that the older tokens of one account can be revoked (below). Better
 *    Auth hashes every identifier with this function, for creation and for lookup alike;
 *  - one live token per account and kind: a new request revokes the older ones, and a successful
 *    reset revokes every reset and magic-link token of the account (an older e-mail lying in a
 *    mailbox or a forwarded message must not work any more).
 * E-mail verification links are signed JWTs (nothing stored); following one twice is harmless.
 */

/** Better Auth's `verification.storeIdentifier.hash`: the prefix kept, the token hashed. */
export async function hashVerificationIdentifier(identifier: string): Promise<string> {
  const colon = identifier.indexOf(':');
  const prefix = colon >= 0 ? identifier.slice(0, colon + 1) : '';
  const secret = colon >= 0 ? identifier.slice(colon + 1) : identifier;
  return `${prefix}${createHash('sha256').update(secret).digest('base64url')}`;
}

const RESET_PREFIX = 'reset-password:';
const MAGIC_LINK_PREFIX = 'magic-link:';

/**
 * Deletes the password-reset tokens of an account. With `keepNewest`, the most recent one stays
 * (the one just e-mailed); without, all go (a reset succeeded).
 */
export async function revokeResetTokens(userId: string, { keepNewest = false } = {}): Promise<number> {
  const ofAccount = and(like(verification.identifier, `${RESET_PREFIX}%`), eq(verification.value, userId));
  return revoke(ofAccount, keepNewest);
}

/** Deletes the magic-link tokens sent to this address (its record holds the address as typed). */
export async function revokeMagicLinks(email: string, { keepNewest = false } = {}): Promise<number> {
  const ofAddress = and(
    like(verification.identifier, `${MAGIC_LINK_PREFIX}%`),
    // CASE: PostgreSQL may evaluate conditions in any order, and other kinds' values are not JSON.
    sql`(case when ${verification.identifier} like ${`${MAGIC_LINK_PREFIX}%`} then lower(${verification.value}::jsonb ->> 'email') end) = ${email.trim().toLowerCase()}`,
  );
  return revoke(ofAddress, keepNewest);
}

async function revoke(where: ReturnType<typeof and>, keepNewest: boolean): Promise<number> {
  if (!keepNewest) {
    const deleted = await db().delete(verification).where(where).returning({ id: verification.id });
    return deleted.length;
  }
  const [newest] = await db()
    .select({ createdAt: verification.createdAt })
    .from(verification)
    .where(where)
    .orderBy(sql`${verification.createdAt} desc`)
    .limit(1);
  if (!newest) return 0;
  const deleted = await db()
    .delete(verification)
    .where(and(where, lt(verification.createdAt, newest.createdAt)))
    .returning({ id: verification.id });
  return deleted.length;
}
