import { randomBytes, randomInt } from 'node:crypto';
import pg from 'pg';
import type { BrowserContext, Page } from 'playwright-core';
import { revealEmailData } from '~/server/email/sealed-data.server';

/*
 * Accounts and sessions for tests that run against a started server (tests/support/server.ts).
 *
 * Sign-in and sign-up are rate limited per client address (10 and 5 a minute). The server trusts
 * X-Forwarded-For from loopback (Express `trust proxy`), so each call here claims a random private
 * address unless told otherwise: tests can create as many accounts as they like, and a test of the
 * limits passes one fixed `ip`.
 */

/** A password that passes every rule (length, not common). */
export const TEST_PASSWORD = 'Tournesol-Bleu-42';

export type TestRole = 'customer' | 'admin' | 'atelier' | 'comptabilite';

export function uniqueEmail(prefix = 'client'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@example.fr`;
}

/** A random address in 10.0.0.0/8, as if another customer were calling. */
export function randomIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

export interface AuthCallOptions {
  /** "name=value" of the session cookie. */
  cookie?: string;
  /** The client address the server should see (X-Forwarded-For). Random when absent. */
  ip?: string;
  /** The Origin header; the server's own URL when absent, as a browser would send it. */
  origin?: string;
}

/** POST a JSON body to Better Auth's endpoint `path` (e.g. "/sign-in/email"). Redirects are not followed. */
export function postAuth(url: string, path: string, body: unknown, options: AuthCallOptions = {}): Promise<Response> {
  return fetch(`${url}/api/auth${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/json',
      origin: options.origin ?? url,
      'x-forwarded-for': options.ip ?? randomIp(),
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    body: JSON.stringify(body),
  });
}

/** GET Better Auth's endpoint `path` (e.g. "/get-session"). Redirects are not followed. */
export function getAuth(url: string, path: string, options: AuthCallOptions = {}): Promise<Response> {
  return fetch(`${url}/api/auth${path}`, {
    redirect: 'manual',
    headers: {
      'x-forwarded-for': options.ip ?? randomIp(),
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
  });
}

/** "name=value" of the session cookie a response sets, or null. */
export function sessionCookie(response: Response): string | null {
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(';')[0] ?? '';
    const value = pair.slice(pair.indexOf('=') + 1);
    if (pair.includes('session_token=') && value !== '') return pair;
  }
  return null;
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  role: TestRole;
  /** "name=value" of the session opened by the registration. */
  cookie: string;
}

export interface CreateUserOptions {
  /** The server's URL (TestServer.url). */
  url: string;
  /** The server's database (TestServer.databaseUrl): needed for the staff roles. */
  databaseUrl?: string;
  email?: string;
  password?: string;
  role?: TestRole;
  firstName?: string;
  lastName?: string;
}

/**
 * Registers an account through the real sign-up endpoint, then, for a staff member, sets the role
 * in the server's database (staff join by invitation only, by design).
 */
export async function createUser({
  url,
  databaseUrl,
  email = uniqueEmail(),
  password = TEST_PASSWORD,
  role = 'customer',
  firstName = 'Jeanne',
  lastName = 'Martin',
}: CreateUserOptions): Promise<TestUser> {
  const response = await postAuth(url, '/sign-up/email', { email, password, firstName, lastName, acceptTerms: true });
  if (response.status !== 200)
    throw new Error(`sign-up of ${email} failed: ${response.status} ${await response.text()}`);
  const { user } = (await response.json()) as { user: { id: string } };
  const cookie = sessionCookie(response);
  if (!cookie) throw new Error(`sign-up of ${email} set no session cookie`);
  if (role !== 'customer') {
    if (!databaseUrl) throw new Error(`createUser({ role: "${role}" }) needs the databaseUrl of the server`);
    await setRoleInDatabase(databaseUrl, email, role);
  }
  return { id: user.id, email: email.toLowerCase(), password, role, cookie };
}

export async function setRoleInDatabase(databaseUrl: string, email: string, role: TestRole): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('update "user" set role = $1 where email = $2', [
      role,
      email.toLowerCase(),
    ]);
    if (rowCount !== 1) throw new Error(`no account for ${email}`);
  } finally {
    await client.end();
  }
}

export interface SignInOptions {
  url: string;
  email: string;
  password?: string;
  /** When given, the session cookie is also put in this page's (or context's) browser. */
  page?: Page | BrowserContext;
  ip?: string;
}

/** Signs in over HTTP and returns the session cookie ("name=value"); optionally hands it to a browser. */
export async function signIn({ url, email, password = TEST_PASSWORD, page, ip }: SignInOptions): Promise<string> {
  const response = await postAuth(url, '/sign-in/email', { email, password }, { ip });
  if (response.status !== 200)
    throw new Error(`sign-in of ${email} failed: ${response.status} ${await response.text()}`);
  const cookie = sessionCookie(response);
  if (!cookie) throw new Error(`sign-in of ${email} set no session cookie`);
  if (page) await addSessionCookie(page, url, cookie);
  return cookie;
}

/** Puts a session cookie ("name=value") into a browser, as the sign-in response would have. */
export async function addSessionCookie(page: Page | BrowserContext, url: string, cookie: string): Promise<void> {
  const context = 'context' in page && typeof page.context === 'function' ? page.context() : (page as BrowserContext);
  const separator = cookie.indexOf('=');
  await context.addCookies([
    {
      name: cookie.slice(0, separator),
      value: cookie.slice(separator + 1),
      url,
      httpOnly: true,
      sameSite: 'Lax',
      secure: url.startsWith('https://'),
    },
  ]);
}

/** The outbox keeps the link encrypted with the server's APP_SECRET (sealed-data.server.ts). */
function revealLink(template: string, field: string, sealed: string, appSecret: string): string {
  const own = process.env.APP_SECRET;
  process.env.APP_SECRET = appSecret;
  try {
    return (revealEmailData(template, { [field]: sealed }) as Record<string, string>)[field] as string;
  } finally {
    if (own === undefined) delete process.env.APP_SECRET;
    else process.env.APP_SECRET = own;
  }
}

/**
 * The link of the last account e-mail queued for `to` in the server's outbox (the e2e servers have
 * no SMTP configured, so their messages wait there, `held`, with their data). A registration's
 * address confirmation is in the welcome e-mail (`confirmUrl`); a later one has its own.
 */
export async function authEmailLink(
  { databaseUrl, appSecret }: { databaseUrl: string; appSecret: string },
  to: string,
  kind: 'password-reset' | 'magic-link' | 'email-verification',
  timeoutMs = 5000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query<{ template: string; field: string; url: string }>(
        `select template, case when template = 'welcome' then 'confirmUrl' else 'url' end as field,
           coalesce(data->>'url', data->>'confirmUrl') as url
         from email_outbox
         where "to" = $1 and (template = $2 or ($2 = 'email-verification' and template = 'welcome'))
           and (data ? 'url' or data ? 'confirmUrl')
         order by created_at desc limit 1`,
        [to.toLowerCase(), kind],
      );
      const row = rows[0];
      if (row) return revealLink(row.template, row.field, row.url, appSecret);
      if (Date.now() > deadline) throw new Error(`no ${kind} e-mail queued for ${to}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await client.end();
  }
}
