import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { splitVat } from '~/domain/invoices/vat';
import { payByCard } from '../../../tests/support/card-payment';
import { insertTestOrder, orderState } from '../../../tests/support/orders';
import { exportStream } from '../admin/exports.server';
import { CLIENT_IP_HEADER } from '../auth/auth.server';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { applyTransition } from '../orders/lifecycle.server';
import { refundOrder } from '../orders/refunds.server';
import { confirmCheckout } from '../payments/offline.server';
import { ensureDefaultPriceList } from '../seed/price-list.server';
import { GIFT_CARD_LOOKUP_MESSAGES } from './gift-card-lookup.server';
import { insertBuyer, paidGiftCard } from './testing/gift-cards';

/*
 * A gift card paying orders at checkout (decision 037), through the shop's own paths: the code typed
 * at « Payer » (confirmCheckout), the gateway's notification for the rest, the lifecycle's
 * cancellation and the staff's refund form. What the customer and the accountant would check: the
 * card's balance, the order's state, the invoice's total and VAT (the card's part left out), and
 * where the money goes back.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';
const databaseUrl = () => process.env.DATABASE_URL as string;

/** A request from its own client address: each test counts its wrong codes alone. */
const fromClient = () =>
  new Request('https://www.soovenirs.test/checkout', {
    headers: { [CLIENT_IP_HEADER]: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` },
  });

async function balanceOf(cardId: string): Promise<number> {
  const { rows } = await db().execute<{ balance: number }>(sql`
    select coalesce(sum(case when kind in ('issued', 'restored') then amount else -amount end), 0)::int as balance
    from gift_card_ledger where card_id = ${cardId}`);
  return Number(rows[0]?.balance);
}

async function invoiceOf(orderId: string) {
  const { rows } = await db().execute<{
    amount: number;
    vat: number;
    snapshot: {
      lines: Array<{ label: string; totalCents: number; totalExcludingVatCents: number }>;
      totalExcludingVatCents: number;
      giftCardCents?: number;
    };
  }>(sql`select amount, vat as vat, snapshot from invoices where order_id = ${orderId} and adjustment_id is null`);
  return rows[0];
}

async function pay(orderId: string, code: string, method: 'card' | 'transfer' = 'card') {
  return confirmCheckout({
    orderId,
    method,
    actor: 'customer',
    accessToken: null,
    giftCard: { typed: code, request: fromClient(), userId: null },
  });
}

beforeAll(async () => {
  await ensureDefaultPriceList();
});

describe('a gift card pays an order at checkout', () => {
  it('pays part of an order: the rest by card, the invoice leaves the card part out of its VAT', async () => {
    const buyer = await insertBuyer();
    const card = await paidGiftCard(buyer, { amountCents: 5000, provider: 'stripe' });
    const order = await insertTestOrder(databaseUrl());
    // Typed loosely, as people do.
    const typed = card.code.toLowerCase().replace(/-/g, ' ');
    expect(await pay(order.id, typed)).toEqual({ paidByGiftCard: false });
    expect(await balanceOf(card.cardId)).toBe(0);
    expect((await orderState(databaseUrl(), order.id)).paymentStatus).toBe('pending');

    // The gateway is asked for the rest: 94,90 − 50,00 = 44,90 €, and only that settles the order.
    await payByCard(order.id, order.totalCents, null, 'stripe');
    expect((await orderState(databaseUrl(), order.id)).paymentStatus).toBe('pending');
    await payByCard(order.id, order.totalCents - 5000, null, 'stripe');
    expect((await orderState(databaseUrl(), order.id)).paymentStatus).toBe('paid');

    const invoice = await invoiceOf(order.id);
    expect(invoice?.amount).toBe(4490);
    expect(invoice?.vat).toBe(splitVat(4490).vatCents);
    const cardLine = invoice?.snapshot.lines.find((line) => line.label.startsWith('Carte cadeau'));
    expect(cardLine?.totalCents).toBe(-5000);
    expect(invoice?.snapshot.giftCardCents).toBe(5000);
    // The lines add up, excluding VAT too.
    expect(invoice?.snapshot.lines.reduce((sum, line) => sum + line.totalCents, 0)).toBe(4490);
    expect(invoice?.snapshot.lines.reduce((sum, line) => sum + line.totalExcludingVatCents, 0)).toBe(
      invoice?.snapshot.totalExcludingVatCents,
    );

    // The sales journal: the card's sale with its VAT, the order's invoice without the card's part
    // (shown apart): the VAT is counted once, on 50,00 € at the sale and 44,90 € at the order.
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
    const csv = await new Response(
      exportStream({ dataset: 'factures', format: 'csv', from: day, to: day }).body,
    ).text();
    const lines = csv.replace('\uFEFF', '').trim().split('\r\n');
    const sale = lines.find((line) => line.includes(`;${card.number};`));
    const paid = lines.find((line) => line.includes(`;${order.number};`));
    expect(sale).toMatch(/;Facture;Carte cadeau;.*;41,67;8,33;50,00;;/);
    expect(paid).toMatch(/;Facture;Prestation;.*;37,42;7,48;44,90;50,00;/);
  });

  it('pays a whole order: settled at once by the card, an invoice of 0 €, the rest kept on the card', async () => {
    const buyer = await insertBuyer();
    const card = await paidGiftCard(buyer, { amountCents: 10000, provider: 'stripe' });
    const order = await insertTestOrder(databaseUrl());
    expect(await pay(order.id, card.code)).toEqual({ paidByGiftCard: true });
    const state = await orderState(databaseUrl(), order.id);
    expect(state.paymentStatus).toBe('paid');
    const { rows } = await db().execute<{ payment_method: string }>(
      sql`select payment_method from orders where id = ${order.id}`,
    );
    expect(rows[0]?.payment_method).toBe('gift_card');
    expect(await balanceOf(card.cardId)).toBe(10000 - order.totalCents);
    const invoice = await invoiceOf(order.id);
    expect(invoice).toMatchObject({ amount: 0, vat: 0 });
  });

  it('refunds the card first: the card gets back what it paid, the rest goes back with a credit note', async () => {
    const buyer = await insertBuyer();
    const card = await paidGiftCard(buyer, { amountCents: 3500, provider: 'stripe' });
    const order = await insertTestOrder(databaseUrl());
    await pay(order.id, card.code);
    // The sandbox: the gateway this machine can ask for a refund.
    await payByCard(order.id, order.totalCents - 3500);

    // 20 € given back: all of it to the card, no credit note (that money was invoiced at the card's sale).
    const first = await refundOrder({
      orderId: order.id,
      amountCents: 2000,
      method: 'gateway',
      reason: 'Geste commercial',
      actor: 'system',
    });
    expect(first).toMatchObject({ ok: true, amountCents: 2000, creditNoteNumber: null });
    expect(await balanceOf(card.cardId)).toBe(2000);
    // The rest of the order: 15 € more to the card, then the money paid, with its credit note.
    const rest = order.totalCents - 2000;
    const second = await refundOrder({
      orderId: order.id,
      amountCents: rest,
      method: 'gateway',
      reason: 'Annulation',
      actor: 'system',
    });
    expect(second, JSON.stringify(second)).toMatchObject({ ok: true, amountCents: rest });
    expect(await balanceOf(card.cardId)).toBe(3500);
    const { rows: notes } = await db().execute<{ amount: number }>(
      sql`select amount from credit_notes where order_id = ${order.id}`,
    );
    expect(notes.map((note) => note.amount)).toEqual([order.totalCents - 3500]);
    expect((await orderState(databaseUrl(), order.id)).paymentStatus).toBe('refunded');
    // Nothing more: the card took back exactly what it paid, the gateway what it took.
    const again = await refundOrder({
      orderId: order.id,
      amountCents: 1,
      method: 'gateway',
      reason: 'x',
      actor: 'system',
    });
    expect(again.ok).toBe(false);
  });

  it('a cancelled unpaid order gives the card back what it held; a wrong code changes nothing', async () => {
    const buyer = await insertBuyer();
    const card = await paidGiftCard(buyer, { amountCents: 3000, provider: 'stripe' });
    const order = await insertTestOrder(databaseUrl());
    await expect(pay(order.id, 'ABCD-EFGH-JKMN-PQRS')).rejects.toMatchObject({
      status: 422,
      message: GIFT_CARD_LOOKUP_MESSAGES.malformed,
    });
    await pay(order.id, card.code, 'transfer');
    expect(await balanceOf(card.cardId)).toBe(0);
    const { rows } = await db().execute<{ payment_method: string }>(
      sql`select payment_method from orders where id = ${order.id}`,
    );
    expect(rows[0]?.payment_method).toBe('transfer');
    const canceled = await applyTransition(order.id, { type: 'cancel', refundCents: 0, refundRight: true }, 'system');
    expect(canceled.ok).toBe(true);
    expect(await balanceOf(card.cardId)).toBe(3000);
    const { rows: refunds } = await db().execute(sql`select 1 from refunds where order_id = ${order.id}`);
    expect(refunds).toHaveLength(0);
  });

  it('one card per order, and never on a gift card sale', async () => {
    const buyer = await insertBuyer();
    const first = await paidGiftCard(buyer, { amountCents: 2000, provider: 'stripe' });
    const second = await paidGiftCard(buyer, { amountCents: 2000, provider: 'stripe' });
    const order = await insertTestOrder(databaseUrl());
    await pay(order.id, first.code);
    await expect(pay(order.id, second.code)).rejects.toMatchObject({ status: 409 });
    expect(await balanceOf(second.cardId)).toBe(2000);
    await expect(pay(first.orderId, second.code)).rejects.toBeTruthy();
  });
});
