import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalMp4 } from '../../../tests/support/mp4';
import { createLocalStorage, type FileStorage } from './storage.server';
import { readRange, servedOnLoopback, videoDuration } from './video-info.server';

/*
 * What ffmpeg and the duration reader get from the storage: exact byte ranges, through the storage
 * interface and through the loopback HTTP server that serves a video to ffmpeg.
 */

let folder: string;
let storage: FileStorage;
const bytes = randomBytes(100_000);

beforeAll(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-video-'));
  storage = createLocalStorage(folder);
  await storage.put('orders/o/bytes', Readable.from([bytes]), { contentType: 'video/mp4' });
  await storage.put('orders/o/film', Readable.from([minimalMp4({ seconds: 3725.5, timescale: 600 })]), {
    contentType: 'video/mp4',
  });
});
afterAll(() => fs.rm(folder, { recursive: true, force: true }));

describe('reading a stored video', () => {
  it('reads exact ranges, and the duration of a film', async () => {
    expect(Buffer.from(await readRange(storage, 'orders/o/bytes', 99_990, 10))).toEqual(bytes.subarray(99_990));
    expect(Buffer.from(await readRange(storage, 'orders/o/bytes', 5, 3))).toEqual(bytes.subarray(5, 8));
    await expect(readRange(storage, 'orders/o/absent', 0, 8)).rejects.toThrow(/no file/);
    const film = await storage.stat('orders/o/film');
    expect(await videoDuration(storage, 'orders/o/film', film?.size ?? 0)).toBeCloseTo(3725.5);
    expect(await videoDuration(storage, 'orders/o/bytes', bytes.length)).toBeNull();
  });

  it('serves the video on the loopback with ranges, under a path nobody can guess, while it is used', async () => {
    let address = '';
    await servedOnLoopback(storage, 'orders/o/bytes', bytes.length, 'video/mp4', async (url) => {
      address = url;
      expect(new URL(url).hostname).toBe('127.0.0.1');
      const whole = await fetch(url);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('accept-ranges')).toBe('bytes');
      expect(Buffer.from(await whole.arrayBuffer())).toEqual(bytes);
      const part = await fetch(url, { headers: { range: 'bytes=1000-1999' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${bytes.length}`);
      expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(1000, 2000));
      const tail = await fetch(url, { headers: { range: 'bytes=99000-' } });
      expect(Buffer.from(await tail.arrayBuffer())).toEqual(bytes.subarray(99_000));
      expect((await fetch(url, { headers: { range: 'bytes=200000-' } })).status).toBe(416);
      expect((await fetch(new URL('/autre', url))).status).toBe(404);
    });
    // Closed once used.
    await expect(fetch(address)).rejects.toThrow();
  });
});
