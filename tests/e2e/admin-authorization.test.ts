import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOADS_PATH } from '../../app/domain/files/uploads';
import {
  type AccessRule,
  authEndpointAccess,
  decide,
  type Requester,
  type RouteAccess,
  routeAccess,
  ruleFor,
  UPLOADS_ACCESS,
} from '../../app/domain/staff/access-rules';
import routes from '../../app/routes';
import { createUser, randomIp, type TestUser } from '../support/auth';
import { insertTestOrder } from '../support/orders';
import { startServer, type TestServer } from '../support/server';
import { tusMetadata } from '../support/tus';

/*
 * Every loader and every action of the back office, called over HTTP as an anonymous visitor and
 * as a signed-in customer, is refused, and no answer carries a byte of the shop's data. Resource
 * routes and actions answer 401 and 403; the pages send the anonymous to /login remembering the
 * page and customers to / (specification 000, §6). Page routes are also called as React Router's
 * client navigations do (`.data`).
 *
 * The door (docs/decisions/019-one-authorization-door.md): what each request should get is derived
 * from its line of domain/staff/access-rules.ts and the capability table (`decide`), for every
 * route of app/routes.ts, every endpoint Better Auth mounts (read from its instance) and the tus
 * endpoint, as the anonymous, a customer, a guest holding an order's token, each staff role, a
 * deactivated member and an administrator without two-factor sign-in while the team requires it.
 * A new route or endpoint is covered without editing this file (a route without a line fails).
 */

const STAFF_ROLES = ['admin', 'atelier', 'comptabilite'] as const;

interface AdminRoute {
  /** URL path, parameters filled in. */
  path: string;
  file: string;
  id: string;
  isIndex: boolean;
  hasLoader: boolean;
  hasAction: boolean;
  hasComponent: boolean;
}

interface RouteEntry {
  id?: string;
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
  fileId: '00000000-0000-4000-8000-000000000003',
  id: '00000000-0000-4000-8000-000000000004',
  quoteId: '00000000-0000-4000-8000-000000000005',
};
const APP = path.resolve(import.meta.dirname, '../../app');

/** Every route of app/routes.ts whose line is not public (a public line is nobody's data). */
function guardedRoutes(): AdminRoute[] {
  const found: AdminRoute[] = [];
  const walk = (entries: RouteEntry[], parent: string) => {
    for (const entry of entries) {
      const full = [parent, entry.path ?? ''].filter(Boolean).join('/');
      const id = entry.id ?? entry.file.replace(/\.[jt]sx?$/, '');
      const line = routeAccess(id);
      if (!line) throw new Error(`admin-authorization: no line in domain/staff/access-rules.ts for the route ${id}`);
      const guarded = line.read.kind !== 'public' || line.write.kind !== 'public';
      if (guarded && id !== 'routes/api/auth') {
        const filled = full.replace(/:(\w+)/g, (_, name: string) => {
          if (!PARAMS[name]) throw new Error(`admin-authorization: no test value for the route parameter :${name}`);
          return PARAMS[name];
        });
        const source = readFileSync(path.join(APP, entry.file), 'utf8');
        found.push({
          path: `/${filled}`,
          file: entry.file,
          id,
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
/** An atelier member deactivated while its session was open, and an administrator without two-factor. */
let deactivated: TestUser;
let heldAdmin: TestUser;
/** A guest's order and the cookie of its token. */
let guestCookie: string;
const guarded = guardedRoutes();
/** The back office's own routes, whose refusals to the anonymous and customers are the access states. */
const all = guarded.filter((r) => r.path === '/admin' || r.path.startsWith('/admin/'));

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
  // A server of its own: the team's « two-factor required » setting set below changes what every
  // back-office page answers, and would hold the administrators of the files that follow on a
  // shared one (tests/support/shared-shop.ts).
  server = await startServer();
  const [created, ...members] = await Promise.all([
    createUser({ url: server.url }),
    ...STAFF_ROLES.map((role) => createUser({ url: server.url, databaseUrl: server.databaseUrl, role })),
  ]);
  customer = created;
  for (const member of members) staff[member.role as (typeof STAFF_ROLES)[number]] = member;
  [deactivated, heldAdmin] = await Promise.all([
    createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'atelier' }),
    createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'admin' }),
  ]);
  await query(`update "user" set banned = true where id = $1`, [deactivated.id]);
  // The team requires two-factor sign-in of administrators: `admin` has it, `heldAdmin` has not.
  await query(`update "user" set two_factor_enabled = true where id = $1`, [staff.admin.id]);
  await query(
    `insert into config_options (option_name, option_value) values ('staff_security', '{"adminTwoFactorRequired":true}')`,
  );
  guestCookie = (await insertTestOrder(server.databaseUrl)).cookie as string;
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

/** What a POST asks: the first intent its line lists (the route's only one otherwise). */
function firstIntent(rule: AccessRule): string {
  return rule.kind === 'staff-intents' ? (Object.keys(rule.intents)[0] as string) : 'status';
}

function call(
  route: AdminRoute,
  options: { method: 'GET' | 'POST'; cookie?: string; data?: boolean; intent?: string },
) {
  let url = `${server.url}${route.path}${options.data ? '.data' : ''}`;
  if (route.path === '/admin/exports/commandes') url += '?format=csv&from=2026-01-01&to=2026-12-31';
  if (route.path.startsWith('/admin/api/recherche')) url += `?q=${encodeURIComponent(SENTINEL_NAME)}`;
  if (options.method === 'POST' && route.isIndex) url += '?index';
  const body = new URLSearchParams({
    intent: options.intent ?? 'status',
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
  async function expectDenied(response: Response, what: string, isPage: boolean, message = 'Accès non autorisé') {
    const text = await response.text();
    expect(response.status, what).toBe(403);
    expect(text, what).toContain(message);
    if (!isPage) {
      expect(text, what).not.toContain(SENTINEL_NUMBER);
      expect(text, what).not.toContain('Sentinelle');
    }
  }

  it.each(guarded.map((r) => [r.path, r] as const))(
    '%s refuses a deactivated member as signed out',
    async (_path, route) => {
      const line = routeAccess(route.id) as RouteAccess;
      for (const [method, present] of [
        ['GET', route.hasLoader],
        ['POST', route.hasAction],
      ] as const) {
        const rule = ruleFor(line, method);
        if (!present || rule.kind === 'public' || rule.kind === 'order-viewer') continue;
        const what = `deactivated ${method} ${route.path}`;
        const response = await call(route, { method, cookie: deactivated.cookie, intent: firstIntent(rule) });
        if (route.hasComponent) {
          await expectRedirected(response, `/login?${new URLSearchParams({ redirectTo: route.path })}`, what);
        } else await expectRefused(response, 401, what);
      }
    },
  );

  const REQUESTERS = {
    admin: { kind: 'staff', role: 'admin', heldForTwoFactor: false },
    atelier: { kind: 'staff', role: 'atelier', heldForTwoFactor: false },
    comptabilite: { kind: 'staff', role: 'comptabilite', heldForTwoFactor: false },
    heldAdmin: { kind: 'staff', role: 'admin', heldForTwoFactor: true },
    customer: { kind: 'customer' },
    guest: { kind: 'anonymous' },
  } as const satisfies Record<string, Requester>;
  type Persona = keyof typeof REQUESTERS;
  const cookieOf = (persona: Persona): string =>
    persona === 'heldAdmin'
      ? heldAdmin.cookie
      : persona === 'customer'
        ? customer.cookie
        : persona === 'guest'
          ? guestCookie
          : staff[persona].cookie;

  const cases = (Object.keys(REQUESTERS) as Persona[]).flatMap((persona) =>
    guarded.map((r) => [persona, r.path, r.id, r] as const),
  );
  it.each(cases)('%s: %s (%s) answers as its line decides', async (persona, _path, id, route) => {
    const line = routeAccess(id) as RouteAccess;
    const cookie = cookieOf(persona);
    for (const [method, present] of [
      ['GET', route.hasLoader],
      ['POST', route.hasAction],
    ] as const) {
      const rule = ruleFor(line, method);
      if (!present || rule.kind === 'public') continue;
      const decision = decide(rule, REQUESTERS[persona], {
        whileHeldForTwoFactor: line.whileHeldForTwoFactor,
        intent: method === 'POST' && rule.kind === 'staff-intents' ? firstIntent(rule) : undefined,
      });
      for (const dataRequest of route.hasComponent ? [false, true] : [false]) {
        const what = `${persona} ${method} ${route.path}${dataRequest ? '.data' : ''}`;
        const response = await call(route, { method, cookie, data: dataRequest, intent: firstIntent(rule) });
        if (decision.allow) {
          await expectLetIn(response, what);
          continue;
        }
        const pageGet = route.hasComponent && method === 'GET';
        // Pages outside the back office refuse with redirects (requireUser), for every method.
        const redirects =
          route.hasComponent && (!route.path.startsWith('/admin') || !(dataRequest && method === 'POST'));
        if (rule.kind === 'order-viewer') {
          // A held administrator sees no order as staff: the door's 403, or the page's 404 of an unknown order.
          const text = await response.text();
          expect([403, 404], what).toContain(response.status);
          expect(text, what).not.toContain(SENTINEL_NUMBER);
          continue;
        }
        switch (decision.refusal) {
          case 'unauthenticated':
            if (redirects)
              await expectRedirected(response, `/login?${new URLSearchParams({ redirectTo: route.path })}`, what);
            else await expectRefused(response, 401, what);
            break;
          case 'forbidden':
            if (redirects) await expectRedirected(response, '/', what);
            else await expectRefused(response, 403, what);
            break;
          case 'denied':
            await expectDenied(response, what, route.hasComponent);
            break;
          case 'two-factor':
            if (pageGet || redirects) await expectRedirected(response, '/admin/securite', what);
            else await expectDenied(response, what, route.hasComponent, 'double authentification est obligatoire');
            break;
          case 'closed':
            await expectRefused(response, 404, what);
        }
      }
    }
  });

  it('changed nothing', async () => {
    const { rows } = await query(`select status from orders where number = $1`, [SENTINEL_NUMBER]);
    expect(rows).toEqual([{ status: 'pending' }]);
    const events = await query(
      'select count(*)::int as n from order_events where order_id = (select id from orders where number = $1)',
      [SENTINEL_NUMBER],
    );
    expect(events.rows[0]).toEqual({ n: 0 });
  });
});

describe('the endpoints outside app/routes.ts’s pages', () => {
  const PERSONAS = ['guest', 'customer', 'admin', 'atelier', 'comptabilite', 'heldAdmin'] as const;
  const requesterOf = (persona: (typeof PERSONAS)[number]): Requester =>
    persona === 'guest'
      ? { kind: 'anonymous' }
      : persona === 'customer'
        ? { kind: 'customer' }
        : {
            kind: 'staff',
            role: persona === 'heldAdmin' ? 'admin' : persona,
            heldForTwoFactor: persona === 'heldAdmin',
          };
  const cookieOf = (persona: (typeof PERSONAS)[number]) =>
    persona === 'guest'
      ? guestCookie
      : persona === 'customer'
        ? customer.cookie
        : persona === 'heldAdmin'
          ? heldAdmin.cookie
          : staff[persona].cookie;

  /** The door's own refusal (not the endpoint's answer): its JSON shape. */
  function isDoorRefusal(text: string): boolean {
    try {
      const body = JSON.parse(text) as Record<string, unknown>;
      // A closed Better Auth endpoint answers as Better Auth does for one it does not have.
      return 'access' in body || body.message === 'Introuvable.' || body.code === 'NOT_FOUND';
    } catch {
      return false;
    }
  }

  async function expectDecision(
    response: Response,
    rule: AccessRule,
    persona: (typeof PERSONAS)[number],
    what: string,
  ) {
    const text = await response.text();
    const decision = decide(rule, requesterOf(persona));
    if (decision.allow) {
      expect(isDoorRefusal(text), `${what}: ${response.status} ${text.slice(0, 200)}`).toBe(false);
      return;
    }
    const status = { unauthenticated: 401, forbidden: 403, denied: 403, 'two-factor': 403, closed: 404 }[
      decision.refusal
    ];
    expect(response.status, what).toBe(status);
    expect(isDoorRefusal(text), what).toBe(true);
  }

  /*
   * Endpoints that end the caller's sessions even with an empty body: let through, they would sign
   * the personas out for the cases after them, so they are sent only where the door must refuse.
   */
  const ENDS_SESSIONS = new Set(['/sign-out', '/revoke-sessions', '/revoke-other-sessions']);

  it('Better Auth: every endpoint it mounts answers as its line decides', { timeout: 240_000 }, async () => {
    // The auth instance of this process, on the server's database: its endpoints, read from the code.
    process.env.DATABASE_URL = server.databaseUrl;
    process.env.APP_SECRET = server.appSecret;
    process.env.BASE_URL = server.url;
    const { auth } = await import('../../app/server/auth/auth.server');
    const endpoints = Object.values(
      auth().api as Record<string, { path?: string; options?: { method?: string | string[] } }>,
    )
      .filter((endpoint) => typeof endpoint.path === 'string')
      .map((endpoint) => ({
        path: (endpoint.path as string).replace(/:(\w+)/g, 'x'),
        method: [endpoint.options?.method ?? 'GET'].flat()[0] as string,
      }));
    expect(endpoints.filter((endpoint) => endpoint.path.startsWith('/admin/')).length).toBeGreaterThan(10);
    const users = async () => (await query(`select id, role, banned from "user" order by id`)).rows;
    const before = await users();
    for (const { path: endpoint, method } of endpoints) {
      const rule = authEndpointAccess(endpoint);
      if (rule.kind === 'public') continue;
      for (const persona of PERSONAS) {
        if (ENDS_SESSIONS.has(endpoint) && decide(rule, requesterOf(persona)).allow) continue;
        const what = `${persona} ${method} /api/auth${endpoint}`;
        const started = Date.now();
        const response = await fetch(`${server.url}/api/auth${endpoint}`, {
          method,
          redirect: 'manual',
          signal: AbortSignal.timeout(10_000),
          headers: {
            origin: server.url,
            'x-forwarded-for': randomIp(),
            cookie: cookieOf(persona),
            ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
          },
          body: method === 'POST' ? '{}' : undefined,
        });
        await expectDecision(response, rule, persona, what);
        if (process.env.AUTH_TEST_TRACE) console.log(what, response.status, Date.now() - started);
      }
    }
    // Nobody was created, promoted or removed through the admin plugin.
    expect(await users()).toEqual(before);
  });

  it('tus: the workshop starts an upload (201), the door refuses the others before tus reads a byte', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const metadata = tusMetadata({ orderId: order.id, support: 'photos', filename: 'a.jpg' });
    for (const persona of PERSONAS) {
      const response = await fetch(`${server.url}${UPLOADS_PATH}`, {
        method: 'POST',
        headers: {
          'Tus-Resumable': '1.0.0',
          'Upload-Length': '10',
          'Upload-Metadata': metadata,
          origin: server.url,
          cookie: cookieOf(persona),
        },
      });
      const what = `${persona} POST ${UPLOADS_PATH}`;
      if (decide(UPLOADS_ACCESS.write, requesterOf(persona)).allow) {
        expect(response.status, what).toBe(201);
        await response.body?.cancel();
      } else await expectDecision(response, UPLOADS_ACCESS.write, persona, what);
    }
    expect(decide(UPLOADS_ACCESS.write, requesterOf('atelier')).allow).toBe(true);
  });
});
