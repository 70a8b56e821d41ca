import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/auth';
import { startServer, type TestServer } from '../support/server';

/*
 * The in-memory cache of anonymous public pages (server/html-cache.ts), against the real
 * built server: a visitor gets the page from memory the second time, with its own CSP nonce; a
 * browser that has the page gets a 304; a signed-in customer's page is never shared; a price
 * published from the back office shows on the next request.
 */

let server: TestServer;
let admin: TestUser;

beforeAll(async () => {
  server = await startServer();
  admin = await createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'admin' });
});

afterAll(async () => {
  await server?.dispose();
});

function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, { headers, redirect: 'manual' });
}

/** A first visit, read to the end: the page is stored once the server has sent all of it. */
async function visit(path: string, headers: Record<string, string> = {}): Promise<Response> {
  const response = await get(path, headers);
  await response.text();
  return response;
}

/** The nonce the Content-Security-Policy header allows, and every nonce attribute of the page. */
async function nonces(response: Response): Promise<{ header: string; inPage: string[] }> {
  const csp = response.headers.get('content-security-policy') ?? '';
  const header = /'nonce-([^']+)'/.exec(csp)?.[1] ?? '';
  const html = await response.text();
  return { header, inPage: [...html.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1] as string) };
}

describe('cache of anonymous public pages', () => {
  it('renders a page once, then serves it from memory with the same content', async () => {
    const first = await get('/faq');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('MISS');
    const firstHtml = await first.text();

    const second = await get('/faq');
    expect(second.status).toBe(200);
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(second.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=600');
    expect(second.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const secondHtml = await second.text();
    expect(secondHtml).toContain('Questions fréquentes');
    // Identical but for the nonce.
    expect(secondHtml.replace(/nonce="[^"]+"/g, '')).toBe(firstHtml.replace(/nonce="[^"]+"/g, ''));
  });

  it('gives each hit its own nonce, the one its CSP header allows', async () => {
    await visit('/boite-soovenirs');
    const a = await get('/boite-soovenirs');
    const b = await get('/boite-soovenirs');
    expect([a.headers.get('x-cache'), b.headers.get('x-cache')]).toEqual(['HIT', 'HIT']);
    const na = await nonces(a);
    const nb = await nonces(b);
    expect(na.header).not.toBe('');
    expect(na.header).not.toBe(nb.header);
    expect(na.inPage.length).toBeGreaterThan(0);
    expect(new Set(na.inPage)).toEqual(new Set([na.header]));
    expect(new Set(nb.inPage)).toEqual(new Set([nb.header]));
  });

  it('answers 304 to a browser holding the page, with a stable strong ETag', async () => {
    await visit('/services/photos');
    const hit = await get('/services/photos');
    const etag = hit.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[^"]+"$/);
    expect((await get('/services/photos')).headers.get('etag')).toBe(etag);

    const revalidated = await get('/services/photos', { 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    // The browser keeps the CSP it got with the page: a new nonce would block that page's scripts.
    expect(revalidated.headers.get('content-security-policy')).toBeNull();

    const changed = await get('/services/photos', { 'if-none-match': '"something-else"' });
    expect(changed.status).toBe(200);
  });

  it('still compresses pages served from memory', async () => {
    await visit('/blog');
    const hit = await get('/blog', { 'accept-encoding': 'gzip' });
    expect(hit.headers.get('x-cache')).toBe('HIT');
    expect(hit.headers.get('content-encoding')).toBe('gzip');
    // fetch decompresses: the page is whole.
    expect(await hit.text()).toContain('</html>');
  });

  it('answers HEAD from memory without a body', async () => {
    await visit('/services/vhs');
    const head = await fetch(`${server.url}/services/vhs`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('x-cache')).toBe('HIT');
    expect(await head.text()).toBe('');
  });

  it('never serves a signed-in visitor from the cache, nor keeps their page', async () => {
    const customer = await createUser({ url: server.url, firstName: 'Honorine' });
    await visit('/');
    const signedIn = await get('/', { cookie: customer.cookie });
    expect(signedIn.headers.get('x-cache')).toBe('BYPASS');
    expect(signedIn.headers.get('cache-control')).toBe('private, no-cache');

    // A page first rendered for a signed-in visitor is not stored for the next anonymous one.
    const fresh = '/services?origine=compte';
    expect((await visit(fresh, { cookie: customer.cookie })).headers.get('x-cache')).toBe('BYPASS');
    const anonymous = await get(fresh);
    expect(anonymous.headers.get('x-cache')).toBe('MISS');
    expect(await anonymous.text()).not.toContain('Honorine');
  });

  it('serves a guest who ordered (order cookie) from the cache: that cookie changes no public page', async () => {
    await visit('/services/slides');
    const guest = await get('/services/slides', { cookie: 'sv_order_00000000-0000-4000-8000-000000000000=jeton' });
    expect(guest.headers.get('x-cache')).toBe('HIT');
  });

  it('does not keep pages that are not public (sign-in page, unknown address)', async () => {
    await visit('/login');
    expect((await visit('/login')).headers.get('x-cache')).toBe('MISS');
    await visit('/page-qui-n-existe-pas');
    const missing = await get('/page-qui-n-existe-pas');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-cache')).toBe('MISS');
  });

  it('shows a price published from the back office on the very next request', async () => {
    await visit('/services');
    const before = await get('/services');
    expect(before.headers.get('x-cache')).toBe('HIT');
    expect(await before.text()).toContain('À partir de 0,35\u00A0€ par photo');

    // The Tarifs tab's form, posted as the browser does once the summary is confirmed.
    const published = await fetch(`${server.url}/admin/tarifs`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: admin.cookie,
        origin: server.url,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ intent: 'update', 'supports.photos.basePrice': '0,47', confirmed: '1' }),
    });
    expect(published.status).toBe(200);

    const after = await get('/services');
    expect(after.headers.get('x-cache')).toBe('MISS');
    const html = await after.text();
    expect(html).toContain('À partir de 0,47\u00A0€ par photo');
    expect(html).not.toContain('À partir de 0,35\u00A0€ par photo');
  });

  it('renders pages afresh once an administrator invalidates the content', async () => {
    await visit('/a-propos');
    expect((await visit('/a-propos')).headers.get('x-cache')).toBe('HIT');
    const invalidated = await fetch(`${server.url}/api/content/invalidate`, {
      method: 'POST',
      headers: { cookie: admin.cookie, origin: server.url },
      body: new FormData(),
    });
    expect(invalidated.status).toBe(200);
    expect((await get('/a-propos')).headers.get('x-cache')).toBe('MISS');
  });
});
