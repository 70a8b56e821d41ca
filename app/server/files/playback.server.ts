import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import {
  type Chapter,
  chaptersOf,
  type FileMediaFacts,
  hasVideoStream,
  isWebPlayable,
  type PhotoFacts,
  type ProbeResult,
} from '~/domain/files/playback';
import { type Database, db, type Tx } from '../db/client.server';
import { log } from '../log.server';
import { type BodyOptions, bytesResponse, etagOf, type RangeRequest } from './downloads.server';
import type { OrderFile } from './order-files.server';
import { type FileStorage, fileStorage } from './storage.server';
import { ffmpegIsAvailable, servedOnLoopback } from './video-info.server';

/*
 * Videos played in the gallery (decision 027).
 *
 * Each delivered video is probed once by the previews worker (ffprobe reads it through the same
 * loopback Range server as the poster frame, from the folder or the bucket): a master that
 * browsers play as it is (H.264 8-bit 4:2:0 in MP4/MOV, domain/files/playback.ts) is played as it
 * is; any other (DV/AVI, MPEG-2, ProRes, MKV…) gets a rendition, H.264/AAC in an MP4 with its
 * index first (« faststart »), made by ffmpeg into a temporary file and stored next to the master
 * under `orders/<order>/<file>.playback.mp4`. The master stays the download. Chapters found in
 * the container are kept for a WebVTT chapters track.
 *
 * One video per transaction, claimed `FOR UPDATE OF f SKIP LOCKED` like the previews (decision
 * 013): another instance takes the next one; a process that dies mid-rendition leaves no row, and
 * the video is taken again. A transcode can last as long as the film (an hour of VHS: minutes at
 * `veryfast`), during which that one row is locked and one pooled connection idles in its
 * transaction; nothing writes a file's row before it is published, and the worker makes one
 * rendition at a time per instance so that previews and pages keep their CPU.
 */

/** Third failure: `none` (the gallery shows the still frame and « Télécharger »). */
export const MAX_PLAYBACK_ATTEMPTS = 3;
const PROBE_TIMEOUT_MS = 60_000;
/** A rendition may take this long (a three-hour tape at `veryfast` on a small machine). */
const RENDITION_TIMEOUT_MS = 6 * 60 * 60 * 1000;

/** Where a file's web-playable rendition is stored (conventional, so the retention finds it even unrecorded). */
export function playbackKey(orderId: string, fileId: string): string {
  return `orders/${orderId}/${fileId}.playback.mp4`;
}

// ---------------------------------------------------------------------------------------------
// ffprobe and ffmpeg

function run(
  command: string,
  args: string[],
  timeoutMs: number,
  maxOutput = 4 * 1024 * 1024,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < maxOutput) stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString();
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** What ffprobe says of `url` (containers, streams, chapters), or null when it cannot read it. */
export async function probe(url: string): Promise<ProbeResult | null> {
  const { code, stdout } = await run(
    'ffprobe',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-print_format',
      'json',
      '-show_format',
      '-show_streams',
      '-show_chapters',
      url,
    ],
    PROBE_TIMEOUT_MS,
  );
  if (code !== 0) return null;
  try {
    return JSON.parse(stdout) as ProbeResult;
  } catch {
    return null;
  }
}

/**
 * The rendition of `url` into `output`: H.264 (8-bit 4:2:0, CRF 23, `veryfast`) and AAC 128 kb/s
 * in an MP4 with its index first, so that a browser starts playing after the first bytes and
 * seeks with Range requests. Interlaced tapes (VHS, DV) are deinterlaced (bwdif touches only the
 * frames flagged interlaced); the picture keeps its size and aspect; chapters are carried over.
 */
export async function makeRendition(url: string, output: string): Promise<void> {
  const { code, stderr } = await run(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-i',
      url,
      '-map',
      '0:v:0',
      '-map',
      '0:a:0?',
      '-map_chapters',
      '0',
      '-vf',
      'bwdif=deint=interlaced,scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '23',
      '-profile:v',
      'high',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-ac',
      '2',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      '-y',
      output,
    ],
    RENDITION_TIMEOUT_MS,
  );
  if (code !== 0) throw new Error(`ffmpeg ended with code ${code}: ${stderr.trim()}`);
}

// ---------------------------------------------------------------------------------------------
// One video

export interface PlaybackFile {
  id: string;
  orderId: string;
  storageKey: string;
  contentType: string;
  sizeBytes: number;
  attempts: number;
}

export type PlaybackOutcome =
  | { playback: 'master'; chapters: Chapter[] }
  | { playback: 'rendition'; key: string; sizeBytes: number; chapters: Chapter[] }
  | { playback: 'none'; reason: string }
  | { playback: 'pending'; error: string };

/** Probes a video and, when browsers cannot play it as it is, stores its rendition. */
export async function preparePlayback(storage: FileStorage, file: PlaybackFile): Promise<PlaybackOutcome> {
  // A master missing from the storage (a fault, or another storage's file) is an attempt that
  // failed, said at once: ffprobe would otherwise wait on the loopback server until its timeout.
  if (!(await storage.stat(file.storageKey))) throw new Error('the master is missing from the storage');
  return servedOnLoopback(storage, file.storageKey, file.sizeBytes, file.contentType, async (url) => {
    const facts = await probe(url);
    if (!facts || !hasVideoStream(facts)) return { playback: 'none' as const, reason: 'no video stream ffprobe reads' };
    const chapters = chaptersOf(facts);
    if (isWebPlayable(facts)) return { playback: 'master' as const, chapters };
    const key = playbackKey(file.orderId, file.id);
    const temporary = path.join(os.tmpdir(), `soovenirs-rendition-${randomUUID()}.mp4`);
    try {
      await makeRendition(url, temporary);
      // We hold the row's lock: a key already there was left by a pass that died before its commit.
      await storage.delete(key);
      const { size } = await storage.put(key, fs.createReadStream(temporary), { contentType: 'video/mp4' });
      return { playback: 'rendition' as const, key, sizeBytes: size, chapters };
    } finally {
      await fs.promises.rm(temporary, { force: true });
    }
  });
}

async function recordPlayback(tx: Tx, file: PlaybackFile, outcome: PlaybackOutcome): Promise<void> {
  const attempts = outcome.playback === 'pending' ? file.attempts + 1 : file.attempts;
  const playback = outcome.playback === 'pending' && attempts >= MAX_PLAYBACK_ATTEMPTS ? 'none' : outcome.playback;
  const key = outcome.playback === 'rendition' ? outcome.key : null;
  const size = outcome.playback === 'rendition' ? outcome.sizeBytes : null;
  const type = outcome.playback === 'rendition' ? 'video/mp4' : null;
  const chapters =
    outcome.playback === 'master' || outcome.playback === 'rendition' ? JSON.stringify(outcome.chapters) : null;
  await tx.execute(sql`
    insert into order_file_media (file_id, playback, playback_key, playback_content_type, playback_size_bytes,
      playback_attempts, chapters, updated_at)
    values (${file.id}, ${playback}, ${key}, ${type}, ${size}, ${attempts}, ${chapters}::jsonb, now())
    on conflict (file_id) do update set playback = excluded.playback, playback_key = excluded.playback_key,
      playback_content_type = excluded.playback_content_type, playback_size_bytes = excluded.playback_size_bytes,
      playback_attempts = excluded.playback_attempts, chapters = excluded.chapters, updated_at = now()`);
}

export interface PlaybackPassOptions {
  storage?: FileStorage;
  database?: Database;
  /** Videos not to claim in this pass (failed ones waiting for their next attempt). */
  skip?: readonly string[];
  onFile?: (file: PlaybackFile, outcome: PlaybackOutcome) => void;
}

/**
 * One pass: claims one video not looked at yet (or to try again), prepares its playback and
 * records it, in one transaction. Returns how many videos were claimed (0 or 1).
 */
export async function preparePendingPlayback(options: PlaybackPassOptions = {}): Promise<number> {
  const storage = options.storage ?? fileStorage();
  const database = options.database ?? db();
  // Without ffmpeg nothing is recorded: the videos are probed once it is installed (and the
  // shop restarted), rather than marked unplayable for good.
  if (!(await ffmpegIsAvailable())) return 0;
  return database.transaction(async (tx) => {
    const { rows } = await tx.execute<{
      id: string;
      order_id: string;
      storage_key: string;
      content_type: string;
      size_bytes: number;
      attempts: number | null;
    }>(sql`
      select f.id, f.order_id, f.storage_key, f.content_type, f.size_bytes, m.playback_attempts as attempts
      from order_files f
      left join order_file_media m on m.file_id = f.id
      where f.kind = 'video' and f.deleted_at is null
        and (m.file_id is null or m.playback is null or m.playback = 'pending')
        and not (f.id = any(${`{${(options.skip ?? []).join(',')}}`}::uuid[]))
      order by coalesce(m.playback_attempts, 0), f.created_at
      limit 1
      for update of f skip locked`);
    const row = rows[0];
    if (!row) return 0;
    const file: PlaybackFile = {
      id: row.id,
      orderId: row.order_id,
      storageKey: row.storage_key,
      contentType: row.content_type,
      sizeBytes: Number(row.size_bytes),
      attempts: row.attempts ?? 0,
    };
    let outcome: PlaybackOutcome;
    try {
      outcome = await preparePlayback(storage, file);
    } catch (error) {
      log.warn({ err: error, fileId: file.id, orderId: file.orderId }, 'video playback: rendition failed');
      outcome = { playback: 'pending', error: error instanceof Error ? error.message : String(error) };
    }
    if (outcome.playback === 'none') log.info({ fileId: file.id, reason: outcome.reason }, 'video playback: none');
    await recordPlayback(tx, file, outcome);
    options.onFile?.(file, outcome);
    return 1;
  });
}

// ---------------------------------------------------------------------------------------------
// Photos' captions and dates, recorded by the previews worker

/** Records what a photo's metadata says, keeping a caption or date the staff wrote. */
export async function recordPhotoFacts(tx: Tx, fileId: string, facts: PhotoFacts): Promise<void> {
  if (!facts.caption && !facts.takenAt) return;
  await tx.execute(sql`
    insert into order_file_media (file_id, caption, taken_at, updated_at)
    values (${fileId}, ${facts.caption}, ${facts.takenAt?.toISOString() ?? null}::timestamptz, now())
    on conflict (file_id) do update set
      caption = coalesce(order_file_media.caption, excluded.caption),
      taken_at = coalesce(order_file_media.taken_at, excluded.taken_at),
      updated_at = now()`);
}

// ---------------------------------------------------------------------------------------------
// The gallery

/** The media facts of these files, by id (files without a row are absent). */
export async function loadFileMedia(
  fileIds: readonly string[],
  database: Database = db(),
): Promise<Map<string, FileMediaFacts>> {
  const result = new Map<string, FileMediaFacts>();
  if (fileIds.length === 0) return result;
  const { rows } = await database.execute<{
    file_id: string;
    caption: string | null;
    taken_at: string | Date | null;
    playback: string | null;
    chapters: Chapter[] | null;
  }>(sql`
    select file_id, caption, taken_at, playback, chapters from order_file_media
    where file_id = any(${`{${fileIds.join(',')}}`}::uuid[])`);
  for (const row of rows) {
    result.set(row.file_id, {
      caption: row.caption,
      takenAt: row.taken_at === null ? null : new Date(row.taken_at),
      playable: row.playback === 'master' || row.playback === 'rendition',
      chapters: Array.isArray(row.chapters) ? row.chapters : [],
    });
  }
  return result;
}

/** A gallery page's files with their caption, date, playback and chapters (`media`, null when unknown). */
export async function withFileMedia<T extends { files: { id: string }[] }>(
  page: T,
  database: Database = db(),
): Promise<T & { files: (T['files'][number] & { media: FileMediaFacts | null })[] }> {
  const media = await loadFileMedia(
    page.files.map((file) => file.id),
    database,
  );
  return { ...page, files: page.files.map((file) => ({ ...file, media: media.get(file.id) ?? null })) };
}

type PlaybackRow = {
  playback: string | null;
  playback_key: string | null;
  playback_content_type: string | null;
  playback_size_bytes: number | string | null;
  chapters: Chapter[] | null;
};

async function playbackRow(fileId: string, database: Database): Promise<PlaybackRow | null> {
  const { rows } = await database.execute<PlaybackRow>(sql`
    select playback, playback_key, playback_content_type, playback_size_bytes, chapters
    from order_file_media where file_id = ${fileId}`);
  return rows[0] ?? null;
}

/**
 * The bytes the `<video>` plays, inline, with Range (206, `Accept-Ranges`, `Content-Range`, 416),
 * streamed by the shop from the folder or the bucket in constant memory: the master when browsers
 * play it, else its rendition. Null when the file has nothing to play (yet).
 */
export async function playbackResponse(
  request: Request,
  file: Pick<OrderFile, 'id' | 'storageKey' | 'contentType' | 'sizeBytes' | 'sha256'>,
  { storage = fileStorage(), database = db(), body = {} as BodyOptions } = {},
): Promise<{ response: Response; range: RangeRequest } | null> {
  const row = await playbackRow(file.id, database);
  if (row?.playback === 'master') {
    return bytesResponse(
      request,
      {
        key: file.storageKey,
        size: file.sizeBytes,
        // Only MP4/MOV masters play as they are; a camera's .mov (video/quicktime) is refused by
        // Chrome under its own type and plays as MP4.
        contentType: 'video/mp4',
        etag: etagOf(file.sha256),
        disposition: 'inline',
      },
      storage,
      body,
    );
  }
  if (row?.playback === 'rendition' && row.playback_key && row.playback_size_bytes !== null) {
    const size = Number(row.playback_size_bytes);
    return bytesResponse(
      request,
      {
        key: row.playback_key,
        size,
        contentType: row.playback_content_type ?? 'video/mp4',
        // Made once per file and key: its id and size name it (a rework makes a new file id).
        etag: `"rendition-${file.id}-${size}"`,
        disposition: 'inline',
      },
      storage,
      body,
    );
  }
  return null;
}

/** The chapters of a playable video, or null (no row, not playable, no chapters). */
export async function loadChapters(fileId: string, database: Database = db()): Promise<Chapter[] | null> {
  const row = await playbackRow(fileId, database);
  if (!row || (row.playback !== 'master' && row.playback !== 'rendition')) return null;
  return Array.isArray(row.chapters) && row.chapters.length > 0 ? row.chapters : null;
}
