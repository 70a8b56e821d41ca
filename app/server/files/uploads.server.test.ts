import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiskReserve } from '~/domain/files/disk-space';
import { decodeUploadOutcome, UPLOAD_RESULT_HEADER, UPLOADS_PATH, type UploadOutcome } from '~/domain/files/uploads';
import { pool } from '~/server/db/client.server';
import { bodyLimits } from '../../../server/body-limits';
import { startFakeS3 } from '../../../tests/support/fake-s3';
import { insertTestOrder } from '../../../tests/support/orders';
import { registeredAccount, TEST_BASE, type TestAccount } from '../account/testing/fixtures';
import { createLocalStorage, createS3Storage, type FileStorage, fileKey, type S3Settings } from './storage.server';
import { ABANDONED_UPLOAD_MS, removeAbandonedUploads, uploadsMiddleware } from './uploads.server';

// The shop's BASE_URL must be absolute before env.server is read (Vitest sets it to "/").
process.env.BASE_URL = TEST_BASE;

/*
 * The tus endpoint of the back office, served by an Express app with the shop's own body limits
 * and upload middleware, driven by the real tus-js-client over HTTP: a file cut mid-PATCH resumes
 * from the server's offset and is stored once, with the SHA-256 of its bytes, on the local folder
 * and on an S3 peer (s3rver); anyone but staff is refused in French.
 */

const CHUNK = 4 * 1024 * 1024;
let work: string;
let admin: TestAccount;
let customer: TestAccount;

beforeAll(async () => {
  work = await fsp.mkdtemp(path.join(os.tmpdir(), 'soovenirs-uploads-'));
  [admin, customer] = await Promise.all([registeredAccount('admin'), registeredAccount('customer')]);
});
afterAll(() => fsp.rm(work, { recursive: true, force: true }));

interface Shop {
  url: string;
  storage: FileStorage;
  close(): Promise<void>;
}

async function startShop(options: {
  storage: FileStorage;
  s3: S3Settings | null;
  uploadsDir: string;
  reserve?: DiskReserve;
}): Promise<Shop> {
  const app = express();
  app.use(bodyLimits());
  app.use(uploadsMiddleware(() => options));
  app.use((_req, res) => {
    res.status(404).send('pas ici');
  });
  const server: HttpServer = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    storage: options.storage,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function sampleFile(name: string, bytes: number): Promise<{ file: string; sha256: string }> {
  const file = path.join(work, name);
  const content = randomBytes(bytes);
  await fsp.writeFile(file, content);
  return { file, sha256: createHash('sha256').update(content).digest('hex') };
}

interface UploadRun {
  outcome: UploadOutcome | null;
  /** The upload's address. */
  url: string;
  /** Bytes the client had pushed when the connection was cut, and the offset it resumed from. */
  sentBeforeCut: number;
  resumedFrom: number | null;
}

/**
 * Uploads `file` with tus-js-client; with `cutAt`, the PATCH in flight is destroyed (a network cut)
 * once that many bytes were sent, and the client resumes on its own (retryDelays).
 */
function upload(
  shop: Shop,
  file: string,
  metadata: Record<string, string>,
  { cutAt, cookie = admin.cookie }: { cutAt?: number; cookie?: string } = {},
): Promise<UploadRun> {
  return new Promise((resolve, reject) => {
    let current: { getUnderlyingObject(): unknown } | null = null;
    let cut = false;
    let sentBeforeCut = 0;
    let resumedFrom: number | null = null;
    const run = new tus.Upload(fs.createReadStream(file), {
      endpoint: `${shop.url}${UPLOADS_PATH}`,
      chunkSize: CHUNK,
      retryDelays: [0, 100, 300],
      metadata,
      headers: { cookie },
      storeFingerprintForResuming: false,
      onBeforeRequest(req) {
        if (req.getMethod() === 'PATCH') {
          current = req;
          if (cut && resumedFrom === null) resumedFrom = Number(req.getHeader('Upload-Offset'));
        }
      },
      onProgress(sent) {
        if (cutAt !== undefined && !cut && sent >= cutAt && current) {
          cut = true;
          sentBeforeCut = sent;
          (current.getUnderlyingObject() as { destroy(): void }).destroy();
        }
      },
      onSuccess({ lastResponse }) {
        resolve({
          outcome: decodeUploadOutcome(lastResponse.getHeader(UPLOAD_RESULT_HEADER)),
          url: run.url ?? '',
          sentBeforeCut,
          resumedFrom,
        });
      },
      onError: reject,
    });
    run.start();
  });
}

async function storedRows(orderId: string) {
  const { rows } = await pool().query<{
    name: string;
    sha256: string;
    size_bytes: number;
    storage_key: string;
    uploaded_by: string;
    support: string;
  }>(
    'select name, sha256, size_bytes, storage_key, uploaded_by, support from order_files where order_id = $1 order by name',
    [orderId],
  );
  return rows;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

function resumeChecks(run: UploadRun, size: number) {
  // Resumed from the server's offset: what was lost in the cut is at most one chunk, and the
  // client did not start again from zero.
  expect(run.resumedFrom).not.toBeNull();
  expect(run.resumedFrom).toBeGreaterThan(0);
  expect(run.sentBeforeCut - (run.resumedFrom ?? 0)).toBeLessThanOrEqual(CHUNK);
  expect(run.resumedFrom).toBeLessThan(size);
}

describe.each(['local', 's3'] as const)('tus uploads to the %s storage', (kind) => {
  let shop: Shop;
  let uploadsDir: string;
  let s3Directory: string | null = null;
  let closeS3: (() => Promise<void>) | null = null;

  beforeAll(async () => {
    uploadsDir = path.join(work, `${kind}-uploads`);
    if (kind === 's3') {
      const fake = await startFakeS3();
      s3Directory = fake.directory;
      closeS3 = fake.close;
      shop = await startShop({ storage: createS3Storage(fake.settings), s3: fake.settings, uploadsDir });
    } else {
      shop = await startShop({ storage: createLocalStorage(path.join(work, 'files')), s3: null, uploadsDir });
    }
  });
  afterAll(async () => {
    await shop?.close();
    await closeS3?.();
  });

  it('stores a file cut mid-way once, resumed from where it stopped, with its SHA-256', async () => {
    const order = await insertTestOrder(process.env.DATABASE_URL as string, {
      paymentStatus: 'paid',
      status: 'processing',
    });
    const size = 3 * CHUNK + 12_345;
    const { file, sha256 } = await sampleFile(`${kind}-video.mp4`, size);
    const run = await upload(
      shop,
      file,
      { orderId: order.id, support: 'vhs', filename: 'Cassette 1 – Noël 1987.mp4' },
      { cutAt: Math.floor(1.5 * CHUNK) },
    );
    resumeChecks(run, size);
    expect(run.outcome).toMatchObject({ status: 'stored', name: 'Cassette 1 – Noël 1987.mp4', sha256 });

    const rows = await storedRows(order.id);
    expect(rows).toEqual([
      expect.objectContaining({
        name: 'Cassette 1 – Noël 1987.mp4',
        sha256,
        size_bytes: size,
        uploaded_by: admin.id,
        support: 'vhs',
      }),
    ]);
    const [row] = rows;
    expect(await shop.storage.stat(row?.storage_key ?? '')).toEqual({ size });
    expect(row?.storage_key).toBe(fileKey(order.id, run.outcome?.fileId ?? ''));

    // The partial upload is gone once stored (disk, or the bucket's uploads/): only its outcome is
    // kept, for a client that asks again.
    if (kind === 'local')
      expect((await listFiles(uploadsDir)).map((f) => path.relative(uploadsDir, f))).toEqual([
        `finished/${run.url.split('/').pop()}.json`,
      ]);
    else
      expect(
        (await listFiles(path.join(s3Directory ?? '', 'soovenirs-fichiers'))).filter(
          (f) => f.includes('/uploads/') && !f.includes('.outcome'),
        ),
      ).toEqual([]);

    // Asked again (the last answer lost to a proxy's timeout, another instance): complete, with
    // the same outcome, both to a HEAD and to the last chunk sent again.
    for (const method of ['HEAD', 'PATCH']) {
      const asked = await fetch(run.url, {
        method,
        headers: {
          cookie: admin.cookie,
          'Tus-Resumable': '1.0.0',
          'Upload-Offset': String(3 * CHUNK),
          'Content-Type': 'application/offset+octet-stream',
        },
        ...(method === 'PATCH' ? { body: Buffer.alloc(12_345) } : {}),
      });
      expect(asked.status, method).toBe(method === 'HEAD' ? 200 : 204);
      expect(asked.headers.get('upload-offset'), method).toBe(String(size));
      expect(decodeUploadOutcome(asked.headers.get(UPLOAD_RESULT_HEADER)), method).toEqual(run.outcome);
    }

    // The same bytes under the same name again: recognised, not stored twice; other bytes: renamed.
    const again = await upload(shop, file, {
      orderId: order.id,
      support: 'vhs',
      filename: 'Cassette 1 – Noël 1987.mp4',
    });
    expect(again.outcome).toMatchObject({ status: 'already_there', name: 'Cassette 1 – Noël 1987.mp4' });
    const other = await sampleFile(`${kind}-other.mp4`, 1000);
    const renamed = await upload(shop, other.file, {
      orderId: order.id,
      support: 'autres',
      filename: 'Cassette 1 – Noël 1987.mp4',
    });
    expect(renamed.outcome).toMatchObject({
      status: 'renamed',
      name: 'Cassette 1 – Noël 1987 (2).mp4',
      sha256: other.sha256,
    });
    expect((await storedRows(order.id)).map((r) => r.name)).toEqual([
      'Cassette 1 – Noël 1987 (2).mp4',
      'Cassette 1 – Noël 1987.mp4',
    ]);
  });
});

describe('who may upload, and what', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await startShop({
      storage: createLocalStorage(path.join(work, 'files-refusals')),
      s3: null,
      uploadsDir: path.join(work, 'uploads-refusals'),
    });
  });
  afterAll(() => shop?.close());

  const encode = (metadata: Record<string, string>) =>
    Object.entries(metadata)
      .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
      .join(',');

  function create(metadata: Record<string, string>, headers: Record<string, string> = {}) {
    return fetch(`${shop.url}${UPLOADS_PATH}`, {
      method: 'POST',
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '10', 'Upload-Metadata': encode(metadata), ...headers },
    });
  }

  it('refuses strangers (401) and customers (403) on every method, in French', async () => {
    const order = await insertTestOrder(process.env.DATABASE_URL as string);
    const metadata = { orderId: order.id, support: 'photos', filename: 'a.jpg' };
    const anonymous = await create(metadata);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).toContain('Non authentifié');
    const asCustomer = await create(metadata, { cookie: customer.cookie });
    expect(asCustomer.status).toBe(403);
    expect(await asCustomer.text()).toContain('Accès non autorisé');

    // An upload made by staff cannot be read, continued or cancelled by a customer either.
    const created = await create(metadata, { cookie: admin.cookie });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    expect(location).toMatch(new RegExp(`^${UPLOADS_PATH}/[0-9a-f]{32}$`));
    for (const method of ['HEAD', 'PATCH', 'DELETE']) {
      const response = await fetch(`${shop.url}${location}`, {
        method,
        headers: {
          cookie: customer.cookie,
          'Tus-Resumable': '1.0.0',
          'Upload-Offset': '0',
          'Content-Type': 'application/offset+octet-stream',
        },
        ...(method === 'PATCH' ? { body: 'abcdefghij' } : {}),
      });
      expect(response.status, method).toBe(403);
    }
    const head = await fetch(`${shop.url}${location}`, {
      method: 'HEAD',
      headers: { cookie: admin.cookie, 'Tus-Resumable': '1.0.0' },
    });
    expect(head.headers.get('upload-offset')).toBe('0');
    expect(await storedRows(order.id)).toEqual([]);

    const foreign = await create(metadata, { cookie: admin.cookie, origin: 'https://pirate.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toContain('origine non autorisée');
  });

  it('checks the order, its support and the name when the upload is created', async () => {
    const databaseUrl = process.env.DATABASE_URL as string;
    const order = await insertTestOrder(databaseUrl);
    const canceled = await insertTestOrder(databaseUrl, { status: 'canceled' });
    const draft = await insertTestOrder(databaseUrl);
    await pool().query('update orders set placed_at = null where id = $1', [draft.id]);
    const refunded = await insertTestOrder(databaseUrl, { status: 'processing', paymentStatus: 'refunded' });
    const withdrawn = await insertTestOrder(databaseUrl, { paymentStatus: 'paid' });
    await pool().query('update orders set withdrawn_at = now() where id = $1', [withdrawn.id]);
    const cases: [Record<string, string>, number, string][] = [
      [
        { orderId: '00000000-0000-4000-8000-000000000042', support: 'photos', filename: 'a.jpg' },
        404,
        'Commande introuvable',
      ],
      [{ orderId: 'pas-un-id', support: 'photos', filename: 'a.jpg' }, 404, 'Commande introuvable'],
      [{ orderId: canceled.id, support: 'photos', filename: 'a.jpg' }, 409, 'annulée'],
      [{ orderId: draft.id, support: 'photos', filename: 'a.jpg' }, 409, 'pas encore passée'],
      [{ orderId: refunded.id, support: 'photos', filename: 'a.jpg' }, 409, 'entièrement remboursée'],
      [{ orderId: withdrawn.id, support: 'photos', filename: 'a.jpg' }, 409, 'rétracté'],
      [{ orderId: order.id, support: 'film', filename: 'a.jpg' }, 400, 'Support inconnu'],
      [{ orderId: order.id, support: 'photos', filename: '  ' }, 400, 'Nom de fichier manquant'],
    ];
    for (const [metadata, status, message] of cases) {
      const response = await create(metadata, { cookie: admin.cookie });
      expect(response.status, JSON.stringify(metadata)).toBe(status);
      expect(await response.text()).toContain(message);
    }
    const unknown = await fetch(`${shop.url}${UPLOADS_PATH}/${'0'.repeat(32)}`, {
      method: 'HEAD',
      headers: { cookie: admin.cookie, 'Tus-Resumable': '1.0.0' },
    });
    expect(unknown.status).toBe(404);
    const ok = await create({ orderId: order.id, support: 'autres', filename: 'notice.pdf' }, { cookie: admin.cookie });
    expect(ok.status).toBe(201);
  });

  it('refuses at once an upload that does not fit the disk less its reserve, in French', async () => {
    const full = await startShop({
      storage: createLocalStorage(path.join(work, 'files-full')),
      s3: null,
      uploadsDir: path.join(work, 'uploads-full'),
      // All but a ten-thousandth of the disk kept: whatever this machine has free, nothing fits.
      reserve: { percent: 99.99 },
    });
    try {
      const order = await insertTestOrder(process.env.DATABASE_URL as string);
      const response = await fetch(`${full.url}${UPLOADS_PATH}`, {
        method: 'POST',
        headers: {
          cookie: admin.cookie,
          'Tus-Resumable': '1.0.0',
          'Upload-Length': String(1000 ** 3),
          'Upload-Metadata': encode({ orderId: order.id, support: 'photos', filename: 'a.jpg' }),
        },
      });
      expect(response.status).toBe(413);
      expect(await response.text()).toBe(
        'Espace disque insuffisant sur le serveur\u00a0: ce fichier fait 1\u00a0Go et il ne reste plus de place pour les dépôts. Libérez de la place ou prévenez l’administrateur du site.',
      );
      expect(await listFiles(path.join(work, 'uploads-full'))).toEqual([]);
    } finally {
      await full.close();
    }
  });

  it('removes the partial uploads that received nothing for a day, and only those', async () => {
    const uploadsDir = path.join(work, 'uploads-refusals');
    const order = await insertTestOrder(process.env.DATABASE_URL as string);
    const metadata = { orderId: order.id, support: 'photos', filename: 'a.jpg' };
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const created = await create(metadata, { cookie: admin.cookie });
      ids.push((created.headers.get('location') ?? '').split('/').pop() ?? '');
    }
    const [old, recent] = ids;
    const info = path.join(uploadsDir, `${old}.json`);
    const upload = JSON.parse(await fsp.readFile(info, 'utf8'));
    const past = new Date(Date.now() - ABANDONED_UPLOAD_MS - 60_000);
    upload.creation_date = past.toISOString();
    await fsp.writeFile(info, JSON.stringify(upload));
    // Its last byte as long ago: counted from the last byte received, not from the creation.
    await fsp.utimes(path.join(uploadsDir, old ?? '-'), past, past);
    const options = { storage: createLocalStorage(path.join(work, 'files-refusals')), s3: null, uploadsDir };
    expect(await removeAbandonedUploads(options)).toBe(1);
    const left = await fsp.readdir(uploadsDir);
    expect(left.some((name) => name.startsWith(old ?? '-'))).toBe(false);
    expect(left).toContain(`${recent}.json`);
    const gone = await fetch(`${shop.url}${UPLOADS_PATH}/${old}`, {
      method: 'HEAD',
      headers: { cookie: admin.cookie, 'Tus-Resumable': '1.0.0' },
    });
    expect(gone.status).toBe(404);
  });
});
