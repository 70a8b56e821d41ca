import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { findMovieDuration } from '~/domain/files/video-duration';
import { log } from '../log.server';
import type { FileStorage } from './storage.server';

/*
 * What the gallery shows of a delivered video (decision 011): its duration, read from the MP4/MOV
 * movie header with a few small range reads (domain/files/video-duration.ts: the movie box of a
 * camera's file is often after gigabytes of media data), and a poster frame when `ffmpeg` is
 * installed on the machine (not a dependency of the shop: the gallery shows an icon without it).
 *
 * ffmpeg reads the video from a loopback HTTP server answering Range requests from the storage,
 * the same for the DATA_DIR folder and for S3: it seeks to the movie box and to the frame wanted
 * without a copy of the file on disk, and nothing of the file is held in memory.
 */

/** Bytes of `key` from `start` (`length` of them, fewer at the end), read through the storage. */
export async function readRange(storage: FileStorage, key: string, start: number, length: number): Promise<Uint8Array> {
  if (length <= 0) return new Uint8Array(0);
  const stream = await storage.read(key, { start, end: start + length - 1 });
  if (!stream) throw new Error(`no file stored under ${key}`);
  return collect(stream, length);
}

/** A stream's bytes, refusing more than `limit` (a reader that ignores the range asked for). */
export async function collect(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      stream.destroy();
      throw new Error(`more than ${limit} bytes read`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size);
}

/** The duration in seconds of the MP4/MOV video stored under `key`, or null (another format). */
export async function videoDuration(storage: FileStorage, key: string, sizeBytes: number): Promise<number | null> {
  return findMovieDuration((start, length) => readRange(storage, key, start, length), sizeBytes);
}

// ---------------------------------------------------------------------------------------------
// Poster frames, when ffmpeg is installed

let ffmpegCheck: Promise<boolean> | undefined;

/** Whether `ffmpeg` runs from the PATH (asked once per process). */
export function ffmpegIsAvailable(): Promise<boolean> {
  ffmpegCheck ??= new Promise<boolean>((resolve) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-version'], { stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
  return ffmpegCheck;
}

/** `bytes=a-b` or `bytes=a-` within a file of `size` bytes (one range, as ffmpeg asks). */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | null {
  const match = header && /^bytes=(\d+)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const start = Number(match[1]);
  const end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  return start <= end ? { start, end } : null;
}

/** Serves `key` on 127.0.0.1 under a random path, with Range, for as long as `use` runs (ffmpeg reads it). */
export async function servedOnLoopback<T>(
  storage: FileStorage,
  key: string,
  size: number,
  contentType: string,
  use: (url: string) => Promise<T>,
): Promise<T> {
  const secretPath = `/${randomBytes(16).toString('hex')}`;
  const server = http.createServer((request, response) => {
    if (request.url !== secretPath || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404).end();
      return;
    }
    const range = request.headers.range ? parseRange(request.headers.range, size) : null;
    if (request.headers.range && !range) {
      response.writeHead(416, { 'Content-Range': `bytes */${size}` }).end();
      return;
    }
    const { start, end } = range ?? { start: 0, end: size - 1 };
    response.writeHead(range ? 206 : 200, {
      'Accept-Ranges': 'bytes',
      'Content-Type': contentType,
      'Content-Length': String(end - start + 1),
      ...(range ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
    });
    if (request.method === 'HEAD' || size === 0) {
      response.end();
      return;
    }
    storage
      .read(key, { start, end })
      .then((stream) => {
        if (!stream) return void response.destroy();
        stream.once('error', () => response.destroy());
        // ffmpeg closes the connection as soon as it has what it wants: stop reading then.
        response.once('close', () => stream.destroy());
        stream.pipe(response);
      })
      .catch(() => response.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  try {
    const { port } = server.address() as AddressInfo;
    return await use(`http://127.0.0.1:${port}${secretPath}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const POSTER_TIMEOUT_MS = 120_000;
const MAX_POSTER_BYTES = 64 * 1024 * 1024;

/** One frame of `url` at `seconds`, as PNG bytes, or null when ffmpeg gives none. */
function grabFrame(url: string, seconds: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-nostdin',
        // Seeking before -i jumps to the nearest key frame through the container's index: fast.
        '-ss',
        String(seconds),
        '-i',
        url,
        '-frames:v',
        '1',
        '-an',
        '-f',
        'image2pipe',
        '-c:v',
        'png',
        'pipe:1',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const chunks: Buffer[] = [];
    let size = 0;
    let errors = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), POSTER_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_POSTER_BYTES) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (errors.length < 2000) errors += chunk.toString();
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (code === 0 && size > 0 && size <= MAX_POSTER_BYTES) resolve(Buffer.concat(chunks, size));
      else if (code === 0) resolve(null);
      else reject(new Error(`ffmpeg ended with code ${code}: ${errors.trim()}`));
    });
  });
}

/**
 * A frame of the video stored under `key` (about one second in, the first frame of a shorter
 * film), as PNG bytes; null when ffmpeg is not installed or makes no frame of it.
 */
export async function posterFrame(
  storage: FileStorage,
  file: { key: string; sizeBytes: number; contentType: string },
): Promise<Buffer | null> {
  if (!(await ffmpegIsAvailable())) return null;
  try {
    return await servedOnLoopback(storage, file.key, file.sizeBytes, file.contentType, async (url) => {
      return (await grabFrame(url, 1)) ?? (await grabFrame(url, 0));
    });
  } catch (error) {
    log.warn({ err: error, key: file.key }, 'file previews: ffmpeg made no poster frame');
    return null;
  }
}
