import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeS3 } from '../../../tests/support/fake-s3';
import { minimalMp4 } from '../../../tests/support/mp4';
import { insertTestOrder } from '../../../tests/support/orders';
import { db } from '../db/client.server';
import { orderFiles } from '../db/schema';
import { storeOrderFile } from './order-files.server';
import {
  createPreviewWorker,
  MAX_PREVIEW_ATTEMPTS,
  type PendingFile,
  previewPendingFiles,
  startFilePreviews,
  stopFilePreviews,
  wakeFilePreviews,
} from './previews.server';
import { createLocalStorage, createS3Storage, type FileStorage } from './storage.server';

/*
 * The previews made in the background, against the real database, with the DATA_DIR folder and
 * with the S3 peer: images of each format get a thumbnail and a preview of the right sizes, upright;
 * a damaged image ends `failed` after three attempts; a video gets its duration; two workers at once
 * never make the same file twice.
 */

const databaseUrl = () => process.env.DATABASE_URL as string;

const noise = (width: number, height: number) =>
  sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  });

/** A landscape photo stored sideways: black on its left, white on its right, EXIF orientation 6. */
async function sidewaysJpeg(): Promise<Buffer> {
  const half = await sharp({ create: { width: 1500, height: 2000, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#fff' } })
    .composite([{ input: half, left: 0, top: 0 }])
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** A two-page TIFF: a red page then a blue one. */
async function twoPageTiff(): Promise<Buffer> {
  const page = (background: string) =>
    sharp({ create: { width: 1200, height: 900, channels: 3, background } })
      .png()
      .toBuffer();
  return sharp([await page('#e00000'), await page('#0000e0')], { join: { animated: true } })
    .tiff()
    .toBuffer();
}

async function read(storage: FileStorage, key: string | null): Promise<Buffer> {
  const stream = key ? await storage.read(key) : null;
  if (!stream) throw new Error(`nothing stored under ${key}`);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function jpegSize(storage: FileStorage, key: string | null) {
  const { format, width, height } = await sharp(await read(storage, key)).metadata();
  return { format, width, height };
}

async function drain(storage: FileStorage) {
  while ((await previewPendingFiles({ storage, concurrency: 2 })) > 0) {
    // next batch
  }
}

async function rowsOf(ids: string[]) {
  const rows = await db().select().from(orderFiles).where(inArray(orderFiles.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

/** A worker's test under load: the signal, not a deadline, decides; this only bounds a hang. */
const SLOW_WORKER = 90_000;

/**
 * A promise and its resolver: a worker's onFile callback says when a file is done, so the test
 * waits for that signal (bounded by the test's timeout), not for a deadline it polls the table against.
 */
function signal(): { done: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const done = new Promise<void>((r) => {
    resolve = r;
  });
  return { done, resolve };
}

async function waitFor(condition: () => Promise<boolean>, what: string, timeoutMs = 45_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

let folder: string;
let s3: Awaited<ReturnType<typeof startFakeS3>>;
const storages: Record<'dossier DATA_DIR' | 'S3', () => FileStorage> = {
  'dossier DATA_DIR': () => createLocalStorage(folder),
  S3: () => createS3Storage(s3.settings),
};

beforeAll(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-previews-'));
  s3 = await startFakeS3();
});
afterAll(async () => {
  await s3?.close();
  await fs.rm(folder, { recursive: true, force: true });
});

describe.each(Object.keys(storages) as (keyof typeof storages)[])('previews in the %s', (label) => {
  let storage: FileStorage;
  beforeAll(() => {
    storage = storages[label]();
  });
  const store = (orderId: string, name: string, bytes: Buffer) =>
    storeOrderFile(
      { orderId, name, support: 'photos', body: Readable.from([bytes]), uploadedBy: 'import' },
      { storage },
    ).then((result) => result.file);

  it('makes upright JPEG thumbnails and previews of JPEG, TIFF and PNG images', async () => {
    const order = await insertTestOrder(databaseUrl());
    const jpeg = await store(order.id, 'IMG_0001.JPG', await sidewaysJpeg());
    const tiff = await store(order.id, 'Album page 1.tif', await twoPageTiff());
    const png = await store(
      order.id,
      'plan.png',
      await sharp({ create: { width: 800, height: 600, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
        .png()
        .toBuffer(),
    );
    await drain(storage);

    const rows = await rowsOf([jpeg.id, tiff.id, png.id]);
    // The sideways photo is recorded and shown upright: 2 000 × 3 000.
    expect(rows.get(jpeg.id)).toMatchObject({ previewStatus: 'ready', width: 2000, height: 3000, previewAttempts: 0 });
    expect(rows.get(tiff.id)).toMatchObject({ previewStatus: 'ready', width: 1200, height: 900 });
    expect(rows.get(png.id)).toMatchObject({ previewStatus: 'ready', width: 800, height: 600 });

    const sizes = async (id: string) => {
      const row = rows.get(id);
      return {
        thumbnail: await jpegSize(storage, row?.thumbnailKey ?? null),
        preview: await jpegSize(storage, row?.previewKey ?? null),
      };
    };
    expect(await sizes(jpeg.id)).toEqual({
      thumbnail: { format: 'jpeg', width: 267, height: 400 },
      preview: { format: 'jpeg', width: 933, height: 1400 },
    });
    // Smaller than a preview: kept at its own size, never enlarged.
    expect(await sizes(tiff.id)).toEqual({
      thumbnail: { format: 'jpeg', width: 400, height: 300 },
      preview: { format: 'jpeg', width: 1200, height: 900 },
    });
    expect(await sizes(png.id)).toEqual({
      thumbnail: { format: 'jpeg', width: 400, height: 300 },
      preview: { format: 'jpeg', width: 800, height: 600 },
    });

    // Turned as the camera said: the black left half of the stored pixels is now the top.
    const upright = await read(storage, rows.get(jpeg.id)?.previewKey ?? null);
    // (stats() reads the input as it is: the band is cut out first.)
    const band = async (top: number) => {
      const cut = await sharp(upright).extract({ left: 0, top, width: 933, height: 200 }).toBuffer();
      return (await sharp(cut).stats()).channels[0]?.mean ?? -1;
    };
    expect(await band(100)).toBeLessThan(20);
    expect(await band(1100)).toBeGreaterThan(235);
    // The TIFF's first page (red), not its second (blue); the transparent PNG on white.
    const tiffColour = (await sharp(await read(storage, rows.get(tiff.id)?.thumbnailKey ?? null)).stats()).channels;
    expect(tiffColour[0]?.mean).toBeGreaterThan(200);
    expect(tiffColour[2]?.mean).toBeLessThan(40);
    const pngColour = (await sharp(await read(storage, rows.get(png.id)?.previewKey ?? null)).stats()).channels;
    expect(pngColour.every((channel) => channel.mean > 250)).toBe(true);
  });

  it(
    'gives up on a damaged image after three attempts, and goes on with the other files',
    async () => {
      const order = await insertTestOrder(databaseUrl());
      const damaged = await store(
        order.id,
        'abîmé.jpg',
        Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), randomBytes(5000)]),
      );
      const fine = await store(order.id, 'bonne.jpg', await noise(640, 480).jpeg().toBuffer());
      const outcomes: string[] = [];
      // The worker also claims what earlier tests of this file left pending in the database (videos
      // among them): under load the third attempt can come many seconds after the second.
      const givenUp = signal();
      const worker = createPreviewWorker({
        storage,
        pollMs: 60_000,
        retryDelayMs: 20,
        onFile: (file, outcome) => {
          if (file.id !== damaged.id) return;
          outcomes.push(outcome.status);
          if (outcome.status === 'failed') givenUp.resolve();
        },
      });
      try {
        await givenUp.done;
      } finally {
        await worker.stop();
      }
      const rows = await rowsOf([damaged.id, fine.id]);
      expect(rows.get(damaged.id)).toMatchObject({
        previewStatus: 'failed',
        previewAttempts: MAX_PREVIEW_ATTEMPTS,
        thumbnailKey: null,
        previewKey: null,
      });
      expect(outcomes).toEqual(['retry', 'retry', 'failed']);
      expect(rows.get(fine.id)).toMatchObject({ previewStatus: 'ready', width: 640, height: 480 });
      // Nothing left to claim: a failed file is not tried again.
      expect(await previewPendingFiles({ storage })).toBe(0);
    },
    SLOW_WORKER,
  );

  it('records the duration of an MP4 whose movie box comes last, with an icon without ffmpeg', async () => {
    const order = await insertTestOrder(databaseUrl());
    const video = await store(order.id, 'Cassette VHS 1.mp4', minimalMp4({ seconds: 83.4, mdatBytes: 300_000 }));
    await drain(storage);
    // This film has no frame to show: `none` with its duration, with or without ffmpeg.
    expect((await rowsOf([video.id])).get(video.id)).toMatchObject({
      previewStatus: 'none',
      durationSeconds: 83,
      thumbnailKey: null,
      previewKey: null,
      previewAttempts: 0,
    });
  });
});

describe('the previews worker', () => {
  const storage = () => createLocalStorage(folder);

  it(
    'never makes the same file twice when two workers run at once',
    async () => {
      const order = await insertTestOrder(databaseUrl());
      const image = await noise(900, 600).jpeg().toBuffer();
      const ids: string[] = [];
      for (let i = 1; i <= 16; i++) {
        const file = await storeOrderFile(
          // Distinct bytes per file (another quality each), so that none is « already there ».
          {
            orderId: order.id,
            name: `scan-${i}.jpg`,
            support: 'photos',
            body: Readable.from([
              await sharp(image)
                .jpeg({ quality: 70 + i })
                .toBuffer(),
            ]),
            uploadedBy: 'import',
          },
          { storage: storage() },
        );
        ids.push(file.file.id);
      }
      const done: Record<'a' | 'b', PendingFile[]> = { a: [], b: [] };
      const everyFile = signal();
      const workers = (['a', 'b'] as const).map((name) =>
        createPreviewWorker({
          storage: storage(),
          concurrency: 2,
          batchSize: 2,
          pollMs: 60_000,
          onFile: (file) => {
            done[name].push(file);
            if (ids.every((id) => [...done.a, ...done.b].some((f) => f.id === id))) everyFile.resolve();
          },
        }),
      );
      try {
        await everyFile.done;
      } finally {
        await Promise.all(workers.map((worker) => worker.stop()));
      }
      const all = [...done.a, ...done.b].map((file) => file.id);
      expect(all.toSorted()).toEqual(ids.toSorted());
      expect(new Set(all).size).toBe(all.length);
      // Both took part: each skipped the rows the other held.
      expect(done.a.length).toBeGreaterThan(0);
      expect(done.b.length).toBeGreaterThan(0);
      const rows = await rowsOf(ids);
      expect([...rows.values()].every((row) => row.previewStatus === 'ready' && row.previewAttempts === 0)).toBe(true);
    },
    SLOW_WORKER,
  );

  it('decodes a large original from a temporary file, removed afterwards', async () => {
    const order = await insertTestOrder(databaseUrl());
    // An uncompressed TIFF of 3 600 × 4 000 pixels: 43 MB, over what is read into memory.
    const tiff = await sharp({ create: { width: 3600, height: 4000, channels: 3, background: '#4080c0' } })
      .tiff({ compression: 'none' })
      .toBuffer();
    expect(tiff.length).toBeGreaterThan(32 * 1024 * 1024);
    const { file } = await storeOrderFile(
      {
        orderId: order.id,
        name: 'Grand format.tif',
        support: 'photos',
        body: Readable.from([tiff]),
        uploadedBy: 'import',
      },
      { storage: storage() },
    );
    const temporaries = async () =>
      (await fs.readdir(os.tmpdir())).filter((name) => name.startsWith('soovenirs-preview-')).length;
    const before = await temporaries();
    await drain(storage());
    const row = (await rowsOf([file.id])).get(file.id);
    expect(row).toMatchObject({ previewStatus: 'ready', width: 3600, height: 4000 });
    expect(await jpegSize(storage(), row?.previewKey ?? null)).toEqual({ format: 'jpeg', width: 1260, height: 1400 });
    expect(await temporaries()).toBe(before);
  });

  it('starts with the server and is woken by a stored file', async () => {
    // A poll of a minute: only the wake-up can make the preview within the test's time.
    startFilePreviews({ storage: storage(), pollMs: 60_000 });
    try {
      const order = await insertTestOrder(databaseUrl());
      const { file } = await storeOrderFile(
        {
          orderId: order.id,
          name: 'réveil.png',
          support: 'photos',
          body: Readable.from([await noise(500, 500).png().toBuffer()]),
          uploadedBy: 'import',
        },
        { storage: storage() },
      );
      wakeFilePreviews();
      await waitFor(
        async () =>
          (await db().select().from(orderFiles).where(eq(orderFiles.id, file.id)))[0]?.previewStatus === 'ready',
        'the woken worker',
      );
    } finally {
      await stopFilePreviews();
    }
  });
});
