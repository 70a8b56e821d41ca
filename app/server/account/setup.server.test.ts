import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { db } from '../db/client.server';
import { session, user } from '../db/schema';
import { setupFirstAdmin } from './setup.server';
import { registeredAccount, TEST_BASE, TEST_PASSWORD } from './testing/fixtures';

process.env.BASE_URL = TEST_BASE;

const STRONG = 'Phare-Breton-Nocturne-2026';

async function roleOf(email: string) {
  const [row] = await db().select({ role: user.role }).from(user).where(eq(user.email, email));
  return row?.role;
}

describe('setupFirstAdmin', () => {
  it('promotes an existing account only with its own password, then closes, deleting nothing', async () => {
    const customer = await registeredAccount();
    const [sessionsBefore] = await db().select({ n: count() }).from(session);

    // Someone who does not know the account's password cannot take it over.
    expect(await setupFirstAdmin({ email: customer.email, password: STRONG })).toMatchObject({
      ok: false,
      reason: 'existing-account',
    });
    expect(await roleOf(customer.email)).toBe('customer');

    expect(await setupFirstAdmin({ email: customer.email, password: TEST_PASSWORD })).toEqual({
      ok: true,
      email: customer.email,
      action: 'promoted',
    });
    expect(await roleOf(customer.email)).toBe('admin');

    // Closed from now on, for a new address as for any other.
    expect(await setupFirstAdmin({ email: 'nouvel-admin@example.fr', password: STRONG })).toMatchObject({
      ok: false,
      reason: 'closed',
      errors: ['La configuration initiale est terminée : un administrateur existe déjà.'],
    });
    expect(await roleOf('nouvel-admin@example.fr')).toBeUndefined();
    const [sessionsAfter] = await db().select({ n: count() }).from(session);
    expect(sessionsAfter?.n).toBe(sessionsBefore?.n);
  });
});
