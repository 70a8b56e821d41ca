import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authEmailLink,
  createUser,
  getAuth,
  postAuth,
  randomIp,
  sessionCookie,
  signIn,
  TEST_PASSWORD,
  uniqueEmail,
} from '../support/auth';
import { type SharedServer, sharedServer } from '../support/shared-shop';

/*
 * Better Auth behind the real production server, over HTTP: sign-up, sign-in, session, sign-out,
 * French errors, password rules, rate limits, password reset and magic link.
 */

const INCORRECT = 'Email ou mot de passe incorrect';
const TOO_SHORT = 'Le mot de passe doit contenir au moins 6 caractères';
const TOO_COMMON = 'Ce mot de passe fait partie des plus courants : choisissez-en un autre.';
const RATE_LIMITED = 'Trop de tentatives. Veuillez patienter avant de réessayer.';

let server: SharedServer;

beforeAll(async () => {
  server = await sharedServer();
});

afterAll(async () => {
  await server?.dispose();
});

async function session(cookie: string) {
  const res = await getAuth(server.url, '/get-session', { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as { user: { email: string; role: string; firstName: string; lastName: string } } | null;
}

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe('sign-up, session and sign-out', () => {
  it('registers, opens a session, reads it and signs out', async () => {
    const email = uniqueEmail();
    const res = await postAuth(server.url, '/sign-up/email', {
      acceptTerms: true,
      email,
      password: TEST_PASSWORD,
      firstName: 'Jeanne',
      lastName: 'Martin',
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { user: { email: string; firstName: string; lastName: string; name: string } };
    expect(body.user).toMatchObject({ email, firstName: 'Jeanne', lastName: 'Martin', name: 'Jeanne Martin' });

    const setCookie = res.headers.getSetCookie().find((c) => c.includes('session_token='));
    expect(setCookie).toMatch(/^soovenirs\.session_token=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    // Secure only when BASE_URL is https; the test server runs on http://127.0.0.1.
    expect(setCookie).not.toMatch(/Secure/i);

    const cookie = sessionCookie(res) as string;
    expect((await session(cookie))?.user).toMatchObject({ email, role: 'customer', firstName: 'Jeanne' });

    const out = await postAuth(server.url, '/sign-out', {}, { cookie });
    expect(out.status).toBe(200);
    expect(await session(cookie)).toBeNull();
  });

  it('answers get-session without a cookie with null', async () => {
    const res = await getAuth(server.url, '/get-session');
    expect(res.status).toBe(200);
    expect(await res.json()).toBeNull();
  });

  it('does not say that an address is taken', async () => {
    const { email } = await createUser({ url: server.url });
    const res = await postAuth(server.url, '/sign-up/email', {
      acceptTerms: true,
      email,
      password: 'Autre-Mot-De-Passe-7',
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.message).toBe(
      "Une erreur est survenue lors de l'inscription. Si vous avez déjà un compte, connectez-vous ou réinitialisez votre mot de passe.",
    );
    expect(body.message).not.toMatch(/existe/i);
    // And the original password still works.
    await expect(signIn({ url: server.url, email })).resolves.toMatch(/session_token=/);
  });

  it('refuses a role chosen at sign-up', async () => {
    const email = uniqueEmail();
    const res = await postAuth(server.url, '/sign-up/email', {
      acceptTerms: true,
      email,
      password: TEST_PASSWORD,
      role: 'admin',
    });
    expect(res.status).toBe(400);
    expect(await query('select 1 from "user" where email = $1', [email])).toEqual([]);
  });

  it('lets the test helpers create an administrator', async () => {
    const admin = await createUser({ ...server, role: 'admin' });
    expect((await session(admin.cookie))?.user.role).toBe('admin');
    const cookie = await signIn({ url: server.url, email: admin.email });
    expect((await session(cookie))?.user.role).toBe('admin');
  });

  it('refuses a sign-up posted from a foreign site', async () => {
    const res = await postAuth(
      server.url,
      '/sign-up/email',
      { acceptTerms: true, email: uniqueEmail(), password: TEST_PASSWORD },
      { origin: 'https://pirate.example' },
    );
    expect(res.status).toBe(403);
  });
});

describe('sign-in', () => {
  it('signs in with the right password, recording the client address', async () => {
    const { email } = await createUser({ url: server.url });
    const ip = randomIp();
    const res = await postAuth(server.url, '/sign-in/email', { email, password: TEST_PASSWORD }, { ip });
    expect(res.status).toBe(200);
    const cookie = sessionCookie(res) as string;
    expect((await session(cookie))?.user.email).toBe(email);
    const token = decodeURIComponent(cookie.split('=')[1] ?? '').split('.')[0];
    expect(await query('select ip_address from session where token = $1', [token])).toEqual([{ ip_address: ip }]);
  });

  it('ignores the case of the address', async () => {
    const { email } = await createUser({ url: server.url });
    const res = await postAuth(server.url, '/sign-in/email', { email: email.toUpperCase(), password: TEST_PASSWORD });
    expect(res.status).toBe(200);
  });

  it('refuses a wrong password with 401 and the French message', async () => {
    const { email } = await createUser({ url: server.url });
    const res = await postAuth(server.url, '/sign-in/email', { email, password: 'pas-le-bon-mot' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 'INVALID_EMAIL_OR_PASSWORD', message: INCORRECT });
    expect(sessionCookie(res)).toBeNull();
  });

  it('answers an unknown address exactly like a wrong password', async () => {
    const res = await postAuth(server.url, '/sign-in/email', { email: uniqueEmail(), password: 'pas-le-bon-mot' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 'INVALID_EMAIL_OR_PASSWORD', message: INCORRECT });
  });

  it('refuses the 11th rapid attempt from one address with 429, in French', async () => {
    const { email } = await createUser({ url: server.url });
    const ip = randomIp();
    for (let attempt = 1; attempt <= 10; attempt++) {
      const res = await postAuth(server.url, '/sign-in/email', { email, password: 'pas-le-bon-mot' }, { ip });
      expect(res.status, `attempt ${attempt}`).toBe(401);
    }
    const eleventh = await postAuth(server.url, '/sign-in/email', { email, password: TEST_PASSWORD }, { ip });
    expect(eleventh.status).toBe(429);
    expect(await eleventh.json()).toMatchObject({ code: 'RATE_LIMITED', message: RATE_LIMITED });
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client is not affected.
    const other = await postAuth(server.url, '/sign-in/email', { email, password: TEST_PASSWORD }, { ip: randomIp() });
    expect(other.status).toBe(200);
  });
});

describe('password rules', () => {
  it.each(['12345', 'abc', 'Kx9#p'])('refuses %j: shorter than 6 characters', async (password) => {
    const res = await postAuth(server.url, '/sign-up/email', { acceptTerms: true, email: uniqueEmail(), password });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 'PASSWORD_TOO_SHORT', message: TOO_SHORT });
  });

  it('accepts 6 characters', async () => {
    const res = await postAuth(server.url, '/sign-up/email', {
      acceptTerms: true,
      email: uniqueEmail(),
      password: 'Kx9#pq',
    });
    expect(res.status).toBe(200);
  });

  it.each(['azerty', 'motdepasse', 'soleil', '123456', 'Password1', 'Marseille13'])(
    'refuses the common password %j with the reason',
    async (password) => {
      const email = uniqueEmail();
      const res = await postAuth(server.url, '/sign-up/email', { acceptTerms: true, email, password });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ code: 'PASSWORD_TOO_COMMON', message: TOO_COMMON });
      expect(await query('select 1 from "user" where email = $1', [email])).toEqual([]);
    },
  );

  it('refuses a common password when changing it', async () => {
    const { cookie } = await createUser({ url: server.url });
    const res = await postAuth(
      server.url,
      '/change-password',
      { currentPassword: TEST_PASSWORD, newPassword: 'azerty123' },
      { cookie },
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 'PASSWORD_TOO_COMMON', message: TOO_COMMON });
  });
});

describe('password reset', () => {
  it('e-mails a link back to /login, which sets a new password', async () => {
    const { email, cookie: oldSession } = await createUser({ url: server.url });
    const asked = await postAuth(server.url, '/request-password-reset', { email, redirectTo: '/ailleurs' });
    expect(asked.status).toBe(200);

    // The e-mailed link checks the token, then lands on /login whatever redirectTo the client sent.
    const link = await authEmailLink(server, email, 'password-reset');
    expect(link.startsWith(`${server.url}/api/auth/reset-password/`)).toBe(true);
    const landing = await fetch(link, { redirect: 'manual' });
    expect(landing.status).toBe(302);
    const target = new URL(landing.headers.get('location') as string, server.url);
    expect(target.pathname).toBe('/login');
    expect(target.searchParams.get('type')).toBe('recovery');
    const token = target.searchParams.get('token') as string;
    expect(token).toBeTruthy();

    const common = await postAuth(server.url, '/reset-password', { token, newPassword: 'motdepasse' });
    expect(common.status).toBe(400);
    expect(await common.json()).toEqual({ code: 'PASSWORD_TOO_COMMON', message: TOO_COMMON });

    const short = await postAuth(server.url, '/reset-password', { token, newPassword: 'abc' });
    expect(await short.json()).toEqual({ code: 'PASSWORD_TOO_SHORT', message: TOO_SHORT });

    const done = await postAuth(server.url, '/reset-password', { token, newPassword: 'Nouveau-Jardin-93' });
    expect(done.status).toBe(200);
    // Every session of the account ends with the reset.
    expect(await session(oldSession)).toBeNull();
    await expect(signIn({ url: server.url, email, password: 'Nouveau-Jardin-93' })).resolves.toBeTruthy();

    // The token was single-use.
    const again = await postAuth(server.url, '/reset-password', { token, newPassword: 'Encore-Autre-Chose-5' });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({
      code: 'INVALID_TOKEN',
      message: 'Le lien de récupération est invalide ou a expiré',
    });
  });

  it('sends an expired or forged link back to /login with an error', async () => {
    const landing = await fetch(
      `${server.url}/api/auth/reset-password/forged-token?callbackURL=${encodeURIComponent('/login?type=recovery')}`,
      { redirect: 'manual' },
    );
    expect(landing.status).toBe(302);
    const target = new URL(landing.headers.get('location') as string, server.url);
    expect(target.pathname).toBe('/login');
    expect(target.searchParams.get('error')).toBe('INVALID_TOKEN');
  });

  it('answers the same for an address without an account', async () => {
    const { email } = await createUser({ url: server.url });
    const known = await postAuth(server.url, '/request-password-reset', { email, redirectTo: '/login' });
    const unknown = await postAuth(server.url, '/request-password-reset', {
      email: uniqueEmail(),
      redirectTo: '/login',
    });
    expect(unknown.status).toBe(known.status);
    expect(await unknown.json()).toEqual(await known.json());
  });
});

describe('magic link', () => {
  it('signs in an existing customer through the e-mailed link', async () => {
    const { email } = await createUser({ url: server.url });
    const asked = await postAuth(server.url, '/sign-in/magic-link', { email, callbackURL: '/profile' });
    expect(asked.status).toBe(200);
    const link = await authEmailLink(server, email, 'magic-link');
    const landing = await fetch(link, { redirect: 'manual', headers: { 'x-forwarded-for': randomIp() } });
    expect(landing.status).toBe(302);
    expect(new URL(landing.headers.get('location') as string, server.url).pathname).toBe('/profile');
    const cookie = sessionCookie(landing) as string;
    expect((await session(cookie))?.user.email).toBe(email);

    // Single use.
    const reused = await fetch(link, { redirect: 'manual', headers: { 'x-forwarded-for': randomIp() } });
    expect(reused.status).toBe(302);
    expect(reused.headers.get('location')).toContain('error=INVALID_TOKEN');
  });

  it('answers the same for an unknown address, creates nothing and sends nothing', async () => {
    const email = uniqueEmail('inconnu');
    const res = await postAuth(server.url, '/sign-in/magic-link', { email, callbackURL: '/profile' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: true });
    await expect(authEmailLink(server, email, 'magic-link', 500)).rejects.toThrow();
    expect(await query('select 1 from "user" where email = $1', [email])).toEqual([]);
  });
});
