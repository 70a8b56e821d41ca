import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeS3, startFakeS3 } from '../../../tests/support/fake-s3';
import { insertTestOrder } from '../../../tests/support/orders';
import { db } from '../db/client.server';
import { revealEmailData } from '../email/sealed-data.server';
import { deleteOrderFile } from './admin-files.server';
import { storeOrderFile } from './order-files.server';
import { publishOrderFiles } from './publish.server';
import { deleteExpiredFiles, extendRetention, sendRetentionReminders } from './retention.server';
import { createLocalStorage, createS3Storage, type FileStorage, fileKey } from './storage.server';

/*
 * The retention with a moved clock, on both storages: one reminder 7 days before, then the files'
 * bytes and previews really gone (the folder / the bucket's directory left empty), the history
 * told; the staff's extension re-arms the reminder and is refused after the deletion.
 */

const DAY = 86_400_000;
let s3: FakeS3;
let folder: string;
let adminId: string;

beforeAll(async () => {
  s3 = await startFakeS3();
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-retention-'));
  adminId = `user_${randomUUID()}`;
  await db().execute(sql`
    insert into "user" (id, name, email, role) values (${adminId}, 'Admin', ${`${adminId}@example.fr`}, 'admin')`);
});
afterAll(async () => {
  await s3?.close();
  await fs.rm(folder, { recursive: true, force: true });
});

/** Every file left under a folder (the local storage, or s3rver's objects). */
async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (at: string) => {
    for (const entry of await fs.readdir(at, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) await walk(full);
      else found.push(full);
    }
  };
  await walk(dir);
  return found;
}

async function publishedOrder(storage: FileStorage, publishedAt: Date) {
  const order = await insertTestOrder(process.env.DATABASE_URL as string, {
    paymentStatus: 'paid',
    status: 'processing',
  });
  await db().execute(sql`update orders set stage = 'quality_check', received_at = now() where id = ${order.id}`);
  const keys: string[] = [];
  for (const name of ['IMG_0001.jpg', 'IMG_0002.jpg', 'cassette.mp4']) {
    const stored = await storeOrderFile(
      { orderId: order.id, name, support: 'photos', body: Readable.from([randomBytes(4000)]), uploadedBy: adminId },
      { storage },
    );
    keys.push(stored.file.storageKey);
    if (name.endsWith('.jpg')) {
      // What the previews job leaves: a thumbnail and a web-size preview next to the file.
      const thumbnail = fileKey(order.id, stored.file.id, 'thumbnail');
      const preview = fileKey(order.id, stored.file.id, 'preview');
      await storage.put(thumbnail, Readable.from([randomBytes(100)]), { contentType: 'image/jpeg' });
      await storage.put(preview, Readable.from([randomBytes(200)]), { contentType: 'image/jpeg' });
      await db().execute(
        sql`update order_files set thumbnail_key = ${thumbnail}, preview_key = ${preview}, preview_status = 'ready' where id = ${stored.file.id}`,
      );
      keys.push(thumbnail, preview);
    }
  }
  const published = await publishOrderFiles(order.id, adminId, { now: publishedAt });
  expect(published).toMatchObject({ ok: true, fileCount: 3 });
  return { order, keys, expiresAt: published.ok ? published.expiresAt : new Date(0) };
}

async function historyOf(orderId: string) {
  const rows = await db().execute<{ kind: string; actor: string; data: Record<string, unknown> }>(
    sql`select kind, actor, data from order_events where order_id = ${orderId} and kind like 'files_%' order by id`,
  );
  return rows.rows;
}

async function reminders(orderId: string) {
  const rows = await db().execute<{ data: unknown; dedupe_key: string }>(
    sql`select data, dedupe_key from email_outbox where order_id = ${orderId} and template = 'files-expiring' order by created_at`,
  );
  return rows.rows.map((row) => revealEmailData('files-expiring', row.data) as Record<string, unknown>);
}

/*
 * Each test runs the jobs at its own clock, earlier than every order of the tests before it, so
 * that no job sweeps another test's orders: the years go down.
 */
const backends: Record<string, { storage: () => FileStorage; directory: () => string; year: number }> = {
  'a folder in DATA_DIR': { storage: () => createLocalStorage(folder), directory: () => folder, year: 2090 },
  'S3-compatible object storage (s3rver)': {
    storage: () => createS3Storage(s3.settings),
    directory: () => s3.directory,
    year: 2070,
  },
};

describe.each(Object.entries(backends))('retention of the delivered files on %s', (_name, backend) => {
  it('reminds once 7 days before, then deletes every byte and preview and records it', async () => {
    const storage = backend.storage();
    const publishedAt = new Date(Date.UTC(backend.year, 0, 10));
    const { order, keys, expiresAt } = await publishedOrder(storage, publishedAt);
    expect(expiresAt.getTime()).toBe(publishedAt.getTime() + 60 * DAY);
    for (const key of keys) expect(await storage.stat(key)).not.toBeNull();

    // 8 days before: nothing yet.
    expect(await sendRetentionReminders(new Date(expiresAt.getTime() - 8 * DAY))).toBe(0);
    // 7 days before: the reminder, once, whatever the number of runs.
    const reminderAt = new Date(expiresAt.getTime() - 7 * DAY + 60_000);
    expect(await sendRetentionReminders(reminderAt)).toBe(1);
    expect(await sendRetentionReminders(reminderAt)).toBe(0);
    expect(await sendRetentionReminders(new Date(reminderAt.getTime() + DAY))).toBe(0);
    const [reminder, ...more] = await reminders(order.id);
    expect(more).toHaveLength(0);
    expect(reminder).toMatchObject({ expiresAt: expiresAt.toISOString(), fileCount: 3, totalBytes: 12_000 });
    expect(String(reminder?.galleryUrl)).toMatch(new RegExp(`/commande/${order.id}/fichiers\\?token=`));

    // Not before the expiry.
    expect(await deleteExpiredFiles(new Date(expiresAt.getTime() - 1000), storage)).toMatchObject({ orders: 0 });
    for (const key of keys) expect(await storage.stat(key)).not.toBeNull();

    const deletedAt = new Date(expiresAt.getTime() + 60_000);
    // Two instances at once: the order is claimed by one of them, its files deleted once.
    const runs = await Promise.all([deleteExpiredFiles(deletedAt, storage), deleteExpiredFiles(deletedAt, storage)]);
    expect(
      runs.reduce((sum, run) => ({
        orders: sum.orders + run.orders,
        files: sum.files + run.files,
        failed: sum.failed + run.failed,
      })),
    ).toEqual({ orders: 1, files: 3, failed: 0 });
    for (const key of keys) expect(await storage.stat(key)).toBeNull();
    // Nothing of the order is left where the bytes were.
    expect((await filesUnder(backend.directory())).filter((file) => file.includes(order.id))).toEqual([]);
    // Idempotent: a second run (another instance) finds nothing to do.
    expect(await deleteExpiredFiles(deletedAt, storage)).toEqual({ orders: 0, files: 0, failed: 0 });

    const rows = await db().execute<{ deleted: number; files_deleted_at: string }>(sql`
      select (select count(*)::int from order_files f where f.order_id = o.id and f.deleted_at is not null) as deleted,
        o.files_deleted_at from orders o where o.id = ${order.id}`);
    expect(rows.rows[0]?.deleted).toBe(3);
    expect(new Date(rows.rows[0]?.files_deleted_at as string)).toEqual(deletedAt);
    expect(await historyOf(order.id)).toEqual([
      expect.objectContaining({ kind: 'files_published', actor: adminId }),
      expect.objectContaining({
        kind: 'files_expiry_reminder',
        actor: 'system',
        data: { expiresAt: expiresAt.toISOString() },
      }),
      expect.objectContaining({ kind: 'files_deleted', actor: 'system', data: { fileCount: 3, reason: 'retention' } }),
    ]);

    // Too late to extend.
    expect(await extendRetention(order.id, { kind: 'days', days: 30 }, adminId, { now: deletedAt })).toEqual({
      ok: false,
      message: 'Les fichiers de cette commande ont déjà été supprimés : leur conservation ne peut plus être prolongée.',
    });

    // Files delivered again after the deletion (a rework): online again, the e-mail links them.
    await storeOrderFile(
      {
        orderId: order.id,
        name: 'IMG_0001.jpg',
        support: 'photos',
        body: Readable.from([randomBytes(10)]),
        uploadedBy: adminId,
      },
      { storage },
    );
    const again = await publishOrderFiles(order.id, adminId, { now: new Date(deletedAt.getTime() + DAY) });
    expect(again).toMatchObject({ ok: true, fileCount: 1 });
    const online = await db().execute<{ files_deleted_at: string | null }>(
      sql`select files_deleted_at from orders where id = ${order.id}`,
    );
    expect(online.rows[0]?.files_deleted_at).toBeNull();
    const ready = await db().execute<{ data: unknown }>(
      sql`select data from email_outbox where order_id = ${order.id} and template = 'order-ready' order by created_at desc limit 1`,
    );
    expect(revealEmailData('order-ready', ready.rows[0]?.data)).toMatchObject({ fileCount: 1, totalBytes: 10 });
  });

  it('the staff extend the retention: a later date, the reminder re-armed, nothing deleted at the old date', async () => {
    const storage = backend.storage();
    const publishedAt = new Date(Date.UTC(backend.year - 10, 0, 10));
    const { order, keys, expiresAt } = await publishedOrder(storage, publishedAt);
    const reminderAt = new Date(expiresAt.getTime() - 3 * DAY);
    expect(await sendRetentionReminders(reminderAt)).toBe(1);

    // Refusals: earlier than today, not later than now, unreadable.
    expect(await extendRetention(order.id, { kind: 'until', day: '2020-01-01' }, adminId, { now: reminderAt })).toEqual(
      {
        ok: false,
        message: 'La nouvelle date ne peut pas être antérieure à aujourd’hui.',
      },
    );
    expect(
      await extendRetention(order.id, { kind: 'until', day: '2021-02-31' }, adminId, { now: reminderAt }),
    ).toMatchObject({
      ok: false,
      message: 'Indiquez une date valide.',
    });

    const extended = await extendRetention(order.id, { kind: 'days', days: 30 }, adminId, { now: reminderAt });
    expect(extended).toEqual({ ok: true, expiresAt: new Date(expiresAt.getTime() + 30 * DAY) });
    const [row] = (
      await db().execute<{ files_reminder_sent_at: Date | null }>(
        sql`select files_reminder_sent_at from orders where id = ${order.id}`,
      )
    ).rows;
    expect(row?.files_reminder_sent_at).toBeNull();

    // The old date passes: nothing is deleted.
    expect(await deleteExpiredFiles(new Date(expiresAt.getTime() + DAY), storage)).toMatchObject({ orders: 0 });
    for (const key of keys) expect(await storage.stat(key)).not.toBeNull();
    // A new reminder before the new date.
    expect(await sendRetentionReminders(new Date(expiresAt.getTime() + 25 * DAY))).toBe(1);
    expect((await reminders(order.id)).map((r) => r.expiresAt)).toEqual([
      expiresAt.toISOString(),
      new Date(expiresAt.getTime() + 30 * DAY).toISOString(),
    ]);
    const history = await historyOf(order.id);
    expect(history.map((entry) => entry.kind)).toEqual([
      'files_published',
      'files_expiry_reminder',
      'files_retention_extended',
      'files_expiry_reminder',
    ]);
    expect(history[2]?.data).toMatchObject({ expiresAt: new Date(expiresAt.getTime() + 30 * DAY).toISOString() });

    // The staff delete one file: its bytes and previews go, the history tells.
    const files = await db().execute<{ id: string; storage_key: string }>(
      sql`select id, storage_key from order_files where order_id = ${order.id} and name = 'IMG_0001.jpg'`,
    );
    const file = files.rows[0] as { id: string; storage_key: string };
    expect(await deleteOrderFile(order.id, file.id, adminId, { storage })).toEqual({
      ok: true,
      message: 'Le fichier IMG_0001.jpg est supprimé.',
    });
    expect(await storage.stat(file.storage_key)).toBeNull();
    expect(await storage.stat(fileKey(order.id, file.id, 'thumbnail'))).toBeNull();
    expect(await deleteOrderFile(order.id, file.id, adminId, { storage })).toMatchObject({ ok: false });
    expect((await historyOf(order.id)).at(-1)).toMatchObject({
      kind: 'files_deleted',
      data: { fileCount: 1, reason: 'staff', fileName: 'IMG_0001.jpg' },
    });
  });
});
