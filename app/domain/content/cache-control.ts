/*
 * HTTP caching of the public pages (docs/content.md, « Speed »): a visitor without a session gets a page that
 * any cache may keep for a minute and serve stale for ten more while it refreshes. A signed-in
 * visitor's page shows their account link, so it is private and revalidated. `Vary: Cookie` keeps
 * shared caches from mixing the two.
 */

export const PUBLIC_PAGE_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600';
export const PRIVATE_PAGE_CACHE_CONTROL = 'private, no-cache';
export const NO_STORE = 'no-store';

/** Whether a Cookie header carries a session (Better Auth's `…session_token` cookie). */
export function hasSessionCookie(cookieHeader: string | null): boolean {
  return cookieHeader !== null && /(?:^|;\s*)[\w.-]*session_token=[^;\s]/.test(cookieHeader);
}

/** The headers a public page's loader returns, chosen from the request's cookies. */
export function pageCacheHeaders(request: Pick<Request, 'headers'>): Record<string, string> {
  return {
    'Cache-Control': hasSessionCookie(request.headers.get('cookie'))
      ? PRIVATE_PAGE_CACHE_CONTROL
      : PUBLIC_PAGE_CACHE_CONTROL,
    Vary: 'Cookie',
  };
}

interface HeadersArgs {
  loaderHeaders: Headers;
  actionHeaders: Headers;
  errorHeaders: Headers | undefined;
}

/**
 * A route's `headers` export: the loader's caching headers, except after a form post or an error,
 * which are never cached.
 */
export function publicPageHeaders({ loaderHeaders, actionHeaders, errorHeaders }: HeadersArgs): Headers {
  const headers = new Headers();
  const vary = loaderHeaders.get('Vary');
  if (vary) headers.set('Vary', vary);
  if (errorHeaders || actionHeaders.has('Cache-Control')) {
    headers.set('Cache-Control', NO_STORE);
    return headers;
  }
  headers.set('Cache-Control', loaderHeaders.get('Cache-Control') ?? PRIVATE_PAGE_CACHE_CONTROL);
  return headers;
}
