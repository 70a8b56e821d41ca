import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '~/domain/auth-errors';
import { totp, totpSecret } from '../../../tests/support/totp';
import { db } from '../db/client.server';
import { auditLog, emailOutbox, user } from '../db/schema';
import { revealEmailData } from '../email/sealed-data.server';
import { log } from '../log.server';
import { setUserRole } from '../users.server';
import { handleAuthRequest } from './auth.server';

/*
 * The staff's security rules over Better Auth's HTTP handler, as a browser meets them
 * (security-plugin.server.ts): a TOTP code serves once, a magic link leads to the code step of an
 * account with two-factor on, the staff password length holds on every path, and the Journal
 * records the security events.
 */

log.level = 'silent';
const BASE = 'http://localhost:3000';
process.env.BASE_URL = BASE;
const PASSWORD = 'Tournesol-Bleu-42-Equipe';

let counter = 0;
let ip = 0;

/** A Better Auth call as the browser's: same origin, its own client address (rate limits). */
async function call(
  path: string,
  { body, cookie, method = 'POST' }: { body?: unknown; cookie?: string; method?: string } = {},
) {
  ip += 1;
  const response = await handleAuthRequest(
    new Request(`${BASE}/api/auth${path}`, {
      method,
      redirect: 'manual',
      headers: {
        origin: BASE,
        'x-soovenirs-client-ip': `10.9.${Math.floor(ip / 250)}.${(ip % 250) + 1}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(cookie ? { cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const cookies = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .filter((pair) => !pair.endsWith('='));
  const text = await response.text();
  const json = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : null;
  return { status: response.status, json, cookies: cookies.join('; '), location: response.headers.get('location') };
}

async function account(role: 'customer' | 'atelier' | 'admin', password = PASSWORD) {
  counter += 1;
  const email = `securite${counter}-${Date.now()}@example.fr`;
  const signedUp = await call('/sign-up/email', {
    body: { email, password, name: 'Membre', firstName: 'Mila', lastName: 'Membre', acceptTerms: true },
  });
  expect(signedUp.status).toBe(200);
  await setUserRole(email, role);
  const [row] = await db().select({ id: user.id }).from(user).where(eq(user.id, signedUp.json.user.id));
  return { id: row?.id as string, email, cookie: signedUp.cookies };
}

/**
 * Turns two-factor on for the signed-in member (whose cookie then follows the new session). It is
 * confirmed with the code of the step after `at`, so that the code of `at` stays unused for the
 * test's sign-ins, whichever step boundary passes meanwhile.
 */
async function withTwoFactor(member: { cookie: string }): Promise<{ secret: string; at: number }> {
  const at = Date.now();
  const enabled = await call('/two-factor/enable', { body: { password: PASSWORD }, cookie: member.cookie });
  expect(enabled.status).toBe(200);
  const secret = totpSecret(enabled.json.totpURI);
  const confirmed = await call('/two-factor/verify-totp', {
    body: { code: totp(secret, at + 30_000) },
    cookie: member.cookie,
  });
  expect(confirmed.status).toBe(200);
  member.cookie = confirmed.cookies;
  return { secret, at };
}

/** Password sign-in of an account with two-factor on: the second step's cookie. */
async function firstStep(email: string): Promise<string> {
  const signIn = await call('/sign-in/email', { body: { email, password: PASSWORD } });
  expect(signIn.json).toMatchObject({ twoFactorRedirect: true });
  return signIn.cookies;
}

async function journal(actorId: string) {
  return db()
    .select({ kind: auditLog.kind, after: auditLog.after, subjectLabel: auditLog.subjectLabel })
    .from(auditLog)
    .where(eq(auditLog.actorId, actorId))
    .orderBy(auditLog.id);
}

describe('a TOTP code', () => {
  it('opens a session once: the same code again within its window is refused, and journaled', async () => {
    const member = await account('atelier');
    const { secret, at } = await withTwoFactor(member);
    const code = totp(secret, at);

    const first = await call('/two-factor/verify-totp', { body: { code }, cookie: await firstStep(member.email) });
    expect(first.status).toBe(200);
    expect(first.cookies).toMatch(/session_token=/);

    const replay = await call('/two-factor/verify-totp', { body: { code }, cookie: await firstStep(member.email) });
    expect(replay.status).toBe(401);
    expect(replay.json).toMatchObject({ code: 'INVALID_CODE', message: AUTH_MESSAGES.twoFactorCodeInvalid });
    expect(replay.cookies).not.toMatch(/session_token=/);

    const kinds = (await journal(member.id)).map((entry) => [entry.kind, entry.after]);
    expect(kinds).toEqual([
      ['security.two_factor_on', null],
      ['security.sign_in', { method: 'mot de passe et code' }],
      ['security.code_refused', { detail: 'code déjà utilisé' }],
    ]);
  });

  it('serves once even when two requests bring it at the same instant', async () => {
    const member = await account('atelier');
    const { secret, at } = await withTwoFactor(member);
    const code = totp(secret, at);
    const [a, b] = await Promise.all([firstStep(member.email), firstStep(member.email)]);
    const results = await Promise.all([
      call('/two-factor/verify-totp', { body: { code }, cookie: a }),
      call('/two-factor/verify-totp', { body: { code }, cookie: b }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('journals a wrong code', async () => {
    const member = await account('atelier');
    const { secret, at } = await withTwoFactor(member);
    const wrong = totp(secret, at) === '000000' ? '111111' : '000000';
    const refused = await call('/two-factor/verify-totp', {
      body: { code: wrong },
      cookie: await firstStep(member.email),
    });
    expect(refused.status).toBe(401);
    expect((await journal(member.id)).at(-1)).toMatchObject({
      kind: 'security.code_refused',
      after: { detail: 'code de l’application' },
      subjectLabel: member.email,
    });
  });
});

describe('a magic link', () => {
  async function lastMagicLink(email: string): Promise<string> {
    const [mail] = await db()
      .select({ template: emailOutbox.template, data: emailOutbox.data })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, email), eq(emailOutbox.template, 'magic-link')))
      .orderBy(desc(emailOutbox.createdAt))
      .limit(1);
    return (revealEmailData('magic-link', mail?.data) as { url: string }).url;
  }

  it('asked before two-factor was turned on leads to the code step, not a session', async () => {
    const member = await account('atelier');
    const asked = await call('/sign-in/magic-link', {
      body: { email: member.email, callbackURL: '/login?type=magiclink&redirectTo=%2Fadmin%2Fatelier' },
    });
    expect(asked.status).toBe(200);
    const link = new URL(await lastMagicLink(member.email));
    const { secret, at } = await withTwoFactor(member);

    const followed = await call(`${link.pathname.replace('/api/auth', '')}${link.search}`, { method: 'GET' });
    expect(followed.status).toBe(302);
    expect(followed.location).toBe('/connexion/verification?redirectTo=%2Fadmin%2Fatelier');
    expect(followed.cookies).not.toMatch(/session_token=/);
    expect(followed.cookies).toMatch(/two_factor=/);

    // The code step then opens the session, as after a password.
    const verified = await call('/two-factor/verify-totp', {
      body: { code: totp(secret, at) },
      cookie: followed.cookies,
    });
    expect(verified.status).toBe(200);
    expect(verified.cookies).toMatch(/session_token=/);
  });

  it('still signs in an account without two-factor, and journals a staff member’s sign-in', async () => {
    const member = await account('atelier');
    await call('/sign-in/magic-link', { body: { email: member.email, callbackURL: '/login?type=magiclink' } });
    const link = new URL(await lastMagicLink(member.email));
    const followed = await call(`${link.pathname.replace('/api/auth', '')}${link.search}`, { method: 'GET' });
    expect(followed.status).toBe(302);
    expect(followed.cookies).toMatch(/session_token=/);
    expect((await journal(member.id)).at(-1)).toMatchObject({
      kind: 'security.sign_in',
      after: { method: 'lien de connexion' },
    });
  });
});

describe('the staff password rule', () => {
  const SHORT = 'Girafe-Bleue'; // 12 characters
  const TOO_SHORT = 'Girafe-Vert'; // 11

  it('holds on change-password for a staff member, not for a customer', async () => {
    const member = await account('atelier');
    const refused = await call('/change-password', {
      body: { currentPassword: PASSWORD, newPassword: TOO_SHORT },
      cookie: member.cookie,
    });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({
      code: 'STAFF_PASSWORD_TOO_SHORT',
      message: 'Le mot de passe d’un membre de l’équipe doit contenir au moins 12 caractères',
    });
    const accepted = await call('/change-password', {
      body: { currentPassword: PASSWORD, newPassword: SHORT },
      cookie: member.cookie,
    });
    expect(accepted.status).toBe(200);
    expect((await journal(member.id)).at(-1)).toMatchObject({
      kind: 'security.password',
      after: { detail: 'changé par son titulaire' },
    });

    const customer = await account('customer');
    const customers = await call('/change-password', {
      body: { currentPassword: PASSWORD, newPassword: 'Zèbre-Vert' },
      cookie: customer.cookie,
    });
    expect(customers.status).toBe(200);
    expect(await journal(customer.id)).toEqual([]);
  });

  it('holds on a password reset for a staff member', async () => {
    const member = await account('atelier');
    expect(
      (await call('/request-password-reset', { body: { email: member.email, redirectTo: '/login' } })).status,
    ).toBe(200);
    const [mail] = await db()
      .select({ data: emailOutbox.data })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, member.email), eq(emailOutbox.template, 'password-reset')))
      .orderBy(desc(emailOutbox.createdAt))
      .limit(1);
    const url = new URL((revealEmailData('password-reset', mail?.data) as { url: string }).url);
    const token = url.pathname.split('/').at(-1) as string;

    const refused = await call('/reset-password', { body: { token, newPassword: TOO_SHORT } });
    expect(refused.json).toMatchObject({ code: 'STAFF_PASSWORD_TOO_SHORT' });
    const accepted = await call('/reset-password', { body: { token, newPassword: SHORT } });
    expect(accepted.status).toBe(200);
    expect((await journal(member.id)).at(-1)).toMatchObject({
      kind: 'security.password',
      after: { detail: 'réinitialisé par le lien d’un e-mail' },
    });
  });

  it('holds on the admin endpoints', async () => {
    const owner = await account('admin');
    const member = await account('atelier');
    const refused = await call('/admin/set-user-password', {
      body: { userId: member.id, newPassword: TOO_SHORT },
      cookie: owner.cookie,
    });
    expect(refused.json).toMatchObject({ code: 'STAFF_PASSWORD_TOO_SHORT' });
    const created = await call('/admin/create-user', {
      body: { email: `nouveau-${Date.now()}@example.fr`, password: TOO_SHORT, name: 'N', role: 'comptabilite' },
      cookie: owner.cookie,
    });
    expect(created.json).toMatchObject({ code: 'STAFF_PASSWORD_TOO_SHORT' });
  });
});

describe('the Journal', () => {
  beforeAll(() => {
    process.env.BASE_URL = BASE;
  });

  it('records a staff member’s password sign-in and turning two-factor off, not a customer’s sign-in', async () => {
    const member = await account('atelier');
    const signedIn = await call('/sign-in/email', { body: { email: member.email, password: PASSWORD } });
    expect(signedIn.status).toBe(200);
    await withTwoFactor(member);
    const off = await call('/two-factor/disable', { body: { password: PASSWORD }, cookie: member.cookie });
    expect(off.status).toBe(200);
    expect((await journal(member.id)).map((entry) => entry.kind)).toEqual([
      'security.sign_in',
      'security.two_factor_on',
      'security.two_factor_off',
    ]);

    const customer = await account('customer');
    await call('/sign-in/email', { body: { email: customer.email, password: PASSWORD } });
    expect(await journal(customer.id)).toEqual([]);
  });

  it('records any use of the admin endpoints, with the account acted on', async () => {
    const owner = await account('admin');
    const member = await account('atelier');
    const revoked = await call('/admin/revoke-user-sessions', { body: { userId: member.id }, cookie: owner.cookie });
    expect(revoked.status).toBe(200);
    expect((await journal(owner.id)).at(-1)).toMatchObject({
      kind: 'security.admin_api',
      after: { action: '/admin/revoke-user-sessions', account: member.id },
    });
  });
});
