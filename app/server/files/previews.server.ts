import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import sharp, { type SharpOptions } from 'sharp';
import { type PhotoFacts, photoFacts } from '~/domain/files/playback';
import { wholeSeconds } from '~/domain/files/video-duration';
import { type Database, db, type Tx } from '../db/client.server';
import { log } from '../log.server';
import { preparePendingPlayback, recordPhotoFacts } from './playback.server';
import { type FileStorage, fileKey, fileStorage } from './storage.server';
import { collect, posterFrame, videoDuration } from './video-info.server';

/*
 * The previews of the delivered files, made in the background after an upload (decision 013):
 * for each image (JPEG, TIFF — its first page —, PNG) a thumbnail of about 400 px and a web-size
 * preview of about 1 400 px, JPEG, upright (EXIF orientation applied), sRGB, with the original's
 * width and height; for each video its duration, and a poster frame as preview and thumbnail when
 * ffmpeg is installed (otherwise `none`: the gallery shows an icon).
 *
 * Claims (several instances on one database, docs/operations.md « Several instances »). `order_files` has no
 * lease column and `preview_status` no « in progress » value, so a claim cannot be a short
 * transaction that marks rows: a marked row would either be taken again by another instance or,
 * after a crash, never be taken again. Each pass therefore works inside its row locks: one
 * transaction selects a small batch of pending rows `FOR UPDATE SKIP LOCKED`, makes their previews
 * (storage and sharp, a few seconds for a batch), writes each outcome and commits. Another instance
 * skips the locked rows and takes the next ones; a process that dies mid-batch loses its
 * connection, PostgreSQL rolls the transaction back and the rows are pending again for whoever
 * comes next. The cost: one pooled connection idle in a transaction during a batch, and the batch's
 * rows locked for that long (nothing else writes a file's row before it is published). A file is
 * never processed twice at once. A file that fails (unreadable, not an image) counts an attempt in
 * the same transaction and is `failed` at the third, logged; the worker goes on with the others.
 * What this does not cover: a file that crashes the process itself would be retried by each
 * instance in turn (sharp turns damaged files into errors, and its pixel limit stands against
 * images too large to decode).
 *
 * CPU and memory: at most `concurrency` files at a time (default os.availableParallelism()), each
 * with its own libvips threads (`sharp.concurrency`, cores ÷ files); one decode per image (the
 * preview is resized from the original with JPEG shrink-on-load, the thumbnail from the preview's
 * pixels); an original up to 32 MB is read into memory, a larger one streamed to a temporary file
 * that libvips reads as it needs; sharp's operation cache is off (every file is new).
 */

export const THUMBNAIL_PX = 400;
// 1 400 px: sharp then decodes a 3 000 px scan at half size (JPEG shrink-on-load needs a reduction
// of more than 2×), which roughly halves the CPU of a preview; still sharp on a full-HD screen.
export const PREVIEW_PX = 1400;
export const PREVIEW_QUALITY = 82;
const THUMBNAIL_QUALITY = 80;
/** The third failure of a file is its last: `failed`, and the gallery shows an icon. */
export const MAX_PREVIEW_ATTEMPTS = 3;
/** Originals up to this size are decoded from memory; larger ones from a temporary file. */
const IN_MEMORY_BYTES = 32 * 1024 * 1024;

export interface PendingFile {
  id: string;
  orderId: string;
  storageKey: string;
  kind: 'image' | 'video' | 'other';
  contentType: string;
  sizeBytes: number;
  previewAttempts: number;
}

export type PreviewOutcome =
  | {
      status: 'ready';
      width: number | null;
      height: number | null;
      durationSeconds: number | null;
      /** A photo's caption and date from its metadata (videos: none). */
      facts?: PhotoFacts;
    }
  | { status: 'none'; durationSeconds: number | null }
  | { status: 'retry' | 'failed'; error: string };

export interface PreviewPassOptions {
  storage?: FileStorage;
  database?: Database;
  /** Files made at the same time. */
  concurrency?: number;
  /** Files claimed by one transaction. */
  batchSize?: number;
  /** Told of each file done (tests, the bench's progress). */
  onFile?: (file: PendingFile, outcome: PreviewOutcome) => void;
  /** Files not to claim in this pass (the worker's failed files waiting for their next attempt). */
  skip?: readonly string[];
}

export function defaultConcurrency(): number {
  return Math.max(1, os.availableParallelism());
}

// ---------------------------------------------------------------------------------------------
// Images

/** The two JPEGs of an image and its upright dimensions. */
export interface ImagePreviews {
  thumbnail: Buffer;
  preview: Buffer;
  width: number;
  height: number;
  /** The caption and date the image's EXIF/XMP give, shown in the gallery. */
  facts: PhotoFacts;
}

/**
 * Thumbnail and preview of an image (a buffer or a file path), decoded once: the preview comes
 * from the original, the thumbnail from the preview's pixels.
 */
export async function makeImagePreviews(input: Buffer | string): Promise<ImagePreviews> {
  // failOn 'error': a scan with a harmless warning still gets its preview; a damaged file does not.
  const options: SharpOptions = { failOn: 'error', pages: 1, page: 0 };
  const metadata = await sharp(input, options).metadata();
  const upright = metadata.autoOrient ?? { width: metadata.width, height: metadata.height };
  let image = sharp(input, options).rotate().resize({
    width: PREVIEW_PX,
    height: PREVIEW_PX,
    fit: 'inside',
    withoutEnlargement: true,
    fastShrinkOnLoad: true,
    // A triangle filter, widened by the reduction (so still anti-aliased): on the bench's scans
    // 7 ms of CPU where Lanczos took 22, for a web preview the eye does not tell apart.
    kernel: 'linear',
  });
  // A transparent PNG on white rather than black; 16-bit, CMYK or Lab scans made 8-bit sRGB. Asked
  // only when needed: each step costs a pass over the pixels.
  if (metadata.hasAlpha) image = image.flatten({ background: '#ffffff' });
  if (!(metadata.space === 'srgb' || metadata.space === 'b-w') || metadata.depth !== 'uchar') {
    image = image.toColourspace('srgb');
  }
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } } as const;
  const [preview, thumbnail] = await Promise.all([
    // Without the second pass that optimises the Huffman tables: on the bench's 3 000 × 2 000 scans
    // it took 23 of the 38 ms of the preview's encoding (a seventh of a file's work) for 4 % fewer
    // bytes. The thumbnails, shown by the dozen, keep it.
    sharp(data, raw).jpeg({ quality: PREVIEW_QUALITY, optimiseCoding: false }).toBuffer(),
    sharp(data, raw)
      .resize({ width: THUMBNAIL_PX, height: THUMBNAIL_PX, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: THUMBNAIL_QUALITY })
      .toBuffer(),
  ]);
  return {
    thumbnail,
    preview,
    width: upright.width,
    height: upright.height,
    facts: photoFacts(metadata.exif, metadata.xmp),
  };
}

/** Runs `use` with the original as a buffer, or as a temporary file when it is large. */
async function withOriginal<T>(storage: FileStorage, file: PendingFile, use: (input: Buffer | string) => Promise<T>) {
  const stream = await storage.read(file.storageKey);
  if (!stream) throw new Error('the original is missing from the storage');
  if (file.sizeBytes <= IN_MEMORY_BYTES) return use(await collect(stream, IN_MEMORY_BYTES));
  const temporary = path.join(os.tmpdir(), `soovenirs-preview-${randomUUID()}`);
  try {
    await pipeline(stream, fs.createWriteStream(temporary, { flags: 'wx' }));
    return await use(temporary);
  } finally {
    await fs.promises.rm(temporary, { force: true });
  }
}

/** Writes the two JPEGs under the file's preview keys (replacing those of an attempt rolled back). */
async function storePreviews(storage: FileStorage, file: PendingFile, previews: ImagePreviews) {
  const thumbnailKey = fileKey(file.orderId, file.id, 'thumbnail');
  const previewKey = fileKey(file.orderId, file.id, 'preview');
  // We hold the row's lock: a key already there is ours, left by a pass that died before its commit.
  for (const [key, bytes] of [
    [thumbnailKey, previews.thumbnail],
    [previewKey, previews.preview],
  ] as const) {
    await storage.delete(key);
    await storage.put(key, Readable.from([bytes]), { contentType: 'image/jpeg' });
  }
  return { thumbnailKey, previewKey };
}

// ---------------------------------------------------------------------------------------------
// One file

type Written = { thumbnailKey: string; previewKey: string } | null;

async function previewFile(
  storage: FileStorage,
  file: PendingFile,
): Promise<{ outcome: PreviewOutcome; keys: Written }> {
  if (file.kind === 'image') {
    const previews = await withOriginal(storage, file, makeImagePreviews);
    const keys = await storePreviews(storage, file, previews);
    return {
      outcome: {
        status: 'ready',
        width: previews.width,
        height: previews.height,
        durationSeconds: null,
        facts: previews.facts,
      },
      keys,
    };
  }
  if (file.kind === 'video') {
    const seconds = await videoDuration(storage, file.storageKey, file.sizeBytes);
    const durationSeconds = seconds === null ? null : wholeSeconds(seconds);
    const frame = await posterFrame(storage, {
      key: file.storageKey,
      sizeBytes: file.sizeBytes,
      contentType: file.contentType,
    });
    if (frame) {
      const previews = await makeImagePreviews(frame);
      const keys = await storePreviews(storage, file, previews);
      return { outcome: { status: 'ready', width: previews.width, height: previews.height, durationSeconds }, keys };
    }
    return { outcome: { status: 'none', durationSeconds }, keys: null };
  }
  return { outcome: { status: 'none', durationSeconds: null }, keys: null };
}

async function recordOutcome(tx: Tx, file: PendingFile, outcome: PreviewOutcome, keys: Written) {
  if (outcome.status === 'ready' || outcome.status === 'none') {
    await tx.execute(sql`
      update order_files set
        preview_status = ${outcome.status},
        thumbnail_key = ${keys?.thumbnailKey ?? null},
        preview_key = ${keys?.previewKey ?? null},
        width = ${outcome.status === 'ready' ? outcome.width : null},
        height = ${outcome.status === 'ready' ? outcome.height : null},
        duration_seconds = ${outcome.durationSeconds}
      where id = ${file.id}`);
    if (outcome.status === 'ready' && outcome.facts) await recordPhotoFacts(tx, file.id, outcome.facts);
    return;
  }
  await tx.execute(sql`
    update order_files set
      preview_attempts = preview_attempts + 1,
      preview_status = ${outcome.status === 'failed' ? 'failed' : 'pending'}
    where id = ${file.id}`);
}

/** Runs `work` on each item, at most `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * One pass: claims up to `batchSize` pending files (those other instances are not working on),
 * makes their previews and records the outcomes, in one transaction. Returns how many files were
 * claimed (0: nothing left to do right now).
 */
export async function previewPendingFiles(options: PreviewPassOptions = {}): Promise<number> {
  const storage = options.storage ?? fileStorage();
  const database = options.database ?? db();
  const concurrency = Math.max(1, options.concurrency ?? defaultConcurrency());
  const batchSize = Math.max(1, options.batchSize ?? concurrency * 8);
  return database.transaction(async (tx) => {
    const { rows } = await tx.execute<{
      id: string;
      order_id: string;
      storage_key: string;
      kind: PendingFile['kind'];
      content_type: string;
      size_bytes: number;
      preview_attempts: number;
    }>(sql`
      select id, order_id, storage_key, kind, content_type, size_bytes, preview_attempts
      from order_files
      where preview_status = 'pending' and deleted_at is null
        and not (id = any(${`{${(options.skip ?? []).join(',')}}`}::uuid[]))
      -- New files first: one that failed waits behind them.
      order by preview_attempts, created_at
      limit ${batchSize}
      for update skip locked`);
    const files: PendingFile[] = rows.map((row) => ({
      id: row.id,
      orderId: row.order_id,
      storageKey: row.storage_key,
      kind: row.kind,
      contentType: row.content_type,
      sizeBytes: Number(row.size_bytes),
      previewAttempts: row.preview_attempts,
    }));
    const outcomes: { file: PendingFile; outcome: PreviewOutcome; keys: Written }[] = [];
    await eachLimited(files, concurrency, async (file) => {
      try {
        outcomes.push({ file, ...(await previewFile(storage, file)) });
      } catch (error) {
        const last = file.previewAttempts + 1 >= MAX_PREVIEW_ATTEMPTS;
        const message = error instanceof Error ? error.message : String(error);
        log.warn(
          { err: error, fileId: file.id, orderId: file.orderId, attempt: file.previewAttempts + 1 },
          last ? 'file previews: failed for good' : 'file previews: failed, tried again later',
        );
        outcomes.push({ file, outcome: { status: last ? 'failed' : 'retry', error: message }, keys: null });
      }
    });
    for (const { file, outcome, keys } of outcomes) await recordOutcome(tx, file, outcome, keys);
    for (const { file, outcome } of outcomes) options.onFile?.(file, outcome);
    return files.length;
  });
}

// ---------------------------------------------------------------------------------------------
// The worker

export interface FilePreviewsOptions extends PreviewPassOptions {
  /** Longest sleep between two looks when there is nothing to do (ms); wakeFilePreviews() cuts it short. */
  pollMs?: number;
  /**
   * How long a failed file waits before its next attempt, times its attempts (ms): a storage that
   * does not answer for a minute does not use up a file's three attempts in a second. Kept in
   * memory (the table has no column for it): another instance may try it sooner, which is fine.
   */
  retryDelayMs?: number;
}

export interface PreviewWorker {
  wake(): void;
  stop(): Promise<void>;
  readonly running: boolean;
}

/** sharp's settings for files made `concurrency` at a time (process-wide). */
function tuneSharp(concurrency: number) {
  // The cache keeps decoded images for reuse: every file here is new, so it would only hold memory.
  sharp.cache(false);
  sharp.concurrency(Math.max(1, Math.floor(os.availableParallelism() / concurrency)));
}

/** A worker of its own (the shop runs one per process through startFilePreviews; tests run two). */
export function createPreviewWorker(options: FilePreviewsOptions = {}): PreviewWorker {
  const pollMs = options.pollMs ?? 3_000;
  const retryDelayMs = options.retryDelayMs ?? 60_000;
  tuneSharp(Math.max(1, options.concurrency ?? defaultConcurrency()));
  /** Failed files of this worker and when they may be tried again. */
  const waiting = new Map<string, number>();
  const onFile = (file: PendingFile, outcome: PreviewOutcome) => {
    if (outcome.status === 'retry') waiting.set(file.id, Date.now() + retryDelayMs * (file.previewAttempts + 1));
    else waiting.delete(file.id);
    options.onFile?.(file, outcome);
  };
  const skip = () => {
    const now = Date.now();
    for (const [id, at] of waiting) if (at <= now) waiting.delete(id);
    return [...waiting.keys()];
  };
  /** The next time a waiting file may be tried, for the sleep. */
  const nextRetryIn = () => Math.min(...[...waiting.values()].map((at) => Math.max(0, at - Date.now())), Infinity);
  let running = true;
  let wakeRequested = false;
  let wakeUp: (() => void) | null = null;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (wakeRequested || !running) {
        wakeRequested = false;
        resolve();
        return;
      }
      const finish = () => {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      wakeUp = finish;
    });
  const loop = (async () => {
    while (running) {
      let claimed = 0;
      try {
        claimed = await previewPendingFiles({ ...options, onFile, skip: skip() });
        // Videos' playback (probe, rendition) once no preview waits: one video per pass.
        if (claimed === 0 && running) {
          claimed = await preparePendingPlayback({
            ...(options.storage ? { storage: options.storage } : {}),
            ...(options.database ? { database: options.database } : {}),
            skip: skip(),
            onFile: (file, outcome) => {
              if (outcome.playback === 'pending') waiting.set(file.id, Date.now() + retryDelayMs * (file.attempts + 1));
              else waiting.delete(file.id);
            },
          });
        }
      } catch (error) {
        log.error({ err: error }, 'file previews: pass failed (database or storage unavailable?)');
      }
      // A full pass may have left more; an empty or failed one waits for a wake-up or the poll.
      if (claimed === 0 || !running) await sleep(Math.max(10, Math.min(pollMs, nextRetryIn())));
    }
  })();
  return {
    wake() {
      if (wakeUp) wakeUp();
      else wakeRequested = true;
    },
    async stop() {
      running = false;
      wakeUp?.();
      await loop;
    },
    get running() {
      return running;
    },
  };
}

// One worker per process (the server bundle loads this module once: docs/decisions/033).
let processWorker: PreviewWorker | undefined;

/** Starts this process's previews worker (server/serve.ts); later calls are no-ops while it runs. */
export function startFilePreviews(options: FilePreviewsOptions = {}): void {
  if (processWorker) return;
  processWorker = createPreviewWorker(options);
  log.info({ concurrency: options.concurrency ?? defaultConcurrency() }, 'file previews worker started');
}

/** Asks the worker to look now (after a file is stored); a no-op where no worker runs. */
export function wakeFilePreviews(): void {
  processWorker?.wake();
}

/** Stops the worker after the batch in hand; call before closeDatabase(). */
export async function stopFilePreviews(): Promise<void> {
  const stopping = processWorker;
  processWorker = undefined;
  await stopping?.stop();
}
