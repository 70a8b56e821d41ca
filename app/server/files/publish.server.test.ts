import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION_DAYS } from '~/domain/files/delivered-files';
import { insertTestOrder } from '../../../tests/support/orders';
import { db } from '../db/client.server';
import { revealEmailData } from '../email/sealed-data.server';
import { accessFromLink, getOrderForViewer } from '../orders/access.server';
import { applyTransition } from '../orders/lifecycle.server';
import { storeOrderFile } from './order-files.server';
import { publishOrderFiles } from './publish.server';
import { saveFilesConfig } from './retention-settings.server';
import { createLocalStorage, type FileStorage } from './storage.server';

/*
 * « Publier la livraison »: the lifecycle's refusals in French, the expiry from the shop's setting,
 * and a guest's « Vos fichiers sont prêts » link that opens the order in any browser.
 */

const databaseUrl = () => process.env.DATABASE_URL as string;
let folder: string;
let storage: FileStorage;
let adminId: string;

beforeAll(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-publish-'));
  storage = createLocalStorage(folder);
  adminId = `user_${randomUUID()}`;
  await db().execute(sql`
    insert into "user" (id, name, email, role) values (${adminId}, 'Admin', ${`${adminId}@example.fr`}, 'admin')`);
});
afterAll(() => fs.rm(folder, { recursive: true, force: true }));

async function paidOrder(options: { paid?: boolean; userId?: string } = {}) {
  const order = await insertTestOrder(databaseUrl(), {
    paymentStatus: options.paid === false ? 'pending' : 'paid',
    status: 'processing',
    ...(options.userId ? { userId: options.userId } : {}),
  });
  await db().execute(sql`update orders set stage = 'quality_check', received_at = now() where id = ${order.id}`);
  return order;
}

const addFile = (orderId: string, name: string, bytes = randomBytes(2000)) =>
  storeOrderFile({ orderId, name, support: 'photos', body: Readable.from([bytes]), uploadedBy: adminId }, { storage });

async function outboxOf(orderId: string, template: string) {
  const result = await db().execute<{ data: unknown; to: string }>(
    sql`select data, "to" from email_outbox where order_id = ${orderId} and template = ${template} order by created_at`,
  );
  return result.rows.map((row) => ({
    to: row.to,
    data: revealEmailData(template, row.data) as Record<string, unknown>,
  }));
}

describe('publishing the files of an order', () => {
  it('refuses an unpaid order and an order without files, in French, and changes nothing', async () => {
    const unpaid = await paidOrder({ paid: false });
    await addFile(unpaid.id, 'a.jpg');
    expect(await publishOrderFiles(unpaid.id, adminId)).toEqual({
      ok: false,
      code: 'not_paid',
      message: 'La commande doit être payée avant que ses fichiers soient livrés.',
    });
    const empty = await paidOrder();
    expect(await publishOrderFiles(empty.id, adminId)).toMatchObject({
      ok: false,
      code: 'no_files',
      message: 'Aucun fichier à livrer : déposez d’abord les fichiers de la commande.',
    });
    const rows = await db().execute<{
      delivery_token_hash: string | null;
      files_published_at: Date | null;
      stage: string;
    }>(sql`select delivery_token_hash, files_published_at, stage from orders where id in (${unpaid.id}, ${empty.id})`);
    for (const row of rows.rows)
      expect(row).toEqual({ delivery_token_hash: null, files_published_at: null, stage: 'quality_check' });
    expect(await publishOrderFiles(randomUUID(), adminId)).toMatchObject({
      ok: false,
      message: 'Commande introuvable',
    });
  });

  it('publishes a guest order: « Prêt », the expiry from the setting, the e-mail whose link opens the order', async () => {
    await saveFilesConfig({ retentionDays: '45' });
    const order = await paidOrder();
    await addFile(order.id, 'Été 84/IMG_0001.jpg', randomBytes(1500));
    await addFile(order.id, 'IMG_0002.jpg', randomBytes(500));
    const now = new Date('2026-11-21T10:00:00Z');
    const result = await publishOrderFiles(order.id, adminId, { now });
    expect(result).toMatchObject({ ok: true, fileCount: 2, expiresAt: new Date('2027-01-05T10:00:00Z') });

    const [row] = (
      await db().execute<{ stage: string; status: string; files_expire_at: Date; delivery_token_hash: string }>(
        sql`select stage, status, files_expire_at, delivery_token_hash from orders where id = ${order.id}`,
      )
    ).rows;
    expect(row).toMatchObject({ stage: 'ready', status: 'completed' });
    expect(row?.delivery_token_hash).toMatch(/^[0-9a-f]{64}$/);
    const events = await db().execute<{ kind: string; data: Record<string, unknown> }>(
      sql`select kind, data from order_events where order_id = ${order.id} and kind = 'files_published'`,
    );
    expect(events.rows).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ fileCount: 2, expiresAt: '2027-01-05T10:00:00.000Z' }),
      }),
    ]);

    const [email] = await outboxOf(order.id, 'order-ready');
    expect(email?.to).toBe('invite@example.fr');
    expect(email?.data).toMatchObject({ fileCount: 2, totalBytes: 2000, expiresAt: '2027-01-05T10:00:00.000Z' });
    const link = String(email?.data.galleryUrl);
    expect(link).toMatch(new RegExp(`/commande/${order.id}/fichiers\\?token=[\\w-]{40,}$`));
    expect(result.ok && link.endsWith(`token=${result.guestToken}`)).toBe(true);

    // The link's token opens the order in a browser that never saw it: the cookie it sets is enough.
    const access = await accessFromLink(new Request(link), order.id);
    expect(access?.setCookie).toContain(`sv_order_${order.id}=`);
    const cookie = String(access?.setCookie).split(';')[0] as string;
    const viewed = await getOrderForViewer(
      new Request(link.split('?')[0] as string, { headers: { cookie } }),
      order.id,
    );
    expect(viewed?.viewer).toBe('guest');
    // Without it, a stranger gets nothing.
    expect(await getOrderForViewer(new Request(link.split('?')[0] as string), order.id)).toBeNull();

    // Published again after a rework: the first e-mail's token is kept, its link still works.
    await addFile(order.id, 'IMG_0003.jpg');
    const again = await publishOrderFiles(order.id, adminId, { now: new Date('2026-11-25T10:00:00Z') });
    expect(again).toMatchObject({ ok: true, fileCount: 3, guestToken: result.ok ? result.guestToken : '' });
    const emails = await outboxOf(order.id, 'order-ready');
    expect(emails).toHaveLength(2);
    expect(emails[1]?.data.galleryUrl).toBe(link);

    // Shipped later (the USB key): the shipping e-mail links the gallery with the same token.
    const shipped = await applyTransition(
      order.id,
      { type: 'ship', parcelNumber: '6A12345678901', carrier: 'colissimo' },
      adminId,
    );
    expect(shipped.ok).toBe(true);
    const [shipping] = await outboxOf(order.id, 'order-shipped');
    expect(shipping?.data).toMatchObject({ galleryUrl: link, fileCount: 3 });
    await saveFilesConfig({ retentionDays: String(DEFAULT_RETENTION_DAYS) });
  });

  it('an account holder’s link has no token: they sign in', async () => {
    const userId = `user_${randomUUID()}`;
    await db().execute(sql`
      insert into "user" (id, name, email, role, first_name) values (${userId}, 'Marie', ${`${userId}@example.fr`}, 'customer', 'Marie')`);
    const order = await paidOrder({ userId });
    await addFile(order.id, 'film.mp4');
    const result = await publishOrderFiles(order.id, adminId);
    expect(result).toMatchObject({ ok: true, guestToken: null });
    const [email] = await outboxOf(order.id, 'order-ready');
    expect(String(email?.data.galleryUrl)).toMatch(new RegExp(`^https?://[^/]+/commande/${order.id}/fichiers$`));
    expect(email?.data.customerName).toBe('Marie');
  });
});
