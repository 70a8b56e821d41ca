import { data } from 'react-router';
import type { AccessRefusal } from '~/domain/admin/access';
import { ACCESS_MESSAGES } from '~/domain/admin/messages';
import { getUser, loginRedirectPath, type SessionUser } from '../auth/session.server';
import { log } from '../log.server';

/*
 * The back office's guard (specification 001, sections 4 and 6). Every admin loader and action
 * calls requireAdminUser itself (a layout's loader does not protect its children). It reads the
 * session and the role from the database on every request and refuses with a response the
 * /admin error boundary turns into the specification's access states:
 *
 *  - 401 `unauthenticated`: toast "Non authentifié", then /login?redirectTo=<the page>;
 *  - 403 `forbidden`: toast "Accès non autorisé", then /;
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

export async function requireAdminUser(request: Request): Promise<SessionUser> {
  let user: SessionUser | null;
  try {
    user = await getUser(request);
  } catch (error) {
    log.error({ err: error }, 'admin access: the session could not be checked');
    throw data(
      { access: 'error', message: ACCESS_MESSAGES.permissionsError, redirectTo: null } satisfies AccessRefusal,
      { status: 503, headers: { 'Cache-Control': 'no-store' } },
    );
  }
  if (!user) {
    throw data(
      {
        access: 'unauthenticated',
        message: ACCESS_MESSAGES.unauthenticated,
        redirectTo: loginTarget(request),
      } satisfies AccessRefusal,
      { status: 401, headers: { 'Cache-Control': 'no-store' } },
    );
  }
  if (user.role !== 'admin') {
    throw data({ access: 'forbidden', message: ACCESS_MESSAGES.forbidden, redirectTo: '/' } satisfies AccessRefusal, {
      status: 403,
      headers: { 'Cache-Control': 'no-store' },
    });
  }
  return user;
}
