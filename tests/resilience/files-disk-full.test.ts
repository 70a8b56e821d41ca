import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOADS_PATH } from '~/domain/files/uploads';
import { createLocalStorage } from '~/server/files/storage.server';
import { ABANDONED_UPLOAD_MS, removeAbandonedUploads } from '~/server/files/uploads.server';
import { createUser, signIn } from '../support/auth';
import { insertTestOrder } from '../support/orders';
import { startServer, type TestServer } from '../support/server';
import { tusMetadata } from '../support/tus';
import { deliverPaidNotification } from './checkout-load';

/*
 * The customers' files on a small disk of their own (a 64 MiB tmpfs, made here as root; the
 * database is the tests' PostgreSQL, elsewhere): an upload that does not fit is refused at once in
 * French and nothing is written, uploads in progress count against the disk, a chunk that would eat
 * into the reserve is refused, orders keep going through with the files' disk full while readiness
 * says it is low, and an abandoned upload's removal gives its space back.
 */

const MiB = 1024 * 1024;

let filesDir: string;
let server: TestServer;
let cookie: string;
let orderId: string;

function mounted(dir: string): boolean {
  return execFileSync('findmnt', ['-n', '-o', 'FSTYPE', dir], { encoding: 'utf8' }).trim() === 'tmpfs';
}

beforeAll(async () => {
  filesDir = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-small-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', filesDir]);
  server = await startServer({
    env: {
      FILES_DIR: filesDir,
      UPLOAD_DISK_RESERVE: '8MiB',
      PAYMENT_SANDBOX: 'on',
      POST_RATE_LIMIT: '100000',
      CHECKOUT_RATE_LIMIT: '100000',
    },
  });
  // The sandbox gateway's notifications are signed with the shop's secret (checkout-load.ts).
  process.env.APP_SECRET = server.appSecret;
  const admin = await createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'admin' });
  cookie = await signIn({ url: server.url, email: admin.email });
  orderId = (await insertTestOrder(server.databaseUrl, { paymentStatus: 'paid', status: 'processing' })).id;
}, 180_000);

afterAll(async () => {
  await server?.dispose();
  if (filesDir) {
    // Unmounted only once the shop is gone: a file it still held open would make this fail (EBUSY).
    if (mounted(filesDir)) execFileSync('umount', [filesDir]);
    await fs.rm(filesDir, { recursive: true, force: true });
  }
});

async function freeBytes(): Promise<number> {
  const stats = await fs.statfs(filesDir);
  return stats.bavail * stats.bsize;
}

function create(bytes: number, filename = 'cassette.mp4') {
  return fetch(`${server.url}${UPLOADS_PATH}`, {
    method: 'POST',
    headers: {
      cookie,
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(bytes),
      'Upload-Metadata': tusMetadata({ orderId, support: 'autres', filename }),
    },
  });
}

function patch(location: string, offset: number, body: Buffer) {
  return fetch(`${server.url}${location}`, {
    method: 'PATCH',
    headers: {
      cookie,
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': String(offset),
      'Content-Type': 'application/offset+octet-stream',
    },
    body: new Uint8Array(body),
  });
}

function cancel(location: string) {
  return fetch(`${server.url}${location}`, { method: 'DELETE', headers: { cookie, 'Tus-Resumable': '1.0.0' } });
}

/**
 * The removed files the shop's process still holds open on the files' disk: their space would not
 * come back until a restart. (A stored video being read by the previews worker is fine.)
 */
async function deletedButOpen(): Promise<string[]> {
  const fdDir = `/proc/${server.process.pid}/fd`;
  const targets = await Promise.all(
    (await fs.readdir(fdDir)).map((fd) => fs.readlink(path.join(fdDir, fd)).catch(() => '')),
  );
  return targets.filter((target) => target.startsWith(filesDir) && target.endsWith(' (deleted)'));
}

async function readiness(): Promise<{ status: number; body: Record<string, string> }> {
  const response = await fetch(`${server.url}/readyz`);
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** A guest orders two VHS tapes and pays (sandbox gateway), over HTTP, as in checkout-load.ts. */
async function anOrderGoesThrough(): Promise<void> {
  const created = await fetch(`${server.url}/configurateur`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
    body: new URLSearchParams({ support: 'vhs', 'vhs.quantity': '2', intent: 'order' }),
  });
  expect(created.status, await created.clone().text()).toBe(302);
  const orderId = new URL(created.headers.get('location') ?? '', server.url).searchParams.get('orderId') ?? '';
  const orderCookie = created.headers
    .getSetCookie()
    .find((c) => c.startsWith(`sv_order_${orderId}=`))
    ?.split(';')[0];
  const checkout = await fetch(`${server.url}/api/create-checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url, cookie: orderCookie ?? '' },
    body: JSON.stringify({ orderId, customerEmail: 'invite@example.fr', returnUrl: '/' }),
  });
  expect(checkout.status, await checkout.clone().text()).toBe(200);
  const { sessionId } = (await checkout.json()) as { sessionId: string };
  const paid = await deliverPaidNotification(server.url, { orderId, sessionId, amountCents: 2 * 1700 });
  expect(paid.status, await paid.text()).toBeLessThan(300);
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query('select payment_status from orders where id = $1', [orderId]);
    expect(rows).toEqual([{ payment_status: 'paid' }]);
  } finally {
    await client.end();
  }
}

describe('the files on a small disk of their own', () => {
  it('refuses at once, in French, an upload declaring more than the free space, and writes nothing', async () => {
    expect(mounted(filesDir)).toBe(true);
    const started = performance.now();
    const refused = await create(100 * MiB);
    const ms = performance.now() - started;
    expect(refused.status).toBe(413);
    expect(await refused.text()).toMatch(
      /^Espace disque insuffisant sur le serveur\u00a0: ce fichier fait 105\u00a0Mo et il reste 5\d\u00a0Mo de place pour les dépôts\./,
    );
    // From its headers: no byte of it was asked for.
    expect(ms).toBeLessThan(2_000);
    expect(await fs.readdir(path.join(filesDir, 'uploads'))).toEqual([]);
  });

  it('counts the uploads in progress: what they declared and have not sent yet is taken', async () => {
    // 56 MiB may be declared (64 less 8 of reserve): two of 20 MiB, not a third.
    const first = await create(20 * MiB);
    const second = await create(20 * MiB);
    const third = await create(20 * MiB);
    expect([first.status, second.status, third.status]).toEqual([201, 201, 413]);
    expect(await third.text()).toContain('Espace disque insuffisant');
    // Cancelled, their promise is given back.
    for (const created of [first, second])
      expect((await cancel(created.headers.get('location') ?? '')).status).toBe(204);
    expect((await create(40 * MiB)).status).toBe(201);
    for (const name of await fs.readdir(path.join(filesDir, 'uploads'))) {
      if (name.endsWith('.json')) await cancel(`${UPLOADS_PATH}/${name.slice(0, -5)}`);
    }
  });

  it('with the disk filled by something else: chunks refused, readiness says low, orders go through', async () => {
    const created = await create(4 * MiB);
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    expect((await readiness()).body.disk).toBe('ok');

    // Another program fills the files' disk to the last byte.
    const ballast = path.join(filesDir, 'ballast');
    await fs.writeFile(ballast, Buffer.alloc((await freeBytes()) - 64 * 1024));
    const handle = await fs.open(path.join(filesDir, 'ballast-end'), 'w');
    await handle.write(Buffer.alloc(1024 * 1024)).catch((error: NodeJS.ErrnoException) => {
      expect(error.code).toBe('ENOSPC');
    });
    await handle.close();

    try {
      const chunk = await patch(location, 0, Buffer.alloc(1024 * 1024, 1));
      expect(chunk.status).toBe(413);
      expect(await chunk.text()).toContain('Le disque des fichiers du serveur est plein');
      const ready = await readiness();
      // Said, not failed: the shop keeps taking orders, its database is elsewhere.
      expect(ready).toEqual({
        status: 200,
        body: expect.objectContaining({ status: 'ok', database: 'ok', disk: 'low' }),
      });
      await anOrderGoesThrough();
    } finally {
      await fs.rm(ballast, { force: true });
      await fs.rm(path.join(filesDir, 'ballast-end'), { force: true });
    }
    expect((await readiness()).body.disk).toBe('ok');
    // Nothing removed is held open.
    expect(await deletedButOpen()).toEqual([]);
    expect((await patch(location, 0, Buffer.alloc(4 * MiB, 2))).status).toBe(204);
  });

  it('gives back the space of an upload abandoned for a day', async () => {
    const declared = 40 * MiB;
    const created = await create(declared);
    expect(created.status).toBe(201);
    const id = (created.headers.get('location') ?? '').split('/').pop() ?? '';
    expect((await patch(`${UPLOADS_PATH}/${id}`, 0, Buffer.alloc(16 * MiB, 3))).status).toBe(204);
    const during = await freeBytes();
    // Its 24 MiB still promised: nothing more than what is left fits.
    expect((await create(24 * MiB)).status).toBe(413);

    // A day without a byte, as the housekeeping finds it.
    const uploads = path.join(filesDir, 'uploads');
    const past = new Date(Date.now() - ABANDONED_UPLOAD_MS - 60_000);
    const infoPath = path.join(uploads, `${id}.json`);
    const info = JSON.parse(await fs.readFile(infoPath, 'utf8'));
    await fs.writeFile(infoPath, JSON.stringify({ ...info, creation_date: past.toISOString() }));
    await fs.utimes(path.join(uploads, id), past, past);
    const options = { storage: createLocalStorage(filesDir), s3: null, uploadsDir: uploads };
    expect(await removeAbandonedUploads(options)).toBeGreaterThanOrEqual(1);

    expect(await freeBytes()).toBeGreaterThanOrEqual(during + 16 * MiB);
    const head = await fetch(`${server.url}${UPLOADS_PATH}/${id}`, {
      method: 'HEAD',
      headers: { cookie, 'Tus-Resumable': '1.0.0' },
    });
    expect(head.status).toBe(404);
    expect((await create(declared)).status).toBe(201);
    // The removed upload is not held open by the shop: its space really came back.
    expect(await deletedButOpen()).toEqual([]);
  });
});
