import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NBSP } from '~/domain/format';
import { DEFAULT_PRICE_LIST } from '~/domain/pricing/default-price-list';
import { priceLine } from '~/domain/pricing/pricing';
import { payByCard } from '../../../tests/support/card-payment';
import { insertTestOrder } from '../../../tests/support/orders';
import { db } from '../db/client.server';
import { storeOrderFile } from '../files/order-files.server';
import { publishOrderFiles } from '../files/publish.server';
import { createLocalStorage, type FileStorage } from '../files/storage.server';
import { closeLapsedReviews, sendReviewReminders, submitSelection } from './preview-keep.server';

/*
 * « Preview and keep » (decision 030) on a real database: an order of 50 slides paid by card
 * is published for review; the customer drops 10 and is refunded exactly, with a credit note, in
 * the lifecycle; above the limit nothing changes; a lapsed review keeps everything; the dropped
 * files leave the storage.
 */

const databaseUrl = () => process.env.DATABASE_URL as string;
let folder: string;
let storage: FileStorage;
let adminId: string;
const SLIDES = 50;
const LINE = {
  type: 'slides',
  quantity: SLIDES,
  quality: 'standard',
  resolution: '2400dpi',
  format: 'jpeg',
  restoration: 0,
  denoise: false,
  reelSize: null,
} as const;

beforeAll(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-keep-'));
  storage = createLocalStorage(folder);
  adminId = `user_${randomUUID()}`;
  await db().execute(sql`
    insert into "user" (id, name, email, role) values (${adminId}, 'Admin', ${`${adminId}@example.fr`}, 'admin')`);
});
afterAll(() => fs.rm(folder, { recursive: true, force: true }));

/** A guest order of 50 slides delivered online, paid by card (invoice), checked by the workshop, its files uploaded. */
async function slidesOrder() {
  const order = await insertTestOrder(databaseUrl());
  const line = priceLine(DEFAULT_PRICE_LIST, LINE).lineTotalCents;
  await db().execute(sql`delete from order_items where order_id = ${order.id}`);
  await db().execute(sql`
    insert into order_items (order_id, position, type, quantity, quality, resolution, format, restoration, denoise,
      reel_size, unit_price, line_total)
    values (${order.id}, 0, 'slides', ${SLIDES}, 'standard', '2400dpi', 'jpeg', 0, false, null, 45, ${line})`);
  await db().execute(sql`
    update orders set base_price = ${line}, denoise_price = 0, delivery_method = 'digital', delivery_cost = 0,
      total_price = ${line}, placed_at = now() where id = ${order.id}`);
  await payByCard(order.id, line);
  await db().execute(
    sql`update orders set stage = 'quality_check', status = 'processing', received_at = now() where id = ${order.id}`,
  );
  const ids: string[] = [];
  for (let i = 1; i <= SLIDES; i++) {
    const file = await storeOrderFile(
      {
        orderId: order.id,
        name: `Diapo ${String(i).padStart(3, '0')}.jpg`,
        support: 'slides',
        body: Readable.from([randomBytes(64)]),
        uploadedBy: adminId,
      },
      { storage },
    );
    ids.push(file.file.id);
  }
  return { ...order, totalCents: line, fileIds: ids };
}

async function orderRow(orderId: string) {
  const result = await db().execute<{
    payment_status: string;
    stage: string;
    files_published_at: Date | null;
    live: number;
    credited: number;
    notes: number;
    refunded: number;
  }>(sql`
    select payment_status, stage, files_published_at,
      (select count(*)::int from order_files f where f.order_id = o.id and f.deleted_at is null) as live,
      (select coalesce(sum(c.amount), 0)::int from credit_notes c where c.order_id = o.id) as credited,
      (select count(*)::int from credit_notes c where c.order_id = o.id) as notes,
      (select coalesce(sum(r.amount), 0)::int from refunds r where r.order_id = o.id and r.status = 'succeeded') as refunded
    from orders o where o.id = ${orderId}`);
  return result.rows[0];
}

describe('preview and keep', () => {
  it('« Publier la livraison » publishes slides for review, with the e-mail, not for delivery', async () => {
    const order = await slidesOrder();
    const published = await publishOrderFiles(order.id, adminId);
    expect(published).toMatchObject({ ok: true, review: { fileCount: SLIDES } });
    expect((await orderRow(order.id))?.files_published_at).toBeNull();
    const mails = await db().execute<{ template: string }>(
      sql`select template from email_outbox where order_id = ${order.id} and template = 'review-open'`,
    );
    expect(mails.rows).toHaveLength(1);
    // Published again while open: the lifecycle's French refusal, nothing changes.
    expect(await publishOrderFiles(order.id, adminId)).toMatchObject({
      ok: false,
      code: 'review_open',
    });
  });

  it('refunds exactly the dropped slides with a credit note, deletes their files and delivers the rest', async () => {
    const order = await slidesOrder();
    await publishOrderFiles(order.id, adminId);
    const dropped = order.fileIds.slice(0, 10);
    const keys = await db().execute<{ storage_key: string }>(
      sql`select storage_key from order_files where id in ${sql.raw(`('${dropped.join("','")}')`)}`,
    );
    const result = await submitSelection({
      orderId: order.id,
      kept: new Set(order.fileIds.slice(10)),
      storage,
    });
    const expected =
      priceLine(DEFAULT_PRICE_LIST, LINE).lineTotalCents -
      priceLine(DEFAULT_PRICE_LIST, { ...LINE, quantity: SLIDES - 10 }).lineTotalCents;
    expect(expected).toBe(450);
    expect(result).toMatchObject({ ok: true, droppedCount: 10, refundCents: expected, delivered: true });
    expect(result.ok && result.refund?.ok && result.refund.creditNoteNumber).toMatch(/AV-\d{4}-\d{6}$/);
    expect(await orderRow(order.id)).toMatchObject({
      payment_status: 'partially_refunded',
      stage: 'ready',
      live: SLIDES - 10,
      credited: expected,
      notes: 1,
      refunded: expected,
    });
    expect(await orderRow(order.id).then((row) => row?.files_published_at)).not.toBeNull();
    for (const { storage_key } of keys.rows) expect(await storage.stat(storage_key)).toBeNull();
    const drops = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from order_review_drops where order_id = ${order.id}`,
    );
    expect(drops.rows[0]?.n).toBe(10);
    const mails = await db().execute<{ template: string }>(
      sql`select template from email_outbox where order_id = ${order.id} and template in ('refund-issued', 'order-ready') order by template`,
    );
    expect(mails.rows.map((row) => row.template)).toEqual(['order-ready', 'refund-issued']);
    // Closed: a second post changes nothing.
    expect(await submitSelection({ orderId: order.id, kept: new Set(), storage })).toMatchObject({ ok: false });
  });

  it('refuses a selection above the limit in French and changes nothing', async () => {
    const order = await slidesOrder();
    await publishOrderFiles(order.id, adminId);
    const before = await orderRow(order.id);
    const result = await submitSelection({ orderId: order.id, kept: new Set(order.fileIds.slice(11)), storage });
    expect(result).toEqual({
      ok: false,
      status: 400,
      message: `Vous retirez 11${NBSP}fichiers${NBSP}: au plus 10 (20${NBSP}% des fichiers) peuvent être retirés. Rien n’a été modifié${NBSP}; cochez davantage de fichiers à garder.`,
    });
    expect(await orderRow(order.id)).toEqual(before);
    const review = await db().execute<{ closed_at: Date | null }>(
      sql`select closed_at from order_reviews where order_id = ${order.id}`,
    );
    expect(review.rows[0]?.closed_at).toBeNull();
  });

  it('reminds before the end, then keeps and delivers everything once the period lapsed', async () => {
    const order = await slidesOrder();
    const opened = new Date();
    await publishOrderFiles(order.id, adminId, { now: opened });
    const days = DEFAULT_PRICE_LIST.previewAndKeep.reviewDays;
    const nearEnd = new Date(opened.getTime() + (days - 1) * 86_400_000);
    expect(await sendReviewReminders(nearEnd)).toBeGreaterThanOrEqual(1);
    expect(await sendReviewReminders(nearEnd)).toBe(0);
    const after = new Date(opened.getTime() + (days + 1) * 86_400_000);
    expect(await closeLapsedReviews(after, storage)).toBeGreaterThanOrEqual(1);
    expect(await orderRow(order.id)).toMatchObject({
      payment_status: 'paid',
      live: SLIDES,
      credited: 0,
      stage: 'ready',
    });
    expect(await orderRow(order.id).then((row) => row?.files_published_at)).not.toBeNull();
    const review = await db().execute<{ closed_by: string; dropped_count: number }>(
      sql`select closed_by, dropped_count from order_reviews where order_id = ${order.id}`,
    );
    expect(review.rows[0]).toEqual({ closed_by: 'system', dropped_count: 0 });
  });
});
