import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Capability, can } from '../../app/domain/staff/permissions';
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
 *
 * The staff (docs/decisions/016-staff-roles.md): every route below states the capability its GET
 * and its POST need; each staff role is let in (no 401/403) or answered 403 « Accès non autorisé »
 * accordingly. A new admin route without an entry in ROUTE_CAPABILITIES fails the test.
 */

/** What each admin route module asks for, per method (the POST carries intent=status). */
// `get` is absent for a resource route with an action only (a GET there is React Router's 400).
const ROUTE_CAPABILITIES: Record<string, { get?: Capability; post?: Capability }> = {
  'routes/admin/layout.tsx': { get: 'dashboard' },
  'routes/admin/orders.tsx': { get: 'orders.read', post: 'orders.write' },
  'routes/admin/customers.tsx': { get: 'customers', post: 'customers' },
  'routes/admin/workshop.tsx': { get: 'workshop', post: 'workshop' },
  'routes/admin/pricing.tsx': { get: 'prices', post: 'prices' },
  'routes/admin/reports.tsx': { get: 'reports' },
  'routes/admin/accounting.tsx': { get: 'accounting' },
  'routes/admin/tests.tsx': { get: 'tests', post: 'tests' },
  'routes/admin/team.tsx': { get: 'team', post: 'team' },
  'routes/admin/security.tsx': { get: 'dashboard', post: 'dashboard' },
  'routes/admin/journal.tsx': { get: 'journal' },
  'routes/admin/api/search.ts': { get: 'orders.read' },
  'routes/admin/api/notifications.ts': { get: 'dashboard', post: 'dashboard' },
  'routes/admin/api/notifications-stream.ts': { get: 'dashboard' },
  'routes/admin/api/reports.ts': { get: 'reports' },
  // Without ?id= it lists the outbox (a setting); one e-mail's state is orders.read; a re-send orders.write.
  'routes/admin/api/emails.ts': { get: 'settings', post: 'orders.write' },
  'routes/admin/api/email-config.ts': { get: 'settings', post: 'settings' },
  'routes/admin/api/payment-config.ts': { get: 'settings', post: 'settings' },
  'routes/admin/api/payments.ts': { get: 'payments.validate', post: 'payments.validate' },
  'routes/admin/api/coliship.ts': { get: 'settings', post: 'settings' },
  'routes/admin/api/reception.ts': { get: 'orders.read', post: 'reception' },
  'routes/admin/api/reception-photo.ts': { get: 'orders.read' },
  'routes/admin/api/shipping.ts': { get: 'orders.read', post: 'shipping' },
  'routes/admin/api/order-files.ts': { get: 'orders.read', post: 'files' },
  'routes/admin/api/files-config.ts': { get: 'settings', post: 'settings' },
  'routes/admin/api/order-message.ts': { post: 'orders.write' },
  'routes/admin/exports.ts': { get: 'exports' },
  'routes/admin/job-sheet-pdf.ts': { get: 'workshop' },
  'routes/admin/job-sheets-pdf.ts': { get: 'workshop' },
  'routes/admin/api/orders-bulk.ts': { get: 'orders.read', post: 'orders.write' },
  'routes/admin/api/saved-filters.ts': { get: 'orders.read', post: 'orders.read' },
};
const STAFF_ROLES = ['admin', 'atelier', 'comptabilite'] as const;

interface AdminRoute {
  /** URL path, parameters filled in. */
  path: string;
  file: string;
  isIndex: boolean;
  hasLoader: boolean;
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
          hasLoader: /export (async )?function loader\b/.test(source),
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
const staff = {} as Record<(typeof STAFF_ROLES)[number], TestUser>;
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
  const [created, ...members] = await Promise.all([
    createUser({ url: server.url }),
    ...STAFF_ROLES.map((role) => createUser({ url: server.url, databaseUrl: server.databaseUrl, role })),
  ]);
  customer = created;
  for (const member of members) staff[member.role as (typeof STAFF_ROLES)[number]] = member;
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
      if (route.hasLoader) await expectRefused(await call(route, { method: 'GET' }), 401, `GET ${route.path}`);
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
      if (route.hasLoader) await expectRefused(await call(route, { method: 'GET', cookie }), 403, `GET ${route.path}`);
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

  it('each state what they need', () => {
    const missing = all.filter(
      (r) => !ROUTE_CAPABILITIES[r.file] || (r.hasAction && !ROUTE_CAPABILITIES[r.file]?.post),
    );
    expect(missing.map((r) => r.file)).toEqual([]);
  });

  /** Let in: anything but 401 and 403 (a 400 or a 404 for the test's made-up order is fine). */
  async function expectLetIn(response: Response, what: string) {
    expect([401, 403], what).not.toContain(response.status);
    // The notifications' event stream never ends: nothing more to read.
    await response.body?.cancel();
  }

  /**
   * Refused to a staff member: 403 « Accès non autorisé ». A resource answers nothing of the shop;
   * a page keeps the dashboard's frame around the refusal (its notifications are the staff's).
   */
  async function expectDenied(response: Response, what: string, isPage: boolean) {
    const text = await response.text();
    expect(response.status, what).toBe(403);
    expect(text, what).toContain('Accès non autorisé');
    if (!isPage) {
      expect(text, what).not.toContain(SENTINEL_NUMBER);
      expect(text, what).not.toContain('Sentinelle');
    }
  }

  const cases = STAFF_ROLES.flatMap((role) => all.map((r) => [role, r.path, r.file, r] as const));
  it.each(cases)('%s: %s (%s) answers by the role’s capabilities', async (role, _path, file, route) => {
    const cookie = staff[role].cookie;
    const needs = ROUTE_CAPABILITIES[file];
    if (!needs) throw new Error(`no capability stated for ${file}`);
    if (route.hasLoader && !needs.get) throw new Error(`no capability stated for GET ${file}`);
    const methods: ['GET' | 'POST', Capability][] = [];
    if (route.hasLoader && needs.get) methods.push(['GET', needs.get]);
    if (route.hasAction && needs.post) methods.push(['POST', needs.post]);
    for (const [method, capability] of methods) {
      for (const dataRequest of route.hasComponent ? [false, true] : [false]) {
        const what = `${role} ${method} ${route.path}${dataRequest ? '.data' : ''}`;
        const response = await call(route, { method, cookie, data: dataRequest });
        if (can(role, capability)) await expectLetIn(response, what);
        else await expectDenied(response, what, route.hasComponent);
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
