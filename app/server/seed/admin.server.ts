import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { AUTH_MESSAGES } from '../../domain/auth-errors';
import { isCommonPassword } from '../../domain/common-passwords';
import { hashPassword } from '../auth/password.server';
import { type Database, db, type Tx } from '../db/client.server';
import { account, setupCode, user } from '../db/schema';

/*
 * Creating the first administrator, from a shell (`npm run admin:create`) or from the future
 * /setup-super-admin page. Unlike the prototype's page, it never deletes accounts nor revokes
 * sessions: an existing account is promoted in place (docs/product.md, « Security »).
 *
 * Accounts are written the way Better Auth writes an e-mail + password sign-up: a `user` row and a
 * `credential` `account` row holding the argon2id hash, so that Better Auth signs them in.
 */

// The limits of sign-up (auth.server.ts), repeated here so that this module does not load Better Auth.
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;

const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères`)
  .max(PASSWORD_MAX_LENGTH, `Le mot de passe doit contenir au plus ${PASSWORD_MAX_LENGTH} caractères`)
  // The same rule as sign-up (auth.server.ts): an administrator's password least of all.
  .refine((password) => !isCommonPassword(password), AUTH_MESSAGES.passwordTooCommon);

export const adminInputSchema = z.object({
  email: z
    .string({ message: 'L’adresse e-mail est obligatoire' })
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: 'Adresse e-mail invalide' })),
  password: passwordSchema.optional(),
  firstName: z.string().trim().max(100).optional(),
  lastName: z.string().trim().max(100).optional(),
});

export type AdminInput = z.input<typeof adminInputSchema>;

export type AdminResult =
  | { ok: true; action: 'created' | 'promoted' | 'already-admin'; userId: string; email: string; passwordSet: boolean }
  | { ok: false; reason: 'invalid'; errors: string[] }
  | { ok: false; reason: 'password-required'; errors: string[] }
  | { ok: false; reason: 'admin-exists'; errors: string[] }
  | { ok: false; reason: 'name-required'; errors: string[] };

/** admin:create names the administrator it creates: the history and the Journal show staff by name. */
export const NAME_REQUIRED_MESSAGE =
  'Aucun compte avec cette adresse : indiquez le prénom et le nom du nouvel administrateur (--first-name, --last-name).';

/** Serialises administrator creation, so that two first-admin requests cannot both succeed. */
const ADMIN_LOCK = 72023002;

/**
 * Creates an administrator, or promotes the account with that e-mail to administrator (setting its
 * password when one is given). With `onlyIfNoAdmin` (the /setup-super-admin page), does nothing and
 * answers `admin-exists` once any administrator exists. With `requireName` (admin:create), a new
 * account needs its first and last names.
 */
export async function createOrPromoteAdmin(
  input: AdminInput,
  {
    database = db(),
    onlyIfNoAdmin = false,
    requireName = false,
  }: { database?: Database; onlyIfNoAdmin?: boolean; requireName?: boolean } = {},
): Promise<AdminResult> {
  const parsed = adminInputSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, reason: 'invalid', errors: parsed.error.issues.map((issue) => issue.message) };
  }
  const { email, password, firstName = '', lastName = '' } = parsed.data;
  // Hash before the transaction: argon2 takes a while and must not hold the lock.
  const passwordHash = password === undefined ? undefined : await hashPassword(password);

  return database.transaction(async (tx): Promise<AdminResult> => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_LOCK})`);

    if (onlyIfNoAdmin) {
      const [admin] = await tx.select({ id: user.id }).from(user).where(eq(user.role, 'admin')).limit(1);
      if (admin) return { ok: false, reason: 'admin-exists', errors: ['Un administrateur existe déjà.'] };
    }

    const [existing] = await tx
      .select({ id: user.id, role: user.role, firstName: user.firstName, lastName: user.lastName })
      .from(user)
      .where(sql`lower(${user.email}) = ${email}`)
      .for('update');

    const wanted = { email, passwordHash, firstName, lastName };
    const result = existing ? await promoteAdmin(tx, existing, wanted) : await createAdmin(tx, wanted, requireName);
    // The shop has its administrator: the setup codes are spent.
    if (result.ok) await tx.delete(setupCode);
    return result;
  });
}

interface WantedAdmin {
  email: string;
  passwordHash: string | undefined;
  /** '' when not given. */
  firstName: string;
  lastName: string;
}

/** No account with that address: a new one, which needs a password (and, for admin:create, a name). */
async function createAdmin(tx: Tx, wanted: WantedAdmin, requireName: boolean): Promise<AdminResult> {
  const { email, passwordHash, firstName, lastName } = wanted;
  if (!passwordHash) {
    return {
      ok: false,
      reason: 'password-required',
      errors: ['Aucun compte avec cette adresse : un mot de passe est nécessaire pour le créer (--password).'],
    };
  }
  if (requireName && (!firstName || !lastName)) {
    return { ok: false, reason: 'name-required', errors: [NAME_REQUIRED_MESSAGE] };
  }
  const id = randomUUID();
  const name = `${firstName} ${lastName}`.trim() || email;
  await tx.insert(user).values({ id, name, email, emailVerified: true, role: 'admin', firstName, lastName });
  await tx
    .insert(account)
    .values({ id: randomUUID(), accountId: id, providerId: 'credential', userId: id, password: passwordHash });
  return { ok: true, action: 'created', userId: id, email, passwordSet: true };
}

/**
 * An existing account becomes (or stays) administrator, in place: never deleted, its sessions kept.
 * The names given replace its own, one by one; a password given replaces its own.
 */
async function promoteAdmin(
  tx: Tx,
  existing: { id: string; role: string; firstName: string; lastName: string },
  { email, passwordHash, firstName, lastName }: WantedAdmin,
): Promise<AdminResult> {
  const now = new Date();
  const wasAdmin = existing.role === 'admin';
  const profile: Partial<typeof user.$inferInsert> = {};
  if (firstName || lastName) {
    profile.firstName = firstName || existing.firstName;
    profile.lastName = lastName || existing.lastName;
    profile.name = `${profile.firstName} ${profile.lastName}`.trim();
  }
  if (!wasAdmin || Object.keys(profile).length > 0) {
    await tx
      .update(user)
      .set({ role: 'admin', ...profile, updatedAt: now })
      .where(eq(user.id, existing.id));
  }
  if (passwordHash) await setPassword(tx, existing.id, passwordHash, now);
  return {
    ok: true,
    action: wasAdmin ? 'already-admin' : 'promoted',
    userId: existing.id,
    email,
    passwordSet: passwordHash !== undefined,
  };
}

/** The account's password, as Better Auth keeps it: in its `credential` account row. */
async function setPassword(tx: Tx, userId: string, passwordHash: string, now: Date): Promise<void> {
  const updated = await tx
    .update(account)
    .set({ password: passwordHash, updatedAt: now })
    .where(and(eq(account.userId, userId), eq(account.providerId, 'credential')))
    .returning({ id: account.id });
  // An account created by magic link has no password yet: give it a credential account.
  if (updated.length === 0) {
    await tx.insert(account).values({
      id: randomUUID(),
      accountId: userId,
      providerId: 'credential',
      userId,
      password: passwordHash,
    });
  }
}
