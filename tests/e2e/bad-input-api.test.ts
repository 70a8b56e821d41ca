import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/auth';
import {
  type Answer,
  Database,
  expectFrenchRefusal,
  garbageQueryValue,
  hostileJson,
  hostileString,
  JSON_CONTENT_TYPES,
  jsonPost,
  MALFORMED_JSON,
  PROPERTY_TIME,
  property,
  type RowCounts,
  readAnswer,
  send,
  showServerLogOnFailure,
  smallHostileString,
  startFuzzServer,
} from '../support/bad-input';
import { insertTestOrder, type TestOrder } from '../support/orders';
import { storePaymentConfig } from '../support/payments';
import type { TestServer } from '../support/server';

/*
 * Bad input on the JSON API and the gateways' webhooks: malformed JSON, wrong content types, wrong
 * types in every field, hostile text, forged signatures. Never a 5xx; the API's refusals are in
 * French; a refused call stores and changes nothing.
 */

let server: TestServer;
let db: Database;
let customer: TestUser;
let guestOrder: TestOrder;

function expectSameCounts(before: RowCounts, after: RowCounts, what: string) {
  expect(after, `${what}: a refused request stored something`).toEqual(before);
}

async function orderRow(id: string) {
  const [row] = await db.query(
    `select status, payment_status, early_start_consent_at, guest_email, guest_phone, guest_address, guest_city,
       guest_postal_code, total_price, updated_at from orders where id = $1`,
    [id],
  );
  return row;
}

beforeAll(async () => {
  // The webhooks' secrets are stored encrypted with the server's APP_SECRET, shared with this process.
  const appSecret = randomBytes(32).toString('hex');
  process.env.APP_SECRET = appSecret;
  server = await startFuzzServer({ APP_SECRET: appSecret });
  db = await Database.open(server.databaseUrl);
  // Every gateway's credentials, so that each webhook checks signatures instead of answering 503
  // "not configured" (the sandbox stays the active gateway).
  await storePaymentConfig(server.databaseUrl, {
    type: 'sandbox',
    webhookSecret: 'whsec_fuzz_soovenirs',
    apiKey: 'sk_test_fuzz',
    merchantId: '1234567',
    companyCode: 'soovenirs',
    secretKey: '0123456789ABCDEF0123456789ABCDEF01234567',
  });
  customer = await createUser({ url: server.url });
  guestOrder = await insertTestOrder(server.databaseUrl);
});

showServerLogOnFailure(() => server);

afterAll(async () => {
  await db?.close();
  await server?.dispose();
});

/** Who calls: nobody, a customer, or the guest holding the order's cookie. */
const caller = fc.constantFrom<() => string | undefined>(
  () => undefined,
  () => customer.cookie,
  () => guestOrder.cookie ?? undefined,
);

/** A JSON field that is sometimes right, so that calls get past the first checks. */
const orderIdField = fc.oneof(
  fc.constant<unknown>(null).map(() => guestOrder.id),
  fc.uuid(),
  hostileJson,
);

describe('/api/create-checkout', PROPERTY_TIME, () => {
  it('answers any call without a 5xx; refusals are in French and store nothing', async () => {
    const body = fc.oneof(
      jsonPost(['orderId', 'amount', 'customerEmail', 'returnUrl', 'test']),
      fc
        .record({
          orderId: orderIdField,
          amount: hostileJson,
          customerEmail: fc.oneof(smallHostileString, hostileJson),
          returnUrl: fc.oneof(fc.constantFrom('https://evil.example/', '//evil.example', '/checkout'), hostileJson),
        })
        .map((value) => ({ body: JSON.stringify(value), contentType: 'application/json' as string | null })),
    );
    await property(fc.tuple(body, caller), 250, async ([{ body, contentType }, cookie]) => {
      const before = await db.counts();
      const answer = await readAnswer(
        await send(server, '/api/create-checkout', { body, contentType, cookie: cookie() }),
        `POST /api/create-checkout ${body}`,
      );
      expectFrenchRefusal(answer, 'POST /api/create-checkout');
      if (answer.status >= 400) expectSameCounts(before, await db.counts(), 'POST /api/create-checkout');
      if (answer.status === 200) {
        // A session always leads to this site's payment page, whatever returnUrl said.
        const { url } = answer.json as { url: string };
        expect(new URL(url, server.url).origin).toBe(server.url);
      }
    });
  });
});

describe('/api/update-guest-order', PROPERTY_TIME, () => {
  it('answers any call without a 5xx; refusals are in French and change nothing', async () => {
    const guestInfo = fc.oneof(
      hostileJson,
      fc.record(
        {
          email: fc.oneof(fc.constant('invite@example.fr'), smallHostileString, hostileJson),
          firstName: fc.oneof(hostileString, hostileJson),
          lastName: hostileString,
          phone: fc.oneof(fc.constant('06 12 34 56 78'), smallHostileString, hostileJson),
          address: hostileString,
          city: smallHostileString,
          postalCode: fc.oneof(fc.constant('75005'), smallHostileString, hostileJson),
        },
        { requiredKeys: [] },
      ),
    );
    const body = fc.oneof(
      { weight: 4, arbitrary: fc.record({ orderId: orderIdField, guestInfo }).map((v) => JSON.stringify(v)) },
      { weight: 1, arbitrary: fc.constantFrom(...MALFORMED_JSON) },
    );
    await property(
      fc.tuple(body, fc.constantFrom(...JSON_CONTENT_TYPES), caller),
      250,
      async ([body, contentType, cookie]) => {
        const before = await db.counts();
        const order = await orderRow(guestOrder.id);
        const answer = await readAnswer(
          await send(server, '/api/update-guest-order', { body, contentType, cookie: cookie() }),
          `POST /api/update-guest-order ${body}`,
        );
        expectFrenchRefusal(answer, 'POST /api/update-guest-order');
        // An accepted update may queue the guest's order confirmation (their first e-mail address).
        if (answer.status >= 400) {
          expectSameCounts(before, await db.counts(), 'POST /api/update-guest-order');
          expect(await orderRow(guestOrder.id)).toEqual(order);
        }
      },
    );
  });
});

describe('the other API endpoints', PROPERTY_TIME, () => {
  const anyCall = fc.tuple(
    jsonPost(['to', 'subject', 'html', 'prefix', 'orderId']),
    caller,
    fc.constantFrom('POST', 'PUT', 'DELETE', 'PATCH', 'GET'),
  );

  for (const path of ['/api/send-email', '/api/content/invalidate', '/api/price-list']) {
    it(`${path}: no 5xx, French refusals, nothing stored, whatever the method and the body`, async () => {
      await property(
        fc.tuple(anyCall, garbageQueryValue),
        120,
        async ([[{ body, contentType }, cookie, method], q]) => {
          const before = await db.counts();
          const get = method === 'GET';
          const answer = await readAnswer(
            await send(server, `${path}?prefix=${q}`, {
              method,
              ...(get ? {} : { body, contentType }),
              cookie: cookie(),
            }),
            `${method} ${path} ${body}`,
          );
          expectFrenchRefusal(answer, `${method} ${path}`);
          expectSameCounts(before, await db.counts(), `${method} ${path}`);
          expectLocalRedirect(answer, path);
        },
      );
    });
  }

  it('/api/send-email tells an anonymous caller, in French, to sign in (401)', async () => {
    const response = await send(server, '/api/send-email', {
      body: JSON.stringify({ to: 'a@example.fr', subject: 'x', html: '<p>x</p>' }),
      contentType: 'application/json',
    });
    // The door answers, from the headers, before the body is read.
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ access: 'unauthenticated', message: 'Non authentifié' });
  });
});

function expectLocalRedirect(answer: Answer, what: string) {
  if (!answer.location) return;
  expect(new URL(answer.location, server.url).origin, `${what}: redirected to ${answer.location}`).toBe(server.url);
}

describe('the gateways’ webhooks', PROPERTY_TIME, () => {
  const headers = fc.record(
    {
      'stripe-signature': fc.oneof(
        smallHostileString,
        fc.integer().map((t) => `t=${t},v1=${'0'.repeat(64)}`),
      ),
      'soovenirs-sandbox-signature': fc.oneof(
        smallHostileString,
        fc.integer().map((t) => `t=${t},v1=${'a'.repeat(64)}`),
      ),
    },
    { requiredKeys: [] },
  );
  const moneticoFields = fc
    .dictionary(
      fc.constantFrom('TPE', 'date', 'montant', 'reference', 'MAC', 'texte-libre', 'code-retour', 'cvx', 'numauto'),
      smallHostileString,
    )
    .map((fields) => ({
      body: new URLSearchParams({ TPE: '1234567', reference: 'SV000001', ...fields }).toString(),
      contentType: 'application/x-www-form-urlencoded' as string | null,
    }));
  const body = fc.oneof(jsonPost(['id', 'type', 'data', 'orderId', 'amount', 'reference']), moneticoFields);

  for (const gateway of ['stripe', 'monetico', 'sandbox']) {
    it(`/api/webhooks/${gateway}: forged or malformed notifications are refused (400), never a 5xx, nothing changed`, async () => {
      await property(fc.tuple(body, headers), 150, async ([{ body, contentType }, extra]) => {
        const before = await db.counts();
        const order = await orderRow(guestOrder.id);
        const response = await send(server, `/api/webhooks/${gateway}`, {
          body,
          contentType,
          // Gateways call server to server: no Origin header.
          origin: null,
          headers: Object.fromEntries(
            // A header carries bytes, without control characters (fetch refuses those itself).
            Object.entries(extra).map(([k, v]) => [
              k,
              [...Buffer.from(v, 'utf8').toString('latin1')].filter((c) => c >= ' ' && c !== '\u007f').join(''),
            ]),
          ),
        });
        const answer = await readAnswer(response, `POST /api/webhooks/${gateway} ${body}`);
        // Monetico expects its receipt ("version=2 cdr=1") with 200, whatever happened.
        if (gateway !== 'monetico') expect(answer.status).toBe(400);
        expectSameCounts(before, await db.counts(), `POST /api/webhooks/${gateway}`);
        expect(await orderRow(guestOrder.id)).toEqual(order);
      });
    });
  }
});
