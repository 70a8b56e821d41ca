import { type AuthFlow, authErrorMessage, authFlowFromPath } from '~/domain/auth-errors';
import { AUTH_BASE_PATH, auth, handleAuthRequest } from '../auth/auth.server';
import { baseUrl } from '../env.server';
import { log } from '../log.server';

/*
 * The sign-in pages' forms are plain <form method="post"> handled by route actions, so that they
 * work before JavaScript loads. The actions call Better Auth through its HTTP handler rather than
 * `auth.api.*`: Better Auth applies its rate limits (and its origin checks) in the router only, so a
 * direct `auth.api.signInEmail` would escape the per-address limits (docs/product.md). The request
 * carries the browser's own headers (cookie, origin, user agent, the client address the Express
 * server vouches for), and the Set-Cookie headers of the answer are handed back to the browser.
 */

export interface AuthCallResult<T = Record<string, unknown>> {
  ok: boolean;
  status: number;
  /** The JSON body (null when there is none). */
  data: T | null;
  /** Better Auth's error code, when it failed. */
  code?: string;
  /** The French message, when it failed. */
  message?: string;
  /** Set-Cookie headers to forward to the browser. */
  setCookies: string[];
}

/** Headers of the browser's request that must not be copied onto a JSON request of ours. */
const DROPPED_HEADERS = new Set([
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'host',
  'expect',
]);

function forwardedHeaders(request: Request): Headers {
  const headers = new Headers();
  request.headers.forEach((value, name) => {
    if (!DROPPED_HEADERS.has(name.toLowerCase())) headers.set(name, value);
  });
  headers.set('content-type', 'application/json');
  // Express already refused foreign origins (server/security.ts); a form posted without an Origin
  // header (old browsers, scripts) is ours by then.
  if (!headers.has('origin')) headers.set('origin', new URL(baseUrl()).origin);
  return headers;
}

/** POSTs `body` to Better Auth's endpoint `path` (e.g. "/sign-in/email") on behalf of `request`. */
export async function callAuth<T = Record<string, unknown>>(
  request: Request,
  path: string,
  body: Record<string, unknown>,
  flow: AuthFlow = authFlowFromPath(path),
): Promise<AuthCallResult<T>> {
  const url = new URL(`${AUTH_BASE_PATH}${path}`, `${baseUrl()}/`);
  let response: Response;
  try {
    response = await handleAuthRequest(
      new Request(url, { method: 'POST', headers: forwardedHeaders(request), body: JSON.stringify(body) }),
    );
  } catch (error) {
    log.error({ err: error, path }, 'the authentication call failed');
    return { ok: false, status: 500, data: null, message: authErrorMessage({ status: 500 }, flow), setCookies: [] };
  }
  let data: unknown = null;
  if ((response.headers.get('content-type') ?? '').includes('application/json')) {
    data = await response.json().catch(() => null);
  }
  const setCookies = response.headers.getSetCookie();
  if (response.ok) return { ok: true, status: response.status, data: data as T | null, setCookies };
  const record = (data && typeof data === 'object' ? data : {}) as { code?: unknown };
  const code = typeof record.code === 'string' ? record.code : response.status === 429 ? 'RATE_LIMITED' : undefined;
  return {
    ok: false,
    status: response.status,
    data: data as T | null,
    code,
    message: authErrorMessage({ code, status: response.status }, flow),
    setCookies,
  };
}

/**
 * Set-Cookie headers that make the browser forget its session, whatever the server managed to do
 * (logout clears the user whether or not the server call succeeds).
 */
export async function expiredSessionCookies(): Promise<string[]> {
  const context = await auth().$context;
  const cookies = context.authCookies;
  const secure = baseUrl().startsWith('https://');
  return [cookies.sessionToken.name, cookies.sessionData.name, cookies.dontRememberToken.name].map(
    (name) => `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`,
  );
}

/** A Headers object with each Set-Cookie appended (for `redirect` and `data`). */
export function cookieHeaders(...groups: Array<string | string[] | null | undefined>): Headers {
  const headers = new Headers();
  for (const group of groups) {
    for (const cookie of Array.isArray(group) ? group : group ? [group] : []) headers.append('Set-Cookie', cookie);
  }
  return headers;
}
