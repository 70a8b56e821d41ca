import { data, redirect } from 'react-router';
import type { AccessRefusal } from '~/domain/admin/access';
import { ACCESS_MESSAGES } from '~/domain/admin/messages';
import { type Capability, can, isStaffRole } from '~/domain/staff/permissions';
import { mustSetUpTwoFactor, SECURITY_PAGE_PATH, TWO_FACTOR_POLICY_MESSAGES } from '~/domain/staff/two-factor-policy';
import { getUser, loginRedirectPath, type SessionUser } from '../auth/session.server';
import { log } from '../log.server';
import { readTwoFactorPolicy } from './two-factor-policy.server';

/*
 * The back office's guard (specification 001, sections 4 and 6; docs/decisions/016-staff-roles.md).
 * Every admin loader and action calls requireStaff itself with the capability it needs (a layout's
 * loader does not protect its children). It reads the session and the role from the database on
 * every request and refuses with a response the /admin error boundaries turn into the access states:
 *
 *  - 401 `unauthenticated`: toast "Non authentifié", then /login?redirectTo=<the page>;
 *  - 403 `forbidden` (customers): toast "Accès non autorisé", then /;
 *  - 403 `denied` (staff whose role lacks the capability): « Accès non autorisé » in place;
 *  - 503 `error`: the session could not be checked (database down...): message with logout and
 *    home buttons.
 *
 * Resource routes (exports, event stream, dialogs' JSON) answer with the same statuses, which is
 * what their callers need. The data of a refusal never contains anything of the back office.
 */

export { type AccessRefusal, type AccessState, isAccessRefusal } from '~/domain/admin/access';

/** Resource routes of the back office (no page of their own). */
export function isAdminResourcePath(pathname: string): boolean {
  return pathname.startsWith('/admin/api/') || pathname.startsWith('/admin/exports/');
}

/** The page to come back to after signing in: the admin page itself, or /admin for a resource. */
function loginTarget(request: Request): string {
  const url = new URL(request.url);
  return isAdminResourcePath(url.pathname) ? '/login?redirectTo=%2Fadmin' : loginRedirectPath(request);
}

function refuse(refusal: AccessRefusal, status: number): never {
  throw data(refusal, { status, headers: { 'Cache-Control': 'no-store' } });
}

async function sessionUser(request: Request): Promise<SessionUser | null> {
  try {
    return await getUser(request);
  } catch (error) {
    log.error({ err: error }, 'admin access: the session could not be checked');
    refuse({ access: 'error', message: ACCESS_MESSAGES.permissionsError, redirectTo: null }, 503);
  }
}

/**
 * The dashboard's frame (/admin's layout): anonymous visitors to /login remembering the page,
 * customers to the home page (specification 000, §6), any staff member in. The session not
 * checkable is the error state (503), not the site's error page.
 */
export async function requireStaffPage(request: Request): Promise<SessionUser> {
  const user = await sessionUser(request);
  if (!user) throw redirect(loginRedirectPath(request));
  if (!isStaffRole(user.role)) throw redirect('/');
  await requireTwoFactorWhenRequired(request, user);
  return user;
}

/** The signed-in staff member whose role has `capability`, or the refusal described above. */
export async function requireStaff(request: Request, capability: Capability): Promise<SessionUser> {
  const user = await sessionUser(request);
  if (!user) {
    refuse(
      { access: 'unauthenticated', message: ACCESS_MESSAGES.unauthenticated, redirectTo: loginTarget(request) },
      401,
    );
  }
  if (!isStaffRole(user.role))
    refuse({ access: 'forbidden', message: ACCESS_MESSAGES.forbidden, redirectTo: '/' }, 403);
  if (!can(user.role, capability)) {
    log.info({ userId: user.id, role: user.role, capability }, 'admin access: capability refused');
    refuse({ access: 'denied', message: ACCESS_MESSAGES.forbidden, redirectTo: null }, 403);
  }
  await requireTwoFactorWhenRequired(request, user);
  return user;
}

/**
 * The team's rule (domain/staff/two-factor-policy.ts): whether this staff member is an
 * administrator without two-factor sign-in while it is compulsory. The rule is read only for such
 * an administrator, not on every request.
 */
export async function heldForTwoFactor(user: SessionUser): Promise<boolean> {
  if (user.role !== 'admin' || user.twoFactorEnabled) return false;
  return mustSetUpTwoFactor(user, await readTwoFactorPolicy());
}

/** A held administrator is sent to « Sécurité » from every page; anything else is refused. */
async function requireTwoFactorWhenRequired(request: Request, user: SessionUser): Promise<void> {
  // `/admin/securite.data` is the same page, fetched by a client-side navigation.
  const pathname = new URL(request.url).pathname.replace(/\.data$/, '');
  if (pathname === SECURITY_PAGE_PATH || !(await heldForTwoFactor(user))) return;
  if (request.method === 'GET' && !isAdminResourcePath(pathname)) throw redirect(SECURITY_PAGE_PATH);
  refuse({ access: 'denied', message: TWO_FACTOR_POLICY_MESSAGES.required, redirectTo: null }, 403);
}

/**
 * For an action serving several intents of different capabilities: one line right after the
 * intent is read (the action's first guard already let a staff member in).
 */
export function requireCapability(user: SessionUser, capability: Capability): void {
  if (!can(user.role, capability))
    refuse({ access: 'denied', message: ACCESS_MESSAGES.forbidden, redirectTo: null }, 403);
}
