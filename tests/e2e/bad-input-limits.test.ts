import type { RouteConfigEntry } from '@react-router/dev/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import routes from '../../app/routes';
import { BODY_LIMIT_RULES } from '../../server/body-limits';
import {
  Database,
  isFrench,
  rawRequest,
  readAnswer,
  residentBytes,
  send,
  showServerLogOnFailure,
  startFuzzServer,
} from '../support/bad-input';
import type { TestServer } from '../support/server';

/*
 * Request limits (server/body-limits.ts): a body over the limit is refused with a French 413 before
 * any page or API reads it, at once, and the server's memory stays flat; deeply nested JSON and
 * methods the shop does not serve are refused in French instead of failing with a 500.
 */

const MB = 1024 * 1024;
const ANY_ID = '00000000-0000-4000-8000-000000000000';

/** Better Auth's endpoints behind `api/auth/*` that take a body (update-user once got a 3,8 MB request). */
const AUTH_ENDPOINTS = [
  'sign-up/email',
  'sign-in/email',
  'sign-in/magic-link',
  'update-user',
  'change-password',
  'request-password-reset',
  'reset-password',
  'sign-out',
];

/** Every address of app/routes.ts, its parameters filled in: pages with forms and API routes alike. */
function routePaths(entries: readonly RouteConfigEntry[], parent = ''): string[] {
  return entries.flatMap((entry) => {
    const own = entry.path ? `${parent}/${entry.path}` : parent;
    const here = entry.path === '*' ? [] : [own || '/'];
    const children = entry.children ? routePaths(entry.children, own) : [];
    return [...(entry.index || entry.path ? here : []), ...children];
  });
}

const PATHS = [
  ...new Set(
    [...routePaths(routes), ...AUTH_ENDPOINTS.map((endpoint) => `/api/auth/${endpoint}`)].map((path) =>
      path
        .replace(/\/\*$/, '/sign-up/email')
        .split('/')
        .map((segment) => (segment.startsWith(':') ? ANY_ID : encodeURIComponent(segment)))
        .join('/'),
    ),
  ),
];

/** 20 MB as a client sends it, one reused megabyte at a time (the test's own memory stays small). */
function* twentyMegabytes(): Generator<Buffer> {
  const megabyte = Buffer.alloc(MB, 'a');
  for (let i = 0; i < 20; i++) yield megabyte;
}

let server: TestServer;
let db: Database;

beforeAll(async () => {
  server = await startFuzzServer();
  db = await Database.open(server.databaseUrl);
});

showServerLogOnFailure(() => server);

afterAll(async () => {
  await db?.close();
  await server?.dispose();
});

describe('bodies over the limit', () => {
  it('knows the routes to try', () => {
    expect(PATHS).toContain('/contact');
    expect(PATHS).toContain('/api/webhooks/stripe');
    expect(PATHS).toContain('/api/auth/update-user');
    expect(PATHS).toContain(`/admin/tarifs`);
    expect(PATHS.length).toBeGreaterThan(60);
  });

  it('answers 20 MB to every form and API with a French 413 in under a second, the memory staying flat', async () => {
    const pid = server.process.pid;
    if (pid === undefined) throw new Error('the server has no pid');
    const post = (path: string, chunked: boolean) =>
      rawRequest(`${server.url}${path}`, {
        method: 'POST',
        headers: {
          origin: server.url,
          'content-type': chunked ? 'application/json' : 'application/x-www-form-urlencoded',
          ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(20 * MB) }),
        },
        body: twentyMegabytes(),
      });
    // A first round over every path warms each route's code up (the server bundle compiles a module's
    // functions on first use: tens of MB of V8 code and heap, once); the memory is measured over the
    // second round, from the level the first left. One body of 20 MB read or kept would still show.
    let before = 0;
    let peak = 0;
    const slow: string[] = [];
    for (const round of ['warm-up', 'measured'] as const) {
      if (round === 'measured') {
        before = await residentBytes(pid);
        peak = before;
      }
      for (const path of PATHS) {
        // With a Content-Length (refused from it) and chunked (refused once 256 KB have been counted).
        for (const chunked of [false, true]) {
          const answer = await post(path, chunked);
          const what = `POST ${path} (${chunked ? 'chunked' : 'Content-Length'})`;
          // An upload route allowed more than 20 MB refuses the anonymous before reading the body.
          const allowed = BODY_LIMIT_RULES.some((rule) => path.startsWith(rule.prefix) && rule.bytes > 20 * MB);
          // A chunked body arrives while the door reads the headers: a guarded route's door may refuse the
          // anonymous (401) before 256 KB are counted (413); either way nothing of it is read.
          const refusals = chunked ? [401, 413] : [allowed ? 401 : 413];
          expect(refusals, `${what}: ${answer.status} ${answer.text}`).toContain(answer.status);
          expect(isFrench(answer.text), `${what}: ${answer.text}`).toBe(true);
          expect(answer.headers.connection, what).toBe('close');
          if (round === 'measured' && answer.ms >= 1000) slow.push(`${what}: ${Math.round(answer.ms)} ms`);
        }
        if (round === 'measured') peak = Math.max(peak, await residentBytes(pid));
      }
    }
    expect(slow).toEqual([]);
    expect(peak - before, `RSS ${before >> 20} MB -> peak ${peak >> 20} MB`).toBeLessThan(50 * MB);
    // The site kept answering, and nothing of the bodies reached the log.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(server.output()).not.toContain('a'.repeat(1000));
  }, 180_000);

  it('keeps serving others while a client trickles a body over the limit', async () => {
    let sent = 0;
    // A chunked body that never ends until refused: 64 KB at a time.
    const endless = function* () {
      const chunk = Buffer.alloc(64 * 1024, 'b');
      while (sent < 50 * MB) {
        sent += chunk.length;
        yield chunk;
      }
    };
    const upload = rawRequest(`${server.url}/contact`, {
      method: 'POST',
      headers: { 'transfer-encoding': 'chunked', 'content-type': 'application/x-www-form-urlencoded' },
      body: endless(),
    });
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    const answer = await upload;
    expect(answer.status).toBe(413);
    // Refused after 256 KB, not after the client has sent its 50 MB.
    expect(sent).toBeLessThan(20 * MB);
  });

  it('lets bodies within the limit through: forms up to 256 KB, webhooks up to 1 MB', async () => {
    const form = await send(server, '/api/auth/sign-in/email', {
      body: JSON.stringify({ email: 'personne@example.fr', password: 'x'.repeat(200_000) }),
      contentType: 'application/json',
    });
    expect(form.status).not.toBe(413);
    expect((await readAnswer(form, 'sign-in with a 200 KB password')).status).toBeLessThan(500);

    const notification = JSON.stringify({ id: 'evt_1', type: 'checkout.session.completed', pad: 'p'.repeat(900_000) });
    const within = await send(server, '/api/webhooks/stripe', {
      body: notification,
      contentType: 'application/json',
      origin: null,
    });
    // Read, then refused for its missing signature.
    expect(within.status).toBe(400);
    await within.text();
    const over = await send(server, '/api/webhooks/stripe', {
      body: `${notification}${'p'.repeat(200_000)}`,
      contentType: 'application/json',
      origin: null,
    });
    expect(over.status).toBe(413);
    expect(isFrench(await over.text())).toBe(true);
  });
});

describe('other requests that used to answer 500', () => {
  it('refuses deeply nested JSON at sign-up with a French 400, and creates no account', async () => {
    const before = await db.counts();
    for (const depth of [40, 5_000, 100_000]) {
      const response = await send(server, '/api/auth/sign-up/email', {
        body: `{"email":"profond@example.fr","password":"Cheval-Batterie-Agrafe-42","name":${'['.repeat(depth)}${']'.repeat(depth)}}`,
        contentType: 'application/json',
      });
      const answer = await readAnswer(response, `sign-up nested ${depth} deep`);
      expect(answer.status).toBe(400);
      expect(isFrench(answer.text), answer.text).toBe(true);
    }
    expect((await db.counts()).user).toBe(before.user);
  });

  it.each(['TRACE', 'TRACK', 'PROPFIND', 'CONNECTX'])('answers %s in French without a 5xx', async (method) => {
    const answer = await rawRequest(`${server.url}/`, { method });
    expect([400, 405]).toContain(answer.status);
    expect(isFrench(answer.text), answer.text).toBe(true);
  });
});
