import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseManifest } from '~/domain/files/zip-manifest';
import { type FakeS3, startFakeS3 } from '../../../tests/support/fake-s3';
import { insertTestOrder } from '../../../tests/support/orders';
import { zipDigests } from '../../../tests/support/unzip';
import { storeOrderFile } from './order-files.server';
import { loadChapters, loadFileMedia, playbackKey, playbackResponse, preparePendingPlayback } from './playback.server';
import { previewPendingFiles } from './previews.server';
import { deleteExpiredFiles } from './retention.server';
import { createLocalStorage, createS3Storage, type FileStorage } from './storage.server';
import { collect } from './video-info.server';
import { zipResponse, zipSourcesOf } from './zip-stream.server';

/*
 * Video playback on a real PostgreSQL, real ffmpeg and both storages (a folder, S3's protocol through
 * s3rver): a web-playable MP4 is played as it is, with its chapters; an MPEG-2 AVI (a DVD's or a
 * capture card's) gets an H.264/AAC rendition with its index first; both are served with Range
 * (first bytes, a middle range, a suffix, 416 beyond the end); the retention deletes the rendition;
 * a photo's EXIF caption and date are recorded; every ZIP's MANIFESTE.csv matches its files.
 */

const run = promisify(execFile);
const databaseUrl = () => process.env.DATABASE_URL as string;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let s3: FakeS3;
let folder: string;
let mp4: Buffer;
let avi: Buffer;

async function ffmpeg(args: string[]) {
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

beforeAll(async () => {
  s3 = await startFakeS3();
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-playback-'));
  const chapters = path.join(folder, 'chapters.txt');
  await fs.writeFile(
    chapters,
    ';FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=1500\ntitle=Le mariage\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=1500\nEND=3000\ntitle=La fête\n',
  );
  const source = ['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440'];
  await ffmpeg([
    ...source,
    '-i',
    chapters,
    '-map',
    '0:v',
    '-map',
    '1:a',
    '-map_chapters',
    '2',
    '-t',
    '3',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-movflags',
    '+faststart',
    path.join(folder, 'film.mp4'),
  ]);
  await ffmpeg([...source, '-t', '3', '-c:v', 'mpeg2video', '-c:a', 'mp2', path.join(folder, 'film.avi')]);
  [mp4, avi] = await Promise.all([
    fs.readFile(path.join(folder, 'film.mp4')),
    fs.readFile(path.join(folder, 'film.avi')),
  ]);
}, 60_000);

afterAll(async () => {
  await s3?.close();
  await fs.rm(folder, { recursive: true, force: true });
});

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function bodyOf(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

const backends: Record<string, () => FileStorage> = {
  'a folder': () => createLocalStorage(path.join(folder, 'files')),
  'S3-compatible object storage': () => createS3Storage(s3.settings),
};

describe.each(Object.keys(backends))('videos played in the gallery, from %s', (backend) => {
  it('plays a web-playable master as it is, makes a rendition of an MPEG-2 AVI, serves both with Range', async () => {
    const storage = backends[backend]?.() as FileStorage;
    const order = await insertTestOrder(databaseUrl());
    const store = (name: string, bytes: Buffer) =>
      storeOrderFile(
        { orderId: order.id, name, support: 'vhs', body: Readable.from([bytes]), uploadedBy: 'import' },
        { storage },
      );
    const master = (await store('Mariage.mp4', mp4)).file;
    const capture = (await store('Cassette 2.avi', avi)).file;

    // The previews worker's playback pass, one video at a time, until none is left.
    while ((await preparePendingPlayback({ storage })) > 0);
    const media = await loadFileMedia([master.id, capture.id]);
    expect(media.get(master.id)).toMatchObject({ playable: true });
    expect(media.get(capture.id)).toMatchObject({ playable: true });
    const rows = await query<{ file_id: string; playback: string; playback_key: string | null }>(
      'select file_id, playback, playback_key from order_file_media where file_id = any($1::uuid[])',
      [[master.id, capture.id]],
    );
    const playbackOf = Object.fromEntries(rows.map((row) => [row.file_id, row]));
    expect(playbackOf[master.id]).toMatchObject({ playback: 'master', playback_key: null });
    expect(playbackOf[capture.id]).toMatchObject({
      playback: 'rendition',
      playback_key: playbackKey(order.id, capture.id),
    });

    // The chapters of the master, for its WebVTT track.
    expect(await loadChapters(master.id)).toEqual([
      { start: 0, end: 1.5, title: 'Le mariage' },
      { start: 1.5, end: 3, title: 'La fête' },
    ]);

    // The rendition: H.264/AAC in an MP4 whose index (moov) comes before the media (mdat).
    const renditionResponse = await playbackResponse(new Request('http://shop.test/v'), capture, { storage });
    expect(renditionResponse?.response.status).toBe(200);
    expect(renditionResponse?.response.headers.get('content-type')).toBe('video/mp4');
    const rendition = await bodyOf(renditionResponse?.response as Response);
    expect(rendition.indexOf('moov')).toBeGreaterThan(0);
    expect(rendition.indexOf('moov')).toBeLessThan(rendition.indexOf('mdat'));
    const renditionFile = path.join(folder, `rendition-${capture.id}.mp4`);
    await fs.writeFile(renditionFile, rendition);
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', renditionFile]);
    const streams = (JSON.parse(stdout) as { streams: { codec_name: string; pix_fmt?: string }[] }).streams;
    expect(streams.map((stream) => stream.codec_name).sort()).toEqual(['aac', 'h264']);
    // The master stays the download: its bytes are untouched.
    expect(sha256(await collect((await storage.read(capture.storageKey)) as Readable, avi.length))).toBe(sha256(avi));

    for (const [file, bytes] of [
      [master, mp4],
      [capture, rendition],
    ] as const) {
      const size = bytes.length;
      const ranged = async (range: string) =>
        (
          await playbackResponse(new Request('http://shop.test/v', { headers: { Range: range } }), file, {
            storage,
          })
        )?.response as Response;

      const first = await ranged('bytes=0-1023');
      expect(first.status).toBe(206);
      expect(first.headers.get('accept-ranges')).toBe('bytes');
      expect(first.headers.get('content-range')).toBe(`bytes 0-1023/${size}`);
      expect(first.headers.get('content-length')).toBe('1024');
      expect(first.headers.get('content-disposition')).toBe('inline');
      expect((await bodyOf(first)).equals(bytes.subarray(0, 1024))).toBe(true);

      const middle = await ranged(`bytes=5000-${size - 5000}`);
      expect(middle.status).toBe(206);
      expect(middle.headers.get('content-range')).toBe(`bytes 5000-${size - 5000}/${size}`);
      expect((await bodyOf(middle)).equals(bytes.subarray(5000, size - 4999))).toBe(true);

      const suffix = await ranged('bytes=-700');
      expect(suffix.status).toBe(206);
      expect(suffix.headers.get('content-range')).toBe(`bytes ${size - 700}-${size - 1}/${size}`);
      expect((await bodyOf(suffix)).equals(bytes.subarray(size - 700))).toBe(true);

      const beyond = await ranged(`bytes=${size}-`);
      expect(beyond.status).toBe(416);
      expect(beyond.headers.get('content-range')).toBe(`bytes */${size}`);
    }

    // At the end of the retention, the rendition goes with the master and the previews.
    expect(await storage.stat(playbackKey(order.id, capture.id))).not.toBeNull();
    await query(
      `update orders set files_published_at = now() - interval '90 days', files_expire_at = now() - interval '1 day' where id = $1`,
      [order.id],
    );
    await deleteExpiredFiles(new Date(), storage);
    expect(await storage.stat(playbackKey(order.id, capture.id))).toBeNull();
    expect(await storage.stat(capture.storageKey)).toBeNull();
  }, 120_000);
});

describe('photos’ captions and dates, and the ZIP’s manifest', () => {
  it('records the EXIF caption and date; MANIFESTE.csv gives each file’s size and SHA-256', async () => {
    const storage = createLocalStorage(path.join(folder, 'files'));
    const order = await insertTestOrder(databaseUrl());
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#a86' } })
      .withExif({
        IFD0: { ImageDescription: 'Mamie, plage de Carnac' },
        IFD2: { DateTimeOriginal: '1984:07:14 15:30:00' },
      })
      .jpeg()
      .toBuffer();
    const files = [
      { name: 'Plage.jpg', support: 'photos', bytes: photo },
      { name: 'Mariage.mp4', support: 'vhs', bytes: mp4 },
      { name: 'vide.txt', support: 'vhs', bytes: Buffer.alloc(0) },
    ];
    const ids: Record<string, string> = {};
    for (const file of files) {
      const { file: row } = await storeOrderFile(
        {
          orderId: order.id,
          name: file.name,
          support: file.support,
          body: Readable.from([file.bytes]),
          uploadedBy: 'import',
        },
        { storage },
      );
      ids[file.name] = row.id;
    }
    while ((await previewPendingFiles({ storage, concurrency: 1 })) > 0);
    const media = await loadFileMedia([ids['Plage.jpg'] as string]);
    expect(media.get(ids['Plage.jpg'] as string)).toMatchObject({
      caption: 'Mamie, plage de Carnac',
      takenAt: new Date('1984-07-14T15:30:00Z'),
    });

    const response = zipResponse(
      new Request('http://shop.test/x.zip'),
      { orderNumber: order.number, support: null, sources: await zipSourcesOf(order.id, null) },
      storage,
    );
    const archive = path.join(folder, `manifest-${order.id}.zip`);
    await fs.writeFile(archive, await bodyOf(response));
    expect((await fs.stat(archive)).size).toBe(Number(response.headers.get('content-length')));
    const digests = await zipDigests(archive);
    expect(Object.keys(digests)).toEqual([
      'Photos papier/Plage.jpg',
      'Cassettes VHS/Mariage.mp4',
      'Cassettes VHS/vide.txt',
      'MANIFESTE.csv',
    ]);

    // The manifest read back from the archive: every other entry, its size and SHA-256, which
    // are those of the bytes the archive holds and of the files as delivered.
    const unzipDir = path.join(folder, `unzip-${order.id}`);
    await fs.mkdir(unzipDir);
    await run('python3', [
      '-c',
      'import sys,zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])',
      archive,
      unzipDir,
    ]);
    const manifest = parseManifest(await fs.readFile(path.join(unzipDir, 'MANIFESTE.csv'), 'utf8'));
    expect(manifest.map((line) => line.name)).toEqual(Object.keys(digests).filter((name) => name !== 'MANIFESTE.csv'));
    for (const line of manifest) {
      const original = files.find((file) => line.name.endsWith(`/${file.name}`)) as (typeof files)[number];
      expect(line.sha256).toBe(digests[line.name]);
      expect(line.sha256).toBe(sha256(original.bytes));
      expect(line.size).toBe(original.bytes.length);
      expect((await fs.stat(path.join(unzipDir, line.name))).size).toBe(line.size);
    }
    expect(manifest.find((line) => line.name === 'Photos papier/Plage.jpg')).toMatchObject({
      item: 'Photos papier',
      date: '1984-07-14',
    });

    // The same files make the same archive, byte for byte (the manifest is dated by its files).
    const again = zipResponse(
      new Request('http://shop.test/x.zip'),
      { orderNumber: order.number, support: null, sources: await zipSourcesOf(order.id, null) },
      storage,
    );
    expect(sha256(await bodyOf(again))).toBe(sha256(await fs.readFile(archive)));
  }, 120_000);
});
