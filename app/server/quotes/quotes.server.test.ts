import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRICE_LIST } from '~/domain/pricing/default-price-list';
import { parseSelectionSearchParams, type Selection } from '~/domain/pricing/selection';
import { db, pool } from '../db/client.server';
import { user } from '../db/schema';
import { revealEmailData } from '../email/sealed-data.server';
import { InvalidSelectionError } from '../orders/create-order.server';
import { publishPriceList } from '../pricing/price-lists.server';
import { ensureDefaultPriceList } from '../seed/price-list.server';
import { handleQuoteAction } from './quote-actions.server';
import {
  emailQuote,
  getQuoteByToken,
  getQuoteForUser,
  listQuotes,
  MAX_QUOTE_EMAILS,
  orderQuote,
  saveQuote,
} from './quotes.server';

process.env.BASE_URL = 'http://localhost:3000';

function selectionOf(query: string): Selection {
  const { value, error } = parseSelectionSearchParams(new URLSearchParams(query), { requireSupport: true });
  if (!value) throw new Error(JSON.stringify(error));
  return value;
}

async function rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await pool().query(sql, params)).rows as T[];
}

async function newCustomer(firstName = 'Paul') {
  const id = randomUUID();
  const email = `${firstName.toLowerCase()}-${id}@example.fr`;
  await db().insert(user).values({ id, name: firstName, email, firstName, lastName: 'Durand' });
  return { id, email, firstName, lastName: 'Durand' };
}

const PHOTOS = 'support=photos&photos.quantity=100&photos.resolution=4800dpi&photos.format=tif';

beforeAll(async () => {
  await ensureDefaultPriceList();
});

describe('quotes of a signed-in customer', () => {
  it('are saved with the active version, listed newest first, and private', async () => {
    const paul = await newCustomer('Paul');
    const other = await newCustomer('Luc');
    const first = await saveQuote({ selection: selectionOf(PHOTOS), user: paul });
    const second = await saveQuote({
      selection: selectionOf('support=film&film.reels.medium=2&delivery=usb'),
      user: paul,
    });
    expect(first).toMatchObject({ token: null, totalPriceCents: 5836, priceListVersion: 1 });
    expect(second.totalPriceCents).toBe(6590);

    const list = await listQuotes(paul.id);
    expect(list.map((q) => q.id)).toEqual([second.id, first.id]);
    expect(list[1]).toMatchObject({
      totalPriceCents: 5836,
      priceListVersion: 1,
      pricesChanged: false,
      lines: [{ label: 'Photos papier', quantity: 100 }],
      orderNumber: null,
    });
    expect(await listQuotes(other.id)).toEqual([]);

    const view = await getQuoteForUser(first.id, paul.id);
    expect(view).toMatchObject({ totalPriceCents: 5836, pricesChanged: false, order: null });
    expect(view?.current?.price.totalPriceCents).toBe(5836);
    expect(await getQuoteForUser(first.id, other.id)).toBeNull();
    expect(await getQuoteForUser('pas-un-uuid', paul.id)).toBeNull();
    const [stored] = await rows('select access_token_hash, user_id from quotes where id = $1', [first.id]);
    expect(stored).toEqual({ access_token_hash: null, user_id: paul.id });
  });

  it('turn into an order in one click, and a second click finds the same order', async () => {
    const paul = await newCustomer('Anne');
    const saved = await saveQuote({ selection: selectionOf(PHOTOS), user: paul });
    const view = (await getQuoteForUser(saved.id, paul.id))!;
    const result = await orderQuote(view, { user: paul, expectedPriceListVersion: 1, canOpenExistingOrder: true });
    if (result.kind !== 'created') throw new Error('expected a new order');
    expect(result.order.totalPriceCents).toBe(5836);
    const [event] = await rows<{ data: Record<string, unknown> }>('select data from order_events where order_id = $1', [
      result.order.id,
    ]);
    expect(event?.data).toMatchObject({ source: 'quote', quoteId: saved.id });

    const again = (await getQuoteForUser(saved.id, paul.id))!;
    expect(again.order).toMatchObject({ id: result.order.id, number: result.order.number });
    expect(await orderQuote(again, { user: paul, canOpenExistingOrder: true })).toEqual({
      kind: 'existing',
      orderId: result.order.id,
    });
    expect((await listQuotes(paul.id))[0]?.orderNumber).toBe(result.order.number);
  });
});

describe('quotes of a guest', () => {
  it('are opened only with their private link, whose SHA-256 only is stored', async () => {
    const saved = await saveQuote({ selection: selectionOf('support=vhs&vhs.quantity=2&vhs.denoise=on'), user: null });
    expect(saved.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [stored] = await rows<{ access_token_hash: string; user_id: null }>(
      'select access_token_hash, user_id from quotes where id = $1',
      [saved.id],
    );
    expect(stored).toEqual({
      access_token_hash: createHash('sha256').update(saved.token!).digest('hex'),
      user_id: null,
    });
    expect((await getQuoteByToken(saved.token!))?.id).toBe(saved.id);
    // One character changed (a token may already end in A: then B).
    const forged = `${saved.token!.slice(0, -1)}${saved.token!.endsWith('A') ? 'B' : 'A'}`;
    expect(await getQuoteByToken(forged)).toBeNull();
    expect(await getQuoteByToken('court')).toBeNull();
    expect(await getQuoteByToken(stored!.access_token_hash)).toBeNull();
  });

  it('are sent by e-mail through the outbox, once per address, to a few addresses at most', async () => {
    const saved = await saveQuote({ selection: selectionOf(PHOTOS), user: null });
    const view = (await getQuoteByToken(saved.token!))!;
    const url = `/devis/${saved.token}`;
    expect(await emailQuote(view, { to: 'Invite@Example.fr', quoteUrl: url })).toBe('queued');
    expect(await emailQuote(view, { to: 'invite@example.fr', quoteUrl: url })).toBe('already-sent');
    const [mail] = await rows<{ to: string; template: string; data: Record<string, unknown> }>(
      `select "to", template, data from email_outbox where dedupe_key like $1`,
      [`quote-saved:${saved.id}:%`],
    );
    expect(mail).toMatchObject({ to: 'invite@example.fr', template: 'quote-saved' });
    // The link is the quote's access token: stored encrypted, readable only with APP_SECRET.
    expect(JSON.stringify(mail?.data)).not.toContain(saved.token);
    expect(revealEmailData('quote-saved', mail?.data)).toMatchObject({
      quoteUrl: `http://localhost:3000/devis/${saved.token}`,
      totalCents: 5836,
      lines: [{ label: 'Photos papier', quantity: 100 }],
    });
    for (let i = 1; i < MAX_QUOTE_EMAILS; i++) {
      expect(await emailQuote(view, { to: `autre${i}@example.fr`, quoteUrl: url })).toBe('queued');
    }
    expect(await emailQuote(view, { to: 'encore@example.fr', quoteUrl: url })).toBe('limit-reached');
    // A recipient is not the quote's owner: no address is remembered on the quote.
    expect(await rows('select email from quotes where id = $1', [saved.id])).toEqual([{ email: null }]);
  });

  it('become a guest order without the address the quote was e-mailed to, and only the cookie holder finds it again', async () => {
    const saved = await saveQuote({ selection: selectionOf('support=slides&slides.quantity=10'), user: null });
    let view = (await getQuoteByToken(saved.token!))!;
    // Whoever holds the link may send it anywhere: that address must not receive the order's token.
    await emailQuote(view, { to: 'intrus@example.fr', quoteUrl: `/devis/${saved.token}` });
    view = (await getQuoteByToken(saved.token!))!;
    const result = await orderQuote(view, { user: null, canOpenExistingOrder: false });
    if (result.kind !== 'created') throw new Error('expected a new order');
    expect(result.order.accessToken).toBeTruthy();
    expect(await rows('select guest_email, total_price from orders where id = $1', [result.order.id])).toEqual([
      { guest_email: null, total_price: 450 },
    ]);
    expect(
      await rows('select template from email_outbox where order_id = $1 or "to" = $2', [
        result.order.id,
        'intrus@example.fr',
      ]),
    ).toEqual([{ template: 'quote-saved' }]);
    view = (await getQuoteByToken(saved.token!))!;
    // Without the order's cookie, another browser with the link gets an order of its own.
    const other = await orderQuote(view, { user: null, canOpenExistingOrder: false });
    expect(other.kind).toBe('created');
  });
});

describe('a signed-in customer e-mailing their quote', () => {
  it('is greeted by name only at their own address: a profile name is not carried to anyone else', async () => {
    const phisher = await newCustomer('Paul');
    const name = 'Votre compte est bloqué, appelez le 0900';
    const customer = {
      ...phisher,
      firstName: name,
      role: 'customer' as const,
      emailVerified: true,
      twoFactorEnabled: false,
    };
    const saved = await saveQuote({ selection: selectionOf(PHOTOS), user: customer });
    const view = (await getQuoteForUser(saved.id, customer.id))!;
    const send = (email: string) =>
      handleQuoteAction(
        new Request('http://localhost:3000/mes-devis/x', {
          method: 'POST',
          body: new URLSearchParams({ intent: 'email', email }),
        }),
        view,
        { user: customer, quoteUrl: `/mes-devis/${saved.id}` },
      );
    await send('victime@example.fr');
    await send(customer.email);
    const mails = await rows<{ to: string; data: Record<string, unknown> }>(
      `select "to", data from email_outbox where dedupe_key like $1 order by created_at`,
      [`quote-saved:${saved.id}:%`],
    );
    expect(mails.map((m) => [m.to, m.data.customerName])).toEqual([
      ['victime@example.fr', undefined],
      [customer.email, name],
    ]);
  });
});

describe('a quote after the prices changed', () => {
  it('keeps its own version and price, says prices changed, and orders at today’s prices', async () => {
    const paul = await newCustomer('Marc');
    const saved = await saveQuote({ selection: selectionOf(PHOTOS), user: paul });
    const edited = structuredClone(DEFAULT_PRICE_LIST);
    edited.supports.photos.basePrice = 40;
    const published = await publishPriceList(edited, null);

    const view = (await getQuoteForUser(saved.id, paul.id))!;
    expect(view.pricesChanged).toBe(true);
    expect(view.priceList.version).toBe(saved.priceListVersion);
    expect(view.active.version).toBe(published.version);
    expect(view.saved?.price.totalPriceCents).toBe(5836);
    // 100 x 40 x 1.45 x 1.15 = 6 670
    expect(view.current?.price.totalPriceCents).toBe(6670);
    expect((await listQuotes(paul.id))[0]).toMatchObject({ totalPriceCents: 5836, pricesChanged: true });

    const result = await orderQuote(view, {
      user: paul,
      expectedPriceListVersion: published.version,
      canOpenExistingOrder: true,
    });
    if (result.kind !== 'created') throw new Error('expected a new order');
    expect(result.order).toMatchObject({ totalPriceCents: 6670, priceListVersion: published.version });
  });

  it('cannot be ordered when its selection no longer passes the rules', async () => {
    const paul = await newCustomer('Léa');
    const saved = await saveQuote({ selection: selectionOf(PHOTOS), user: paul });
    await pool().query(
      `update quotes set selection = jsonb_set(selection, '{supports,0,type}', '"cassettes-audio"') where id = $1`,
      [saved.id],
    );
    const view = (await getQuoteForUser(saved.id, paul.id))!;
    expect(view).toMatchObject({ selection: null, saved: null, current: null });
    await expect(orderQuote(view, { user: paul, canOpenExistingOrder: true })).rejects.toBeInstanceOf(
      InvalidSelectionError,
    );
  });
});
