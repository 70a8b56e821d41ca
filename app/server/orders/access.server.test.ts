import { describe, expect, it } from 'vitest';
import { insertOrder, registeredAccount, requestWith, TEST_BASE } from '../account/testing/fixtures';
import {
  accessFromLink,
  accessTokenMatches,
  createOrderAccessToken,
  getOrderForViewer,
  hashOrderAccessToken,
  orderAccessCookie,
  orderAccessCookieName,
} from './access.server';

// Vitest exposes Vite's BASE_URL ("/") in process.env; the shop's BASE_URL is an absolute URL.
process.env.BASE_URL = TEST_BASE;

describe('guest access tokens', () => {
  it('stores the SHA-256 of the token in hex, as the seed does', () => {
    const { token, hash } = createOrderAccessToken();
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashOrderAccessToken(token)).toBe(hash);
    expect(accessTokenMatches(token, hash)).toBe(true);
    expect(accessTokenMatches(`${token}x`, hash)).toBe(false);
    expect(accessTokenMatches(token, 'not-hex')).toBe(false);
    expect(accessTokenMatches(null, hash)).toBe(false);
    expect(accessTokenMatches(token, null)).toBe(false);
  });

  it('gives the browser an HttpOnly, SameSite=Lax cookie named after the order', () => {
    const cookie = orderAccessCookie('0f8fad5b-d9cb-469f-a165-70867728950e', 'abc');
    expect(cookie).toMatch(/^sv_order_0f8fad5b-d9cb-469f-a165-70867728950e=abc; /);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
  });
});

describe('getOrderForViewer', () => {
  it('shows the owner their order with its lines, history and invoice', async () => {
    const owner = await registeredAccount();
    const order = await insertOrder({ userId: owner.id, withInvoice: true });
    const found = await getOrderForViewer(requestWith(`/confirmation?orderId=${order.id}`, [owner.cookie]), order.id);
    expect(found?.viewer).toBe('owner');
    expect(found?.order).toMatchObject({
      id: order.id,
      number: order.number,
      totalPriceCents: 7600,
      customer: { email: owner.email, firstName: 'Jeanne', lastName: 'Martin' },
      invoice: { number: order.invoiceNumber, amountCents: 7600 },
    });
    expect(found?.order.items.map((item) => item.type)).toEqual(['photos', 'vhs']);
    expect(found?.order.events.map((event) => event.kind)).toEqual(['created']);
  });

  it('answers null to another customer and for unknown ids; sends a signed-out reader to sign in', async () => {
    const owner = await registeredAccount();
    const other = await registeredAccount();
    const order = await insertOrder({ userId: owner.id });
    expect(await getOrderForViewer(requestWith('/', [other.cookie]), order.id)).toBeNull();
    // Signed out, an account's order: to /login and back to this address, not a 404.
    const page = `/facture/${order.id}`;
    const thrown = await getOrderForViewer(requestWith(page), order.id).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get('Location')).toBe(`/login?${new URLSearchParams({ redirectTo: page })}`);
    // A write (a form, an API call) keeps its 404.
    const post = new Request(`${TEST_BASE}${page}`, { method: 'POST' });
    expect(await getOrderForViewer(post, order.id)).toBeNull();
    expect(
      await getOrderForViewer(requestWith('/', [owner.cookie]), '00000000-0000-4000-8000-000000000000'),
    ).toBeNull();
    expect(await getOrderForViewer(requestWith('/', [owner.cookie]), 'pas-un-uuid')).toBeNull();
    expect(await getOrderForViewer(requestWith('/', [owner.cookie]), "1' or '1'='1")).toBeNull();
  });

  it('lets a guest holding the order token in, and nobody with a wrong or misplaced token', async () => {
    const { token, hash } = createOrderAccessToken();
    const order = await insertOrder({ guestEmail: 'paul@example.fr', accessTokenHash: hash });
    const other = await insertOrder({ guestEmail: 'autre@example.fr', accessTokenHash: createOrderAccessToken().hash });

    const guest = await getOrderForViewer(requestWith('/', [`${orderAccessCookieName(order.id)}=${token}`]), order.id);
    expect(guest?.viewer).toBe('guest');
    expect(guest?.order.customer).toMatchObject({ email: 'paul@example.fr', firstName: 'Paul' });

    const wrong = requestWith('/', [`${orderAccessCookieName(order.id)}=${token.slice(1)}`]);
    expect(await getOrderForViewer(wrong, order.id)).toBeNull();
    // The right token under another order's name opens neither order.
    const misplaced = requestWith('/', [`${orderAccessCookieName(other.id)}=${token}`]);
    expect(await getOrderForViewer(misplaced, other.id)).toBeNull();
    expect(await getOrderForViewer(misplaced, order.id)).toBeNull();
  });

  it('does not open an account’s order to another account holding its old guest token', async () => {
    const { token, hash } = createOrderAccessToken();
    const owner = await registeredAccount('customer');
    const stranger = await registeredAccount('customer');
    const order = await insertOrder({ userId: owner.id, accessTokenHash: hash });
    const cookie = `${orderAccessCookieName(order.id)}=${token}`;
    expect(await getOrderForViewer(requestWith('/', [cookie, stranger.cookie]), order.id)).toBeNull();
    expect((await getOrderForViewer(requestWith('/', [cookie]), order.id))?.viewer).toBe('guest');
    expect((await getOrderForViewer(requestWith('/', [cookie, owner.cookie]), order.id))?.viewer).toBe('owner');
  });

  it('never opens an order that has no token with an empty cookie', async () => {
    const order = await insertOrder({ guestEmail: 'sans-jeton@example.fr', accessTokenHash: null });
    expect(await getOrderForViewer(requestWith('/', [`${orderAccessCookieName(order.id)}=`]), order.id)).toBeNull();
  });

  it('lets an administrator see any order', async () => {
    const owner = await registeredAccount();
    const admin = await registeredAccount('admin');
    const order = await insertOrder({ userId: owner.id });
    expect((await getOrderForViewer(requestWith('/', [admin.cookie]), order.id))?.viewer).toBe('admin');
  });
});

describe('accessFromLink', () => {
  it('turns the token of an e-mailed link into the order cookie and takes it out of the address', async () => {
    const { token, hash } = createOrderAccessToken();
    const order = await insertOrder({ guestEmail: 'paul@example.fr', accessTokenHash: hash });
    const claimed = await accessFromLink(requestWith(`/confirmation?orderId=${order.id}&token=${token}`), order.id);
    expect(claimed?.cleanUrl).toBe(`/confirmation?orderId=${order.id}`);
    expect(claimed?.setCookie).toBe(orderAccessCookie(order.id, token));

    const wrong = await accessFromLink(requestWith(`/retractation/${order.id}?token=nope`), order.id);
    expect(wrong).toEqual({ setCookie: '', cleanUrl: `/retractation/${order.id}` });
    expect(await accessFromLink(requestWith(`/retractation/${order.id}`), order.id)).toBeNull();
  });
});
