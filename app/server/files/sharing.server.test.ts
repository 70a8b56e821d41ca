import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARE_MAX_INVITATIONS_PER_DAY, type ShareFormInput } from '~/domain/files/sharing';
import { insertTestOrder } from '../../../tests/support/orders';
import { db } from '../db/client.server';
import { revealEmailData } from '../email/sealed-data.server';
import { findOrderFile, loadGalleryPage } from './gallery.server';
import { storeOrderFile } from './order-files.server';
import { countShareAccess, createShare, listShares, lookUpShare, revokeShare, shareSelection } from './sharing.server';
import { createLocalStorage, type FileStorage } from './storage.server';
import { zipSourcesOf } from './zip-stream.server';

/*
 * « Partager avec la famille » against a real PostgreSQL: the token kept only as its hash (and
 * sealed), the selection's boundaries on every way the files are served (gallery page, one file,
 * ZIP), expiry, revocation and the files' deletion ending a share, the access count, the
 * invitations queued one per address with the customer as Reply-To, and token guessing limited.
 */

let folder: string;
let storage: FileStorage;
const adminId = `user_${randomUUID()}`;

beforeAll(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-sharing-'));
  storage = createLocalStorage(folder);
  await db().execute(sql`
    insert into "user" (id, name, email, role) values (${adminId}, 'Admin', ${`${adminId}@example.fr`}, 'admin')`);
});
afterAll(() => fs.rm(folder, { recursive: true, force: true }));

/** A guest order (Marie Curie, invite@example.fr) with published files. */
async function orderWithFiles(names: string[], options: { userId?: string } = {}) {
  const order = await insertTestOrder(process.env.DATABASE_URL as string, {
    paymentStatus: 'paid',
    status: 'processing',
    ...options,
  });
  const files = [];
  for (const name of names) {
    const stored = await storeOrderFile(
      { orderId: order.id, name, support: 'photos', body: Readable.from([randomBytes(1500)]), uploadedBy: adminId },
      { storage },
    );
    files.push(stored.file);
  }
  await db().execute(
    sql`update orders set files_published_at = now(), files_expire_at = now() + interval '60 days' where id = ${order.id}`,
  );
  return { order, files };
}

function form(overrides: Partial<ShareFormInput> = {}): ShareFormInput {
  return {
    scope: 'all',
    fileIds: [],
    allowDownloads: true,
    days: 30,
    emails: [],
    label: null,
    message: null,
    ...overrides,
  };
}

let ip = 0;
/** A request from a client address of its own (the rate limit counts per address). */
function requestFrom(address = `10.0.0.${++ip}`): Request {
  return new Request('http://localhost/partage/x', { headers: { 'x-soovenirs-client-ip': address } });
}

async function open(token: string) {
  const lookup = await lookUpShare(requestFrom(), token);
  if (lookup.kind !== 'open') throw new Error(`expected an open share, got ${lookup.kind}`);
  return lookup.share;
}

describe('family shares', () => {
  it('keeps only the token’s hash (and a sealed copy), 256 bits, base64url', async () => {
    const { order } = await orderWithFiles(['a.jpg']);
    const result = await createShare({ orderId: order.id, createdBy: 'guest', form: form() });
    if (!result.ok) throw new Error(result.error);
    expect(result.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(result.token, 'base64url')).toHaveLength(32);
    const { rows } = await db().execute<Record<string, unknown>>(
      sql`select * from file_shares where id = ${result.shareId}`,
    );
    const row = rows[0] as Record<string, unknown>;
    expect(row.token_hash).toBe(createHash('sha256').update(result.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(result.token);
    expect(row.sharer_name).toBe('Marie C.');
    // The customer can copy the link again.
    const [listed] = await listShares(order.id);
    expect(listed?.path).toBe(`/partage/${result.token}`);
    // Another token of the same length opens nothing.
    expect((await lookUpShare(requestFrom(), randomBytes(32).toString('base64url'))).kind).toBe('unknown');
  });

  it('serves only the selection: gallery page, one file, ZIP; another share’s file is not found', async () => {
    const { order, files } = await orderWithFiles(['1.jpg', '2.jpg', '3.jpg']);
    const [one, two, three] = files as [(typeof files)[0], (typeof files)[0], (typeof files)[0]];
    const first = await createShare({
      orderId: order.id,
      createdBy: 'guest',
      form: form({ scope: 'selection', fileIds: [one.id, three.id] }),
    });
    const second = await createShare({
      orderId: order.id,
      createdBy: 'guest',
      form: form({ scope: 'selection', fileIds: [two.id] }),
    });
    if (!first.ok || !second.ok) throw new Error('shares not created');
    const share = await open(first.token);
    const within = shareSelection(share);
    const page = await loadGalleryPage(order.id, 1, db(), within);
    expect(page.files.map((file) => file.name)).toEqual(['1.jpg', '3.jpg']);
    expect(page.totalCount).toBe(2);
    expect(page.totalBytes).toBe(3000);
    expect(await findOrderFile(order.id, one.id, db(), within)).not.toBeNull();
    expect(await findOrderFile(order.id, two.id, db(), within)).toBeNull();
    expect((await zipSourcesOf(order.id, null, db(), within)).map((source) => source.name)).toEqual([
      'Photos papier/1.jpg',
      'Photos papier/3.jpg',
      // Then the manifest of these files (zip-manifest.ts).
      'MANIFESTE.csv',
    ]);
    // The second share's token does not reach the first's files, nor the first the second's.
    const other = shareSelection(await open(second.token));
    expect(await findOrderFile(order.id, one.id, db(), other)).toBeNull();
    expect(await findOrderFile(order.id, two.id, db(), other)).not.toBeNull();
    // A file of another order, even under a share of « all » files.
    const { files: elsewhere } = await orderWithFiles(['ailleurs.jpg']);
    const all = await createShare({ orderId: order.id, createdBy: 'guest', form: form() });
    if (!all.ok) throw new Error(all.error);
    const everything = await open(all.token);
    expect(shareSelection(everything)).toBeUndefined();
    expect(await findOrderFile(everything.orderId, elsewhere[0]?.id as string, db(), undefined)).toBeNull();
    expect((await loadGalleryPage(order.id, 1, db(), shareSelection(everything))).totalCount).toBe(3);
    // A file deleted from the order leaves the selection too.
    await db().execute(sql`update order_files set deleted_at = now() where id = ${three.id}`);
    expect((await loadGalleryPage(order.id, 1, db(), within)).files.map((file) => file.name)).toEqual(['1.jpg']);
  });

  it('refuses a selection holding another order’s file, in French, and writes nothing', async () => {
    const { order } = await orderWithFiles(['mine.jpg']);
    const { files: theirs } = await orderWithFiles(['theirs.jpg']);
    const result = await createShare({
      orderId: order.id,
      createdBy: 'guest',
      form: form({ scope: 'selection', fileIds: [theirs[0]?.id as string], emails: ['tante@example.fr'] }),
    });
    expect(result).toEqual({ ok: false, error: 'Un des fichiers cochés n’est plus dans votre commande.' });
    expect(await listShares(order.id)).toEqual([]);
    const { rows } = await db().execute(sql`select 1 from email_outbox where order_id = ${order.id}`);
    expect(rows).toEqual([]);
  });

  it('refuses to share files not published yet, or deleted', async () => {
    const order = await insertTestOrder(process.env.DATABASE_URL as string, { paymentStatus: 'paid' });
    expect(await createShare({ orderId: order.id, createdBy: 'guest', form: form() })).toMatchObject({ ok: false });
    const { order: gone } = await orderWithFiles(['x.jpg']);
    await db().execute(sql`update orders set files_deleted_at = now() where id = ${gone.id}`);
    expect(await createShare({ orderId: gone.id, createdBy: 'guest', form: form() })).toMatchObject({ ok: false });
  });

  it('ends at its expiry, when revoked, and when the files are deleted', async () => {
    const { order } = await orderWithFiles(['a.jpg']);
    const made = async () => {
      const result = await createShare({ orderId: order.id, createdBy: 'guest', form: form({ days: 7 }) });
      if (!result.ok) throw new Error(result.error);
      return result;
    };
    const expiring = await made();
    const { rows } = await db().execute<{ days: number }>(
      sql`select extract(epoch from expires_at - created_at) / 86400 as days from file_shares where id = ${expiring.shareId}`,
    );
    expect(Number(rows[0]?.days)).toBeCloseTo(7, 3);
    expect((await lookUpShare(requestFrom(), expiring.token)).kind).toBe('open');
    await db().execute(
      sql`update file_shares set expires_at = now() - interval '1 second' where id = ${expiring.shareId}`,
    );
    expect((await lookUpShare(requestFrom(), expiring.token)).kind).toBe('ended');

    const revoked = await made();
    expect(await revokeShare(order.id, revoked.shareId)).toBe(true);
    expect(await revokeShare(order.id, revoked.shareId)).toBe(false);
    expect((await lookUpShare(requestFrom(), revoked.token)).kind).toBe('ended');
    // Another order's page cannot revoke it.
    const { order: stranger } = await orderWithFiles(['b.jpg']);
    const kept = await made();
    expect(await revokeShare(stranger.id, kept.shareId)).toBe(false);
    expect((await lookUpShare(requestFrom(), kept.token)).kind).toBe('open');

    await db().execute(sql`update orders set files_deleted_at = now() where id = ${order.id}`);
    expect((await lookUpShare(requestFrom(), kept.token)).kind).toBe('ended');
    const states = (await listShares(order.id)).map((share) => share.state).sort();
    expect(states).toEqual(['expired', 'expired', 'revoked']);
  });

  it('never outlives the files’ retention', async () => {
    const { order } = await orderWithFiles(['a.jpg']);
    await db().execute(sql`update orders set files_expire_at = now() + interval '10 days' where id = ${order.id}`);
    const result = await createShare({ orderId: order.id, createdBy: 'guest', form: form({ days: 365 }) });
    if (!result.ok) throw new Error(result.error);
    const [share] = await listShares(order.id);
    const days = ((share?.expiresAt.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(9.9);
    expect(days).toBeLessThan(10.1);
  });

  it('counts the visits and the last one, shown to the customer', async () => {
    const { order } = await orderWithFiles(['a.jpg']);
    const result = await createShare({ orderId: order.id, createdBy: 'guest', form: form() });
    if (!result.ok) throw new Error(result.error);
    expect((await listShares(order.id))[0]).toMatchObject({ accessCount: 0, lastAccessAt: null });
    await countShareAccess(result.shareId);
    await countShareAccess(result.shareId);
    const [share] = await listShares(order.id);
    expect(share?.accessCount).toBe(2);
    expect(Math.abs((share?.lastAccessAt?.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
  });

  it('queues one invitation per address, the link sealed, answering to the customer', async () => {
    const { order } = await orderWithFiles(['a.jpg', 'b.jpg']);
    const made = await createShare({
      orderId: order.id,
      createdBy: 'guest',
      form: form({
        emails: ['tante.jeanne@example.fr', 'cousin@example.fr'],
        allowDownloads: false,
        message: 'Les photos de mamie !',
      }),
    });
    if (!made.ok) throw new Error(made.error);
    const { rows } = await db().execute<{ to: string; data: unknown; status: string }>(
      sql`select "to", data, status from email_outbox
           where order_id = ${order.id} and template = 'share-invitation' and dedupe_key like ${`share-invitation:${made.shareId}:%`}
           order by "to"`,
    );
    expect(rows.map((row) => row.to)).toEqual(['cousin@example.fr', 'tante.jeanne@example.fr']);
    for (const row of rows) {
      expect(JSON.stringify(row.data)).not.toContain(made.token);
      expect(revealEmailData('share-invitation', row.data)).toMatchObject({
        sharerName: 'Marie C.',
        shareUrl: `/partage/${made.token}`,
        allowDownloads: false,
        fileCount: 2,
        message: 'Les photos de mamie !',
        replyTo: 'invite@example.fr',
      });
    }
    // Invited together: listed by address.
    expect((await listShares(order.id)).find((share) => share.id === made.shareId)?.invited).toEqual([
      'cousin@example.fr',
      'tante.jeanne@example.fr',
    ]);
  });

  it('limits the invitations an order sends in a day', async () => {
    const { order } = await orderWithFiles(['a.jpg']);
    const addresses = (from: number, n: number) => Array.from({ length: n }, (_, i) => `proche${from + i}@example.fr`);
    for (let sent = 0; sent < SHARE_MAX_INVITATIONS_PER_DAY; sent += 10) {
      const result = await createShare({
        orderId: order.id,
        createdBy: 'guest',
        form: form({ emails: addresses(sent, 10) }),
      });
      expect(result.ok).toBe(true);
    }
    const refused = await createShare({
      orderId: order.id,
      createdBy: 'guest',
      form: form({ emails: ['une.de.trop@example.fr'] }),
    });
    expect(refused).toMatchObject({ ok: false, error: expect.stringContaining('beaucoup d’invitations') });
    // A link without invitation is still possible.
    expect((await createShare({ orderId: order.id, createdBy: 'guest', form: form() })).ok).toBe(true);
  });

  it('limits token guessing per client: past the limit every share address answers 429, a valid one too', async () => {
    process.env.SHARE_RATE_LIMIT = '3';
    try {
      const { order } = await orderWithFiles(['a.jpg']);
      const made = await createShare({ orderId: order.id, createdBy: 'guest', form: form() });
      if (!made.ok) throw new Error(made.error);
      const guesser = '192.0.2.77';
      const guess = () => lookUpShare(requestFrom(guesser), randomBytes(32).toString('base64url'));
      expect((await guess()).kind).toBe('unknown');
      expect((await guess()).kind).toBe('unknown');
      expect((await guess()).kind).toBe('unknown');
      expect((await guess()).kind).toBe('limited');
      expect((await lookUpShare(requestFrom(guesser), made.token)).kind).toBe('limited');
      // Another client is not held by it, and valid tokens never count.
      expect((await lookUpShare(requestFrom('192.0.2.78'), made.token)).kind).toBe('open');
      for (let i = 0; i < 5; i++) expect((await lookUpShare(requestFrom('192.0.2.79'), made.token)).kind).toBe('open');
    } finally {
      delete process.env.SHARE_RATE_LIMIT;
    }
  });
});
