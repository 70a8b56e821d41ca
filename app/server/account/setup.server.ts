import { and, eq, sql } from 'drizzle-orm';
import { SETUP_MESSAGES } from '~/domain/account/schemas';
import { verifyPassword } from '../auth/password.server';
import { isValidSetupCode, setupAttemptLimited } from '../auth/setup-code.server';
import { db } from '../db/client.server';
import { account, user } from '../db/schema';
import { createOrPromoteAdmin } from '../seed/admin.server';
import { countAdmins } from '../users.server';

export { SETUP_MESSAGES };

/*
 * /setup-super-admin: the first administrator, created from the browser only while the shop has
 * none (createOrPromoteAdmin with onlyIfNoAdmin, under an advisory lock: two visitors at once cannot
 * both succeed). Unlike the prototype's page it never deletes accounts nor sessions.
 *
 * It also asks for the one-time setup code the server printed at start (auth/setup-code.server.ts):
 * reaching the port first is not enough to claim the shop. Attempts are limited per client address.
 *
 * An address that already has an account is promoted only when the password typed is that
 * account's current password: the page must not let whoever comes first take over a customer's
 * account by giving it a new password.
 */

export type SetupResult =
  | { ok: true; email: string; action: 'created' | 'promoted' }
  | {
      ok: false;
      reason: 'closed' | 'existing-account' | 'invalid' | 'wrong-code' | 'rate-limited';
      errors: string[];
    };

export async function isSetupOpen(): Promise<boolean> {
  return (await countAdmins()) === 0;
}

export async function setupFirstAdmin(input: {
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
  setupCode: string;
  /** The client's address, for the attempt limit. */
  client: string;
}): Promise<SetupResult> {
  if (!(await isSetupOpen())) return { ok: false, reason: 'closed', errors: [SETUP_MESSAGES.closed] };
  if (await setupAttemptLimited(input.client)) {
    return { ok: false, reason: 'rate-limited', errors: [SETUP_MESSAGES.tooManyAttempts] };
  }
  // Checked before anything else: without the code, the page says nothing about existing accounts.
  if (!(await isValidSetupCode(input.setupCode))) {
    return { ok: false, reason: 'wrong-code', errors: [SETUP_MESSAGES.wrongCode] };
  }
  const email = input.email.trim().toLowerCase();
  const [existing] = await db()
    .select({ id: user.id, hash: account.password })
    .from(user)
    .leftJoin(account, and(eq(account.userId, user.id), eq(account.providerId, 'credential')))
    .where(sql`lower(${user.email}) = ${email}`)
    .limit(1);
  if (existing) {
    const proven = existing.hash ? await verifyPassword({ hash: existing.hash, password: input.password }) : false;
    if (!proven) return { ok: false, reason: 'existing-account', errors: [SETUP_MESSAGES.existingAccount] };
  }
  const result = await createOrPromoteAdmin(
    {
      email,
      // An existing account keeps the password it proved; a new one gets the password typed.
      password: existing ? undefined : input.password,
      firstName: input.firstName,
      lastName: input.lastName,
    },
    { onlyIfNoAdmin: true },
  );
  if (result.ok) return { ok: true, email: result.email, action: result.action === 'created' ? 'created' : 'promoted' };
  if (result.reason === 'admin-exists') return { ok: false, reason: 'closed', errors: [SETUP_MESSAGES.closed] };
  return { ok: false, reason: 'invalid', errors: result.errors };
}
