import type { Readable } from 'node:stream';
import type { OrderFile } from './order-files.server';
import { attachmentDisposition, type ByteRange, type FileStorage, fileStorage } from './storage.server';

/*
 * Serving one of the customer's files (decision 011): the original as an attachment
 * under its sanitised name, resumable with a single HTTP Range (206, or 416 when the range cannot
 * be satisfied), HEAD, ETag = its SHA-256; thumbnails and previews inline. The bytes are streamed
 * from the storage with backpressure (constant memory whatever the size). With S3 the original is
 * a 302 to a presigned link valid 5 minutes: the bucket serves the bytes (and the ranges) itself.
 *
 * A « full » download (no Range, or a Range from byte 0) is counted by the route through
 * `isFullDownload`.
 */

export type RangeRequest =
  | { kind: 'whole' }
  | { kind: 'partial'; range: ByteRange }
  /** Well-formed but outside the file: 416. */
  | { kind: 'unsatisfiable' };

/**
 * `Range: bytes=a-b`, `a-`, `-n` against a file of `size` bytes. A header that is not one single
 * byte range (several ranges, another unit, garbage) is ignored as RFC 9110 allows: the whole file.
 */
export function parseRange(header: string | null, size: number): RangeRequest {
  if (!header) return { kind: 'whole' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  if (start >= size) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start, end } };
}

/** A download that starts at the first byte: one more download of the file. */
export function isFullDownload(request: Request, range: RangeRequest): boolean {
  if (request.method !== 'GET') return false;
  return range.kind === 'whole' || (range.kind === 'partial' && range.range.start === 0);
}

export interface BodyOptions {
  /**
   * The body goes to React Router's Node adapter, which writes each chunk and waits for the socket
   * to drain before it reads the next: the chunks can then be copied into three reused 1 MB
   * buffers. Needed because that adapter (@react-router/node 7.18, writeReadableStreamToWritable)
   * races every read against one promise that settles only at the end of the response, and V8
   * keeps every value such a race resolved with until then: a 2 GB ZIP held 2 GB of memory
   * (remix-run/react-router#15247, fixed upstream by #15500, not released in 7.x as of 7.18.5).
   * With reused buffers it holds 3 MB. Off for any other consumer (tests reading the whole body),
   * which may keep chunks.
   */
  reuseBuffers?: boolean;
}

const SLAB_BYTES = 1024 * 1024;
const SLABS = 3;

/**
 * An async source (a storage stream, the ZIP's chunks) as the body of a Response, read only as fast
 * as the client takes it: pulled one chunk at a time (highWaterMark 0 reads nothing ahead; the
 * storage's own stream reads 1 MB ahead), so a download holds a few MB whatever its size. Node's
 * Readable.toWeb reads ahead without bound in Node 20.
 */
export function webStreamOf(
  source: AsyncIterable<Uint8Array>,
  onAbort?: () => void,
  { reuseBuffers = false }: BodyOptions = {},
): ReadableStream<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  const cancel = async () => {
    onAbort?.();
    await iterator.return?.();
  };
  if (!reuseBuffers) {
    return new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          try {
            const { value, done } = await iterator.next();
            if (done) controller.close();
            else controller.enqueue(value);
          } catch (error) {
            controller.error(error);
          }
        },
        cancel,
      },
      { highWaterMark: 0 },
    );
  }
  // Each chunk sent is a full 1 MB slab (the last one excepted): always more than the socket's
  // high-water mark, so the adapter waits for it to drain before the next read, and a slab is
  // refilled only two reads after that.
  const slabs: Buffer[] = [];
  let turn = 0;
  let pending: Uint8Array | null = null;
  let offset = 0;
  let finished = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (finished) {
            controller.close();
            return;
          }
          const slab = slabs[turn] ?? Buffer.allocUnsafeSlow(SLAB_BYTES);
          slabs[turn] = slab;
          let filled = 0;
          while (filled < SLAB_BYTES) {
            if (!pending || offset >= pending.length) {
              const next = await iterator.next();
              if (next.done) {
                finished = true;
                break;
              }
              pending = next.value;
              offset = 0;
              continue;
            }
            const length = Math.min(SLAB_BYTES - filled, pending.length - offset);
            slab.set(pending.subarray(offset, offset + length), filled);
            filled += length;
            offset += length;
          }
          if (filled > 0) controller.enqueue(slab.subarray(0, filled));
          else controller.close();
          turn = (turn + 1) % SLABS;
        } catch (error) {
          controller.error(error);
        }
      },
      cancel,
    },
    { highWaterMark: 0 },
  );
}

/** The headers every file answer shares: private, never transformed (compression would break ranges). */
function baseHeaders(contentType: string, etag: string | null): Headers {
  const headers = new Headers({
    'Content-Type': contentType,
    'Cache-Control': 'private, no-transform, max-age=0, must-revalidate',
    'X-Content-Type-Options': 'nosniff',
  });
  if (etag) headers.set('ETag', etag);
  return headers;
}

export function etagOf(sha256: string): string {
  return `"${sha256}"`;
}

function notModified(request: Request, etag: string): boolean {
  const header = request.headers.get('if-none-match');
  return header?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag) ?? false;
}

/**
 * `If-Range`: a resumed download of a file that changed since (another ETag) gets the whole file
 * instead of a piece of the new one glued to the old.
 */
function rangeStillValid(request: Request, etag: string): boolean {
  const ifRange = request.headers.get('if-range');
  return ifRange === null || ifRange.trim() === etag;
}

export interface ServedBytes {
  key: string;
  size: number;
  contentType: string;
  etag: string | null;
  /** `attachment; filename=…` for originals; inline for previews. */
  disposition: string | null;
}

/**
 * The answer for `bytes` of the storage: 200, 206, 304, 416 or 404 (the bytes are missing). The
 * returned `range` tells the caller whether this was a full download.
 */
export async function bytesResponse(
  request: Request,
  bytes: ServedBytes,
  storage: FileStorage = fileStorage(),
  body: BodyOptions = {},
): Promise<{ response: Response; range: RangeRequest }> {
  const headers = baseHeaders(bytes.contentType, bytes.etag);
  headers.set('Accept-Ranges', 'bytes');
  if (bytes.disposition) headers.set('Content-Disposition', bytes.disposition);
  let range = parseRange(request.headers.get('range'), bytes.size);
  if (range.kind !== 'whole' && bytes.etag && !rangeStillValid(request, bytes.etag)) range = { kind: 'whole' };
  if (bytes.etag && range.kind === 'whole' && notModified(request, bytes.etag)) {
    return { response: new Response(null, { status: 304, headers }), range };
  }
  if (range.kind === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${bytes.size}`);
    headers.set('Content-Type', 'text/plain; charset=utf-8');
    headers.delete('Content-Disposition');
    return {
      response: new Response('La plage demandée dépasse la taille du fichier.', { status: 416, headers }),
      range,
    };
  }
  const status = range.kind === 'partial' ? 206 : 200;
  const start = range.kind === 'partial' ? range.range.start : 0;
  const end = range.kind === 'partial' ? range.range.end : bytes.size - 1;
  headers.set('Content-Length', String(Math.max(0, end - start + 1)));
  if (range.kind === 'partial') headers.set('Content-Range', `bytes ${start}-${end}/${bytes.size}`);
  if (request.method === 'HEAD') return { response: new Response(null, { status, headers }), range };
  // An empty file has no byte to read (a range 0--1 means nothing to the storage).
  if (bytes.size === 0) return { response: new Response('', { status, headers }), range };
  const stream = await storage.read(bytes.key, range.kind === 'partial' ? range.range : undefined);
  if (!stream) return { response: new Response('Fichier introuvable', { status: 404 }), range };
  return {
    response: new Response(
      webStreamOf(stream as Readable, () => stream.destroy(), body),
      { status, headers },
    ),
    range,
  };
}

/**
 * The original of a delivered file. With S3, a GET is sent to a presigned link (the bucket streams
 * it, Range included); HEAD and the local folder are answered here.
 */
export async function originalResponse(
  request: Request,
  file: Pick<OrderFile, 'storageKey' | 'name' | 'contentType' | 'sizeBytes' | 'sha256'>,
  storage: FileStorage = fileStorage(),
  body: BodyOptions = {},
): Promise<{ response: Response; range: RangeRequest }> {
  const disposition = attachmentDisposition(file.name);
  if (request.method === 'GET' && storage.kind === 's3') {
    const range = parseRange(request.headers.get('range'), file.sizeBytes);
    const url = await storage.signedDownloadUrl(file.storageKey, {
      fileName: file.name,
      contentType: file.contentType,
    });
    if (url) {
      return {
        response: new Response(null, {
          status: 302,
          headers: { Location: url, 'Cache-Control': 'private, no-store' },
        }),
        range,
      };
    }
  }
  return bytesResponse(
    request,
    {
      key: file.storageKey,
      size: file.sizeBytes,
      contentType: file.contentType,
      etag: etagOf(file.sha256),
      disposition,
    },
    storage,
    body,
  );
}

/** A thumbnail or preview (JPEG made by the previews job), or null when there is none. */
export async function previewResponse(
  request: Request,
  key: string | null,
  storage: FileStorage = fileStorage(),
  body: BodyOptions = {},
): Promise<Response | null> {
  if (!key) return null;
  const stat = await storage.stat(key);
  if (!stat) return null;
  const { response } = await bytesResponse(
    request,
    { key, size: stat.size, contentType: 'image/jpeg', etag: null, disposition: null },
    storage,
    body,
  );
  // Previews never change for a key: the browser keeps them for the gallery's visit (private).
  if (response.status === 200 || response.status === 206)
    response.headers.set('Cache-Control', 'private, max-age=3600, no-transform');
  return response;
}
