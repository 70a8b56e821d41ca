import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBoardParams } from '~/domain/admin/workshop-board';
import { payByCard } from '../../../tests/support/card-payment';
import { insertTestOrder, TEST_CHECKOUT_DETAILS } from '../../../tests/support/orders';
import { loadWorkshopBoard } from '../admin/workshop.server';
import { db } from '../db/client.server';
import { storeOrderFile } from '../files/order-files.server';
import { publishOrderFiles } from '../files/publish.server';
import { createLocalStorage } from '../files/storage.server';
import { log } from '../log.server';
import { confirmCheckout } from '../payments/offline.server';
import { ensureDefaultPriceList } from '../seed/price-list.server';
import { startExtraCopyOrder, startRetentionExtensionOrder } from './extra-copies.server';

/*
 * Extra copies and the paid retention (decision 029), through the shop's own paths: the
 * draft made from a published order's files, placed at checkout, paid by card (the gateway's
 * notification), invoiced, on the workshop board with the files to copy; the retention extension
 * applied to the source order once paid, and never on the board.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';
const DAY = 86_400_000;
let folder: string;
let buyer: { id: string; email: string; firstName: string; lastName: string };

beforeAll(async () => {
  await ensureDefaultPriceList();
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-copies-'));
  const id = `user_${randomUUID()}`;
  buyer = { id, email: `${id}@example.fr`, firstName: 'Marie', lastName: 'Curie' };
  await db().execute(sql`
    insert into "user" (id, name, email, role, first_name, last_name)
    values (${id}, 'Marie Curie', ${buyer.email}, 'user', 'Marie', 'Curie')`);
});
afterAll(async () => {
  await fs.rm(folder, { recursive: true, force: true });
});

/** A paid order of the buyer's with three delivered files, published. */
async function publishedOrder() {
  const order = await insertTestOrder(process.env.DATABASE_URL as string, {
    paymentStatus: 'paid',
    status: 'processing',
  });
  await db().execute(
    sql`update orders set user_id = ${buyer.id}, stage = 'quality_check', received_at = now() where id = ${order.id}`,
  );
  const storage = createLocalStorage(folder);
  const ids: string[] = [];
  for (const name of ['mariage-1.jpg', 'mariage-2.jpg', 'vacances.mp4']) {
    const stored = await storeOrderFile(
      { orderId: order.id, name, support: 'photos', body: Readable.from([randomBytes(2000)]), uploadedBy: 'system' },
      { storage },
    );
    ids.push(stored.file.id);
  }
  const published = await publishOrderFiles(order.id, 'system');
  expect(published).toMatchObject({ ok: true });
  return { ...order, fileIds: ids };
}

async function orderRow(orderId: string) {
  const { rows } = await db().execute<{
    status: string;
    payment_status: string;
    stage: string;
    total_price: number;
    base_price: number;
    delivery_cost: number;
    files_expire_at: string | null;
  }>(sql`select status, payment_status, stage, total_price, base_price, delivery_cost, files_expire_at
         from orders where id = ${orderId}`);
  return rows[0];
}

const RECIPIENT = {
  firstName: 'Louise',
  lastName: 'Curie',
  company: null,
  line1: '3 rue des Lilas',
  line2: null,
  postalCode: '69003',
  city: 'Lyon',
  country: 'FR' as const,
  phone: '+33611223344',
};

describe('extra copies', () => {
  it('makes a draft linked to its source, priced from Tarifs, placed and paid like any order, on the board with its files', async () => {
    const source = await publishedOrder();
    const started = await startExtraCopyOrder({
      sourceOrderId: source.id,
      fileIds: [source.fileIds[0] as string, source.fileIds[2] as string],
      medium: 'usb',
      quantity: 2,
      recipient: RECIPIENT,
      giftMessage: 'Joyeux anniversaire, Louise !',
      buyer: { user: buyer, orderedBy: buyer.id },
    });
    if (!started.ok) throw new Error(started.message);
    // Default Tarifs: 2 × 15,90 € + 6,90 € of shipping.
    expect(started.totalPriceCents).toBe(3870);
    expect(await orderRow(started.orderId)).toMatchObject({ base_price: 3180, delivery_cost: 690, total_price: 3870 });
    const { rows: links } = await db().execute(
      sql`select source_order_id, kind, medium, copies, file_count, gift, gift_message from linked_orders where order_id = ${started.orderId}`,
    );
    expect(links[0]).toMatchObject({
      source_order_id: source.id,
      kind: 'extra_copy',
      medium: 'usb',
      copies: 2,
      file_count: 2,
      gift: true,
      gift_message: 'Joyeux anniversaire, Louise !',
    });

    await confirmCheckout({
      orderId: started.orderId,
      method: 'card',
      actor: buyer.id,
      accessToken: null,
      details: { ...TEST_CHECKOUT_DETAILS, delivery: RECIPIENT },
    });
    // Nothing to receive: the files are at the workshop, the copy waits for the payment only.
    expect(await orderRow(started.orderId)).toMatchObject({ stage: 'received', payment_status: 'pending' });
    await payByCard(started.orderId, 3870);
    expect(await orderRow(started.orderId)).toMatchObject({ payment_status: 'paid' });
    const { rows: invoices } = await db().execute<{ amount: number }>(
      sql`select amount from invoices where order_id = ${started.orderId}`,
    );
    expect(invoices.map((invoice) => invoice.amount)).toEqual([3870]);

    const board = await loadWorkshopBoard(parseBoardParams(new URLSearchParams()));
    const card = board.flatMap((column) => column.cards).find((c) => c.id === started.orderId);
    expect(card?.stage).toBe('received');
    expect(card?.copy).toMatchObject({
      sourceNumber: source.number,
      medium: 'usb',
      copies: 2,
      fileCount: 2,
      fileNames: ['mariage-1.jpg', 'vacances.mp4'],
      giftMessage: 'Joyeux anniversaire, Louise !',
    });
    // A copy is not held back by the withdrawal period: the workshop may start at once.
    expect(card?.notBefore).toBeNull();
  });

  it('refuses another order’s file and a deleted gallery, and orders nothing', async () => {
    const source = await publishedOrder();
    const other = await publishedOrder();
    const before = await db().execute<{ n: number }>(sql`select count(*)::int as n from orders`);
    const refused = await startExtraCopyOrder({
      sourceOrderId: source.id,
      fileIds: [other.fileIds[0] as string],
      medium: 'disc',
      quantity: 1,
      recipient: null,
      giftMessage: null,
      buyer: { user: buyer, orderedBy: buyer.id },
    });
    expect(refused).toMatchObject({ ok: false, message: expect.stringContaining('n’est plus disponible') });
    await db().execute(sql`update orders set files_deleted_at = now() where id = ${source.id}`);
    const gone = await startExtraCopyOrder({
      sourceOrderId: source.id,
      fileIds: 'all',
      medium: 'usb',
      quantity: 1,
      recipient: null,
      giftMessage: null,
      buyer: { user: buyer, orderedBy: buyer.id },
    });
    expect(gone).toMatchObject({ ok: false, message: expect.stringContaining('ne sont plus disponibles') });
    const after = await db().execute<{ n: number }>(sql`select count(*)::int as n from orders`);
    expect(after.rows[0]?.n).toBe(before.rows[0]?.n);
  });
});

describe('the paid retention extension', () => {
  it('extends the source order’s files by a year once paid, and never reaches the board', async () => {
    const source = await publishedOrder();
    const expiresBefore = new Date(String((await orderRow(source.id))?.files_expire_at));
    const started = await startRetentionExtensionOrder({
      sourceOrderId: source.id,
      buyer: { user: buyer, orderedBy: buyer.id },
    });
    if (!started.ok) throw new Error(started.message);
    expect(started.totalPriceCents).toBe(1200);
    await confirmCheckout({ orderId: started.orderId, method: 'card', actor: buyer.id, accessToken: null });
    // Not paid yet: the files keep their date.
    expect(new Date(String((await orderRow(source.id))?.files_expire_at)).getTime()).toBe(expiresBefore.getTime());
    // A second one while the first waits for its payment is refused.
    const second = await startRetentionExtensionOrder({
      sourceOrderId: source.id,
      buyer: { user: buyer, orderedBy: buyer.id },
    });
    expect(second).toMatchObject({ ok: false });

    await payByCard(started.orderId, 1200);
    const after = new Date(String((await orderRow(source.id))?.files_expire_at));
    expect(after.getTime() - expiresBefore.getTime()).toBe(365 * DAY);
    expect(await orderRow(started.orderId)).toMatchObject({ status: 'completed', payment_status: 'paid' });
    const { rows: invoices } = await db().execute<{ amount: number }>(
      sql`select amount from invoices where order_id = ${started.orderId}`,
    );
    expect(invoices.map((invoice) => invoice.amount)).toEqual([1200]);
    const board = await loadWorkshopBoard(parseBoardParams(new URLSearchParams()));
    expect(board.flatMap((column) => column.cards).some((c) => c.id === started.orderId)).toBe(false);
  });
});
