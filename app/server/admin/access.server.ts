import { data, redirect } from 'react-router';
import { type AccessRule, type Decision, decide, type Requester, ROUTE_ACCESS } from '~/domain/staff/access-rules';
import { type Capability, isStaffRole } from '~/domain/staff/permissions';
import { SECURITY_PAGE_PATH } from '~/domain/staff/two-factor-policy';
import { decideRequest, type RefusalAnswer, refusalAnswer, SessionUncheckable } from '../access/door.server';
import { loginRedirectPath, type SessionUser } from '../auth/session.server';
import { log } from '../log.server';

export { heldForTwoFactor } from '../access/door.server';

/*
 * The back office's guard (docs/decisions/016-staff-roles.md),
 * through the door (access/door.server.ts, docs/decisions/019-one-authorization-door.md). Every
 * admin loader and action calls requireStaff itself with the capability its line of
 * domain/staff/access-rules.ts names (a layout's loader does not protect its children). It reads
 * the session and the role from the database on every request and refuses with a response the
 * /admin error boundaries turn into the access states:
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

function refuse(answer: RefusalAnswer): never {
  throw data(answer.body, { status: answer.status, headers: { 'Cache-Control': 'no-store' } });
}

/** The door's decision for `rule`, or the 503 error state when the session cannot be checked. */
async function atTheDoor(
  request: Request,
  rule: AccessRule,
  options: { intent?: unknown; whileHeldForTwoFactor?: boolean } = {},
): Promise<{ decision: Decision; user: SessionUser | null }> {
  try {
    const { decision, asker } = await decideRequest(request.headers, rule, options);
    return { decision, user: asker.user };
  } catch (error) {
    if (error instanceof SessionUncheckable) refuse(refusalAnswer('error', loginTarget(request)));
    throw error;
  }
}

/** `/admin/securite(.data)`: the page a held administrator may reach. */
function isSecurityPage(request: Request): boolean {
  return new URL(request.url).pathname.replace(/\.data$/, '') === SECURITY_PAGE_PATH;
}

/**
 * The dashboard's frame (/admin's layout): anonymous visitors to /login remembering the page,
 * customers to the home page, any staff member in; a held administrator
 * to « Sécurité ». The session not checkable is the error state (503), not the site's error page.
 */
export async function requireStaffPage(request: Request): Promise<SessionUser> {
  const { decision, user } = await atTheDoor(request, ROUTE_ACCESS['routes/admin/layout'].read, {
    whileHeldForTwoFactor: isSecurityPage(request),
  });
  if (decision.allow && user) return user;
  if (!user) throw redirect(loginRedirectPath(request));
  if (!decision.allow && decision.refusal === 'forbidden') throw redirect('/');
  return refuseStaff(request, decision);
}

/** The signed-in staff member whose role has `capability`, or the refusal described above. */
export async function requireStaff(request: Request, capability: Capability): Promise<SessionUser> {
  const { decision, user } = await atTheDoor(
    request,
    { kind: 'staff', capability },
    { whileHeldForTwoFactor: isSecurityPage(request) },
  );
  if (decision.allow && user) return user;
  return refuseStaff(request, decision);
}

/** A held administrator is sent to « Sécurité » from every page; anything else is refused. */
function refuseStaff(request: Request, decision: Decision): never {
  const refusal = decision.allow ? 'unauthenticated' : decision.refusal;
  const pathname = new URL(request.url).pathname.replace(/\.data$/, '');
  if (refusal === 'two-factor' && request.method === 'GET' && !isAdminResourcePath(pathname))
    throw redirect(SECURITY_PAGE_PATH);
  refuse(refusalAnswer(refusal, loginTarget(request)));
}

/**
 * For an action serving several intents (a staff-intents line of domain/staff/access-rules.ts): one
 * line right after the intent is read; an intent the line does not list is refused.
 */
export function requireIntent(
  request: Request,
  user: SessionUser,
  intents: Readonly<Record<string, Capability>>,
  intent: unknown,
): void {
  const role = user.role;
  const requester: Requester = isStaffRole(role)
    ? { kind: 'staff', role, heldForTwoFactor: false }
    : { kind: 'customer' };
  const decision = decide({ kind: 'staff-intents', intents }, requester, { intent });
  if (!decision.allow) {
    log.info({ userId: user.id, role, intent }, 'admin access: intent refused');
    refuse(refusalAnswer(decision.refusal, loginTarget(request)));
  }
}

/**
 * For a loader whose broader reading needs more than its line's capability (the whole outbox).
 * No route needs it today; it stays as the documented third check of the door (docs/architecture.md).
 * @public
 */
export function requireCapability(request: Request, user: SessionUser, capability: Capability): void {
  requireIntent(request, user, { read: capability }, 'read');
}
