import { describe, expect, it } from 'vitest';
import {
  hasSessionCookie,
  NO_STORE,
  PRIVATE_PAGE_CACHE_CONTROL,
  PUBLIC_PAGE_CACHE_CONTROL,
  pageCacheHeaders,
  publicPageHeaders,
} from './cache-control';

const request = (cookie?: string) => ({ headers: new Headers(cookie ? { cookie } : {}) });

describe('caching of public pages', () => {
  it('is public for a visitor without a session, private with one', () => {
    expect(PUBLIC_PAGE_CACHE_CONTROL).toBe('public, max-age=60, stale-while-revalidate=600');
    expect(pageCacheHeaders(request())).toEqual({ 'Cache-Control': PUBLIC_PAGE_CACHE_CONTROL, Vary: 'Cookie' });
    expect(pageCacheHeaders(request('theme=clair'))['Cache-Control']).toBe(PUBLIC_PAGE_CACHE_CONTROL);
    expect(pageCacheHeaders(request('soovenirs.session_token=abc.def'))['Cache-Control']).toBe(
      PRIVATE_PAGE_CACHE_CONTROL,
    );
    expect(hasSessionCookie('a=1; __Secure-soovenirs.session_token=x')).toBe(true);
    expect(hasSessionCookie('soovenirs.session_token=')).toBe(false);
  });

  it('passes the loader’s headers on, but never caches a form post or an error', () => {
    const loaderHeaders = new Headers(pageCacheHeaders(request()));
    const page = publicPageHeaders({ loaderHeaders, actionHeaders: new Headers(), errorHeaders: undefined });
    expect(page.get('Cache-Control')).toBe(PUBLIC_PAGE_CACHE_CONTROL);
    expect(page.get('Vary')).toBe('Cookie');
    const posted = publicPageHeaders({
      loaderHeaders,
      actionHeaders: new Headers({ 'Cache-Control': NO_STORE }),
      errorHeaders: undefined,
    });
    expect(posted.get('Cache-Control')).toBe(NO_STORE);
    const failed = publicPageHeaders({ loaderHeaders, actionHeaders: new Headers(), errorHeaders: new Headers() });
    expect(failed.get('Cache-Control')).toBe(NO_STORE);
  });
});
