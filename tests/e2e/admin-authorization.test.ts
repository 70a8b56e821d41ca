import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import routes from '../../app/routes';
import { createUser, randomIp, type TestUser } from '../support/auth';
import { startServer, type TestServer } from '../support/server';

/*
 * Every loader and every action of the back office, called over HTTP as an anonymous visitor and
 * as a signed-in customer, is refused, and no answer carries a byte of the shop's data. Resource
 * routes and actions answer 401 and 403; the pages send the anonymous to /login remembering the
 * page and customers to / (specification 000, §6). The routes are read from app/routes.ts: a new
 * admin route is covered without touching this file. Page routes are also called as React
 * Router's client navigations do (`.data`).
 */

interface AdminRoute {
  /** URL path, parameters filled in. */
  path: string;
  file: string;
  isIndex: boolean;
  hasAction: boolean;
  hasComponent: boolean;
}

interface RouteEntry {
  path?: string;
  file: string;
  index?: boolean;
  children?: RouteEntry[];
}

/** Values for the parameters of admin routes (a new parameter name fails the test until added here). */
const PARAMS: Record<string, string> = {
  dataset: 'commandes',
  orderId: '00000000-0000-4000-8000-000000000001',
  photoId: '00000000-0000-4000-8000-000000000002',
};
const APP = path.resolve(import.meta.dirname, '../../app');

function adminRoutes(): AdminRoute[] {
  const found: AdminRoute[] = [];
  const walk = (entries: RouteEntry[], parent: string) => {
    for (const entry of entries) {
      const full = [parent, entry.path ?? ''].filter(Boolean).join('/');
      if (full === 'admin' || full.startsWith('admin/')) {
        const filled = full.replace(/:(\w+)/g, (_, name: string) => {
          if (!PARAMS[name]) throw new Error(`admin-authorization: no test value for the route parameter :${name}`);
          return PARAMS[name];
        });
        const source = readFileSync(path.join(APP, entry.file), 'utf8');
        found.push({
          path: `/${filled}`,
          file: entry.file,
          isIndex: Boolean(entry.index),
          hasAction: /export (async )?function action\b/.test(source),
          hasComponent: /export default function\b/.test(source),
        });
      }
      if (entry.children) walk(entry.children, full);
    }
  };
  walk(routes as RouteEntry[], '');
  return found;
}

const SENTINEL_NAME = 'Zéphyrine Sentinelle';
const SENTINEL_NUMBER = 'SV-2026-987654';

let server: TestServer;
let customer: TestUser;
const all = adminRoutes();

async function query(sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  server = await startServer();
  [customer] = await Promise.all([
    createUser({ url: server.url }),
    createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'admin' }),
  ]);
  // Data that no refused answer may contain.
  await query(
    `insert into orders (number, guest_email, guest_first_name, guest_last_name, search_text, total_price)
     values ($1, 'zephyrine@example.fr', 'Zéphyrine', 'Sentinelle', 'zéphyrine sentinelle zephyrine@example.fr', 4242)`,
    [SENTINEL_NUMBER],
  );
  await query(`insert into notifications (kind, title, body) values ('contact', $1, 'secret')`, [SENTINEL_NAME]);
});

afterAll(async () => {
  await server?.dispose();
});

function call(route: AdminRoute, options: { method: 'GET' | 'POST'; cookie?: string; data?: boolean }) {
  let url = `${server.url}${route.path}${options.data ? '.data' : ''}`;
  if (route.path === '/admin/exports/commandes') url += '?format=csv&from=2026-01-01&to=2026-12-31';
  if (route.path.startsWith('/admin/api/recherche')) url += `?q=${encodeURIComponent(SENTINEL_NAME)}`;
  if (options.method === 'POST' && route.isIndex) url += '?index';
  const body = new URLSearchParams({
    intent: 'status',
    orderId: '00000000-0000-4000-8000-000000000000',
    status: 'shipped',
  });
  return fetch(url, {
    method: options.method,
    redirect: 'manual',
    headers: {
      origin: server.url,
      'x-forwarded-for': randomIp(),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: options.method === 'POST' ? body : undefined,
  });
}

async function expectRefused(response: Response, status: number, what: string) {
  const text = await response.text();
  expect(response.status, what).toBe(status);
  expect(text, what).not.toContain(SENTINEL_NUMBER);
  expect(text, what).not.toContain(SENTINEL_NAME);
  expect(text, what).not.toContain('Sentinelle');
}

/** A page's refusal: a redirect (302 for a document, 202 with the target for a client navigation). */
async function expectRedirected(response: Response, location: string, what: string) {
  const text = await response.text();
  if (new URL(response.url).pathname.endsWith('.data')) {
    expect(response.status, what).toBe(202);
    expect(text, what).toContain(location);
  } else {
    expect(response.status, what).toBe(302);
    expect(response.headers.get('location'), what).toBe(location);
  }
  expect(text, what).not.toContain(SENTINEL_NUMBER);
  expect(text, what).not.toContain('Sentinelle');
}

describe('the back office’s routes', () => {
  it('are found in app/routes.ts', () => {
    const paths = all.map((r) => r.path);
    for (const expected of [
      '/admin',
      '/admin/clients',
      '/admin/tarifs',
      '/admin/rapports',
      '/admin/comptabilite',
      '/admin/tests',
    ]) {
      expect(paths).toContain(expected);
    }
    expect(all.filter((r) => r.hasAction).length).toBeGreaterThanOrEqual(8);
    expect(all.some((r) => r.path.startsWith('/admin/exports/'))).toBe(true);
  });

  it.each(all.map((r) => [r.path, r] as const))('%s refuses anonymous visitors', async (_path, route) => {
    if (route.hasComponent) {
      const login = `/login?${new URLSearchParams({ redirectTo: route.path })}`;
      await expectRedirected(await call(route, { method: 'GET' }), login, `GET ${route.path}`);
      await expectRedirected(await call(route, { method: 'GET', data: true }), login, `GET ${route.path}.data`);
    } else {
      await expectRefused(await call(route, { method: 'GET' }), 401, `GET ${route.path}`);
    }
    if (route.hasAction) {
      // A page's form posted without JavaScript: the action refuses, then the page redirects.
      if (route.hasComponent) {
        const login = `/login?${new URLSearchParams({ redirectTo: route.path })}`;
        await expectRedirected(await call(route, { method: 'POST' }), login, `POST ${route.path}`);
        await expectRefused(await call(route, { method: 'POST', data: true }), 401, `POST ${route.path}.data`);
      } else {
        await expectRefused(await call(route, { method: 'POST' }), 401, `POST ${route.path}`);
      }
    }
  });

  it.each(all.map((r) => [r.path, r] as const))('%s refuses customers', async (_path, route) => {
    const cookie = customer.cookie;
    if (route.hasComponent) {
      await expectRedirected(await call(route, { method: 'GET', cookie }), '/', `GET ${route.path}`);
      await expectRedirected(await call(route, { method: 'GET', cookie, data: true }), '/', `GET ${route.path}.data`);
    } else {
      await expectRefused(await call(route, { method: 'GET', cookie }), 403, `GET ${route.path}`);
    }
    if (route.hasAction) {
      if (route.hasComponent) {
        await expectRedirected(await call(route, { method: 'POST', cookie }), '/', `POST ${route.path}`);
        await expectRefused(await call(route, { method: 'POST', cookie, data: true }), 403, `POST ${route.path}.data`);
      } else {
        await expectRefused(await call(route, { method: 'POST', cookie }), 403, `POST ${route.path}`);
      }
    }
  });

  it('changed nothing', async () => {
    const { rows } = await query(`select status from orders where number = $1`, [SENTINEL_NUMBER]);
    expect(rows).toEqual([{ status: 'pending' }]);
    const events = await query('select count(*)::int as n from order_events');
    expect(events.rows[0]).toEqual({ n: 0 });
  });
});
