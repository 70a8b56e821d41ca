import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRICE_LIST } from '~/domain/pricing/default-price-list';
import { parseSelectionSearchParams, type Selection } from '~/domain/pricing/selection';
import { TERMS_VERSION } from '~/domain/terms';
import { TEST_CHECKOUT_DETAILS } from '../../../tests/support/orders';
import { db, pool } from '../db/client.server';
import { user } from '../db/schema';
import { revealEmailData } from '../email/sealed-data.server';
import { confirmCheckout } from '../payments/offline.server';
import { publishPriceList } from '../pricing/price-lists.server';
import { ensureDefaultPriceList } from '../seed/price-list.server';
import { accessTokenMatches, orderAccessCookie } from './access.server';
import { createOrder, InvalidSelectionError, PriceListChangedError } from './create-order.server';
import { formatOrderNumber, shopYear, takeOrderNumber } from './order-number.server';

process.env.BASE_URL = 'http://localhost:3000';

function selectionOf(query: string): Selection {
  const { value, error } = parseSelectionSearchParams(new URLSearchParams(query), { requireSupport: true });
  if (!value) throw new Error(JSON.stringify(error));
  return value;
}

async function rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await pool().query(sql, params)).rows as T[];
}

async function orderCount(): Promise<number> {
  const [row] = await rows<{ n: number }>('select count(*)::int as n from orders');
  return row?.n ?? 0;
}

const YEAR = shopYear(new Date());
const customer = {
  id: randomUUID(),
  email: `jeanne-${randomUUID()}@example.fr`,
  firstName: 'Jeanne',
  lastName: 'Martin',
};

beforeAll(async () => {
  await ensureDefaultPriceList();
  await db().insert(user).values({
    id: customer.id,
    name: 'Jeanne Martin',
    email: customer.email,
    firstName: 'Jeanne',
    lastName: 'Martin',
  });
});

describe('order numbers', () => {
  it('are SV-YYYY-NNNNNN in the shop’s year (Paris time)', () => {
    expect(formatOrderNumber(2026, 42)).toBe('SV-2026-000042');
    expect(shopYear(new Date('2026-12-31T22:30:00Z'))).toBe(2026);
    expect(shopYear(new Date('2026-12-31T23:30:00Z'))).toBe(2027);
  });
});

describe('creating an order', () => {
  it('records a signed-in customer’s draft with the server’s prices, items and history; placing it notifies and e-mails', async () => {
    const selection = selectionOf(
      'support=photos&photos.quantity=100&photos.resolution=4800dpi&photos.format=tif' +
        '&support=film&film.reels.medium=2&film.denoise=on&delivery=usb&send=label&returnOriginals=on',
    );
    const created = await createOrder({ selection, user: customer, expectedPriceListVersion: 1 });
    expect(created).toMatchObject({
      number: formatOrderNumber(YEAR, 1),
      accessToken: null,
      priceListVersion: 1,
      // 58,36 + 50 + 10 (denoise) + 15,90 + 9,90 + 12,90
      totalPriceCents: 15_706,
    });

    const [order] = await rows<Record<string, unknown>>('select * from orders where id = $1', [created.id]);
    expect(order).toMatchObject({
      number: created.number,
      user_id: customer.id,
      guest_email: null,
      access_token_hash: null,
      status: 'pending',
      payment_status: 'pending',
      delivery_method: 'usb',
      send_method: 'label',
      return_originals: true,
      base_price: 8500,
      quality_price: 0,
      resolution_price: 1575,
      format_price: 761,
      restoration_price: 0,
      denoise_price: 1000,
      delivery_cost: 1590,
      send_shipping_cost: 990,
      return_shipping_cost: 1290,
      total_price: 15_706,
      price_list_id: created.priceListId,
    });
    expect(order?.search_text).toContain('jeanne martin');
    // A draft: nobody is told anything until the customer confirms it at checkout.
    expect(order?.placed_at).toBeNull();
    expect(order?.terms_accepted_at).toBeNull();
    expect(await rows('select id from notifications where order_id = $1', [created.id])).toEqual([]);
    expect(await rows('select id from email_outbox where order_id = $1', [created.id])).toEqual([]);

    const items = await rows(
      'select type, quantity, resolution, format, reel_size, denoise, unit_price, line_total from order_items where order_id = $1 order by position',
      [created.id],
    );
    expect(items).toEqual([
      {
        type: 'photos',
        quantity: 100,
        resolution: '4800dpi',
        format: 'tif',
        reel_size: null,
        denoise: false,
        unit_price: 58,
        line_total: 5836,
      },
      {
        type: 'film',
        quantity: 2,
        resolution: null,
        format: null,
        reel_size: 'medium',
        denoise: true,
        unit_price: 2500,
        line_total: 6000,
      },
    ]);

    const events = await rows('select actor, kind, "from", "to", data from order_events where order_id = $1', [
      created.id,
    ]);
    expect(events).toEqual([
      {
        actor: customer.id,
        kind: 'created',
        from: null,
        to: 'pending',
        data: { totalCents: 15_706, priceListVersion: 1, source: 'configurator' },
      },
    ]);
    await confirmCheckout({
      orderId: created.id,
      method: 'card',
      actor: customer.id,
      accessToken: null,
      details: TEST_CHECKOUT_DETAILS,
    });
    const [placed] = await rows<{
      placed_at: Date | null;
      terms_version: string | null;
      terms_accepted_at: Date | null;
    }>('select placed_at, terms_version, terms_accepted_at from orders where id = $1', [created.id]);
    expect(placed?.placed_at).toBeInstanceOf(Date);
    // Placing it accepted the terms of sale in force: their version and the date are on the order.
    expect(placed?.terms_version).toBe(TERMS_VERSION);
    expect(placed?.terms_accepted_at).toBeInstanceOf(Date);
    const notes = await rows('select kind, status, title, body from notifications where order_id = $1', [created.id]);
    expect(notes).toEqual([
      {
        kind: 'order',
        status: 'pending',
        title: `Nouvelle commande ${created.number}`,
        body: '157,06\u00A0€ · 102 éléments · Jeanne Martin · Carte bancaire',
      },
    ]);
    const mails = (
      await rows<{ to: string; template: string; data: Record<string, unknown>; dedupe_key: string }>(
        'select "to", template, data, dedupe_key from email_outbox where order_id = $1',
        [created.id],
      )
    ).map((mail) => ({ ...mail, data: revealEmailData(mail.template, mail.data) as Record<string, unknown> })); // links are stored encrypted
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      to: customer.email,
      template: 'order-confirmation',
      dedupe_key: `order-confirmation:${created.id}`,
      data: {
        orderNumber: created.number,
        customerName: 'Jeanne',
        totalCents: 15_706,
        orderUrl: `http://localhost:3000/confirmation?orderId=${created.id}`,
        extras: [
          { label: 'Livraison — Clé USB', totalCents: 1590 },
          { label: 'Étiquette d’envoi prépayée', totalCents: 990 },
          { label: 'Retour de vos originaux', totalCents: 1290 },
        ],
      },
    });
    expect((mails[0]!.data.items as { totalCents: number }[]).map((i) => i.totalCents)).toEqual([5836, 6000]);
  });

  it('gives a guest a token whose SHA-256 only is stored, and an HttpOnly SameSite=Lax cookie', async () => {
    const created = await createOrder({ selection: selectionOf('support=vhs&vhs.quantity=2'), user: null });
    expect(created.accessToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [order] = await rows<{ access_token_hash: string; user_id: string | null; total_price: number }>(
      'select access_token_hash, user_id, total_price from orders where id = $1',
      [created.id],
    );
    expect(order).toEqual({
      access_token_hash: createHash('sha256').update(created.accessToken!).digest('hex'),
      user_id: null,
      total_price: 3400,
    });
    expect(accessTokenMatches(created.accessToken, order?.access_token_hash ?? null)).toBe(true);
    expect(accessTokenMatches('x'.repeat(43), order?.access_token_hash ?? null)).toBe(false);
    expect(orderAccessCookie(created.id, created.accessToken!)).toBe(
      `sv_order_${created.id}=${created.accessToken}; Path=/; Max-Age=15552000; HttpOnly; SameSite=Lax`,
    );
    // No address known yet: no e-mail (the checkout asks for it).
    expect(await rows('select id from email_outbox where order_id = $1', [created.id])).toEqual([]);
    expect(await rows('select actor from order_events where order_id = $1', [created.id])).toEqual([
      { actor: 'customer' },
    ]);
  });

  it('sends a guest whose address is known a link that carries the token', async () => {
    const created = await createOrder({
      selection: selectionOf('support=slides&slides.quantity=40'),
      user: null,
      guestEmail: 'invite@example.fr',
    });
    await confirmCheckout({ orderId: created.id, method: 'card', actor: 'customer', accessToken: created.accessToken });
    const [mail] = await rows<{ data: { orderUrl: string } }>('select data from email_outbox where order_id = $1', [
      created.id,
    ]);
    // The guest's token is stored encrypted, never in clear.
    expect(JSON.stringify(mail?.data)).not.toContain(created.accessToken);
    expect((revealEmailData('order-confirmation', mail?.data) as { orderUrl: string }).orderUrl).toBe(
      `http://localhost:3000/confirmation?orderId=${created.id}&token=${created.accessToken}`,
    );
    expect(await rows('select guest_email from orders where id = $1', [created.id])).toEqual([
      { guest_email: 'invite@example.fr' },
    ]);
  });

  it('ignores prices slipped into the selection', async () => {
    const forged = {
      ...selectionOf('support=photos&photos.quantity=100'),
      totalPriceCents: 1,
      basePriceCents: 0,
    } as Selection;
    (forged.supports[0] as unknown as Record<string, unknown>).unitPriceCents = 0;
    const created = await createOrder({ selection: forged, user: customer });
    expect(created.totalPriceCents).toBe(3500);
    expect(await rows('select total_price, base_price from orders where id = $1', [created.id])).toEqual([
      { total_price: 3500, base_price: 3500 },
    ]);
  });

  it('records the express turnaround and its price on the order', async () => {
    const created = await createOrder({
      selection: selectionOf('support=photos&photos.quantity=100&express=on'),
      user: customer,
    });
    const express = DEFAULT_PRICE_LIST.turnaround.expressPrice;
    expect(created.totalPriceCents).toBe(3500 + express);
    expect(await rows('select express, express_price, total_price from orders where id = $1', [created.id])).toEqual([
      { express: true, express_price: express, total_price: 3500 + express },
    ]);
  });

  it('refuses a selection that breaks the rules, writing nothing', async () => {
    const before = await orderCount();
    const broken = selectionOf('support=photos&photos.quantity=10');
    broken.supports[0]!.restoration = 11;
    await expect(createOrder({ selection: broken, user: null })).rejects.toBeInstanceOf(InvalidSelectionError);
    await expect(createOrder({ selection: { ...broken, supports: [] }, user: null })).rejects.toBeInstanceOf(
      InvalidSelectionError,
    );
    expect(await orderCount()).toBe(before);
  });

  it('numbers concurrent orders without gaps or duplicates', async () => {
    const before = await orderCount();
    const created = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        createOrder({ selection: selectionOf(`support=negatives&negatives.quantity=${i + 1}`), user: null }),
      ),
    );
    const sequences = created.map((order) => Number(order.number.slice(-6))).sort((a, b) => a - b);
    expect(sequences).toEqual(Array.from({ length: 25 }, (_, i) => before + 1 + i));
    const [counter] = await rows('select last from order_counters where year = $1', [YEAR]);
    expect(counter).toEqual({ last: before + 25 });
  });

  it('gives the number back when the order’s transaction fails', async () => {
    const before = await orderCount();
    await expect(
      db().transaction(async (tx) => {
        await takeOrderNumber(tx, new Date());
        throw new Error('payment provider exploded');
      }),
    ).rejects.toThrow('exploded');
    const next = await createOrder({ selection: selectionOf('support=vhs'), user: null });
    expect(next.number).toBe(formatOrderNumber(YEAR, before + 1));
  });

  it('refuses to order at prices the customer was not shown', async () => {
    const before = await orderCount();
    const edited = structuredClone(DEFAULT_PRICE_LIST);
    edited.supports.vhs.basePrice = 1900;
    const published = await publishPriceList(edited, null);
    const error = await createOrder({
      selection: selectionOf('support=vhs'),
      user: customer,
      expectedPriceListVersion: published.version - 1,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PriceListChangedError);
    expect(error).toMatchObject({ currentVersion: published.version });
    expect(await orderCount()).toBe(before);
    // With the version shown, the new price applies.
    const created = await createOrder({
      selection: selectionOf('support=vhs'),
      user: customer,
      expectedPriceListVersion: published.version,
    });
    expect(created.totalPriceCents).toBe(1900);
    expect(created.priceListId).toBe(published.id);
  });
});
