import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/auth';
import {
  type Answer,
  Database,
  expectFrenchRefusal,
  formPost,
  garbageQueryValue,
  garbageSegment,
  hostileString,
  PROPERTY_TIME,
  property,
  type RowCounts,
  readAnswer,
  send,
  showServerLogOnFailure,
  startFuzzServer,
} from '../support/bad-input';
import { insertTestOrder, type TestOrder } from '../support/orders';
import type { TestServer } from '../support/server';

/*
 * Bad input on the shop's forms: the configurator, quotes, checkout, the sandbox
 * card form, withdrawal and the account's profile, with a real customer, a real guest order and
 * real saved quotes. Never a 5xx; a refusal says why in French; a refused post stores nothing and
 * changes nothing; no script comes back unescaped; redirects stay on the site.
 */

let server: TestServer;
let db: Database;
let customer: TestUser;
let guestOrder: TestOrder;
let customerOrder: TestOrder;
let quoteLink: string;
let customerQuote: string;

function expectSameCounts(before: RowCounts, after: RowCounts, what: string) {
  expect(after, `${what}: a refused request stored something`).toEqual(before);
}

function expectLocalRedirect(answer: Answer, what: string) {
  if (!answer.location) return;
  expect(new URL(answer.location, server.url).origin, `${what}: redirected to ${answer.location}`).toBe(server.url);
}

const isRedirect = (answer: Answer) => answer.status >= 300 && answer.status < 400;

async function orderRow(id: string) {
  const [row] = await db.query(
    `select status, payment_status, early_start_consent_at, guest_email, guest_phone, guest_postal_code, total_price,
       (select count(*)::int from order_events e where e.order_id = o.id) as events
     from orders o where id = $1`,
    [id],
  );
  return row;
}

beforeAll(async () => {
  server = await startFuzzServer();
  db = await Database.open(server.databaseUrl);
  customer = await createUser({ url: server.url, firstName: 'Hélène' });
  guestOrder = await insertTestOrder(server.databaseUrl);
  customerOrder = await insertTestOrder(server.databaseUrl, { userId: customer.id });

  const form = 'application/x-www-form-urlencoded';
  const selection = 'support=photos&photos.quantity=10&intent=save';
  const saved = await send(server, '/configurateur', { body: selection, contentType: form });
  quoteLink = new URL(saved.headers.get('location') as string, server.url).pathname;
  expect(quoteLink).toMatch(/^\/devis\//);
  const mine = await send(server, '/configurateur', { body: selection, contentType: form, cookie: customer.cookie });
  customerQuote = new URL(mine.headers.get('location') as string, server.url).pathname;
  expect(customerQuote).toMatch(/^\/mes-devis\//);
});

/** A fresh payment session of the guest's order (the checkout's "Payer" may have replaced older ones). */
async function openSandboxSession(): Promise<string> {
  const checkout = await send(server, '/api/create-checkout', {
    body: JSON.stringify({ orderId: guestOrder.id }),
    contentType: 'application/json',
    cookie: guestOrder.cookie as string,
  });
  expect(checkout.status).toBe(200);
  return ((await checkout.json()) as { sessionId: string }).sessionId;
}

showServerLogOnFailure(() => server);

afterAll(async () => {
  await db?.close();
  await server?.dispose();
});

describe('/configurateur', PROPERTY_TIME, () => {
  const FIELDS = [
    'photos.quantity',
    'photos.resolution',
    'photos.format',
    'photos.quality',
    'photos.restoration',
    'film.reels.small',
    'film.reels.large',
    'vhs.quantity',
    'vhs.denoise',
    'delivery',
    'send',
    'returnOriginals',
    'priceListVersion',
    'totalPrice',
  ];
  // Real supports and intents half the time, so that the posts reach the pricing and the order.
  const fixed = {
    support: fc.oneof(fc.constantFrom('photos', 'film', 'vhs', 'minidv'), hostileString),
    intent: fc.oneof(fc.constantFrom('save', 'order'), hostileString),
    'photos.quantity': fc.oneof(fc.integer({ min: -10, max: 200_000 }).map(String), hostileString),
  };

  it('saves or orders only valid selections; anything else is refused in French and stores nothing', async () => {
    await property(formPost(['support', 'intent', ...FIELDS], fixed), 200, async ({ body, contentType }) => {
      const before = await db.counts();
      const answer = await readAnswer(
        await send(server, '/configurateur', { body, contentType }),
        `POST /configurateur ${body}`,
      );
      expectFrenchRefusal(answer, 'POST /configurateur');
      expectLocalRedirect(answer, 'POST /configurateur');
      if (!isRedirect(answer)) expectSameCounts(before, await db.counts(), 'POST /configurateur');
    });
  });
});

describe('quotes', PROPERTY_TIME, () => {
  const FIELDS = ['email', 'website', 'priceListVersion'];
  const intent = { intent: fc.oneof(fc.constantFrom('order', 'email'), hostileString) };

  it('/devis/<token> and /mes-devis/<id>: any post is answered without a 5xx; a refusal stores nothing', async () => {
    const target = fc.constantFrom(
      { path: () => quoteLink, cookie: () => undefined },
      { path: () => customerQuote, cookie: () => customer.cookie },
      // Someone else's quote: as if it did not exist.
      { path: () => customerQuote, cookie: () => undefined },
    );
    await property(
      fc.tuple(target, formPost(['intent', ...FIELDS], intent)),
      120,
      async ([to, { body, contentType }]) => {
        const before = await db.counts();
        const path = to.path();
        const answer = await readAnswer(
          await send(server, path, { body, contentType, cookie: to.cookie() }),
          `POST ${path} ${body}`,
        );
        expectFrenchRefusal(answer, `POST ${path}`);
        expectLocalRedirect(answer, `POST ${path}`);
        if (answer.status >= 400) expectSameCounts(before, await db.counts(), `POST ${path}`);
      },
    );
  });

  it('/mes-devis, /devis/<garbage> and /mes-devis/<garbage>: 404 or 405 in French, nothing stored', async () => {
    const path = fc.oneof(
      fc.constant('/mes-devis'),
      garbageSegment.map((g) => `/devis/${g}`),
      garbageSegment.map((g) => `/mes-devis/${g}`),
    );
    await property(
      fc.tuple(path, formPost(['intent', ...FIELDS], intent, { small: true })),
      100,
      async ([to, { body, contentType }]) => {
        const before = await db.counts();
        const answer = await readAnswer(
          await send(server, to, { body, contentType, cookie: customer.cookie }),
          `POST ${to} ${body}`,
        );
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expectFrenchRefusal(answer, `POST ${to}`);
        expectSameCounts(before, await db.counts(), `POST ${to}`);
      },
    );
  });
});

describe('/checkout', PROPERTY_TIME, () => {
  // The guest's contact goes with « Payer » (docs/decisions/024): its fields are the pay form's `contact.*`.
  const FIELDS = [
    'contact.email',
    'contact.firstName',
    'contact.lastName',
    'contact.phone',
    'contact.address',
    'contact.city',
    'contact.postalCode',
    'earlyStartConsent',
  ];
  const fixed = {
    intent: fc.oneof(fc.constantFrom('guest-info', 'pay'), hostileString),
    earlyStartConsent: fc.oneof(fc.constant('on'), hostileString),
    'contact.email': fc.oneof(fc.constant('invite@example.fr'), hostileString),
  };

  it('the guest’s intents: no 5xx, French refusals, nothing recorded by a refused post', async () => {
    await property(formPost(['intent', ...FIELDS], fixed), 180, async ({ body, contentType }) => {
      const before = await db.counts();
      const orderBefore = await orderRow(guestOrder.id);
      const path = `/checkout?orderId=${guestOrder.id}`;
      const answer = await readAnswer(
        await send(server, path, { body, contentType, cookie: guestOrder.cookie as string }),
        `POST ${path} ${body}`,
      );
      expectFrenchRefusal(answer, 'POST /checkout');
      expectLocalRedirect(answer, 'POST /checkout');
      // Anything but the redirect of an accepted « Payer » changed nothing (one transaction).
      if (!isRedirect(answer)) {
        expectSameCounts(before, await db.counts(), 'POST /checkout');
        expect(await orderRow(guestOrder.id)).toEqual(orderBefore);
      }
    });
  });

  it('someone else’s or an unknown order, whatever the order id: 404 in French or /login, nothing changed', async () => {
    const orderId = fc.oneof(fc.constant(customerOrder.id), fc.constant(guestOrder.id), fc.uuid(), garbageQueryValue);
    await property(
      fc.tuple(orderId, formPost(['intent', ...FIELDS], fixed, { small: true })),
      80,
      async ([id, { body, contentType }]) => {
        const before = await db.counts();
        const orderBefore = await orderRow(guestOrder.id);
        const answer = await readAnswer(
          await send(server, `/checkout?orderId=${id}`, { body, contentType }),
          `POST /checkout?orderId=${id} ${body}`,
        );
        // Signed out, an account's order or an unknown id first asks to sign in.
        if (isRedirect(answer)) expect(answer.location).toMatch(/^\/login\?redirectTo=/);
        else expect(answer.status).toBeGreaterThanOrEqual(400);
        expectFrenchRefusal(answer, 'POST /checkout');
        expectSameCounts(before, await db.counts(), 'POST /checkout');
        expect(await orderRow(guestOrder.id)).toEqual(orderBefore);
      },
    );
  });
});

describe('/paiement/sandbox/<session>', PROPERTY_TIME, () => {
  const FIELDS = ['cardHolder', 'cardNumber', 'expiryDate', 'cvv'];
  const fixed = {
    cardNumber: fc.oneof(fc.constantFrom('4000000000000002', '4242 4242 4242 4241', '0000000000000000'), hostileString),
    expiryDate: fc.oneof(fc.constantFrom('12/30', '13/30', '00/00', '01/20'), hostileString),
  };

  it('the card form: declined and malformed cards are refused in French and pay nothing', async () => {
    // "cancel" would rightly close the session; every other intent is a payment attempt.
    const intent = { intent: hostileString.filter((s) => s !== 'cancel') };
    const sandboxSession = await openSandboxSession();
    const [session] = await db.query(`select count(*)::int as n from orders where id = $1`, [guestOrder.id]);
    expect(session?.n).toBe(1);
    await property(formPost(['intent', ...FIELDS], { ...fixed, ...intent }), 150, async ({ body, contentType }) => {
      const before = await db.counts();
      const orderBefore = await orderRow(guestOrder.id);
      const path = `/paiement/sandbox/${sandboxSession}`;
      const answer = await readAnswer(await send(server, path, { body, contentType }), `POST ${path} ${body}`);
      expectFrenchRefusal(answer, `POST ${path}`);
      expectLocalRedirect(answer, `POST ${path}`);
      if (!isRedirect(answer)) {
        expectSameCounts(before, await db.counts(), `POST ${path}`);
        expect(await orderRow(guestOrder.id)).toEqual(orderBefore);
      }
    });
    expect((await orderRow(guestOrder.id))?.payment_status).toBe('pending');
  });

  it('unknown sessions and references: 404 (or 405) in French, nothing stored', async () => {
    const path = fc.oneof(
      garbageSegment.map((g) => `/paiement/sandbox/${g}`),
      garbageSegment.map((g) => `/paiement/monetico/${g}`),
    );
    const body = formPost(
      ['intent', ...FIELDS],
      { intent: fc.oneof(fc.constant('cancel'), hostileString) },
      { small: true },
    );
    await property(fc.tuple(path, body, fc.boolean()), 100, async ([to, post, get]) => {
      const before = await db.counts();
      const answer = await readAnswer(
        await send(server, to, get ? {} : { body: post.body, contentType: post.contentType }),
        `${get ? 'GET' : 'POST'} ${to} ${post.body}`,
      );
      // "../" in the reference may be normalised by a redirect, on this site.
      expectLocalRedirect(answer, to);
      if (!isRedirect(answer)) expect(answer.status).toBeGreaterThanOrEqual(400);
      expectFrenchRefusal(answer, to);
      expectSameCounts(before, await db.counts(), to);
    });
  });
});

describe('/retractation/<order>', PROPERTY_TIME, () => {
  it('an unknown, malformed or someone else’s order: 404 in French (an account’s order read signed out: sent to sign in), no withdrawal recorded', async () => {
    const orderId = fc.oneof(fc.constant(guestOrder.id), fc.constant(customerOrder.id), fc.uuid(), garbageSegment);
    const posts = formPost(['intent', 'confirm'], {}, { small: true });
    await property(fc.tuple(orderId, posts, fc.boolean()), 100, async ([id, post, get]) => {
      const before = await db.counts();
      const orders = [await orderRow(guestOrder.id), await orderRow(customerOrder.id)];
      // No cookie: neither the guest's access nor the customer's session.
      const answer = await readAnswer(
        await send(server, `/retractation/${id}`, get ? {} : { body: post.body, contentType: post.contentType }),
        `${get ? 'GET' : 'POST'} /retractation/${id}`,
      );
      // Read signed out, an account's order (or an id no order has: the answer must not tell which)
      // sends to sign in and back: its owner's e-mail links carry no token. A guest's order without
      // its token, garbage, and every post: 404.
      const toSignIn = `/login?redirectTo=${encodeURIComponent(`/retractation/${id}`)}`;
      if (get && id === customerOrder.id) expect(answer.location).toBe(toSignIn);
      if (get && id !== guestOrder.id && answer.status === 302) expect(answer.location).toBe(toSignIn);
      else expect(answer.status).toBeGreaterThanOrEqual(400);
      expectFrenchRefusal(answer, '/retractation');
      expectSameCounts(before, await db.counts(), '/retractation');
      expect([await orderRow(guestOrder.id), await orderRow(customerOrder.id)]).toEqual(orders);
    });
  });
});

describe('/profile', PROPERTY_TIME, () => {
  const FIELDS = ['firstName', 'lastName', 'phone', 'street', 'postalCode', 'city'];
  const profile = async () =>
    (
      await db.query(
        `select first_name, last_name, phone, street, postal_code, city, email, role from "user" where id = $1`,
        [customer.id],
      )
    )[0];

  it('any update is saved only when valid; a refusal is in French and changes nothing', async () => {
    const fixed = { intent: fc.oneof(fc.constant('update-profile'), hostileString) };
    await property(formPost(['intent', ...FIELDS], fixed), 150, async ({ body, contentType }) => {
      const before = await db.counts();
      const mine = await profile();
      const answer = await readAnswer(
        await send(server, '/profile', { body, contentType, cookie: customer.cookie }),
        `POST /profile ${body}`,
      );
      expectFrenchRefusal(answer, 'POST /profile');
      expectLocalRedirect(answer, 'POST /profile');
      expectSameCounts(before, await db.counts(), 'POST /profile');
      if (!isRedirect(answer)) expect(await profile()).toEqual(mine);
      // Nobody becomes an administrator nor changes their address through this form.
      expect((await profile())?.role).toBe('customer');
      expect((await profile())?.email).toBe(customer.email);
    });
  });

  it('without a session: sent to sign in, nothing changed', async () => {
    await property(formPost(['intent', ...FIELDS], {}, { small: true }), 60, async ({ body, contentType }) => {
      const before = await db.counts();
      const answer = await readAnswer(await send(server, '/profile', { body, contentType }), `POST /profile ${body}`);
      expectFrenchRefusal(answer, 'POST /profile');
      expectLocalRedirect(answer, 'POST /profile');
      expectSameCounts(before, await db.counts(), 'POST /profile');
    });
  });
});
