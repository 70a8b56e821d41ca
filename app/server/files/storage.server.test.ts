import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeS3, startFakeS3 } from '../../../tests/support/fake-s3';
import {
  assertStorageKey,
  attachmentDisposition,
  createLocalStorage,
  createS3Storage,
  FileExistsError,
  type FileStorage,
  fileKey,
} from './storage.server';

/*
 * Both backends of the customers' files behave the same: the local folder and S3's protocol
 * (s3rver, a local server speaking it), through the same tests.
 */

let s3: FakeS3;
let folder: string;
const backends: Record<string, () => FileStorage> = {
  'a folder in DATA_DIR': () => createLocalStorage(folder),
  'S3-compatible object storage': () => createS3Storage(s3.settings),
};

beforeAll(async () => {
  s3 = await startFakeS3();
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-files-'));
});

afterAll(async () => {
  await s3?.close();
  await fs.rm(folder, { recursive: true, force: true });
});

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function bytesOf(stream: Readable | null): Promise<Buffer> {
  if (!stream) throw new Error('no such file');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe.each(Object.keys(backends))('the file storage: %s', (name) => {
  const storage = () => backends[name]!();

  it('stores a stream once, reads it whole or by range, refuses to overwrite, deletes it', async () => {
    const files = storage();
    const key = fileKey('7c7a4a56-3f6e-4a8b-9a51-8c1b1f0c2d11', `f-${randomBytes(6).toString('hex')}`);
    // Larger than one multipart part (16 MB): the S3 backend uploads it in parts.
    const content = randomBytes(17 * 1024 * 1024 + 123);
    expect(
      await files.put(key, Readable.from([content.subarray(0, 5_000_000), content.subarray(5_000_000)]), {
        contentType: 'video/mp4',
      }),
    ).toEqual({ size: content.length });
    expect(await files.stat(key)).toEqual({ size: content.length });
    expect(sha(await bytesOf(await files.read(key)))).toBe(sha(content));
    const middle = await bytesOf(await files.read(key, { start: 1000, end: 1999 }));
    expect(middle.equals(content.subarray(1000, 2000))).toBe(true);

    await expect(files.put(key, Readable.from([Buffer.from('autre')]), { contentType: 'text/plain' })).rejects.toThrow(
      FileExistsError,
    );
    expect(sha(await bytesOf(await files.read(key)))).toBe(sha(content));

    await files.delete(key);
    expect(await files.stat(key)).toBeNull();
    expect(await files.read(key)).toBeNull();
    await files.delete(key);
  });

  it('gives a short-lived direct link only for object storage', async () => {
    const files = storage();
    const key = fileKey('7c7a4a56-3f6e-4a8b-9a51-8c1b1f0c2d11', `g-${randomBytes(6).toString('hex')}`);
    await files.put(key, Readable.from([Buffer.from('bonjour')]), { contentType: 'text/plain' });
    const url = await files.signedDownloadUrl(key, { fileName: 'Été 1984.txt', contentType: 'text/plain' });
    if (files.kind === 'local') {
      expect(url).toBeNull();
      return;
    }
    expect(url).toContain('X-Amz-Expires=300');
    const response = await fetch(url as string);
    expect(response.status).toBe(200);
    expect(await text(response.body as unknown as Readable)).toBe('bonjour');
    expect(response.headers.get('content-disposition')).toBe(attachmentDisposition('Été 1984.txt'));
  });
});

describe('storage keys', () => {
  it('are ours: no customer name, no way out of the folder', () => {
    expect(fileKey('o1', 'f1')).toBe('orders/o1/f1');
    expect(fileKey('o1', 'f1', 'thumbnail')).toBe('orders/o1/f1.thumbnail.jpg');
    for (const bad of ['../etc/passwd', 'orders/../../x', 'Orders/A', 'orders//x', '/abs', 'orders/é']) {
      expect(() => assertStorageKey(bad)).toThrow('invalid storage key');
    }
  });

  it('name the download for every browser', () => {
    expect(attachmentDisposition('Été "1984".jpg')).toBe(
      `attachment; filename="Ete _1984_.jpg"; filename*=UTF-8''%C3%89t%C3%A9%20%221984%22.jpg`,
    );
  });
});

/*
 * A finished upload is taken over where it lies (decision 042): renamed on the same disk (the same
 * inode, no byte copied), copied by the service in the bucket; an existing key is never overwritten.
 */
describe('a finished upload adopted by the storage', () => {
  it('on the disk: moved, not copied, never over an existing file', async () => {
    const files = createLocalStorage(folder);
    const uploads = path.join(folder, 'uploads');
    await fs.mkdir(uploads, { recursive: true });
    const partial = path.join(uploads, randomBytes(16).toString('hex'));
    const content = randomBytes(3 * 1024 * 1024);
    await fs.writeFile(partial, content);
    const { ino } = await fs.stat(partial);
    const key = fileKey('7c7a4a56-3f6e-4a8b-9a51-8c1b1f0c2d11', `a-${randomBytes(6).toString('hex')}`);

    expect(await files.adopt(key, { localPath: partial }, { contentType: 'video/mp4' })).toEqual({
      size: content.length,
    });
    expect((await fs.stat(path.join(folder, ...key.split('/')))).ino).toBe(ino);
    await expect(fs.stat(partial)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(sha(await bytesOf(await files.read(key)))).toBe(sha(content));

    const other = path.join(uploads, randomBytes(16).toString('hex'));
    await fs.writeFile(other, 'autre');
    await expect(files.adopt(key, { localPath: other }, { contentType: 'video/mp4' })).rejects.toBeInstanceOf(
      FileExistsError,
    );
    // Neither file lost: the stored one unchanged, the refused one still there.
    expect(sha(await bytesOf(await files.read(key)))).toBe(sha(content));
    expect(await fs.readFile(other, 'utf8')).toBe('autre');
  });

  it('in the bucket: copied by the service under its key, never over an existing object', async () => {
    const files = createS3Storage(s3.settings);
    const source = `uploads/${randomBytes(16).toString('hex')}`;
    const content = randomBytes(2 * 1024 * 1024 + 7);
    await files.put(source, Readable.from([content]), { contentType: 'application/octet-stream' });
    const key = fileKey('7c7a4a56-3f6e-4a8b-9a51-8c1b1f0c2d11', `a-${randomBytes(6).toString('hex')}`);

    expect(await files.adopt(key, { bucketKey: source }, { contentType: 'video/mp4' })).toEqual({
      size: content.length,
    });
    expect(sha(await bytesOf(await files.read(key)))).toBe(sha(content));
    await expect(files.adopt(key, { bucketKey: source }, { contentType: 'video/mp4' })).rejects.toBeInstanceOf(
      FileExistsError,
    );
  });
});
