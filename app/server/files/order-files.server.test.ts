import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestOrder } from '../../../tests/support/orders';
import { listOrderFiles, storeOrderFile } from './order-files.server';
import { createLocalStorage, type FileStorage } from './storage.server';

/*
 * The one way a file enters the shop: streamed into the storage with its SHA-256 and CRC-32, its
 * name sanitised, never overwriting another file; the same file imported twice is stored once.
 */

const databaseUrl = () => process.env.DATABASE_URL as string;
let folder: string;
let storage: FileStorage;

beforeAll(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-files-'));
  storage = createLocalStorage(folder);
});
afterAll(() => fs.rm(folder, { recursive: true, force: true }));

const store = (orderId: string, name: string, bytes: Buffer) =>
  storeOrderFile({ orderId, name, support: 'photos', body: Readable.from([bytes]), uploadedBy: 'import' }, { storage });

async function storedFiles(): Promise<number> {
  const walk = async (dir: string): Promise<number> => {
    let count = 0;
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      count += entry.isDirectory() ? await walk(path.join(dir, entry.name)) : 1;
    }
    return count;
  };
  return walk(folder);
}

describe('storing an order file', () => {
  it('records its digests and size, keeps both files of one name, recognises a file already there', async () => {
    const order = await insertTestOrder(databaseUrl());
    const first = randomBytes(300_000);
    const stored = await store(order.id, 'Scans/Été 84/IMG_0001.JPG', first);
    expect(stored).toMatchObject({
      status: 'stored',
      file: {
        name: 'IMG_0001.JPG',
        kind: 'image',
        contentType: 'image/jpeg',
        sizeBytes: first.length,
        sha256: createHash('sha256').update(first).digest('hex'),
        crc32: crc32(first) >>> 0,
        previewStatus: 'pending',
      },
    });

    expect(await store(order.id, 'IMG_0001.JPG', first)).toMatchObject({ status: 'already_there' });
    const other = randomBytes(1000);
    expect(await store(order.id, 'IMG_0001.JPG', other)).toMatchObject({
      status: 'renamed',
      requestedName: 'IMG_0001.JPG',
      file: { name: 'IMG_0001 (2).JPG', sizeBytes: 1000 },
    });
    expect((await listOrderFiles(order.id)).map((file) => file.name)).toEqual(['IMG_0001 (2).JPG', 'IMG_0001.JPG']);
    // The duplicate's copy was not kept: two files on disk for two rows.
    expect(await storedFiles()).toBe(2);
  });

  it('files without a preview show an icon at once', async () => {
    const order = await insertTestOrder(databaseUrl());
    expect(await store(order.id, 'LISEZMOI.pdf', Buffer.from('%PDF-1.4'))).toMatchObject({
      file: { kind: 'other', previewStatus: 'none' },
    });
  });
});
