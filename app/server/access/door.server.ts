import type { AccessRefusal } from '~/domain/admin/access';
import { ACCESS_MESSAGES } from '~/domain/admin/messages';
import { AUTH_MESSAGES } from '~/domain/auth-errors';
import { UPLOADS_PATH } from '~/domain/files/uploads';
import {
  type AccessRule,
  authEndpointAccess,
  type Decision,
  decide,
  ORDER_VIEWER_CAPABILITY,
  type Refusal,
  type Requester,
  type RouteAccess,
  routeAccess,
  ruleFor,
  UPLOADS_ACCESS,
} from '~/domain/staff/access-rules';
import { isStaffRole } from '~/domain/staff/permissions';
import { TWO_FACTOR_POLICY_MESSAGES } from '~/domain/staff/two-factor-policy';
import { AUTH_BASE_PATH } from '../auth/auth.server';
import { getUser, heldForTwoFactor, type SessionUser } from '../auth/session.server';

export { heldForTwoFactor };

import { log } from '../log.server';

/*
 * The door (docs/decisions/019-one-authorization-door.md): the one function that decides a request
 * from the table of domain/staff/access-rules.ts and the capability table. The Express layer calls
 * it from the headers before any body is read (server/door.ts); the back office's guards
 * (admin/access.server.ts), the order documents (orders/access.server.ts), the tus uploads and the
 * API routes call it again where they need the signed-in user.
 */

/** Who asks, from the session cookie: a deactivated member's session is none (getUser). */
export interface Asker {
  user: SessionUser | null;
  requester: Requester;
}

/** The session could not be checked (database down…): the caller answers 503, the error state. */
export class SessionUncheckable extends Error {
  constructor(cause: unknown) {
    super('the session could not be checked', { cause });
  }
}

export async function askerOf(headers: Headers): Promise<Asker> {
  try {
    const user = await getUser(new Request('http://door.invalid/', { headers }));
    if (!user) return { user: null, requester: { kind: 'anonymous' } };
    if (!isStaffRole(user.role)) return { user, requester: { kind: 'customer' } };
    return { user, requester: { kind: 'staff', role: user.role, heldForTwoFactor: await heldForTwoFactor(user) } };
  } catch (error) {
    log.error({ err: error }, 'door: the session could not be checked');
    throw new SessionUncheckable(error);
  }
}

/** The table's line for a path, or null when no route or endpoint of the table serves it. */
export interface PathAccess {
  access: RouteAccess;
  /** For Better Auth's catch-all route: the endpoint's own line replaces the route's. */
  authEndpoint: string | null;
}

export function accessOfRoute(routeId: string, pathname: string): PathAccess | null {
  if (pathname === UPLOADS_PATH || pathname.startsWith(`${UPLOADS_PATH}/`))
    return { access: UPLOADS_ACCESS, authEndpoint: null };
  const access = routeAccess(routeId);
  if (!access) return null;
  if (routeId === 'routes/api/auth' && pathname.startsWith(`${AUTH_BASE_PATH}/`))
    return { access, authEndpoint: pathname.slice(AUTH_BASE_PATH.length) };
  return { access, authEndpoint: null };
}

/** The rule a request meets: the endpoint's for Better Auth, the route's line for its method otherwise. */
export function ruleOf({ access, authEndpoint }: PathAccess, method: string): AccessRule {
  return authEndpoint !== null ? authEndpointAccess(authEndpoint) : ruleFor(access, method);
}

export interface RefusalAnswer {
  status: number;
  body: AccessRefusal | { message: string; code?: string };
}

/**
 * The answer of a refusal, in the shapes the back office's error boundaries read. A closed Better
 * Auth endpoint (`authEndpoint`) answers as Better Auth answers one it does not have.
 */
export function refusalAnswer(
  refusal: Refusal | 'error',
  loginTarget: string,
  { authEndpoint = false }: { authEndpoint?: boolean } = {},
): RefusalAnswer {
  switch (refusal) {
    case 'unauthenticated':
      return {
        status: 401,
        body: { access: 'unauthenticated', message: ACCESS_MESSAGES.unauthenticated, redirectTo: loginTarget },
      };
    case 'forbidden':
      return { status: 403, body: { access: 'forbidden', message: ACCESS_MESSAGES.forbidden, redirectTo: '/' } };
    case 'denied':
      return { status: 403, body: { access: 'denied', message: ACCESS_MESSAGES.forbidden, redirectTo: null } };
    case 'two-factor':
      return {
        status: 403,
        body: { access: 'denied', message: TWO_FACTOR_POLICY_MESSAGES.required, redirectTo: null },
      };
    case 'closed':
      if (authEndpoint) return { status: 404, body: { code: 'NOT_FOUND', message: AUTH_MESSAGES.endpointNotFound } };
      return { status: 404, body: { message: 'Introuvable.' } };
    case 'error':
      return {
        status: 503,
        body: { access: 'error', message: ACCESS_MESSAGES.permissionsError, redirectTo: null },
      };
  }
}

/**
 * The decision for one request: who asks (from its headers), against `rule`. A public rule reads
 * no session.
 */
export async function decideRequest(
  headers: Headers,
  rule: AccessRule,
  options: { intent?: unknown; whileHeldForTwoFactor?: boolean } = {},
): Promise<{ decision: Decision; asker: Asker }> {
  if (rule.kind === 'public' || rule.kind === 'closed') {
    return {
      decision: decide(rule, { kind: 'anonymous' }, options),
      asker: { user: null, requester: { kind: 'anonymous' } },
    };
  }
  const asker = await askerOf(headers);
  const decision = decide(rule, asker.requester, options);
  if (!decision.allow && asker.user)
    log.info({ userId: asker.user.id, role: asker.user.role, refusal: decision.refusal }, 'door: refused');
  return { decision, asker };
}

/** Who opens one of an order's pages or documents. */
export interface OrderAsker {
  user: SessionUser | null;
  /** Who asks as the door sees it: the order-viewer rule's refusal depends on it (signed out or not). */
  requester: Requester;
  /** A staff member whose role sees any order (not held by the two-factor rule). */
  staffView: boolean;
}

export async function orderAskerOf(request: Request): Promise<OrderAsker> {
  const asker = await askerOf(request.headers);
  const decision = decide({ kind: 'order-viewer', staff: ORDER_VIEWER_CAPABILITY }, asker.requester);
  return { user: asker.user, requester: asker.requester, staffView: decision.allow && decision.staffView };
}
