import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/auth';
import {
  BROKEN_ESCAPES,
  Database,
  expectFrenchRefusal,
  garbageQueryValue,
  garbageSegment,
  PROPERTY_TIME,
  property,
  readAnswer,
  send,
  showServerLogOnFailure,
  startFuzzServer,
} from '../support/bad-input';
import type { TestServer } from '../support/server';

/*
 * Bad input in addresses: garbage in the path segments and query strings of the
 * pages and GET endpoints, and in the cookies they read. Never a 5xx; a refusal (404, 400) is a
 * French page or message; no script comes back unescaped; a redirect never leaves the site (the
 * redirectTo and callbackURL parameters are the classic open redirects); nothing is stored.
 */

let server: TestServer;
let db: Database;
let customer: TestUser;

beforeAll(async () => {
  server = await startFuzzServer();
  db = await Database.open(server.databaseUrl);
  customer = await createUser({ url: server.url });
});

showServerLogOnFailure(() => server);

afterAll(async () => {
  await db?.close();
  await server?.dispose();
});

type Build = (s: string, q: string, uuid: string) => string;

/** Pages and GET endpoints, with a garbage segment `s`, query value `q` and a well-formed but unknown `uuid`. */
const ADDRESSES: Build[] = [
  (_s, q) => `/checkout?orderId=${q}`,
  (_s, q, id) => `/checkout?orderId=${id}&canceled=${q}`,
  (_s, q) => `/confirmation?orderId=${q}`,
  (_s, q, id) => `/confirmation?orderId=${id}&token=${q}`,
  (s) => `/facture/${s}`,
  (s) => `/facture/${s}/pdf`,
  (_s, q, id) => `/facture/${id}/pdf?avoir=${q}`,
  (_s, q) => `/blog?categorie=${q}&page=${q}`,
  (s) => `/blog/${s}`,
  (s) => `/services/${s}`,
  (_s, q) => `/configurateur?support=${q}&photos.quantity=${q}&${q}=${q}`,
  (_s, q) => `/configurateur?support=photos&photos.quantity=${q}&photos.resolution=${q}&delivery=${q}`,
  (_s, q) => `/login?redirectTo=${q}`,
  (_s, q) => `/login?type=recovery&token=${q}&redirectTo=${q}`,
  (_s, q) => `/login?type=magiclink&error=${q}&redirectTo=${q}`,
  (_s, q) => `/login?mode=${q}&type=${q}`,
  (_s, q) => `/register?redirectTo=${q}`,
  (_s, q) => `/contact?sujet=${q}&service=${q}&pro=${q}&carte=${q}`,
  (_s, q) => `/profile?tab=${q}&page=${q}&factures=${q}`,
  (s) => `/mes-devis/${s}`,
  (s) => `/devis/${s}`,
  (s, q) => `/retractation/${s}?token=${q}`,
  (_s, q, id) => `/retractation/${id}?token=${q}`,
  (s) => `/paiement/sandbox/${s}`,
  (s) => `/paiement/monetico/${s}`,
  (s) => `/${s}`,
  (_s, q) => `/api/price-list?${q}`,
  (_s, q) => `/sitemap.xml?${q}`,
  (_s, q) => `/admin?tab=${q}`,
  (_s, q) => `/setup-super-admin?${q}`,
  (_s, q) => `/api/auth/get-session?${q}`,
  (s, q) => `/api/auth/reset-password/${s}?callbackURL=${q}`,
  (_s, q) => `/api/auth/reset-password/abc?callbackURL=${q}`,
  (_s, q) => `/api/auth/magic-link/verify?token=${q}&callbackURL=${q}&errorCallbackURL=${q}`,
];

/** Open-redirect attempts, half of the time: the parameters' classic payloads. */
const redirectPayload = fc.constantFrom(
  'https%3A%2F%2Fevil.example%2F',
  '%2F%2Fevil.example',
  '%2F%5Cevil.example',
  '%5C%5Cevil.example',
  'javascript%3Aalert(1)',
  '%2F%09%2Fevil.example',
  'https%3A%2F%2F127.0.0.1.evil.example',
);

describe('pages and GET endpoints', PROPERTY_TIME, () => {
  it('answer garbage addresses and cookies without a 5xx, in French, on this site, storing nothing', async () => {
    const address = fc.tuple(
      fc.constantFrom(...ADDRESSES),
      garbageSegment,
      fc.oneof(garbageQueryValue, redirectPayload),
      fc.uuid(),
    );
    // Cookies a forger sends: a garbage session, order access, flash message, recovery token.
    const cookies = fc.oneof(
      fc.constant<(q: string, id: string) => string | undefined>(() => undefined),
      fc.constant((q: string, id: string) => `soovenirs.session_token=${q}; sv_order_${id}=${q}; sv_flash=${q}`),
      fc.constant((q: string) => `sv_recovery=${q}; sv_flash=%7B%22key%22%3A${q}%7D`),
      fc.constant(() => customer.cookie),
    );
    await property(fc.tuple(address, cookies), 500, async ([[build, s, q, id], cookie]) => {
      const before = await db.counts();
      const path = build(s, q, id);
      const answer = await readAnswer(await send(server, path, { cookie: cookie(q, id) }), `GET ${path}`);
      expectFrenchRefusal(answer, `GET ${path}`);
      if (answer.location) {
        const target = new URL(answer.location, server.url);
        expect(target.origin, `GET ${path}: redirected to ${answer.location}`).toBe(server.url);
      }
      // Sessions may be touched by a signed-in read; nothing else is written by a GET.
      const after = await db.counts();
      expect(after, `GET ${path} stored something`).toEqual(before);
    });
    // 500 addresses, each with two counts of the database: about 30 s alone, more on a busy machine.
  }, 180_000);

  it('answer a path whose escapes do not decode with a 400, never a 5xx nor the raw text', async () => {
    // Express itself refuses these before any page runs; server/app.ts answers in French.
    const path = fc.tuple(
      fc.constantFrom('/devis/', '/facture/', '/retractation/', '/paiement/sandbox/', '/blog/', '/'),
      fc.constantFrom(...BROKEN_ESCAPES),
      fc.constantFrom('', '%3Cscript%3Ealert(1)%3C%2Fscript%3E', '/pdf'),
    );
    await property(path, 60, async ([prefix, broken, suffix]) => {
      const answer = await readAnswer(
        await send(server, `${prefix}${broken}${suffix}`),
        `GET ${prefix}${broken}${suffix}`,
      );
      expect(answer.status).toBe(400);
      expectFrenchRefusal(answer, `GET ${prefix}${broken}${suffix}`);
    });
  });

  it('answer an address longer than Node accepts with a French 431, not an empty page', async () => {
    const res = await fetch(`${server.url}/services?q=${'a'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(await res.text()).toContain('Requête refusée');
  });
});
