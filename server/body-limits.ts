import type { Socket } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { UPLOAD_BODY_LIMIT_BYTES, UPLOADS_PATH } from '~/domain/files/uploads';

/*
 * Request limits, enforced before any route runs: before compression, the HTML cache,
 * React Router and Better Auth, which would otherwise read a body of any size into memory (one
 * anonymous 100 MB post to /contact used to block the whole site for 8 s and a 200 MB one took the
 * process to 4,5 GB).
 *
 * - A body over its path's limit is refused with a 413 at once: from its Content-Length before a
 *   byte of it is read, or, for a chunked body (no Content-Length), as soon as the bytes counted so
 *   far exceed it. The answer closes the connection, so Node does not read the rest.
 * - A chunked body, and any JSON body, is held here (at most its limit, 256 KB by default) until it
 *   is complete, then handed on unchanged: a route never sees the start of a body that turns out
 *   to be too large, and JSON nesting is checked, chunk by chunk as it arrives, before any parser
 *   recurses into it.
 * - Who asks was decided before (server/door.ts): a route whose limit is large (reception photos,
 *   tus) is held here only for the staff its line lets in.
 * - Methods the app does not serve (TRACE, TRACK, PROPFIND…) answer 405 instead of failing in the
 *   Fetch API's Request constructor (a 500).
 */

export const DEFAULT_BODY_LIMIT_BYTES = 256 * 1024;

/** A path prefix whose routes need another limit than the default. */
export interface BodyLimitRule {
  prefix: string;
  bytes: number;
}

/*
 * Routes that need more (or less) than the default, longest prefix first wins. A later upload
 * route declares its own line here.
 */
export const BODY_LIMIT_RULES: readonly BodyLimitRule[] = [
  // The gateways' notifications; app/server/payments/webhooks.server.ts reads at most as much.
  { prefix: '/api/webhooks/', bytes: 1024 * 1024 },
  // « Colis reçu »: up to 10 photos of 8 MB each, plus the form (domain/orders/reception.ts).
  { prefix: '/admin/api/reception/', bytes: 81 * 1024 * 1024 },
  // The tus uploads: one PATCH carries at most UPLOAD_CHUNK_BYTES (16 MiB), announced by its
  // Content-Length and streamed to the store, never held here (domain/files/uploads.ts).
  { prefix: UPLOADS_PATH, bytes: UPLOAD_BODY_LIMIT_BYTES },
];

/** Arrays and objects nested deeper than this are no JSON our routes expect (sign-up used to answer 500). */
export const MAX_JSON_DEPTH = 32;

export const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export const BODY_TOO_LARGE_MESSAGE = 'Requête refusée : son contenu est trop volumineux.';
export const JSON_TOO_DEEP_MESSAGE = 'Requête invalide : ses données sont imbriquées trop profondément.';
export const METHOD_NOT_ALLOWED_MESSAGE = 'Méthode non autorisée.';

/** The default limit: BODY_LIMIT_KB in kilobytes, 256 when unset. */
export function defaultBodyLimitBytes(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BODY_LIMIT_KB;
  if (raw === undefined || raw === '') return DEFAULT_BODY_LIMIT_BYTES;
  const kb = Number(raw);
  if (!Number.isInteger(kb) || kb <= 0)
    throw new Error(`BODY_LIMIT_KB must be a positive whole number of kilobytes, not "${raw}"`);
  return kb * 1024;
}

/** The limit of a path: the longest matching rule's, else the default. */
export function limitFor(path: string, rules: readonly BodyLimitRule[], defaultBytes: number): number {
  let best: BodyLimitRule | undefined;
  for (const rule of rules) {
    if (path.startsWith(rule.prefix) && (!best || rule.prefix.length > best.prefix.length)) best = rule;
  }
  return best ? best.bytes : defaultBytes;
}

/**
 * Whether the request announced a body: a Content-Length above zero, or a Transfer-Encoding
 * (Node's parser allows only chunked there). A GET without either has none, even unread.
 */
export function announcesBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0' && Number(length) !== 0;
}

// The bytes of JSON's structure (all ASCII: never inside a multi-byte UTF-8 character).
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/**
 * How deeply arrays and objects nest in a JSON text, strings skipped, fed a chunk at a time as the
 * bytes arrive: each chunk is scanned in its own turn of the event loop, so a large body never
 * holds the loop for the whole of its length (80 MB used to stall every other request 2,8 s).
 * `feed` answers true once the nesting went past `limit`.
 */
export function jsonDepthScanner(limit: number): { feed(chunk: Buffer): boolean } {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let exceeded = false;
  // Inside a string nothing nests: only its end counts, and a backslash hides the next byte.
  const insideString = (byte: number) => {
    if (escaped) escaped = false;
    else if (byte === BACKSLASH) escaped = true;
    else if (byte === QUOTE) inString = false;
  };
  const outsideString = (byte: number) => {
    if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      if (++depth > limit) exceeded = true;
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) depth--;
  };
  return {
    feed(chunk) {
      // The state lives outside the loop: a chunk may end in a string, or just after a backslash.
      for (let i = 0; i < chunk.length && !exceeded; i++) {
        const byte = chunk[i]!;
        if (inString) insideString(byte);
        else outsideString(byte);
      }
      return exceeded;
    },
  };
}

function isJson(req: Request): boolean {
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  return type.includes('json');
}

/** A short French text; `close` ends the connection after it, so Node does not read the rest of the body. */
function refuse(res: Response, status: number, message: string, close: boolean, headers: Record<string, string> = {}) {
  if (res.headersSent) return;
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (close) {
    res.setHeader('Connection', 'close');
    lingerBeforeClosing(res.req.socket);
  }
  res.end(message);
}

/** How long a refused client may keep sending before its connection is cut. */
export const LINGER_MS = 2_000;

/*
 * After an answer with `Connection: close` Node ends the connection and destroys the socket as
 * soon as the answer is written. If the client is still sending its body, closing a socket with
 * unread bytes makes the kernel send a reset, and the client usually loses the answer it had
 * received (it sees ECONNRESET instead of the 413). So, as nginx's and Apache's "lingering
 * close": the answer and the end of our side go out, what the client still sends is read and
 * dropped (nothing is kept), and the socket is destroyed when the client closes, or after
 * LINGER_MS at most.
 */
export function lingerBeforeClosing(socket: Socket | null | undefined): void {
  if (!socket || (socket as { lingering?: boolean }).lingering) return;
  (socket as { lingering?: boolean }).lingering = true;
  socket.destroySoon = function (this: Socket) {
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    // The client's end (or an error) finishes it earlier.
    this.once('end', () => this.destroy());
    this.resume();
  };
}

export interface BodyLimitOptions {
  defaultBytes?: number;
  rules?: readonly BodyLimitRule[];
  maxJsonDepth?: number;
}

type HeldOutcome = Buffer | 'too-large' | 'too-deep';
type HeldRequest = Request & { [HELD]?: { outcome?: HeldOutcome; waiting?: () => void } };
const HELD = Symbol('soovenirs.heldBody');

/**
 * The limits as one middleware: holds the body (see holdBodies) and goes on once it is complete
 * within its limits. For a server whose door decides in between, use holdBodies first and
 * whenBodyHeld after the door (server/app.ts).
 */
export function bodyLimits(options: BodyLimitOptions = {}) {
  const hold = holdBodies(options);
  return function enforceBodyLimits(req: Request, res: Response, next: NextFunction): void {
    hold(req, res, (error?: unknown) => (error ? next(error) : whenBodyHeld(req, res, next)));
  };
}

/**
 * Goes on once the body that holdBodies holds is complete within its limits; never for a body it
 * refused (its answer is sent). Without a held body, at once.
 */
export function whenBodyHeld(req: Request, _res: Response, next: NextFunction): void {
  const held = (req as HeldRequest)[HELD];
  if (!held) {
    next();
    return;
  }
  const go = () => {
    if (Buffer.isBuffer(held.outcome)) next();
  };
  if (held.outcome !== undefined) go();
  else held.waiting = go;
}

/**
 * The first middleware of all, synchronous: it must see every byte Node's parser pushes, which
 * starts in the same turn as the request for a small body (a door awaiting the session before it
 * would miss them, and the body would never complete). It refuses what is over its limits at once
 * and lets the next middleware run at once; `whenBodyHeld` waits for the body.
 */
export function holdBodies({
  defaultBytes = defaultBodyLimitBytes(),
  rules = BODY_LIMIT_RULES,
  maxJsonDepth = MAX_JSON_DEPTH,
}: BodyLimitOptions = {}) {
  const allowed = new Set<string>(ALLOWED_METHODS);
  const allow = ALLOWED_METHODS.join(', ');

  return function startHoldingBody(req: Request, res: Response, next: NextFunction): void {
    if (!allowed.has(req.method)) {
      // A body behind an unknown method is never read: the connection closes after the answer.
      refuse(res, 405, METHOD_NOT_ALLOWED_MESSAGE, announcesBody(req), { Allow: allow });
      return;
    }
    if (!announcesBody(req)) {
      next();
      return;
    }

    const limit = limitFor(req.path, rules, defaultBytes);
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) {
      refuse(res, 413, BODY_TOO_LARGE_MESSAGE, true);
      return;
    }
    // A Content-Length within the limit: Node's parser never delivers more than it announces.
    const chunked = declared === undefined;
    const json = isJson(req);
    if (!chunked && !json) {
      next();
      return;
    }
    const scanner = json ? jsonDepthScanner(maxJsonDepth) : null;
    const held: NonNullable<HeldRequest[typeof HELD]> = {};
    (req as HeldRequest)[HELD] = held;
    holdBody(req, res, limit, scanner, (outcome) => {
      if (outcome === 'too-large') refuse(res, 413, BODY_TOO_LARGE_MESSAGE, true);
      // Refused as soon as the nesting shows: the rest of the body is dropped unread.
      else if (outcome === 'too-deep') refuse(res, 400, JSON_TOO_DEEP_MESSAGE, !req.complete);
      held.outcome = outcome;
      held.waiting?.();
    });
    next();
  };
}

type Push = (chunk: unknown, encoding?: BufferEncoding) => boolean;

/**
 * Counts and keeps the body's bytes as Node's HTTP parser delivers them (it calls `req.push` for
 * each), without letting anyone read them yet. Once the body is complete within `limit`, the bytes
 * go back into the request unchanged and `done` gets them; over the limit, `done('too-large')` at
 * once, or nested too deeply for `scanner`, `done('too-deep')` at once, and every later byte is
 * dropped (memory stays flat while the connection closes).
 */
function holdBody(
  req: Request,
  res: Response,
  limit: number,
  scanner: { feed(chunk: Buffer): boolean } | null,
  done: (outcome: HeldOutcome) => void,
): void {
  const original = req.push as Push;
  const chunks: Buffer[] = [];
  let received = 0;
  let over = false;
  const release = () => {
    // Back to Readable.prototype.push for the replay and anything after it.
    delete (req as { push?: Push }).push;
  };
  (req as { push: Push }).push = (chunk, encoding) => {
    // Answered already (the door refused, a limit was passed): nothing of the rest is kept.
    if (!over && res.headersSent) {
      over = true;
      chunks.length = 0;
    }
    if (over) return true;
    if (chunk === null) {
      release();
      const body = Buffer.concat(chunks, received);
      chunks.length = 0;
      if (body.length > 0) original.call(req, body);
      original.call(req, null);
      done(body);
      // The end of the body: nothing more will come through here.
      return false;
    }
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : (chunk as Buffer);
    received += buffer.length;
    if (received > limit) {
      over = true;
      chunks.length = 0;
      done('too-large');
      return true;
    }
    if (scanner?.feed(buffer)) {
      over = true;
      chunks.length = 0;
      done('too-deep');
      return true;
    }
    chunks.push(buffer);
    // "Keep sending": at most `limit` bytes are kept, so the socket need not be paused.
    return true;
  };
  // The client may go away mid-body: nothing to answer then.
  req.once('close', () => {
    if (!over && !req.complete) {
      over = true;
      chunks.length = 0;
      release();
    }
  });
}
