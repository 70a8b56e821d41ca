import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestOrder } from '../../../tests/support/orders';
import { registeredAccount, requestWith, TEST_BASE } from '../account/testing/fixtures';
import { db } from '../db/client.server';
import { getFilesAccess, loadFilesSummary } from './gallery.server';
import { storeOrderFile } from './order-files.server';
import { createLocalStorage, type FileStorage } from './storage.server';

/*
 * The order page's « Vos fichiers »: it counted 0 files with 41 delivered, the
 * subquery comparing the files' own id with itself. And the files' addresses follow the order-viewer
 * rule: a signed-out owner is sent to sign in and back, a guest's order stays a 404 without its token.
 */

process.env.BASE_URL = TEST_BASE;
const databaseUrl = () => process.env.DATABASE_URL as string;
let folder: string;
let storage: FileStorage;
let adminId: string;

beforeAll(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-gallery-'));
  storage = createLocalStorage(folder);
  adminId = `user_${randomUUID()}`;
  await db().execute(sql`
    insert into "user" (id, name, email, role) values (${adminId}, 'Admin', ${`${adminId}@example.fr`}, 'admin')`);
});
afterAll(() => fs.rm(folder, { recursive: true, force: true }));

const addFile = (orderId: string, name: string, size: number) =>
  storeOrderFile(
    { orderId, name, support: 'photos', body: Readable.from([randomBytes(size)]), uploadedBy: adminId },
    { storage },
  );

describe('the files summary of the order page', () => {
  it('counts the live files of this order and their bytes, not another order’s nor deleted ones', async () => {
    const order = await insertTestOrder(databaseUrl(), { paymentStatus: 'paid', status: 'processing' });
    const other = await insertTestOrder(databaseUrl(), { paymentStatus: 'paid', status: 'processing' });
    for (let i = 0; i < 3; i += 1) await addFile(order.id, `photo-${i}.jpg`, 1000 + i);
    const gone = await addFile(order.id, 'retiree.jpg', 5000);
    await addFile(other.id, 'autre.jpg', 7000);
    await db().execute(sql`update order_files set deleted_at = now() where id = ${gone.file.id}`);

    // Not published yet: the page says nothing of the files.
    expect(await loadFilesSummary(order.id)).toBeNull();
    await db().execute(sql`update orders set files_published_at = now() where id in (${order.id}, ${other.id})`);

    expect(await loadFilesSummary(order.id)).toMatchObject({ count: 3, bytes: 1000 + 1001 + 1002 });
    expect(await loadFilesSummary(other.id)).toMatchObject({ count: 1, bytes: 7000 });
  });
});

describe('who opens an order’s files', () => {
  it('sends a signed-out visitor to sign in and back to the same address when the order is an account’s', async () => {
    const owner = await registeredAccount();
    const order = await insertTestOrder(databaseUrl(), { userId: owner.id });
    const address = `/commande/${order.id}/fichiers.zip`;
    const thrown = await getFilesAccess(requestWith(address), order.id).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    const response = thrown as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe(`/login?${new URLSearchParams({ redirectTo: address })}`);
    // Its owner signed in opens it; another customer gets the 404 of an unknown order (null).
    expect((await getFilesAccess(requestWith(address, [owner.cookie]), order.id))?.viewer).toBe('owner');
    const stranger = await registeredAccount();
    expect(await getFilesAccess(requestWith(address, [stranger.cookie]), order.id)).toBeNull();
  });

  it('keeps a guest’s order behind its token: no sign-in page, a 404 without it', async () => {
    const order = await insertTestOrder(databaseUrl());
    const address = `/commande/${order.id}/fichiers`;
    expect(await getFilesAccess(requestWith(address), order.id)).toBeNull();
    const withToken = requestWith(address, [order.cookie as string]);
    expect((await getFilesAccess(withToken, order.id))?.viewer).toBe('guest');
  });
});
