import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { hasSessionCookie } from '~/domain/content/cache-control';
import { pageVersionKey } from '~/server/page-versions.server';

/*
 * In-memory cache of the rendered HTML of anonymous public pages (issue 9): a page that any
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
  headers: Record<string, string>;
  storedAt: number;
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
    res.setHeader('X-Cache', 'HIT');
    for (const [name, value] of Object.entries(entry.headers)) res.setHeader(name, value);
    res.setHeader('ETag', entry.etag);
    res.setHeader('Age', String(Math.floor((now() - entry.storedAt) / 1000)));
    if (matches(req.headers['if-none-match'], entry.etag)) {
      // The browser keeps the page it has, with the nonce it was served with; a 304 carrying a new
      // CSP header would replace the stored one and block that page's scripts. So none is sent.
      res.removeHeader('Content-Security-Policy');
      res.status(304).end();
      return;
    }
    res.status(200);
    res.setHeader('Content-Length', String(entry.body.length));
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const nonce = Buffer.from(res.locals.cspNonce as string, 'latin1');
    const page = Buffer.from(entry.body);
    for (const offset of entry.nonceOffsets) nonce.copy(page, offset);
    // Through res.end, so that compression (installed before) still applies.
    res.end(page);
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
        store(key, {
          body,
          nonceOffsets: offsetsOf(body, nonce),
          nonceLength: Buffer.byteLength(nonce),
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
     * Serves hits. Installed early (after compression and the security headers, before static
     * files and rate limits): a stored page is one the renderer produced, never a static file.
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
