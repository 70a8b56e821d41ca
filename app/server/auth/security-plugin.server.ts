import { createHash, randomUUID } from 'node:crypto';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';
import { deleteSessionCookie } from 'better-auth/cookies';
import { generateRandomString } from 'better-auth/crypto';
import { and, eq, like, lt, sql } from 'drizzle-orm';
import { originPath, withRedirectTo } from '~/domain/account/redirects';
import { toRole } from '~/domain/account/session-user';
import type { AuditKind } from '~/domain/audit/kinds';
import { AUTH_MESSAGES, STAFF_PASSWORD_MIN_LENGTH, STAFF_PASSWORD_TOO_SHORT_CODE } from '~/domain/auth-errors';
import { isStaffRole } from '~/domain/staff/permissions';
import { recordStaffAudit } from '../audit/audit.server';
import { db } from '../db/client.server';
import { user, verification } from '../db/schema';
import { log } from '../log.server';

/*
 * The staff accounts' security rules that Better Auth does not hold by itself
 * (docs/decisions/020-sessions-streams-and-database-role.md), as one plugin listed after the
 * two-factor plugin, so that its `after` hooks see what that plugin decided (a password sign-in
 * with two-factor on has no session yet):
 *
 *  - a TOTP code serves once: accepted, it is recorded for the time it stays valid (±1 step of
 *    30 s), and the same code again is refused, even by two requests at the same instant;
 *  - a magic link never skips the second factor: followed by an account with two-factor on, it
 *    opens no session but the « Code de vérification » step (whatever its age: one asked before
 *    two-factor was turned on included);
 *  - a staff account's password has STAFF_PASSWORD_MIN_LENGTH characters on every path that sets
 *    one (change, reset, admin endpoints), not only in the back office's forms;
 *  - the Journal records the staff's security events: sign-in, refused code, two-factor on and
 *    off, password changed or reset, any use of Better Auth's admin endpoints.
 */

/** How long an accepted code is remembered: its whole validity (3 steps of 30 s) and a margin. */
const USED_CODE_TTL_MS = 120_000;
const USED_CODE_PREFIX = 'totp-used:';
/** The two-factor plugin's cookie and records of a pending second step (plugins/two-factor). */
const TWO_FACTOR_COOKIE = 'two_factor';
const TWO_FACTOR_CHALLENGE_MAX_AGE_S = 600;
const TWO_FACTOR_STEP_PAGE = '/connexion/verification';

const SIGN_IN_PATHS = new Set([
  '/sign-in/email',
  '/magic-link/verify',
  '/two-factor/verify-totp',
  '/two-factor/verify-backup-code',
]);
const CODE_PATHS = new Set(['/two-factor/verify-totp', '/two-factor/verify-backup-code']);

/** Endpoints that set a password, with where the account and the password are found. */
const PASSWORD_SETTERS: Record<string, { field: string; target: 'session' | 'reset-token' | 'body-user' }> = {
  '/change-password': { field: 'newPassword', target: 'session' },
  '/set-password': { field: 'newPassword', target: 'session' },
  '/reset-password': { field: 'newPassword', target: 'reset-token' },
  '/admin/set-user-password': { field: 'newPassword', target: 'body-user' },
};

type Ctx = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];
type Body = Record<string, unknown>;

/** What the `before` hook of a code's verification learnt, for its `after` hook. */
interface CodeAttempt {
  userId: string;
  signIn: boolean;
  wasEnabled: boolean;
}
const attempts = new WeakMap<object, CodeAttempt>();

async function staffRoleOf(userId: string): Promise<string | null> {
  const [row] = await db().select({ role: user.role }).from(user).where(eq(user.id, userId)).limit(1);
  const role = toRole(row?.role);
  return isStaffRole(role) ? role : null;
}

async function journal(actor: string, kind: AuditKind, after: Record<string, string> | null = null): Promise<void> {
  try {
    const [account] = await db().select({ email: user.email }).from(user).where(eq(user.id, actor)).limit(1);
    await recordStaffAudit(db(), { actor, kind, subject: actor, subjectLabel: account?.email ?? null, after });
  } catch (error) {
    // The event happened; a journal that cannot be written is logged, not a failed sign-in.
    log.error({ err: error, kind, userId: actor }, 'security event not journaled');
  }
}

// --- TOTP codes serve once --------------------------------------------------------------------

function usedCodeIdentifier(userId: string, code: string): string {
  return `${USED_CODE_PREFIX}${createHash('sha256').update(`${userId}:${code}`).digest('base64url')}`;
}

/**
 * Records `code` as used by `userId`; false when it was already (a replay). The account's lock
 * makes two simultaneous uses of one code one success and one refusal.
 */
export async function claimTotpCode(userId: string, code: string): Promise<boolean> {
  const identifier = usedCodeIdentifier(userId, code);
  return db().transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`totp-used:${userId}`}))`);
    await tx
      .delete(verification)
      .where(
        and(
          like(verification.identifier, `${USED_CODE_PREFIX}%`),
          eq(verification.value, userId),
          lt(verification.expiresAt, new Date()),
        ),
      );
    const [seen] = await tx
      .select({ id: verification.id })
      .from(verification)
      .where(eq(verification.identifier, identifier))
      .limit(1);
    if (seen) return false;
    await tx.insert(verification).values({
      id: randomUUID(),
      identifier,
      value: userId,
      expiresAt: new Date(Date.now() + USED_CODE_TTL_MS),
    });
    return true;
  });
}

/** The account a code is typed for: the signed-in one, or the one of the pending second step. */
async function codeAttempt(ctx: Ctx): Promise<CodeAttempt | null> {
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (session) {
    const enabled = (session.user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled === true;
    return { userId: session.user.id, signIn: false, wasEnabled: enabled };
  }
  const cookie = ctx.context.createAuthCookie(TWO_FACTOR_COOKIE);
  const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!identifier) return null;
  const pending = await ctx.context.internalAdapter.findVerificationValue(identifier);
  return pending ? { userId: pending.value, signIn: true, wasEnabled: true } : null;
}

/** A replayed code verified all the same: the session it opened is closed again, and refused. */
async function refuseReplay(ctx: Ctx): Promise<never> {
  const opened = ctx.context.newSession;
  if (opened) {
    await ctx.context.internalAdapter.deleteSession(opened.session.token);
    deleteSessionCookie(ctx);
    ctx.context.setNewSession(null);
  }
  throw new APIError('UNAUTHORIZED', { code: 'INVALID_CODE', message: AUTH_MESSAGES.twoFactorCodeInvalid });
}

// --- A magic link never skips the second factor ------------------------------------------------

/**
 * The magic link's session of an account with two-factor on becomes the second step a password
 * sign-in leads to (the two-factor plugin's records and signed cookie, read by its verify
 * endpoints): the session is deleted and the browser sent to « Code de vérification ».
 */
async function secondStepInstead(ctx: Ctx): Promise<never> {
  const opened = ctx.context.newSession;
  if (!opened) throw ctx.redirect('/login');
  await ctx.context.internalAdapter.deleteSession(opened.session.token);
  deleteSessionCookie(ctx, true);
  ctx.context.setNewSession(null);
  const identifier = `2fa-${generateRandomString(20)}`;
  const expiresAt = new Date(Date.now() + TWO_FACTOR_CHALLENGE_MAX_AGE_S * 1000);
  await ctx.context.internalAdapter.createVerificationValue({ value: opened.user.id, identifier, expiresAt });
  await ctx.context.internalAdapter.createVerificationValue({
    value: '0',
    identifier: `2fa-attempts-${identifier}`,
    expiresAt,
  });
  const cookie = ctx.context.createAuthCookie(TWO_FACTOR_COOKIE, { maxAge: TWO_FACTOR_CHALLENGE_MAX_AGE_S });
  await ctx.setSignedCookie(cookie.name, identifier, ctx.context.secret, cookie.attributes);
  // The page the link was for, kept for after the code (the link's own landing is /login?…&redirectTo=).
  const callback = typeof ctx.query?.callbackURL === 'string' ? ctx.query.callbackURL : '';
  const redirectTo = originPath(new URL(callback || '/', 'http://x').searchParams.get('redirectTo'));
  log.info({ userId: opened.user.id }, 'magic link followed with two-factor on: second step asked');
  throw ctx.redirect(withRedirectTo(TWO_FACTOR_STEP_PAGE, redirectTo));
}

// --- The staff password rule on every path -------------------------------------------------------

async function passwordOwner(ctx: Ctx, target: 'session' | 'reset-token' | 'body-user'): Promise<string | null> {
  const body = (ctx.body ?? {}) as Body;
  if (target === 'session') return (await getSessionFromCtx(ctx).catch(() => null))?.user.id ?? null;
  if (target === 'body-user') return typeof body.userId === 'string' ? body.userId : null;
  const token = typeof body.token === 'string' ? body.token : ctx.query?.token;
  if (typeof token !== 'string') return null;
  const record = await ctx.context.internalAdapter.findVerificationValue(`reset-password:${token}`);
  return record?.value ?? null;
}

async function requireStaffPasswordLength(ctx: Ctx): Promise<void> {
  const body = (ctx.body ?? {}) as Body;
  let tooShort = false;
  if (ctx.path === '/admin/create-user') {
    const password = body.password;
    tooShort =
      typeof password === 'string' &&
      password.length < STAFF_PASSWORD_MIN_LENGTH &&
      [body.role].flat().some((role) => isStaffRole(toRole(role)));
  } else {
    const setter = PASSWORD_SETTERS[ctx.path];
    const password = setter ? body[setter.field] : undefined;
    if (!setter || typeof password !== 'string' || password.length >= STAFF_PASSWORD_MIN_LENGTH) return;
    const owner = await passwordOwner(ctx, setter.target);
    tooShort = owner !== null && (await staffRoleOf(owner)) !== null;
  }
  if (tooShort) {
    throw new APIError('BAD_REQUEST', {
      code: STAFF_PASSWORD_TOO_SHORT_CODE,
      message: AUTH_MESSAGES.staffPasswordTooShort,
    });
  }
}

// --- The plugin --------------------------------------------------------------------------------

/** Whether the endpoint did what it was asked (a magic link's success is a redirect, an APIError of 302). */
function succeeded(ctx: Ctx): boolean {
  const returned = ctx.context.returned;
  return returned !== undefined && (!isAPIError(returned) || returned.statusCode === 302);
}

export function securityPlugin() {
  return {
    id: 'soovenirs-security',
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === '/admin/create-user' || Object.hasOwn(PASSWORD_SETTERS, ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            await requireStaffPasswordLength(ctx);
          }),
        },
        {
          matcher: (ctx) => CODE_PATHS.has(ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const attempt = await codeAttempt(ctx);
            if (attempt) attempts.set(ctx.context, attempt);
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => CODE_PATHS.has(ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const attempt = attempts.get(ctx.context);
            if (!attempt) return;
            if (!succeeded(ctx)) {
              await journal(attempt.userId, 'security.code_refused', {
                detail: ctx.path === '/two-factor/verify-totp' ? 'code de l’application' : 'code de secours',
              });
              return;
            }
            const code = (ctx.body as Body | undefined)?.code;
            if (ctx.path === '/two-factor/verify-totp' && typeof code === 'string') {
              if (!(await claimTotpCode(attempt.userId, code.trim()))) {
                await journal(attempt.userId, 'security.code_refused', { detail: 'code déjà utilisé' });
                await refuseReplay(ctx);
              }
            }
            if (!attempt.wasEnabled) await journal(attempt.userId, 'security.two_factor_on');
          }),
        },
        {
          matcher: (ctx) => ctx.path === '/magic-link/verify',
          handler: createAuthMiddleware(async (ctx) => {
            const opened = ctx.context.newSession;
            if ((opened?.user as { twoFactorEnabled?: boolean | null } | undefined)?.twoFactorEnabled) {
              await secondStepInstead(ctx);
            }
          }),
        },
        {
          matcher: (ctx) => SIGN_IN_PATHS.has(ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            // Null while a second step is pending (the two-factor plugin's hook ran before this one).
            const opened = ctx.context.newSession;
            if (!opened || !succeeded(ctx)) return;
            if (CODE_PATHS.has(ctx.path) && !attempts.get(ctx.context)?.signIn) return;
            const how: Record<string, string> = {
              '/sign-in/email': 'mot de passe',
              '/magic-link/verify': 'lien de connexion',
              '/two-factor/verify-totp': 'mot de passe et code',
              '/two-factor/verify-backup-code': 'mot de passe et code de secours',
            };
            await journal(opened.user.id, 'security.sign_in', { method: how[ctx.path] ?? ctx.path });
          }),
        },
        {
          matcher: (ctx) => ctx.path === '/two-factor/disable' || ctx.path === '/change-password',
          handler: createAuthMiddleware(async (ctx) => {
            const actor = ctx.context.session?.user.id;
            if (!actor || !succeeded(ctx)) return;
            await journal(
              actor,
              ctx.path === '/two-factor/disable' ? 'security.two_factor_off' : 'security.password',
              ctx.path === '/change-password' ? { detail: 'changé par son titulaire' } : null,
            );
          }),
        },
        {
          matcher: (ctx) => (ctx.path ?? '').startsWith('/admin/'),
          handler: createAuthMiddleware(async (ctx) => {
            const actor = ctx.context.session?.user.id;
            if (!actor || !succeeded(ctx)) return;
            const target = (ctx.body as Body | undefined)?.userId;
            await journal(actor, 'security.admin_api', {
              action: ctx.path,
              ...(typeof target === 'string' ? { account: target } : {}),
            });
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}

/** A password reset went through (auth.server.ts's onPasswordReset): journaled for a staff account. */
export function journalPasswordReset(userId: string): Promise<void> {
  return journal(userId, 'security.password', { detail: 'réinitialisé par le lien d’un e-mail' });
}
