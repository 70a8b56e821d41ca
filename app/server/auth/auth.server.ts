import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { admin, magicLink, twoFactor as twoFactorPlugin } from 'better-auth/plugins';
import { adminAc, userAc } from 'better-auth/plugins/admin/access';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  AUTH_MESSAGES,
  authErrorMessage,
  authFlowFromPath,
  FIELD_LIMITS,
  FIELD_TOO_LONG_CODE,
  FORBIDDEN_CHARACTER_CODE,
  fieldTooLongMessage,
  TERMS_NOT_ACCEPTED_CODE,
} from '~/domain/auth-errors';
import { COMMON_PASSWORD_CODE, isCommonPassword } from '~/domain/common-passwords';
import { isStaffRole } from '~/domain/staff/permissions';
import { TERMS_VERSION } from '~/domain/terms';
import { FORBIDDEN_CHARACTER_MESSAGE, hasNoForbiddenCharacter } from '~/domain/text-input';
import { staffAccessChanged } from '../admin/notification-streams.server';
import { db } from '../db/client.server';
import { account, rateLimit, session, twoFactor, user, verification } from '../db/schema';
import { welcomeDedupeKey } from '../email/account-emails.server';
import { queueEmail } from '../email/outbox.server';
import { baseUrl } from '../env.server';
import { log } from '../log.server';
import { sendAuthEmail } from './auth-emails.server';
import { hashPassword, verifyPassword } from './password.server';
import { journalPasswordReset, securityPlugin } from './security-plugin.server';
import { hashVerificationIdentifier, revokeMagicLinks, revokeResetTokens } from './tokens.server';

/*
 * Better Auth, configured once (docs/product.md): e-mail + password hashed with argon2id, password
 * reset and magic link by e-mail, the admin plugin for roles, sessions in PostgreSQL with the
 * cookie cache off (a role change or a ban takes effect on the next request), rate limits in the
 * database in every environment.
 */

/** Set by server/app.ts on every request to the address Express trusts; a client cannot forge it. */
export const CLIENT_IP_HEADER = 'x-soovenirs-client-ip';

export const AUTH_BASE_PATH = '/api/auth';

/** 6 characters at least (with the common passwords refused, decision 005). */
export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 128;

/**
 * Where the link of the password-reset e-mail lands: the password reset e-mail's
 * link returns to /login. Better Auth checks the token, then redirects to
 * `/login?type=recovery&token=…`, or to `/login?type=recovery&error=INVALID_TOKEN`.
 */
export const RESET_PASSWORD_CALLBACK = '/login?type=recovery';

/** Where the address-confirmation link lands, after Better Auth has marked the address verified. */
export const EMAIL_VERIFIED_CALLBACK = '/login?type=email-verified';

/** Endpoints whose body carries account fields a customer types: each is bounded (FIELD_LIMITS). */
const BOUNDED_ENDPOINTS = new Set(['/sign-up/email', '/update-user', '/send-verification-email']);

/**
 * Roles: customer (the default), and the staff (docs/decisions/016). Only `admin` may use the admin
 * plugin's endpoints; what the staff roles may do in the back office is our own table
 * (domain/staff/permissions.ts), checked by requireStaff.
 */
const roles = { customer: userAc, admin: adminAc, atelier: userAc, comptabilite: userAc };

/** Endpoints that set a password, and the body field holding it: common passwords are refused. */
const PASSWORD_FIELDS: Record<string, string> = {
  '/sign-up/email': 'password',
  '/reset-password': 'newPassword',
  '/change-password': 'newPassword',
  '/admin/create-user': 'password',
  '/admin/set-user-password': 'newPassword',
};

const nameField = z.string().trim().max(100).refine(hasNoForbiddenCharacter, FORBIDDEN_CHARACTER_MESSAGE);

function appSecret(): string {
  const secret = process.env.APP_SECRET;
  if (!secret) throw new Error('APP_SECRET is not set: the server sets it at start (see secrets.server.ts).');
  return secret;
}

function fullName(body: Record<string, unknown>): string {
  return [body.firstName, body.lastName]
    .filter((part): part is string => typeof part === 'string')
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ');
}

/**
 * What every request to Better Auth is refused for before it runs, in this order: a character
 * PostgreSQL cannot store, a field longer than its limit, a registration without the terms, a
 * common password. Each is a 400 with our code and a French message.
 */
function refuseBadInput(path: string, body: Record<string, unknown>): void {
  // PostgreSQL text cannot hold NUL: refused here rather than failing in the insert (a 500).
  if (Object.values(body).some((value) => typeof value === 'string' && !hasNoForbiddenCharacter(value))) {
    throw new APIError('BAD_REQUEST', { code: FORBIDDEN_CHARACTER_CODE, message: FORBIDDEN_CHARACTER_MESSAGE });
  }
  if (BOUNDED_ENDPOINTS.has(path)) refuseOverlongField(body);
  // The terms of sale are accepted by every account, whatever sends the registration.
  if (path === '/sign-up/email' && body.acceptTerms !== true) {
    throw new APIError('BAD_REQUEST', { code: TERMS_NOT_ACCEPTED_CODE, message: AUTH_MESSAGES.termsRequired });
  }
  const field = PASSWORD_FIELDS[path];
  const password = field ? body[field] : undefined;
  // Too short is reported by Better Auth itself, with its own message.
  if (typeof password === 'string' && password.length >= MIN_PASSWORD_LENGTH && isCommonPassword(password)) {
    throw new APIError('BAD_REQUEST', { code: COMMON_PASSWORD_CODE, message: AUTH_MESSAGES.passwordTooCommon });
  }
}

/** The first account field (in FIELD_LIMITS' order) longer than its limit is refused. */
function refuseOverlongField(body: Record<string, unknown>): void {
  for (const [name, max] of Object.entries(FIELD_LIMITS)) {
    const value = body[name];
    if (typeof value === 'string' && value.length > max) {
      throw new APIError('BAD_REQUEST', { code: FIELD_TOO_LONG_CODE, message: fieldTooLongMessage(name) });
    }
  }
}

function createAuth() {
  const origin = baseUrl();
  return betterAuth({
    appName: 'Soovenirs',
    baseURL: origin,
    basePath: AUTH_BASE_PATH,
    secret: appSecret(),
    telemetry: { enabled: false },
    database: drizzleAdapter(db(), {
      provider: 'pg',
      schema: { user, session, account, verification, rateLimit, twoFactor },
      // User + credential account in one transaction: no user left without a password on failure.
      transaction: true,
    }),
    trustedOrigins: (request) => [origin, request ? new URL(request.url).origin : undefined],
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      // The customer is signed in right after registration ("Inscription réussie").
      autoSignIn: true,
      password: { hash: hashPassword, verify: verifyPassword },
      resetPasswordTokenExpiresIn: 60 * 60,
      // Whoever asked for a reset may be locking an intruder out: end every other session.
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user: recipient, url }) => {
        // One live reset link per account: the older ones stop working now.
        await revokeResetTokens(recipient.id, { keepNewest: true });
        const link = new URL(url);
        link.searchParams.set('callbackURL', RESET_PASSWORD_CALLBACK);
        await sendAuthEmail({
          to: recipient.email,
          kind: 'password-reset',
          url: link.toString(),
          firstName: (recipient as { firstName?: string }).firstName,
          userId: recipient.id,
        });
      },
      // Following the e-mailed link proved the mailbox. Without this, a later magic link would
      // treat the account as unproven and delete its password (Better Auth's protection against
      // accounts pre-registered by someone else at that address).
      // Better Auth has already replaced the password and ended every session (the owner's new
      // password alone survives, whoever registered the account).
      onPasswordReset: async ({ user: owner }) => {
        await db().update(user).set({ emailVerified: true }).where(eq(user.id, owner.id));
        // Every other reset or magic link still lying in a mailbox stops working.
        await revokeResetTokens(owner.id);
        await revokeMagicLinks(owner.email);
        await journalPasswordReset(owner.id);
      },
    },
    /*
     * Addresses are confirmed by a link e-mailed at registration (docs/decisions/010). Sign-in is
     * not blocked meanwhile (the customer is signed in at once, and they may order
     * right away); /profile says « Confirmez votre adresse e-mail » with a button to send it again.
     */
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: false,
      autoSignInAfterVerification: false,
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: async ({ user: recipient, url }) => {
        const link = new URL(url);
        link.searchParams.set('callbackURL', EMAIL_VERIFIED_CALLBACK);
        await sendAuthEmail({
          to: recipient.email,
          kind: 'email-verification',
          url: link.toString(),
          firstName: (recipient as { firstName?: string }).firstName,
          userId: recipient.id,
        });
      },
    },
    user: {
      additionalFields: {
        // Registration metadata (first_name, last_name; '' when absent).
        firstName: { type: 'string', required: false, defaultValue: '', input: true, validator: { input: nameField } },
        lastName: { type: 'string', required: false, defaultValue: '', input: true, validator: { input: nameField } },
        // Profile fields, edited on /profile through our own action, never set at sign-up.
        phone: { type: 'string', required: false, input: false },
        street: { type: 'string', required: false, input: false },
        postalCode: { type: 'string', required: false, input: false },
        city: { type: 'string', required: false, input: false },
        // The terms of sale accepted at registration: set by the server (databaseHooks), never typed.
        termsVersion: { type: 'string', required: false, input: false },
        termsAcceptedAt: { type: 'date', required: false, input: false },
      },
    },
    session: {
      cookieCache: { enabled: false },
    },
    // Reset and magic-link tokens are stored hashed, their kind kept readable (tokens.server.ts).
    verification: {
      storeIdentifier: { hash: hashVerificationIdentifier },
    },
    databaseHooks: {
      // A session ended (sign-out, revocation, password reset) or a role or ban changed through
      // Better Auth: the open notification streams are checked now (docs/decisions/020).
      session: {
        delete: { after: async () => staffAccessChanged() },
      },
      user: {
        // Any change of the row (role, ban...) through Better Auth: the streams check their access.
        update: { after: async () => staffAccessChanged() },
        create: {
          // Registration required `acceptTerms: true` (the before hook below): record what was accepted.
          before: async (created, ctx) => {
            if (ctx?.path !== '/sign-up/email') return;
            return { data: { ...created, termsVersion: TERMS_VERSION, termsAcceptedAt: new Date() } };
          },
          // The welcome e-mail, once per account (the dedupe key makes a replay harmless). A
          // registration's comes with the address confirmation instead (account-emails.server.ts).
          // A staff member (an accepted invitation) is no customer: their invitation said it all.
          after: async (created, ctx) => {
            if (ctx?.path === '/sign-up/email') return;
            if (isStaffRole((created as { role?: string | null }).role)) return;
            const firstName = (created as { firstName?: string }).firstName || undefined;
            await queueEmail({
              to: created.email,
              template: 'welcome',
              data: { firstName },
              dedupeKey: welcomeDedupeKey(created.id),
            });
          },
        },
      },
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      modelName: 'rateLimit',
      window: 10,
      max: 100,
      // Per client address and endpoint; windows in seconds.
      customRules: {
        '/sign-in/email': { window: 60, max: 10 },
        '/sign-up/email': { window: 60, max: 5 },
        '/request-password-reset': { window: 60, max: 3 },
        '/reset-password': { window: 60, max: 5 },
        '/reset-password/*': { window: 60, max: 10 },
        '/change-password': { window: 60, max: 5 },
        '/sign-in/magic-link': { window: 60, max: 3 },
        '/magic-link/verify': { window: 60, max: 10 },
        '/send-verification-email': { window: 60, max: 3 },
        // Six digits: a few tries per minute (the plugin also locks the account after repeated failures).
        '/two-factor/verify-totp': { window: 60, max: 5 },
        '/two-factor/verify-backup-code': { window: 60, max: 5 },
        '/two-factor/enable': { window: 60, max: 5 },
        // Read on every page load by the client; nothing to guess there, and no write per read.
        '/get-session': false,
      },
    },
    advanced: {
      cookiePrefix: 'soovenirs',
      useSecureCookies: origin.startsWith('https://'),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      // Better Auth skips origin checks when NODE_ENV is "test": keep them on, tests run the real thing.
      disableOriginCheck: false,
    },
    logger: {
      // Every level is handed to the app's logger, which keeps what LOG_LEVEL asks for: nothing of
      // Better Auth reaches the console (its own printer writes raw text, errors with their data).
      level: 'debug',
      log: (level, message, ...args) => {
        // Better Auth's "info" lines are per-request chatter (with e-mail addresses) and its
        // warnings are mostly a customer's mistakes ("Invalid password"): one level down each.
        const target = level === 'debug' ? 'trace' : level === 'info' ? 'debug' : level === 'warn' ? 'info' : level;
        log[target]({ source: 'better-auth', details: args.length ? args : undefined }, message);
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        const body = ctx.body as Record<string, unknown> | undefined;
        if (!body || typeof body !== 'object') return;
        refuseBadInput(ctx.path, body);
        // The registration form has first and last names; Better Auth wants `name`.
        if (ctx.path === '/sign-up/email' && (typeof body.name !== 'string' || body.name.trim() === '')) {
          return { context: { body: { ...body, name: fullName(body) } } };
        }
      }),
    },
    plugins: [
      admin({
        roles,
        defaultRole: 'customer',
        adminRoles: ['admin'],
        bannedUserMessage: AUTH_MESSAGES.banned,
      }),
      // Two-factor sign-in with a TOTP app for the staff (docs/decisions/016): enabled from « Sécurité »
      // with the password, confirmed with a first code; sign-in then asks « Code de vérification ».
      twoFactorPlugin({
        issuer: 'Soovenirs',
      }),
      magicLink({
        expiresIn: 15 * 60,
        storeToken: 'hashed',
        // Accounts are created by registration only (it records the acceptance of the terms).
        disableSignUp: true,
        sendMagicLink: async ({ email, url }, ctx) => {
          const existing = await ctx?.context.internalAdapter.findUserByEmail(email.toLowerCase());
          // Same answer for an unknown address, but no e-mail: nothing reveals who has an account.
          if (!existing) {
            log.info({ kind: 'magic-link' }, 'magic link requested for an address without an account');
            return;
          }
          // A link would skip the second step: two-factor accounts sign in with password and code.
          if ((existing.user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled) {
            log.info({ kind: 'magic-link' }, 'magic link refused: two-factor sign-in is on for this account');
            return;
          }
          // One live link per address: the older ones stop working now.
          await revokeMagicLinks(email, { keepNewest: true });
          await sendAuthEmail({ to: existing.user.email, kind: 'magic-link', url });
        },
      }),
      // After the two-factor plugin: its hooks decide first whether a sign-in has a session yet.
      securityPlugin(),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

let instance: Auth | undefined;

/** The Better Auth instance, created on first use (DATABASE_URL and APP_SECRET are set at start). */
export function auth(): Auth {
  instance ??= createAuth();
  return instance;
}

/**
 * Better Auth's HTTP handler, with every JSON error message in French (the code is kept), including
 * the rate limiter's 429 which bypasses Better Auth's error pipeline.
 */
export async function handleAuthRequest(request: Request): Promise<Response> {
  const response = await auth().handler(request);
  return inFrench(request, response);
}

async function inFrench(request: Request, response: Response): Promise<Response> {
  if (response.status < 400) return response;
  if (!(response.headers.get('content-type') ?? '').includes('application/json'))
    return withFrenchBody(request, response);
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch {
    return response;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return response;
  const record = body as Record<string, unknown>;
  const code = typeof record.code === 'string' ? record.code : response.status === 429 ? 'RATE_LIMITED' : undefined;
  const path = new URL(request.url).pathname.slice(AUTH_BASE_PATH.length);
  // Our own refusals name the field at fault, already in French: kept as they are.
  const message =
    code === FIELD_TOO_LONG_CODE && typeof record.message === 'string'
      ? record.message
      : authErrorMessage({ code, status: response.status }, authFlowFromPath(path));
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  const retryAfter = headers.get('x-retry-after');
  if (retryAfter && !headers.has('retry-after')) headers.set('retry-after', retryAfter);
  return new Response(JSON.stringify({ ...record, ...(code ? { code } : {}), message }), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/**
 * An error Better Auth answers without a JSON body (an unknown endpoint's 404, a wrong method's
 * 405): the same JSON `{ code, message }` as its other errors, in French.
 */
function withFrenchBody(request: Request, response: Response): Response {
  const path = new URL(request.url).pathname.slice(AUTH_BASE_PATH.length);
  const code = response.status === 404 ? 'NOT_FOUND' : response.status === 405 ? 'METHOD_NOT_ALLOWED' : undefined;
  const message = authErrorMessage({ code, status: response.status }, authFlowFromPath(path));
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify({ ...(code ? { code } : {}), message }), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
