import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import { hasSessionCookie } from '~/domain/content/cache-control';
import { pageVersionKey } from '~/server/page-versions.server';

/*
 * In-memory cache of the rendered HTML of anonymous public pages: a page that any
 * shared cache may keep (`Cache-Control: public`, sent by the public pages' loaders to visitors
 * without a session) is rendered once and then served from memory, until the price list or the
 * content changes (their versions are part of the key), the TTL runs out, or the LRU evicts it.
 *
 * What is never cached: other methods than GET/HEAD, requests carrying a session (the page
 * shows the account), responses other than a 200 HTML page with
 * `Cache-Control: public`, and responses that set a cookie.
 *
 * The CSP nonce is per response (server/security.ts): the stored HTML remembers the nonce it was
 * rendered with, and a hit puts the new request's nonce in its place, so the page's scripts match
 * this response's Content-Security-Policy header.
 *
 * Compression. Compressing each hit cost more than everything else a hit does (gzip at
 * the default level: about 11 ms for a 90 KB page on the bench machine, brotli quality 1 about
 * 2 ms, against 0,03 ms to copy the page and put its nonce in). And a copy compressed once cannot
 * simply be reused: the nonce sits inside the compressed bytes. So the gzip copy is built around
 * the nonce: the text between two nonces is compressed once, at store time, as a raw deflate
 * stream ended by a full flush (byte-aligned, no reference to anything before it); a hit writes its
 * nonce between these pieces as an uncompressed ("stored") deflate block, then the gzip trailer
 * (CRC-32 of the page with this nonce, and its length). The result is a valid gzip stream; a hit
 * costs a copy and a CRC. Brotli has no equivalent (its stream cannot restart its window in the
 * middle), and compressing per hit would cost the 2 ms above: a client that accepts gzip gets it
 * (every browser does), one that accepts neither gets the page as it is.
 */

export interface HtmlCacheOptions {
  /** Most pages kept (least recently used evicted first). */
  maxEntries?: number;
  /** Most bytes of HTML kept, all pages together. */
  maxBytes?: number;
  /** Safety net for changes no version reports (a Markdown file edited on disk, another process's publication). */
  ttlMs?: number;
  /** The versions of what pages show; a change makes every stored page unreachable. */
  versionKey?: () => string;
  now?: () => number;
}

interface Entry {
  /** The page as rendered; the nonce it was rendered with sits at `nonceOffsets`. */
  body: Buffer;
  /** A hit overwrites these bytes with its own nonce, in a copy of the page. */
  nonceOffsets: number[];
  /** server/security.ts makes every nonce the same length (base64 of 16 bytes). */
  nonceLength: number;
  etag: string;
  /** The text between nonces, each compressed on its own (see the top of this file). */
  gzipPieces: Buffer[];
  headers: Record<string, string>;
  storedAt: number;
}

/** A gzip member's header: deflate, no name, no time, unknown system. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
/** The last deflate block: empty, stored, final. */
const DEFLATE_END = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);

/** Each stretch of `body` between nonces, deflated alone and ended on a byte boundary. */
function deflatePieces(body: Buffer, offsets: number[], nonceLength: number): Buffer[] {
  const pieces: Buffer[] = [];
  let start = 0;
  for (const offset of [...offsets, body.length]) {
    pieces.push(zlib.deflateRawSync(body.subarray(start, offset), { finishFlush: zlib.constants.Z_FULL_FLUSH }));
    start = offset + nonceLength;
  }
  return pieces;
}

/** The gzip stream of `page` (whose nonces are `nonce`), from pieces compressed at store time. */
function gzipAround(pieces: Buffer[], nonce: Buffer, page: Buffer): Buffer {
  const stored = Buffer.alloc(5 + nonce.length);
  // A stored block: header bits 000 (not final, stored), then LEN and its complement, little-endian.
  stored.writeUInt16LE(nonce.length, 1);
  stored.writeUInt16LE(~nonce.length & 0xffff, 3);
  nonce.copy(stored, 5);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(zlib.crc32(page), 0);
  trailer.writeUInt32LE(page.length % 2 ** 32, 4);
  const parts: Buffer[] = [GZIP_HEADER];
  pieces.forEach((piece, i) => {
    if (i > 0) parts.push(stored);
    parts.push(piece);
  });
  parts.push(DEFLATE_END, trailer);
  return Buffer.concat(parts);
}

function acceptsGzip(req: Request): boolean {
  const header = req.headers['accept-encoding'];
  if (!header?.includes('gzip')) return false;
  return req.acceptsEncodings('gzip', 'identity') === 'gzip';
}

/** Where `needle` occurs in `haystack`. */
function offsetsOf(haystack: Buffer, needle: string): number[] {
  const offsets: number[] = [];
  if (!needle) return offsets;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) offsets.push(at);
  return offsets;
}

/** The response headers a hit repeats; the security headers are set afresh for every response. */
const REPLAYED_HEADERS = ['content-type', 'cache-control', 'vary', 'content-language', 'link'];
/** A page larger than this is not worth keeping (and is not one of ours). */
const MAX_PAGE_BYTES = 2 * 1024 * 1024;

/*
 * Cookies that change what a public page shows: Better Auth's (`soovenirs.session_token` and its
 * companions; the header shows the account). The shop's own `sv_order_<id>`, `sv_flash` and
 * `sv_recovery` are read only by the order, account and sign-in pages, which are never public:
 * a guest who ordered keeps getting cached pages.
 */
const AUTH_COOKIE = /(?:^|;\s*)(?:__Secure-|__Host-)?soovenirs\./;

export function isAnonymous(req: Request): boolean {
  const cookie = req.headers.cookie ?? null;
  if (req.headers.authorization) return false;
  return cookie === null || (!hasSessionCookie(cookie) && !AUTH_COOKIE.test(cookie));
}

function isPublic(cacheControl: unknown): boolean {
  if (typeof cacheControl !== 'string') return false;
  const directives = cacheControl
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  return directives.includes('public') && !directives.includes('no-store') && !directives.includes('private');
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): W/ prefixes are ignored. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === bare;
  });
}

export function htmlCache({
  maxEntries = 500,
  maxBytes = 64 * 1024 * 1024,
  ttlMs = 60_000,
  versionKey = pageVersionKey,
  now = Date.now,
}: HtmlCacheOptions = {}) {
  // A Map iterates in insertion order: re-inserting on each hit makes its first key the least recently used.
  const entries = new Map<string, Entry>();
  let totalBytes = 0;

  function remove(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    totalBytes -= entry.body.length;
  }

  function store(key: string, entry: Entry) {
    remove(key);
    entries.set(key, entry);
    totalBytes += entry.body.length;
    while (entries.size > maxEntries || totalBytes > maxBytes) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      remove(oldest);
    }
  }

  function lookup(key: string): Entry | undefined {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (now() - entry.storedAt >= ttlMs) {
      remove(key);
      return undefined;
    }
    entries.delete(key);
    entries.set(key, entry);
    return entry;
  }

  function serve(req: Request, res: Response, entry: Entry) {
    const gzip = acceptsGzip(req);
    // Two representations, two validators (RFC 9110 8.8.3): the compressed one's ETag says so.
    const etag = gzip ? `${entry.etag.slice(0, -1)}-gz"` : entry.etag;
    res.setHeader('X-Cache', 'HIT');
    for (const [name, value] of Object.entries(entry.headers)) res.setHeader(name, value);
    const vary = entry.headers.vary;
    res.setHeader(
      'Vary',
      vary && !/accept-encoding/i.test(vary) ? `${vary}, Accept-Encoding` : (vary ?? 'Accept-Encoding'),
    );
    res.setHeader('ETag', etag);
    res.setHeader('Age', String(Math.floor((now() - entry.storedAt) / 1000)));
    if (matches(req.headers['if-none-match'], etag)) {
      // The browser keeps the page it has, with the nonce it was served with; a 304 carrying a new
      // CSP header would replace the stored one and block that page's scripts. So none is sent.
      res.removeHeader('Content-Security-Policy');
      res.status(304).end();
      return;
    }
    const nonce = Buffer.from(res.locals.cspNonce as string, 'latin1');
    const page = Buffer.from(entry.body);
    for (const offset of entry.nonceOffsets) nonce.copy(page, offset);
    const payload = gzip ? gzipAround(entry.gzipPieces, nonce, page) : page;
    res.status(200);
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Content-Length', String(payload.length));
    // Served before compression() (server/app.ts): it has nothing left to do here.
    res.end(req.method === 'HEAD' ? undefined : payload);
  }

  /** Records what the renderer writes and stores it at the end if the response qualifies. */
  function capture(req: Request, res: Response, key: string) {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    const collect = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function' || tooLarge) return;
      const buffer =
        typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
          : Buffer.from(chunk as Uint8Array);
      size += buffer.length;
      if (size > MAX_PAGE_BYTES) {
        tooLarge = true;
        chunks.length = 0;
      } else chunks.push(buffer);
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.write = ((...args: unknown[]) => {
      collect(args[0], args[1]);
      return write(...args);
    }) as Response['write'];
    res.end = ((...args: unknown[]) => {
      collect(args[0], args[1]);
      const result = end(...args);
      if (
        !tooLarge &&
        req.method === 'GET' &&
        res.statusCode === 200 &&
        String(res.getHeader('content-type') ?? '').startsWith('text/html') &&
        isPublic(res.getHeader('cache-control')) &&
        !res.hasHeader('set-cookie')
      ) {
        const body = Buffer.concat(chunks);
        const nonce = (res.locals.cspNonce as string | undefined) ?? '';
        const headers: Record<string, string> = {};
        for (const name of REPLAYED_HEADERS) {
          const value = res.getHeader(name);
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
        }
        const nonceOffsets = offsetsOf(body, nonce);
        store(key, {
          body,
          nonceOffsets,
          nonceLength: Buffer.byteLength(nonce),
          gzipPieces: deflatePieces(body, nonceOffsets, Buffer.byteLength(nonce)),
          // Strong: the hash of the page as rendered, the same for every hit whatever their nonce.
          etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
          headers,
          storedAt: now(),
        });
      }
      return result;
    }) as Response['end'];
  }

  return {
    /**
     * Serves hits. Installed early (after the request limits, the nonce and the security headers,
     * before compression, static files and rate limits): a hit needs nothing else. A stored page
     * is one the renderer produced, never a static file.
     */
    serveFromCache(req: Request, res: Response, next: NextFunction) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      if (!isAnonymous(req)) {
        res.setHeader('X-Cache', 'BYPASS');
        return next();
      }
      // The version is read when the request arrives: a page rendered while a price list is being
      // published is stored under the old version, where no later request looks.
      const key = `${req.originalUrl}\n${versionKey()}`;
      res.locals.htmlCacheKey = key;
      const entry = lookup(key);
      // A nonce of another length could not replace the stored one in place: render instead.
      if (entry && Buffer.byteLength(String(res.locals.cspNonce ?? '')) === entry.nonceLength) {
        return serve(req, res, entry);
      }
      next();
    },
    /** Records pages on their way out. Installed right before the renderer, so only pages pass here. */
    storeInCache(req: Request, res: Response, next: NextFunction) {
      const key = res.locals.htmlCacheKey as string | undefined;
      if (key !== undefined) {
        res.setHeader('X-Cache', 'MISS');
        capture(req, res, key);
      }
      next();
    },
  };
}
