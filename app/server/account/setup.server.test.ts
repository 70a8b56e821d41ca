import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { issueSetupCode, SETUP_ATTEMPTS } from '../auth/setup-code.server';
import { db } from '../db/client.server';
import { session, setupCode, user } from '../db/schema';
import { setupFirstAdmin } from './setup.server';
import { registeredAccount, TEST_BASE, TEST_PASSWORD } from './testing/fixtures';

process.env.BASE_URL = TEST_BASE;

const STRONG = 'Phare-Breton-Nocturne-2026';

async function roleOf(email: string) {
  const [row] = await db().select({ role: user.role }).from(user).where(eq(user.email, email));
  return row?.role;
}

let clients = 0;
const client = () => `192.0.2.${++clients}`;

describe('setupFirstAdmin', () => {
  it('asks for a setup code the server issued, then promotes an existing account only with its own password, then closes, deleting nothing', async () => {
    const customer = await registeredAccount();
    const [sessionsBefore] = await db().select({ n: count() }).from(session);
    // Two instances started on one database: each printed its own code, both work.
    const first = (await issueSetupCode()) as string;
    const second = (await issueSetupCode()) as string;
    expect(first).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(second).not.toBe(first);
    // Only hashes are stored.
    const stored = await db().select().from(setupCode);
    expect(stored).toHaveLength(2);
    expect(JSON.stringify(stored)).not.toContain(first.replaceAll('-', ''));

    // Without the code: refused, and nothing is said about the account.
    expect(
      await setupFirstAdmin({
        email: customer.email,
        password: TEST_PASSWORD,
        setupCode: 'ABCD-EFGH-JKMN',
        client: client(),
      }),
    ).toEqual({
      ok: false,
      reason: 'wrong-code',
      errors: [
        'Code d’installation incorrect. Il est affiché par le serveur à son démarrage (« Aucun administrateur pour le moment »), dans son terminal ou son journal.',
      ],
    });

    // Someone who does not know the account's password cannot take it over, even with the code.
    expect(
      await setupFirstAdmin({ email: customer.email, password: STRONG, setupCode: first, client: client() }),
    ).toMatchObject({ ok: false, reason: 'existing-account' });
    expect(await roleOf(customer.email)).toBe('customer');

    // Typed in lower case, without dashes: the same code.
    const typed = second.toLowerCase().replaceAll('-', ' ');
    expect(
      await setupFirstAdmin({ email: customer.email, password: TEST_PASSWORD, setupCode: typed, client: client() }),
    ).toEqual({ ok: true, email: customer.email, action: 'promoted' });
    expect(await roleOf(customer.email)).toBe('admin');
    // Every code is spent, and no new one is issued while an administrator exists.
    expect(await db().select().from(setupCode)).toEqual([]);
    expect(await issueSetupCode()).toBeNull();

    // Closed from now on, for a new address as for any other.
    expect(
      await setupFirstAdmin({ email: 'nouvel-admin@example.fr', password: STRONG, setupCode: first, client: client() }),
    ).toMatchObject({
      ok: false,
      reason: 'closed',
      errors: ['La configuration initiale est terminée : un administrateur existe déjà.'],
    });
    expect(await roleOf('nouvel-admin@example.fr')).toBeUndefined();
    const [sessionsAfter] = await db().select({ n: count() }).from(session);
    expect(sessionsAfter?.n).toBe(sessionsBefore?.n);
  });
});

describe('the setup attempt limit', () => {
  it('refuses a client after too many attempts, even with the right code, and not another client', async () => {
    await db().update(user).set({ role: 'customer' }).where(eq(user.role, 'admin'));
    const code = (await issueSetupCode()) as string;
    const guesser = client();
    for (let i = 0; i < SETUP_ATTEMPTS.max; i++) {
      const result = await setupFirstAdmin({
        email: 'a@example.fr',
        password: STRONG,
        setupCode: 'XXXX-XXXX-XXXX',
        client: guesser,
      });
      expect(result).toMatchObject({ reason: 'wrong-code' });
    }
    expect(
      await setupFirstAdmin({ email: 'a@example.fr', password: STRONG, setupCode: code, client: guesser }),
    ).toEqual({
      ok: false,
      reason: 'rate-limited',
      errors: ['Trop de tentatives. Veuillez patienter avant de réessayer.'],
    });
    expect(
      await setupFirstAdmin({ email: 'a@example.fr', password: STRONG, setupCode: code, client: client() }),
    ).toEqual({
      ok: true,
      email: 'a@example.fr',
      action: 'created',
    });
  });
});
