import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TERMS_VERSION } from '~/domain/terms';
import {
  authEmailLink,
  createUser,
  getAuth,
  postAuth,
  randomIp,
  sessionCookie,
  TEST_PASSWORD,
  uniqueEmail,
} from '../support/auth';
import { type SharedServer, sharedServer } from '../support/shared-shop';

/*
 * The accounts' security fixes, against the production server over HTTP: a magic link keeps a
 * confirmed customer's password and sessions, while an account pre-registered by someone else at
 * that address is still taken back by its real owner; reset and magic-link tokens are stored hashed
 * and only the newest works; the sign-up API requires the terms and bounds its fields; the terms
 * accepted are recorded with their version.
 */

let server: SharedServer;

beforeAll(async () => {
  server = await sharedServer();
});

afterAll(async () => {
  await server?.dispose();
});

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

async function sessionEmail(cookie: string): Promise<string | null> {
  const res = await getAuth(server.url, '/get-session', { cookie });
  const body = (await res.json()) as { user: { email: string } } | null;
  return body?.user.email ?? null;
}

async function passwordWorks(email: string, password: string): Promise<boolean> {
  const res = await postAuth(server.url, '/sign-in/email', { email, password });
  return res.status === 200;
}

/** Follows an e-mailed link the way a mail client does (no cookie), and returns the redirect. */
async function follow(link: string, cookie?: string) {
  const res = await fetch(link, {
    redirect: 'manual',
    headers: { 'x-forwarded-for': randomIp(), ...(cookie ? { cookie } : {}) },
  });
  return { res, location: new URL(res.headers.get('location') ?? '/', server.url) };
}

async function signInByMagicLink(email: string) {
  expect((await postAuth(server.url, '/sign-in/magic-link', { email, callbackURL: '/profile' })).status).toBe(200);
  const { res, location } = await follow(await authEmailLink(server, email, 'magic-link'));
  return { cookie: sessionCookie(res), location };
}

async function emailVerified(email: string): Promise<boolean | undefined> {
  const [row] = await query<{ email_verified: boolean }>('select email_verified from "user" where email = $1', [email]);
  return row?.email_verified;
}

describe('e-mail confirmation and the magic link', () => {
  it('e-mails a confirmation link at registration; once confirmed, a magic link keeps the password and the sessions', async () => {
    const { email, cookie: registrationSession } = await createUser({ url: server.url });
    expect(await emailVerified(email)).toBe(false);
    // /profile asks to confirm the address meanwhile; the customer is signed in and may order.
    const before = await fetch(`${server.url}/profile`, { headers: { cookie: registrationSession } });
    expect(await before.text()).toContain('Confirmez votre adresse e-mail');

    const link = await authEmailLink(server, email, 'email-verification');
    expect(link.startsWith(`${server.url}/api/auth/verify-email?token=`)).toBe(true);
    const { location } = await follow(link);
    expect(`${location.pathname}${location.search}`).toBe('/login?type=email-verified');
    expect(await emailVerified(email)).toBe(true);
    const after = await fetch(`${server.url}/profile`, { headers: { cookie: registrationSession } });
    expect(await after.text()).not.toContain('Confirmez votre adresse e-mail');

    const magic = await signInByMagicLink(email);
    expect(magic.location.pathname).toBe('/profile');
    expect(await sessionEmail(magic.cookie as string)).toBe(email);
    // What used to be deleted: the password and the other sessions.
    expect(await sessionEmail(registrationSession)).toBe(email);
    expect(await passwordWorks(email, TEST_PASSWORD)).toBe(true);
  });

  it('lets a signed-in customer ask for the confirmation e-mail again', async () => {
    const { email, cookie } = await createUser({ url: server.url });
    // The welcome e-mail with the first link never arrived (lost, or filtered as spam): asked again,
    // the link comes alone, in the address confirmation e-mail.
    await authEmailLink(server, email, 'email-verification');
    const res = await fetch(`${server.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, cookie },
      body: new URLSearchParams({ intent: 'resend-verification' }),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/profile');
    const sent = await query<{ n: number }>(
      `select count(*)::int as n from email_outbox where "to" = $1 and template = 'email-verification'`,
      [email],
    );
    expect(sent).toEqual([{ n: 1 }]);
    const { location } = await follow(await authEmailLink(server, email, 'email-verification'));
    expect(location.searchParams.get('error')).toBeNull();
    expect(await emailVerified(email)).toBe(true);
  });

  it('still lets the real owner take back an account someone else registered with their address (magic link)', async () => {
    const victim = uniqueEmail('victime');
    const attacker = await createUser({ url: server.url, email: victim, password: 'Mot-De-Passe-Du-Pirate-7' });
    expect(await emailVerified(victim)).toBe(false);

    const owner = await signInByMagicLink(victim);
    expect(await sessionEmail(owner.cookie as string)).toBe(victim);
    // The address is now proven; the intruder's password and session are gone.
    expect(await emailVerified(victim)).toBe(true);
    expect(await sessionEmail(attacker.cookie)).toBeNull();
    expect(await passwordWorks(victim, 'Mot-De-Passe-Du-Pirate-7')).toBe(false);
  });

  it('still lets the real owner take back such an account by a password reset, and confirms the address', async () => {
    const victim = uniqueEmail('victime');
    const attacker = await createUser({ url: server.url, email: victim, password: 'Mot-De-Passe-Du-Pirate-7' });
    expect(
      (await postAuth(server.url, '/request-password-reset', { email: victim, redirectTo: '/login' })).status,
    ).toBe(200);
    const token = (await follow(await authEmailLink(server, victim, 'password-reset'))).location.searchParams.get(
      'token',
    );
    const reset = await postAuth(server.url, '/reset-password', { token, newPassword: 'Le-Vrai-Proprietaire-3' });
    expect(reset.status).toBe(200);
    expect(await sessionEmail(attacker.cookie)).toBeNull();
    expect(await passwordWorks(victim, 'Mot-De-Passe-Du-Pirate-7')).toBe(false);
    expect(await emailVerified(victim)).toBe(true);
    // The reset proved the address: a later magic link keeps the owner's new password.
    await signInByMagicLink(victim);
    expect(await passwordWorks(victim, 'Le-Vrai-Proprietaire-3')).toBe(true);
  });
});

describe('reset and magic-link tokens', () => {
  async function resetToken(email: string): Promise<string> {
    expect((await postAuth(server.url, '/request-password-reset', { email, redirectTo: '/login' })).status).toBe(200);
    const link = await authEmailLink(server, email, 'password-reset');
    return decodeURIComponent(new URL(link).pathname.split('/').at(-1) as string);
  }

  it('stores reset tokens hashed, and only the newest link works', async () => {
    const { email, id } = await createUser({ url: server.url });
    const first = await resetToken(email);
    const stored = await query<{ identifier: string }>('select identifier from verification where value = $1', [id]);
    expect(stored).toHaveLength(1);
    expect(stored[0]?.identifier).toMatch(/^reset-password:[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(stored)).not.toContain(first);

    const second = await resetToken(email);
    expect(second).not.toBe(first);
    const older = await postAuth(server.url, '/reset-password', { token: first, newPassword: 'Ancien-Lien-Refuse-4' });
    expect(older.status).toBe(400);
    expect(await older.json()).toEqual({
      code: 'INVALID_TOKEN',
      message: 'Le lien de récupération est invalide ou a expiré',
    });
    const newest = await postAuth(server.url, '/reset-password', {
      token: second,
      newPassword: 'Nouveau-Lien-Accepte-4',
    });
    expect(newest.status).toBe(200);
    expect(await passwordWorks(email, 'Nouveau-Lien-Accepte-4')).toBe(true);
  });

  it('revokes the older magic links when a new one is asked for, and every pending link when the password is reset', async () => {
    const { email } = await createUser({ url: server.url });
    await postAuth(server.url, '/sign-in/magic-link', { email, callbackURL: '/profile' });
    const older = await authEmailLink(server, email, 'magic-link');
    await postAuth(server.url, '/sign-in/magic-link', { email, callbackURL: '/profile' });
    const newer = await authEmailLink(server, email, 'magic-link');
    expect(newer).not.toBe(older);
    const stored = await query<{ identifier: string }>(
      `select identifier from verification where identifier like 'magic-link:%'`,
    );
    expect(JSON.stringify(stored)).not.toContain(new URL(newer).searchParams.get('token'));
    expect((await follow(older)).location.searchParams.get('error')).toBe('INVALID_TOKEN');

    // A reset ends the magic link still waiting in the mailbox.
    const token = await resetToken(email);
    expect((await postAuth(server.url, '/reset-password', { token, newPassword: 'Apres-Le-Reset-8' })).status).toBe(
      200,
    );
    expect((await follow(newer)).location.searchParams.get('error')).toBe('INVALID_TOKEN');
  });
});

describe('the sign-up API', () => {
  it('refuses a registration without the terms accepted, in French, and stores nothing', async () => {
    const email = uniqueEmail();
    for (const acceptTerms of [undefined, false, 'on', 'true']) {
      const res = await postAuth(server.url, '/sign-up/email', { email, password: TEST_PASSWORD, acceptTerms });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        code: 'TERMS_NOT_ACCEPTED',
        message: 'Vous devez accepter les conditions générales',
      });
    }
    expect(await query('select 1 from "user" where email = $1', [email])).toEqual([]);
  });

  it.each([
    ['name', { name: 'N'.repeat(5000) }, 'Le champ « Nom » ne doit pas dépasser 100 caractères.'],
    ['firstName', { firstName: 'P'.repeat(101) }, 'Le champ « Prénom » ne doit pas dépasser 100 caractères.'],
    ['email', { email: `${'a'.repeat(250)}@example.fr` }, 'Le champ « Email » ne doit pas dépasser 254 caractères.'],
  ])('refuses a %s over its limit with a French message, storing nothing', async (_field, fields, message) => {
    const email = uniqueEmail();
    const res = await postAuth(server.url, '/sign-up/email', {
      email,
      password: TEST_PASSWORD,
      acceptTerms: true,
      ...fields,
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string };
    expect(body.message.replace(/\u00a0/g, ' ')).toBe(message);
    expect(await query('select 1 from "user" where email = $1', [email])).toEqual([]);
  });

  it('refuses a password over 128 characters (Better Auth’s own limit, in French)', async () => {
    const res = await postAuth(server.url, '/sign-up/email', {
      email: uniqueEmail(),
      password: `Aa1-${'x'.repeat(125)}`,
      acceptTerms: true,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      'Le mot de passe ne doit pas dépasser 128 caractères',
    );
  });

  it('refuses a 5 000-character name when updating the account', async () => {
    const { cookie, email } = await createUser({ url: server.url });
    const res = await postAuth(server.url, '/update-user', { name: 'N'.repeat(5000) }, { cookie });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('FIELD_TOO_LONG');
    expect(await query<{ name: string }>('select name from "user" where email = $1', [email])).toEqual([
      { name: 'Jeanne Martin' },
    ]);
  });

  it('records the version and the date of the terms accepted, through the API and through the form', async () => {
    const started = Date.now();
    const { email: viaApi } = await createUser({ url: server.url });

    const viaForm = uniqueEmail('formulaire');
    const res = await fetch(`${server.url}/register`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: server.url,
        'x-forwarded-for': randomIp(),
      },
      body: new URLSearchParams({
        email: viaForm,
        password: 'Phare-Breton-Nocturne-2026',
        confirmPassword: 'Phare-Breton-Nocturne-2026',
        acceptTerms: 'on',
      }),
    });
    expect(res.status).toBe(200);
    expect(sessionCookie(res)).toBeTruthy();

    const rows = await query<{ email: string; terms_version: string; terms_accepted_at: Date }>(
      'select email, terms_version, terms_accepted_at from "user" where email = any($1) order by email',
      [[viaApi, viaForm]],
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.terms_version).toBe(TERMS_VERSION);
      expect(row.terms_accepted_at.getTime()).toBeGreaterThanOrEqual(started - 1000);
    }
  });
});
