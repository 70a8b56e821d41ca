import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { splitVat } from '~/domain/invoices/vat';
import type { PromotionTerms } from '~/domain/vouchers/promotions';
import { payByCard } from '../../../tests/support/card-payment';
import { DEFAULT_ORDER_TOTAL_CENTS, insertTestOrder, orderState } from '../../../tests/support/orders';
import { CLIENT_IP_HEADER } from '../auth/auth.server';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { applyTransition } from '../orders/lifecycle.server';
import { CheckoutError } from '../payments/checkout.server';
import { confirmCheckout } from '../payments/offline.server';
import { ensureDefaultPriceList } from '../seed/price-list.server';
import { createPromotion, listPromotions, PROMOTION_LIMITED_MESSAGE, setPromotionPaused } from './promotions.server';
import { insertBuyer } from './testing/gift-cards';

/*
 * Promotion codes through the shop's own paths (decision 038): created by a staff member, typed at
 * « Payer » (confirmCheckout), paid through the gateway's notification, cancelled by the lifecycle.
 * What a customer and the accountant would check: the total asked, the invoice's discount line and
 * VAT, the code's uses, and that a refused code changes nothing.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';
const databaseUrl = () => process.env.DATABASE_URL as string;

/** A request from its own client address: each test counts its unknown codes alone. */
const fromClient = (ip = `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`) =>
  new Request('https://www.soovenirs.test/checkout', { headers: { [CLIENT_IP_HEADER]: ip } });

const DAY = 86_400_000;
let staffId = '';

/** A code with its own name (the tests share one database), 20 % on photos by default. */
async function newCode(overrides: Partial<PromotionTerms> = {}): Promise<PromotionTerms> {
  const terms: PromotionTerms = {
    code: `NOEL${randomUUID().slice(0, 8).toUpperCase()}`,
    label: 'Noël en photos',
    kind: 'percent',
    percent: 20,
    amountCents: null,
    supports: ['photos'],
    minimumOrderCents: 0,
    startsAt: new Date(Date.now() - DAY),
    endsAt: null,
    maxUses: null,
    maxUsesPerCustomer: 1,
    firstOrderOnly: false,
    combinable: false,
    ...overrides,
  };
  const created = await createPromotion(terms, staffId);
  expect(created.ok).toBe(true);
  return terms;
}

/** A draft (not placed yet) of 100 photos, 2 VHS and a USB key: 94,90 €, photos 35,00 €. */
async function draft(guestEmail = `${randomUUID()}@example.fr`) {
  const order = await insertTestOrder(databaseUrl(), { guestEmail });
  await db().execute(sql`update orders set placed_at = null where id = ${order.id}`);
  return order;
}

function pay(orderId: string, typed: string, request = fromClient()) {
  return confirmCheckout({
    orderId,
    method: 'card',
    actor: 'customer',
    accessToken: null,
    promotion: { typed, request, userId: null },
  });
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CheckoutError);
  return { status: (error as CheckoutError).status, message: (error as CheckoutError).message };
}

async function orderRow(orderId: string) {
  const { rows } = await db().execute<{ total_price: number; discount: number; placed: boolean }>(
    sql`select total_price, discount, placed_at is not null as placed from orders where id = ${orderId}`,
  );
  return rows[0];
}

async function usesOf(code: string) {
  return (await listPromotions()).find((row) => row.terms.code === code);
}

beforeAll(async () => {
  await ensureDefaultPriceList();
  staffId = (await insertBuyer('Paule', 'Promo', 'admin')).id;
});

describe('a promotion code at checkout', () => {
  it('takes 20 % off the photos only; the invoice shows the discount line, its VAT that of the price paid', async () => {
    const terms = await newCode();
    const order = await draft();
    await pay(order.id, ` ${terms.code.toLowerCase()} `);
    // 20 % of the photos' 35,00 €: 7,00 €; the VHS and the USB key are full price.
    expect(await orderRow(order.id)).toEqual({
      total_price: DEFAULT_ORDER_TOTAL_CENTS - 700,
      discount: 700,
      placed: true,
    });

    // The gateway is asked the net total, and only that settles the order.
    await payByCard(order.id, DEFAULT_ORDER_TOTAL_CENTS, null, 'stripe');
    expect((await orderState(databaseUrl(), order.id)).paymentStatus).toBe('pending');
    await payByCard(order.id, DEFAULT_ORDER_TOTAL_CENTS - 700, null, 'stripe');
    expect((await orderState(databaseUrl(), order.id)).paymentStatus).toBe('paid');

    const { rows } = await db().execute<{
      amount: number;
      vat: number;
      snapshot: {
        lines: Array<{ label: string; totalCents: number; totalExcludingVatCents: number }>;
        totalExcludingVatCents: number;
      };
    }>(sql`select amount, vat, snapshot from invoices where order_id = ${order.id} and adjustment_id is null`);
    const invoice = rows[0];
    expect(invoice?.amount).toBe(8790);
    expect(invoice?.vat).toBe(splitVat(8790).vatCents);
    const line = invoice?.snapshot.lines.find((row) => row.label === `Remise ${terms.code}`);
    expect(line?.totalCents).toBe(-700);
    // Its VAT: 7,00 € including 1,17 € of VAT, so −5,83 € excluding VAT.
    expect(line?.totalExcludingVatCents).toBe(-583);
    expect(invoice?.snapshot.lines.reduce((sum, row) => sum + row.totalCents, 0)).toBe(8790);
    expect(invoice?.snapshot.lines.reduce((sum, row) => sum + row.totalExcludingVatCents, 0)).toBe(
      invoice?.snapshot.totalExcludingVatCents,
    );
    expect(invoice?.snapshot.lines.some((row) => row.label === 'Ajustement')).toBe(false);

    const listed = await usesOf(terms.code);
    expect(listed).toMatchObject({ uses: 1, discountCents: 700, revenueCents: 8790 });
  });

  it('is used once per customer: a second order is refused in French and changes nothing', async () => {
    const terms = await newCode();
    const email = `${randomUUID()}@example.fr`;
    await pay((await draft(email)).id, terms.code);
    const second = await draft(email.toUpperCase());
    expect(await refusal(pay(second.id, terms.code))).toEqual({
      status: 422,
      message: `Vous avez déjà utilisé le code promo ${terms.code}.`,
    });
    expect(await orderRow(second.id)).toEqual({ total_price: DEFAULT_ORDER_TOTAL_CENTS, discount: 0, placed: false });
    // Another customer may.
    const other = await draft();
    await pay(other.id, terms.code);
    expect((await orderRow(other.id))?.discount).toBe(700);
  });

  it('applies only in its dates, while not paused, and only on its supports', async () => {
    const later = await newCode({ startsAt: new Date('2099-12-01T00:00:00+01:00') });
    expect((await refusal(pay((await draft()).id, later.code))).message).toBe(
      `Le code promo ${later.code} sera valable à partir du 01/12/2099.`,
    );
    const over = await newCode({
      startsAt: new Date('2025-12-01T00:00:00+01:00'),
      endsAt: new Date('2026-01-01T00:00:00+01:00'),
    });
    expect((await refusal(pay((await draft()).id, over.code))).message).toBe(
      `Le code promo ${over.code} n’est plus valable depuis le 31/12/2025.`,
    );
    const slides = await newCode({ supports: ['slides'] });
    expect((await refusal(pay((await draft()).id, slides.code))).message).toBe(
      `Le code promo ${slides.code} ne porte sur aucun article de votre commande (il s’applique à\u00A0: Diapositives).`,
    );
    const paused = await newCode();
    const id = (await usesOf(paused.code))?.id as string;
    await setPromotionPaused(id, true, staffId);
    expect((await refusal(pay((await draft()).id, paused.code))).message).toBe(
      `Le code promo ${paused.code} est suspendu pour le moment.`,
    );
    await setPromotionPaused(id, false, staffId);
    const order = await draft();
    await pay(order.id, paused.code);
    expect((await orderRow(order.id))?.discount).toBe(700);
    // Both changes are in the journal, under the code's name.
    const { rows } = await db().execute<{ kind: string }>(
      sql`select kind from audit_log where subject = ${id} order by at`,
    );
    expect(rows.map((row) => row.kind)).toEqual(['promotion.create', 'promotion.pause', 'promotion.resume']);
  });

  it('is not combined with another code unless both say so', async () => {
    const alone = await newCode();
    const friend = await newCode({ kind: 'amount', percent: null, amountCents: 500, supports: [], combinable: true });
    const order = await draft();
    expect((await refusal(pay(order.id, `${alone.code}, ${friend.code}`))).message).toBe(
      `Le code promo ${alone.code} ne se cumule pas avec un autre code.`,
    );
    expect(await orderRow(order.id)).toEqual({ total_price: DEFAULT_ORDER_TOTAL_CENTS, discount: 0, placed: false });
    const both = await newCode({ combinable: true });
    await pay(order.id, `${both.code}; ${friend.code}`);
    // 7,00 € off the photos, then 5,00 € off what is left of the items.
    expect((await orderRow(order.id))?.discount).toBe(1200);
  });

  it('gives its use back when an unpaid order is cancelled', async () => {
    const terms = await newCode({ maxUses: 1, maxUsesPerCustomer: null });
    const email = `${randomUUID()}@example.fr`;
    const first = await draft(email);
    await pay(first.id, terms.code);
    expect((await refusal(pay((await draft()).id, terms.code))).message).toBe(
      `Le code promo ${terms.code} a atteint son nombre d’utilisations.`,
    );
    const canceled = await applyTransition(first.id, { type: 'cancel', refundCents: 0, refundRight: false }, staffId);
    expect(canceled.ok).toBe(true);
    expect((await usesOf(terms.code))?.uses).toBe(0);
    const again = await draft();
    await pay(again.id, terms.code);
    expect((await orderRow(again.id))?.discount).toBe(700);
  });

  it('never gives its last use twice when two orders are placed at once', async () => {
    const terms = await newCode({ maxUses: 1, maxUsesPerCustomer: null });
    const orders = await Promise.all([draft(), draft(), draft()]);
    const results = await Promise.allSettled(orders.map((order) => pay(order.id, terms.code)));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const rows = await Promise.all(orders.map((order) => orderRow(order.id)));
    expect(rows.filter((row) => row?.discount === 700 && row.placed)).toHaveLength(1);
    expect(rows.filter((row) => row?.discount === 0 && !row.placed)).toHaveLength(2);
    expect((await usesOf(terms.code))?.uses).toBe(1);
  });

  it('refuses codes from a client after 10 unknown ones in a minute, a right code too', async () => {
    const terms = await newCode();
    const ip = `10.7.${Math.floor(Math.random() * 250)}.1`;
    for (let i = 0; i < 10; i += 1) {
      const { message } = await refusal(pay((await draft()).id, `FAUX${i}`, fromClient(ip)));
      expect(message).toMatch(/^Le code promo «\u00A0FAUX\d\u00A0» n’existe pas\./);
    }
    const order = await draft();
    expect(await refusal(pay(order.id, terms.code, fromClient(ip)))).toEqual({
      status: 429,
      message: PROMOTION_LIMITED_MESSAGE,
    });
    expect((await orderRow(order.id))?.placed).toBe(false);
    // Another client is not held.
    await pay(order.id, terms.code);
    expect((await orderRow(order.id))?.discount).toBe(700);
  });
});
