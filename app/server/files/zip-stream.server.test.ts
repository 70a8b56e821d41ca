import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { writeReadableStreamToWritable } from '@react-router/node';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeS3 } from '../../../tests/support/fake-s3';
import { insertTestOrder } from '../../../tests/support/orders';
import { zipDigests } from '../../../tests/support/unzip';
import { bytesResponse, originalResponse, parseRange } from './downloads.server';
import { countZipDownload, loadGalleryPage, REWORK_MESSAGES, requestRework } from './gallery.server';
import { storeOrderFile } from './order-files.server';
import { createLocalStorage, createS3Storage, type FileStorage } from './storage.server';
import { type ZipSource, zipResponse, zipSourcesOf } from './zip-stream.server';

/*
 * The ZIP streamed on the fly, read back by an independent reader (yauzl, as the customers' tools:
 * it checks every CRC and size) and compared by SHA-256; the single files' Range answers; the
 * gallery's page, « À refaire » and the download counts on a real PostgreSQL.
 */

const databaseUrl = () => process.env.DATABASE_URL as string;
let folder: string;
let storage: FileStorage;

beforeAll(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-zip-'));
  storage = createLocalStorage(path.join(folder, 'files'));
});
afterAll(() => fs.rm(folder, { recursive: true, force: true }));

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function saveBody(response: Response, name: string): Promise<string> {
  const target = path.join(folder, name);
  await fs.writeFile(target, Readable.fromWeb(response.body as import('node:stream/web').ReadableStream));
  return target;
}

/** Every entry's name and the SHA-256 of its bytes, by an independent reader that checks each CRC. */
const readBack = (archive: string) => zipDigests(archive);

describe('the ZIP of an order', () => {
  it('is read back by an independent reader, byte for byte, with the announced length', async () => {
    const order = await insertTestOrder(databaseUrl());
    const files = [
      { name: 'Été 84/Mamie à la plage.jpg', support: 'photos', bytes: randomBytes(1_500_000) },
      { name: 'IMG_0002.JPG', support: 'photos', bytes: randomBytes(10) },
      { name: 'vide.txt', support: 'photos', bytes: Buffer.alloc(0) },
      { name: 'Cassette 1.mp4', support: 'vhs', bytes: randomBytes(3_000_000) },
    ];
    for (const file of files) {
      await storeOrderFile(
        {
          orderId: order.id,
          name: file.name,
          support: file.support,
          body: Readable.from([file.bytes]),
          uploadedBy: 'import',
        },
        { storage },
      );
    }
    const sources = await zipSourcesOf(order.id, null);
    const response = zipResponse(
      new Request('http://shop.test/x.zip'),
      { orderNumber: order.number, support: null, sources },
      storage,
    );
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toContain(`filename="Soovenirs ${order.number}.zip"`);
    const archive = await saveBody(response, 'order.zip');
    expect((await fs.stat(archive)).size).toBe(Number(response.headers.get('content-length')));

    expect(await readBack(archive)).toEqual({
      'Photos papier/Mamie à la plage.jpg': sha256(files[0]?.bytes as Buffer),
      'Photos papier/IMG_0002.JPG': sha256(files[1]?.bytes as Buffer),
      'Photos papier/vide.txt': sha256(Buffer.alloc(0)),
      'Cassettes VHS/Cassette 1.mp4': sha256(files[3]?.bytes as Buffer),
      // Every ZIP carries its manifest (playback.server.test.ts checks its lines).
      'MANIFESTE.csv': expect.any(String),
    });

    // One support only.
    const vhs = zipResponse(
      new Request('http://shop.test/x.zip'),
      { orderNumber: order.number, support: 'vhs', sources: await zipSourcesOf(order.id, 'vhs') },
      storage,
    );
    expect(Object.keys(await readBack(await saveBody(vhs, 'vhs.zip')))).toEqual([
      'Cassettes VHS/Cassette 1.mp4',
      'MANIFESTE.csv',
    ]);

    // Counted once for each file it holds.
    await countZipDownload(order.id, null);
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    const { rows } = await client.query('select download_count from order_files where order_id = $1', [order.id]);
    await client.end();
    expect(rows.map((row) => row.download_count)).toEqual([1, 1, 1, 1]);
  });

  it('with reused buffers, is still byte for byte once written by React Router’s Node adapter', async () => {
    const order = await insertTestOrder(databaseUrl());
    const contents = Array.from({ length: 5 }, () => randomBytes(1_500_000));
    for (const [i, bytes] of contents.entries()) {
      await storeOrderFile(
        {
          orderId: order.id,
          name: `scan-${i}.tif`,
          support: 'photos',
          body: Readable.from([bytes]),
          uploadedBy: 'import',
        },
        { storage },
      );
    }
    const sources = await zipSourcesOf(order.id, null);
    const server = http.createServer(async (_req, res) => {
      const response = zipResponse(
        new Request('http://shop.test/x.zip'),
        { orderNumber: 'SV-1', support: null, sources },
        storage,
        {
          reuseBuffers: true,
        },
      );
      res.writeHead(200, { 'content-length': response.headers.get('content-length') as string });
      await writeReadableStreamToWritable(response.body as ReadableStream<Uint8Array>, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const archive = await saveBody(await fetch(`http://127.0.0.1:${port}/`), 'adapter.zip');
      expect(await readBack(archive)).toEqual({
        ...Object.fromEntries(contents.map((bytes, i) => [`Photos papier/scan-${i}.tif`, sha256(bytes)])),
        'MANIFESTE.csv': expect.any(String),
      });
    } finally {
      server.close();
    }
  });

  it('switches to ZIP64 beyond 65 535 entries, still readable', async () => {
    const sources: ZipSource[] = Array.from({ length: 65_540 }, (_, i) => ({
      name: `Photos papier/${String(i).padStart(5, '0')}.txt`,
      key: 'orders/none/none',
      size: 0,
      crc32: 0,
      modifiedAt: new Date('2026-11-21T10:00:00Z'),
    }));
    const response = zipResponse(
      new Request('http://shop.test/x.zip'),
      { orderNumber: 'SV-1', support: null, sources },
      storage,
    );
    const archive = await saveBody(response, 'many.zip');
    expect((await fs.stat(archive)).size).toBe(Number(response.headers.get('content-length')));
    const read = await readBack(archive);
    expect(Object.keys(read)).toHaveLength(65_540);
  }, 60_000);

  it('aborts rather than sending a wrong archive when a file differs from its row', async () => {
    const key = 'orders/broken/file';
    await storage.put(key, Readable.from([Buffer.from('abc')]), { contentType: 'text/plain' });
    const response = zipResponse(
      new Request('http://shop.test/x.zip'),
      {
        orderNumber: 'SV-1',
        support: null,
        sources: [{ name: 'a/b.txt', key, size: 10, crc32: 0, modifiedAt: new Date() }],
      },
      storage,
    );
    await expect(saveBody(response, 'broken.zip')).rejects.toThrow(/shorter than recorded/);
  });
});

describe('Range', () => {
  it.each([
    [null, 100, { kind: 'whole' }],
    ['bytes=0-9', 100, { kind: 'partial', range: { start: 0, end: 9 } }],
    ['bytes=90-', 100, { kind: 'partial', range: { start: 90, end: 99 } }],
    ['bytes=-10', 100, { kind: 'partial', range: { start: 90, end: 99 } }],
    ['bytes=-500', 100, { kind: 'partial', range: { start: 0, end: 99 } }],
    ['bytes=50-500', 100, { kind: 'partial', range: { start: 50, end: 99 } }],
    ['bytes=100-', 100, { kind: 'unsatisfiable' }],
    ['bytes=9-3', 100, { kind: 'unsatisfiable' }],
    ['bytes=-0', 100, { kind: 'unsatisfiable' }],
    ['bytes=0-1,5-6', 100, { kind: 'whole' }],
    ['items=0-1', 100, { kind: 'whole' }],
  ] as const)('%s of %i bytes', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });

  it('answers 206 with Content-Range, 416 beyond the end, HEAD without a body, 304 for the same ETag', async () => {
    const order = await insertTestOrder(databaseUrl());
    const bytes = randomBytes(200_000);
    const { file } = await storeOrderFile(
      { orderId: order.id, name: 'scan.tif', support: 'photos', body: Readable.from([bytes]), uploadedBy: 'import' },
      { storage },
    );
    const get = (headers: Record<string, string> = {}, method = 'GET') =>
      originalResponse(new Request('http://shop.test/f', { method, headers }), file, storage).then((r) => r.response);

    const whole = await get();
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('etag')).toBe(`"${file.sha256}"`);
    expect(whole.headers.get('content-disposition')).toBe(`attachment; filename="scan.tif"; filename*=UTF-8''scan.tif`);
    expect(sha256(Buffer.from(await whole.arrayBuffer()))).toBe(file.sha256);

    const tail = await get({ Range: 'bytes=150000-' });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe('bytes 150000-199999/200000');
    expect(tail.headers.get('content-length')).toBe('50000');
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(150_000))).toBe(true);

    const middle = await get({ Range: 'bytes=10-19' });
    expect(Buffer.from(await middle.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true);

    const beyond = await get({ Range: 'bytes=200000-' });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe('bytes */200000');

    // A resumed download of a file that changed since gets the whole file.
    expect((await get({ Range: 'bytes=10-', 'If-Range': '"other"' })).status).toBe(200);
    expect((await get({ 'If-None-Match': `"${file.sha256}"` })).status).toBe(304);

    const head = await get({}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('200000');
    expect(await head.text()).toBe('');

    const missing = await bytesResponse(
      new Request('http://shop.test/f'),
      { key: 'orders/x/missing', size: 5, contentType: 'image/jpeg', etag: null, disposition: null },
      storage,
    );
    expect(missing.response.status).toBe(404);
  });
});

describe('with S3', () => {
  it('sends the browser to a presigned link (the bucket serves the bytes and the ranges); the ZIP streams from the bucket', async () => {
    const s3 = await startFakeS3();
    try {
      const bucket = createS3Storage(s3.settings);
      const order = await insertTestOrder(databaseUrl());
      const bytes = randomBytes(300_000);
      const { file } = await storeOrderFile(
        { orderId: order.id, name: 'Été.jpg', support: 'photos', body: Readable.from([bytes]), uploadedBy: 'import' },
        { storage: bucket },
      );
      const { response, range } = await originalResponse(new Request('http://shop.test/f'), file, bucket);
      expect(response.status).toBe(302);
      expect(range).toEqual({ kind: 'whole' });
      const location = response.headers.get('location') as string;
      expect(location).toContain('X-Amz-Expires=300');
      const direct = await fetch(location);
      expect(direct.status).toBe(200);
      expect(sha256(Buffer.from(await direct.arrayBuffer()))).toBe(file.sha256);
      const part = await fetch(location, { headers: { Range: 'bytes=0-9' } });
      expect(part.status).toBe(206);
      expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(0, 10))).toBe(true);

      const zip = zipResponse(
        new Request('http://shop.test/x.zip'),
        { orderNumber: order.number, support: null, sources: await zipSourcesOf(order.id, null) },
        bucket,
      );
      expect(await readBack(await saveBody(zip, 's3.zip'))).toEqual({
        'Photos papier/Été.jpg': file.sha256,
        'MANIFESTE.csv': expect.any(String),
      });
    } finally {
      await s3.close();
    }
  });
});

describe('the gallery', () => {
  it('pages the files by support and records « À refaire » with its history and notification', async () => {
    const order = await insertTestOrder(databaseUrl());
    const stored = [];
    for (const [name, support] of [
      ['b.jpg', 'photos'],
      ['a.jpg', 'photos'],
      ['film.mp4', 'vhs'],
    ] as const) {
      stored.push(
        await storeOrderFile(
          { orderId: order.id, name, support, body: Readable.from([randomBytes(1000)]), uploadedBy: 'import' },
          { storage },
        ),
      );
    }
    const page = await loadGalleryPage(order.id, 1);
    expect(page).toMatchObject({ totalCount: 3, totalBytes: 3000, page: 1, pageCount: 1 });
    expect(page.groups.map((g) => [g.label, g.count])).toEqual([
      ['Photos papier', 2],
      ['Cassettes VHS', 1],
    ]);
    expect(page.files.map((f) => f.name)).toEqual(['a.jpg', 'b.jpg', 'film.mp4']);

    const fileId = stored[2]?.file.id as string;
    expect(
      await requestRework({
        orderId: order.id,
        orderNumber: order.number,
        fileId,
        comment: 'Le son grésille',
        actor: 'guest',
      }),
    ).toEqual({ ok: true, fileName: 'film.mp4' });
    const other = await insertTestOrder(databaseUrl());
    expect(
      await requestRework({
        orderId: other.id,
        orderNumber: other.number,
        fileId,
        comment: 'Pas à moi',
        actor: 'guest',
      }),
    ).toEqual({ ok: false, error: REWORK_MESSAGES.unknownFile });

    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    const events = await client.query(
      "select actor, data from order_events where order_id = $1 and kind = 'file_rework_requested'",
      [order.id],
    );
    const notes = await client.query('select title, body from notifications where order_id = $1', [order.id]);
    const files = await client.query('select rework_comment from order_files where id = $1', [fileId]);
    await client.end();
    expect(events.rows).toEqual([
      { actor: 'guest', data: { fileId, fileName: 'film.mp4', comment: 'Le son grésille' } },
    ]);
    expect(notes.rows).toEqual([
      { title: `Fichier à refaire — commande ${order.number}`, body: 'film.mp4 : Le son grésille' },
    ]);
    expect(files.rows).toEqual([{ rework_comment: 'Le son grésille' }]);
  });
});
