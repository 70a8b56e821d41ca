import { redirect } from 'react-router';
import { type Role, type SessionUser, toRole } from '~/domain/account/session-user';
import { mustSetUpTwoFactor, SECURITY_PAGE_PATH } from '~/domain/staff/two-factor-policy';
import { readTwoFactorPolicy } from '../admin/two-factor-policy.server';
import { auth } from './auth.server';

export type { Role, SessionUser };
export { toRole };

/*
 * The signed-in user of a request, for loaders and actions. `get*` returns null, `require*` throws
 * a redirect (Epic Stack convention). Every loader and action checks access itself: a layout's
 * loader does not protect its children.
 */

/**
 * The user of the session cookie, read from the database (no cookie cache), or null. A deactivated
 * account (« Équipe », Better Auth's `banned`) has no session, even one its deactivation missed.
 */
export async function getUser(request: Request): Promise<SessionUser | null> {
  if (!request.headers.get('cookie')) return null;
  const result = await auth().api.getSession({ headers: request.headers });
  if (!result || (result.user as { banned?: boolean | null }).banned === true) return null;
  const { user } = result;
  return {
    id: user.id,
    email: user.email,
    role: toRole(user.role),
    firstName: user.firstName ?? '',
    lastName: user.lastName ?? '',
    emailVerified: user.emailVerified === true,
    twoFactorEnabled: (user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled === true,
  };
}

/** The id of the request's session (not its token, which is a secret), or null. */
export async function getSessionId(request: Request): Promise<string | null> {
  if (!request.headers.get('cookie')) return null;
  const result = await auth().api.getSession({ headers: request.headers });
  return result?.session.id ?? null;
}

/** /login with the current path and query to come back to after signing in. */
export function loginRedirectPath(request: Request): string {
  const url = new URL(request.url);
  return `/login?${new URLSearchParams({ redirectTo: `${url.pathname}${url.search}` })}`;
}

/**
 * The signed-in user, or a redirect to /login?redirectTo=<this page>. An administrator held by the
 * team's two-factor rule goes to « Sécurité » (the door's rule for every staff session, decision 019).
 */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getUser(request);
  if (!user) throw redirect(loginRedirectPath(request));
  if (await heldForTwoFactor(user)) throw redirect(SECURITY_PAGE_PATH);
  return user;
}

/** Whether this staff member is held by the team's two-factor rule (domain/staff/two-factor-policy.ts). */
export async function heldForTwoFactor(user: SessionUser): Promise<boolean> {
  // Only a member the rule could hold costs a read of the rule.
  if (!mustSetUpTwoFactor(user, { adminTwoFactorRequired: true })) return false;
  return mustSetUpTwoFactor(user, await readTwoFactorPolicy());
}
