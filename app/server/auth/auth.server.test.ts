import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { authErrorFrom, authErrorMessage } from '~/domain/auth-errors';
import { db } from '../db/client.server';
import { account, user } from '../db/schema';
import { setUserRole } from '../users.server';
import { auth } from './auth.server';

// Better Auth's types do not know our `acceptTerms` (auth.server.ts requires it at sign-up).
const TERMS_ACCEPTED = { acceptTerms: true };

// Vitest exposes Vite's BASE_URL ("/") in process.env; the shop's BASE_URL is an absolute URL.
process.env.BASE_URL = 'http://localhost:3000';

const PASSWORD = 'Tournesol-Bleu-42';
let counter = 0;
const email = () => `compte${++counter}-${Date.now()}@example.fr`;

async function signedInHeaders(address: string): Promise<Headers> {
  const response = await auth().api.signInEmail({ body: { email: address, password: PASSWORD }, asResponse: true });
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.includes('session_token='));
  return new Headers({ cookie: cookie ?? '' });
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return authErrorFrom(error);
  }
  throw new Error('expected the call to fail');
}

describe('the auth configuration', () => {
  it('creates customers with an argon2id hash and empty names by default', async () => {
    const address = email();
    const { user: created } = await auth().api.signUpEmail({
      body: { ...TERMS_ACCEPTED, email: address, password: PASSWORD, name: 'Paul' },
    });
    const [row] = await db().select().from(user).where(eq(user.id, created.id));
    expect(row).toMatchObject({ role: 'customer', firstName: '', lastName: '', name: 'Paul', banned: false });
    const [credential] = await db().select().from(account).where(eq(account.userId, created.id));
    expect(credential?.providerId).toBe('credential');
    expect(credential?.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('trims the names given at sign-up and builds the display name from them', async () => {
    const { user: created } = await auth().api.signUpEmail({
      body: {
        ...TERMS_ACCEPTED,
        email: email(),
        password: PASSWORD,
        name: '',
        firstName: '  Anne ',
        lastName: ' Dupont  ',
      },
    });
    expect(created).toMatchObject({ firstName: 'Anne', lastName: 'Dupont', name: 'Anne Dupont' });
  });

  it('refuses profile fields and roles at sign-up', async () => {
    // Not in the typed body on purpose: a hostile client sends whatever it likes.
    const withRole = { email: email(), password: PASSWORD, name: 'X', role: 'admin', acceptTerms: true };
    expect(await failure(auth().api.signUpEmail({ body: withRole }))).toMatchObject({
      status: 400,
      code: 'FIELD_NOT_ALLOWED',
    });
    const withPhone = { acceptTerms: true, email: email(), password: PASSWORD, name: 'X', phone: '0600000000' };
    expect(await failure(auth().api.signUpEmail({ body: withPhone }))).toMatchObject({
      status: 400,
      code: 'FIELD_NOT_ALLOWED',
    });
  });

  it('refuses common and short passwords, with French messages', async () => {
    const common = await failure(
      auth().api.signUpEmail({ body: { ...TERMS_ACCEPTED, email: email(), password: 'motdepasse', name: 'X' } }),
    );
    expect(common).toEqual({ status: 400, code: 'PASSWORD_TOO_COMMON' });
    expect(authErrorMessage(common, 'sign-up')).toBe(
      'Ce mot de passe fait partie des plus courants : choisissez-en un autre.',
    );
    const short = await failure(
      auth().api.signUpEmail({ body: { ...TERMS_ACCEPTED, email: email(), password: 'Ab1!x', name: 'X' } }),
    );
    expect(short).toEqual({ status: 400, code: 'PASSWORD_TOO_SHORT' });
  });

  it('gives the admin endpoints to administrators only', async () => {
    const customer = email();
    const administrator = email();
    await auth().api.signUpEmail({ body: { ...TERMS_ACCEPTED, email: customer, password: PASSWORD, name: 'C' } });
    await auth().api.signUpEmail({ body: { ...TERMS_ACCEPTED, email: administrator, password: PASSWORD, name: 'A' } });
    await setUserRole(administrator, 'admin');

    const refused = await failure(auth().api.listUsers({ query: {}, headers: await signedInHeaders(customer) }));
    expect(refused.status).toBe(403);
    expect(authErrorMessage(refused, 'admin')).toBe("Vous n'avez pas les droits nécessaires pour cette action.");

    const listed = await auth().api.listUsers({ query: { limit: 100 }, headers: await signedInHeaders(administrator) });
    expect(listed.users.map((u) => u.email)).toEqual(expect.arrayContaining([customer, administrator]));
  });

  it('keeps sessions in the database: signing out deletes the row', async () => {
    const address = email();
    const { user: created } = await auth().api.signUpEmail({
      body: { ...TERMS_ACCEPTED, email: address, password: PASSWORD, name: 'S' },
    });
    const headers = await signedInHeaders(address);
    const before = await auth().api.listSessions({ headers });
    expect(before.length).toBeGreaterThanOrEqual(1);
    await auth().api.signOut({ headers });
    const after = await auth().api.listSessions({ headers: await signedInHeaders(address) });
    expect(after.every((s) => s.userId === created.id)).toBe(true);
    expect(after).toHaveLength(before.length); // the old one went, the new one came
  });
});
