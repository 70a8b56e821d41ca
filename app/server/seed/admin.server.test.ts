import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auth } from '../auth/auth.server';
import { verifyPassword } from '../auth/password.server';
import { db } from '../db/client.server';
import { account, session, user } from '../db/schema';
import { createOrPromoteAdmin } from './admin.server';

// Better Auth's types do not know our `acceptTerms` (auth.server.ts requires it at sign-up).
const TERMS_ACCEPTED = { acceptTerms: true };

// Vitest exposes Vite's BASE_URL ("/") in process.env; the shop's BASE_URL is an absolute URL.
process.env.BASE_URL = 'http://localhost:3000';

const PASSWORD = 'Cerf-Volant-Rouge-7';
let counter = 0;
const email = (prefix = 'admin') => `${prefix}${++counter}-${Date.now()}@example.fr`;

async function accountOf(address: string) {
  const [row] = await db().select().from(user).where(eq(user.email, address.toLowerCase()));
  if (!row) throw new Error(`no user ${address}`);
  const credentials = await db().select().from(account).where(eq(account.userId, row.id));
  return { user: row, credentials };
}

async function signsIn(address: string, password: string): Promise<boolean> {
  try {
    await auth().api.signInEmail({ body: { email: address, password } });
    return true;
  } catch {
    return false;
  }
}

describe('createOrPromoteAdmin', () => {
  it('creates an administrator Better Auth signs in, with the e-mail lower-cased', async () => {
    const address = email('Nouvel.Admin');
    const result = await createOrPromoteAdmin({ email: `  ${address.toUpperCase()} `, password: PASSWORD });
    expect(result).toMatchObject({ ok: true, action: 'created', email: address.toLowerCase(), passwordSet: true });

    const { user: created, credentials } = await accountOf(address);
    expect(created).toMatchObject({ role: 'admin', emailVerified: true, name: address.toLowerCase() });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ providerId: 'credential', accountId: created.id });
    expect(credentials[0]?.password).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword({ hash: credentials[0]?.password ?? '', password: PASSWORD })).toBe(true);
    expect(await signsIn(address.toLowerCase(), PASSWORD)).toBe(true);
  });

  it('uses the first and last names for the display name', async () => {
    const address = email();
    await createOrPromoteAdmin({ email: address, password: PASSWORD, firstName: 'Hélène', lastName: 'Durand' });
    expect((await accountOf(address)).user).toMatchObject({
      firstName: 'Hélène',
      lastName: 'Durand',
      name: 'Hélène Durand',
    });
  });

  it('refuses invalid input with French messages and writes nothing', async () => {
    const before = await db().$count(user);
    expect(await createOrPromoteAdmin({ email: 'pas-une-adresse', password: PASSWORD })).toEqual({
      ok: false,
      reason: 'invalid',
      errors: ['Adresse e-mail invalide'],
    });
    expect(await createOrPromoteAdmin({ email: email(), password: 'abc' })).toEqual({
      ok: false,
      reason: 'invalid',
      errors: ['Le mot de passe doit contenir au moins 6 caractères'],
    });
    const common = await createOrPromoteAdmin({ email: email(), password: 'azerty123' });
    expect(common).toMatchObject({ ok: false, reason: 'invalid' });
    expect(await createOrPromoteAdmin({ email: email() })).toMatchObject({ ok: false, reason: 'password-required' });
    expect(await db().$count(user)).toBe(before);
  });

  it('promotes an existing customer in place, keeping their sessions, and sets the password when given', async () => {
    const address = email('client');
    const { user: customer } = await auth().api.signUpEmail({
      body: {
        ...TERMS_ACCEPTED,
        email: address,
        password: 'Ancien-Mot-De-Passe-9',
        name: '',
        firstName: 'Paul',
        lastName: 'Morel',
      },
    });
    const sessionsBefore = await db().$count(session, eq(session.userId, customer.id));
    expect(sessionsBefore).toBeGreaterThan(0);

    const promoted = await createOrPromoteAdmin({ email: address, password: PASSWORD });
    expect(promoted).toEqual({ ok: true, action: 'promoted', userId: customer.id, email: address, passwordSet: true });
    const { user: row, credentials } = await accountOf(address);
    expect(row).toMatchObject({ id: customer.id, role: 'admin', firstName: 'Paul', lastName: 'Morel' });
    expect(credentials).toHaveLength(1);
    expect(await db().$count(session, eq(session.userId, customer.id))).toBe(sessionsBefore);
    expect(await signsIn(address, PASSWORD)).toBe(true);
    expect(await signsIn(address, 'Ancien-Mot-De-Passe-9')).toBe(false);
  });

  it('promotes without touching the password when none is given, and is idempotent', async () => {
    const address = email('client');
    await auth().api.signUpEmail({
      body: { ...TERMS_ACCEPTED, email: address, password: 'Garde-Le-Mien-5', name: 'Zoé' },
    });
    expect(await createOrPromoteAdmin({ email: address })).toMatchObject({
      ok: true,
      action: 'promoted',
      passwordSet: false,
    });
    expect(await signsIn(address, 'Garde-Le-Mien-5')).toBe(true);
    expect(await createOrPromoteAdmin({ email: address })).toMatchObject({
      ok: true,
      action: 'already-admin',
      passwordSet: false,
    });
    expect((await accountOf(address)).user.role).toBe('admin');
  });

  it('gives a password to an account that had none (magic link)', async () => {
    const address = email('lien');
    const id = crypto.randomUUID();
    await db().insert(user).values({ id, name: address, email: address, emailVerified: true });
    const result = await createOrPromoteAdmin({ email: address, password: PASSWORD });
    expect(result).toMatchObject({ ok: true, action: 'promoted', userId: id });
    expect((await accountOf(address)).credentials).toMatchObject([{ providerId: 'credential', userId: id }]);
    expect(await signsIn(address, PASSWORD)).toBe(true);
  });

  it('creates only the first administrator when asked so (setup page), even under concurrency', async () => {
    // Administrators exist by now in this file's database.
    expect(await createOrPromoteAdmin({ email: email(), password: PASSWORD }, { onlyIfNoAdmin: true })).toMatchObject({
      ok: false,
      reason: 'admin-exists',
    });
    await db().update(user).set({ role: 'customer' }).where(eq(user.role, 'admin'));
    const results = await Promise.all(
      [email(), email(), email()].map((address) =>
        createOrPromoteAdmin({ email: address, password: PASSWORD }, { onlyIfNoAdmin: true }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(await db().$count(user, eq(user.role, 'admin'))).toBe(1);
  });
});
