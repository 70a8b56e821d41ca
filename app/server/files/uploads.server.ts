import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { type MetadataValue, S3Store } from '@tus/s3-store';
import { type DataStore, ERRORS, Server, type Upload } from '@tus/server';
import { eq } from 'drizzle-orm';
import {
  encodeUploadOutcome,
  MAX_UPLOAD_BYTES,
  OTHER_SUPPORT,
  UPLOAD_CHUNK_BYTES,
  UPLOAD_MESSAGES,
  UPLOAD_RESULT_HEADER,
  UPLOADS_PATH,
  type UploadOutcome,
  uploadRefusalMessage,
} from '~/domain/files/uploads';
import { closedWorkRefusal } from '~/domain/orders/open-work';
import { ruleFor, UPLOADS_ACCESS } from '~/domain/staff/access-rules';
import { decideRequest, refusalAnswer, SessionUncheckable } from '../access/door.server';
import type { SessionUser } from '../auth/session.server';
import { type Database, db } from '../db/client.server';
import { orderItems, orders } from '../db/schema';
import { baseUrl, env } from '../env.server';
import { log } from '../log.server';
import { isOrderId } from '../orders/access.server';
import { storeOrderFile } from './order-files.server';
import { createS3Storage, type FileStorage, fileStorage, type S3Settings, s3SettingsFromEnv } from './storage.server';

/*
 * The back office's resumable uploads (decision 012): the tus protocol (@tus/server) at
 * /admin/api/televersements, mounted in server/app.ts before compression, the rate limit of posts
 * and React Router, which would otherwise touch the raw body tus streams.
 *
 * - Staff only: every request (POST, HEAD, PATCH, DELETE, OPTIONS) is checked against the Better
 *   Auth session here, before tus sees it: 401 without a session, 403 for a customer, in French.
 *   Non-safe requests from a foreign Origin are refused (the app's sameOriginOnly runs later).
 * - The partial uploads live where the shop's files live: DATA_DIR/uploads (@tus/file-store), or
 *   the bucket under `uploads/` (@tus/s3-store, one S3 multipart upload per file). A PATCH is
 *   streamed into the store chunk by chunk: memory stays flat whatever the file's size.
 * - Metadata `orderId`, `support` and `filename` are checked when the upload is created (the order
 *   exists, is placed and not cancelled; the support is one of its lines' or « autres »).
 * - When the last byte arrives, the upload is streamed into storeOrderFile (SHA-256, never an
 *   overwrite), then removed, and the last PATCH's answer carries the outcome in the
 *   `Soovenirs-Upload-Result` header (domain/files/uploads.ts).
 *
 * Several instances: the locks of tus are per process (MemoryLocker). The client sends one PATCH
 * at a time per upload, so two instances only meet on one upload when a client retries while its
 * previous PATCH still runs elsewhere; that PATCH then fails with an offset conflict and the client
 * asks for the offset again (HEAD).
 */

export interface UploadsOptions {
  /** Where finished files go (storeOrderFile). */
  storage: FileStorage;
  /** Partial uploads in this bucket (under `uploads/`), or on disk in `uploadsDir` when null. */
  s3: S3Settings | null;
  uploadsDir: string;
  database?: Database;
}

export function uploadsOptionsFromEnv(): UploadsOptions {
  return {
    storage: fileStorage(),
    s3: s3SettingsFromEnv(),
    uploadsDir: path.resolve(env().DATA_DIR, 'uploads'),
  };
}

/** How a store keeps partial uploads and gives back a finished one. */
interface UploadBackend {
  datastore: DataStore;
  /** The store's id of an upload from the id in its URL (32 hexadecimal digits). */
  storeId(urlId: string): string;
  urlId(storeId: string): string;
  readFinished(storeId: string): Promise<Readable>;
  discard(storeId: string): Promise<void>;
}

const URL_ID = /^[0-9a-f]{32}$/;
const S3_PREFIX = 'uploads/';

/**
 * An upload left unfinished this long is abandoned: its address answers 410 and the client starts
 * the file again; removeAbandonedUploads frees its disk.
 */
export const ABANDONED_UPLOAD_MS = 7 * 24 * 60 * 60 * 1000;

function localStore(directory: string): FileStore {
  fs.mkdirSync(directory, { recursive: true });
  return new FileStore({ directory, expirationPeriodInMilliseconds: ABANDONED_UPLOAD_MS });
}

/**
 * Removes the partial uploads of DATA_DIR/uploads untouched for ABANDONED_UPLOAD_MS (a file the
 * staff never finished sending); returns how many. In a bucket, the partial uploads are the
 * bucket's: a lifecycle rule on `uploads/` and on incomplete multipart uploads removes them
 * (docs/decisions/012-resumable-uploads.md).
 */
export async function removeAbandonedUploads(options: UploadsOptions = uploadsOptionsFromEnv()): Promise<number> {
  if (options.s3) return 0;
  return localStore(options.uploadsDir).deleteExpired();
}

function localBackend(directory: string): UploadBackend {
  const datastore = localStore(directory);
  return {
    datastore,
    storeId: (urlId) => urlId,
    urlId: (storeId) => storeId,
    async readFinished(storeId) {
      return fs.createReadStream(path.join(directory, storeId), { highWaterMark: 1024 * 1024 });
    },
    async discard(storeId) {
      await datastore.remove(storeId).catch(async () => {
        // Already gone, or its info file is: make sure neither is left.
        await fs.promises.rm(path.join(directory, storeId), { force: true });
        await fs.promises.rm(path.join(directory, `${storeId}.json`), { force: true });
      });
    },
  };
}

/*
 * @tus/s3-store finds the parts already sent with S3's ListParts, which not every S3-compatible
 * service implements (s3rver, our test peer, does not; nor AbortMultipartUpload). Each part sent is
 * therefore also recorded as an empty object `<id>.parts/<number>-<size>-<etag>`, and the parts
 * are found by listing those (ListObjectsV2, which every service has). The markers go with the
 * upload when it is stored or cancelled.
 */
class MarkedPartsS3Store extends S3Store {
  private markerPrefix(id: string): string {
    return `${id}.parts/`;
  }

  protected override async uploadPart(
    metadata: MetadataValue,
    readStream: fs.ReadStream | Readable | Buffer,
    partNumber: number,
  ): Promise<string> {
    const size = Buffer.isBuffer(readStream)
      ? readStream.length
      : readStream instanceof fs.ReadStream
        ? (await fs.promises.stat(readStream.path)).size
        : null;
    if (size === null) throw new Error('a part of unknown size');
    const etag = await super.uploadPart(metadata, readStream, partNumber);
    const marker = `${String(partNumber).padStart(5, '0')}-${size}-${etag.replace(/"/g, '')}`;
    await this.client.putObject({
      Bucket: this.bucket,
      Key: `${this.markerPrefix(metadata.file.id)}${marker}`,
      Body: '',
    });
    return etag;
  }

  private async markerKeys(id: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.listObjectsV2({
        Bucket: this.bucket,
        Prefix: this.markerPrefix(id),
        ContinuationToken: token,
      });
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  protected override async retrieveParts(
    id: string,
  ): Promise<Array<{ PartNumber: number; Size: number; ETag: string }>> {
    const parts = new Map<number, { PartNumber: number; Size: number; ETag: string }>();
    for (const key of await this.markerKeys(id)) {
      const match = /(\d+)-(\d+)-([^/]+)$/.exec(key);
      if (!match) continue;
      const part = { PartNumber: Number(match[1]), Size: Number(match[2]), ETag: `"${match[3]}"` };
      parts.set(part.PartNumber, part);
    }
    // Only consecutive parts count, as with ListParts.
    const sorted = [...parts.values()].sort((a, b) => a.PartNumber - b.PartNumber);
    const consecutive = [];
    for (const part of sorted) {
      if (part.PartNumber !== consecutive.length + 1) break;
      consecutive.push(part);
    }
    return consecutive;
  }

  /** Removes the upload, whatever its state, and its markers; a service without AbortMultipartUpload is fine. */
  async discard(id: string): Promise<void> {
    try {
      const { 'upload-id': uploadId } = await this.getMetadata(id);
      await this.client
        .abortMultipartUpload({ Bucket: this.bucket, Key: id, UploadId: uploadId })
        .catch(() => undefined);
    } catch {
      // no info object: nothing to abort
    }
    const keys = [id, this.infoKey(id), this.partKey(id, true), ...(await this.markerKeys(id))];
    for (let i = 0; i < keys.length; i += 1000) {
      await this.client.deleteObjects({
        Bucket: this.bucket,
        Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })) },
      });
    }
    await this.clearCache(id);
  }

  override async remove(id: string): Promise<void> {
    await this.getMetadata(id).catch(() => {
      throw ERRORS.FILE_NOT_FOUND;
    });
    await this.discard(id);
  }
}

function s3Backend(settings: S3Settings): UploadBackend {
  const datastore = new MarkedPartsS3Store({
    // S3's multipart parts, as large as a PATCH: one part per chunk of the browser.
    partSize: UPLOAD_CHUNK_BYTES,
    // A few parts in flight per process: each is a temporary file of partSize on disk.
    maxConcurrentPartUploads: 4,
    // Not every S3-compatible service supports object tags (s3rver, Garage…); tus needs them only
    // for its expiration extension, which we do not use.
    useTags: false,
    s3ClientConfig: {
      bucket: settings.bucket,
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    },
  });
  const bucket = createS3Storage(settings);
  return {
    datastore,
    storeId: (urlId) => `${S3_PREFIX}${urlId}`,
    urlId: (storeId) => storeId.slice(S3_PREFIX.length),
    async readFinished(storeId) {
      const body = await bucket.read(storeId);
      if (!body) throw new Error(`the finished upload ${storeId} is not in the bucket`);
      return body;
    },
    discard: (storeId) => datastore.discard(storeId),
  };
}

// ---------------------------------------------------------------------------------------------
// Who is uploading

/** The staff member of each request, found before tus handles it. */
const staffOfRequest = new WeakMap<IncomingMessage, SessionUser>();

function nodeRequestOf(req: unknown): IncomingMessage | undefined {
  return (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
}

/** A Fetch Request carrying the session cookie, as getUser reads it. */
function sessionRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const name of ['cookie', 'host', 'user-agent', 'x-forwarded-for']) {
    const value = req.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  return new Request(new URL(req.url ?? '/', baseUrl()), { headers });
}

function answer(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return;
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Tus-Resumable', '1.0.0');
  res.end(message);
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

// ---------------------------------------------------------------------------------------------
// The order a new upload is for

/** A refusal thrown from a tus hook: tus answers it with this status and (French) body. */
function refusal(status_code: number, body: string) {
  return { status_code, body, french: true };
}

async function checkUploadTarget(
  metadata: Upload['metadata'],
  database: Database,
): Promise<{ orderId: string; support: string; filename: string }> {
  const orderId = metadata?.orderId ?? '';
  const support = metadata?.support ?? '';
  const filename = (metadata?.filename ?? '').trim();
  if (!isOrderId(orderId)) throw refusal(404, UPLOAD_MESSAGES.orderNotFound);
  const [order] = await database
    .select({
      placedAt: orders.placedAt,
      status: orders.status,
      withdrawnAt: orders.withdrawnAt,
      paymentStatus: orders.paymentStatus,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order) throw refusal(404, UPLOAD_MESSAGES.orderNotFound);
  // A closed order (not placed, cancelled, withdrawn, refunded in full) takes no files: the rule
  // book's words (domain/orders/open-work.ts), as the order dialog that hides the upload.
  const closed = closedWorkRefusal({
    placed: order.placedAt !== null,
    status: order.status,
    withdrawn: order.withdrawnAt !== null,
    paymentStatus: order.paymentStatus,
  });
  if (closed) throw refusal(409, closed.message);
  if (support !== OTHER_SUPPORT) {
    const lines = await database
      .select({ type: orderItems.type })
      .from(orderItems)
      .where(eq(orderItems.orderId, orderId));
    if (!lines.some((line) => line.type === support)) throw refusal(400, UPLOAD_MESSAGES.unknownSupport);
  }
  if (filename === '') throw refusal(400, UPLOAD_MESSAGES.missingName);
  return { orderId, support, filename };
}

// ---------------------------------------------------------------------------------------------
// The tus server

export function createUploadServer(options: UploadsOptions): Server {
  const database = options.database ?? db();
  const backend = options.s3 ? s3Backend(options.s3) : localBackend(options.uploadsDir);

  return new Server({
    path: UPLOADS_PATH,
    datastore: backend.datastore,
    maxSize: MAX_UPLOAD_BYTES,
    // Same-origin only: no Access-Control-Allow-Origin at all.
    allowedOrigins: [],
    namingFunction: () => backend.storeId(randomBytes(16).toString('hex')),
    // Relative, so that a reverse proxy's host and scheme never leak into the address.
    generateUrl: (_req, { path: base, id }) => `${base}/${backend.urlId(id)}`,
    getFileIdFromRequest: (_req, lastPath) =>
      lastPath && URL_ID.test(lastPath) ? backend.storeId(lastPath) : undefined,

    async onUploadCreate(req, upload) {
      const staff = staffOf(req);
      const target = await checkUploadTarget(upload.metadata, database);
      // Who started the upload is the one recorded, whatever a client put in its metadata.
      return { metadata: { ...upload.metadata, ...target, uploadedBy: staff.id } };
    },

    async onUploadFinish(_req, upload) {
      const metadata = upload.metadata ?? {};
      let outcome: UploadOutcome;
      try {
        const result = await storeOrderFile(
          {
            orderId: metadata.orderId ?? '',
            support: metadata.support ?? OTHER_SUPPORT,
            name: metadata.filename ?? '',
            uploadedBy: metadata.uploadedBy ?? 'inconnu',
            body: await backend.readFinished(upload.id),
          },
          { database, storage: options.storage },
        );
        const common = { name: result.file.name, sha256: result.file.sha256, fileId: result.file.id };
        outcome =
          result.status === 'renamed'
            ? { status: 'renamed', requestedName: result.requestedName, ...common }
            : { status: result.status, ...common };
      } catch (error) {
        log.error({ err: error, upload: upload.id }, 'a finished upload could not be stored');
        // The client starts this file again rather than believing it delivered.
        await backend.discard(upload.id).catch(() => undefined);
        throw refusal(500, UPLOAD_MESSAGES.storeFailed);
      }
      await backend.discard(upload.id).catch((error) => {
        log.warn({ err: error, upload: upload.id }, 'a finished upload could not be removed');
      });
      return { headers: { [UPLOAD_RESULT_HEADER]: encodeUploadOutcome(outcome) } };
    },

    onResponseError(_req, error) {
      const refused = error as { status_code?: number; body?: string; french?: boolean };
      if (refused.french && refused.status_code && refused.body) {
        return { status_code: refused.status_code, body: refused.body };
      }
      const status = refused.status_code ?? 500;
      if (status >= 500) log.error({ err: error }, 'upload request failed');
      return { status_code: status, body: uploadRefusalMessage(status) };
    },
  });
}

function staffOf(req: unknown): SessionUser {
  const node = nodeRequestOf(req);
  const staff = node ? staffOfRequest.get(node) : undefined;
  // The middleware below checked every request before tus: this is a programming error.
  if (!staff) throw refusal(401, UPLOAD_MESSAGES.unauthenticated);
  return staff;
}

export function isUploadPath(pathname: string): boolean {
  return pathname === UPLOADS_PATH || pathname.startsWith(`${UPLOADS_PATH}/`);
}

/** Called with the tus server once it is made: the metrics count its uploads (observability/metrics.server.ts). */
export const uploadServerWatchers = new Set<(server: Server) => void>();

/**
 * The Express (Node) middleware: requests under /admin/api/televersements are checked and handed
 * to tus; anything else goes on. The tus server is made at the first upload request, so that a
 * shop that never uploads opens no store.
 */
export function uploadsMiddleware(options: () => UploadsOptions = uploadsOptionsFromEnv) {
  let server: Server | undefined;
  return async (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): Promise<void> => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (!isUploadPath(pathname)) {
      next();
      return;
    }
    try {
      if (!SAFE.has(req.method ?? 'GET')) {
        const origin = req.headers.origin;
        const own = [new URL(baseUrl()).origin, `http://${req.headers.host}`, `https://${req.headers.host}`];
        if (origin && !own.includes(origin)) {
          answer(res, 403, UPLOAD_MESSAGES.foreignOrigin);
          return;
        }
      }
      // The door (access/door.server.ts) already refused anyone else before a byte was read
      // (server/door.ts); asked again here for the member tus's hooks record.
      let staff: SessionUser | null;
      try {
        const { decision, asker } = await decideRequest(
          sessionRequest(req).headers,
          ruleFor(UPLOADS_ACCESS, req.method ?? 'GET'),
        );
        if (!decision.allow) {
          const status = refusalAnswer(decision.refusal, '/login').status;
          answer(res, status, status === 401 ? UPLOAD_MESSAGES.unauthenticated : UPLOAD_MESSAGES.forbidden);
          return;
        }
        staff = asker.user;
      } catch (error) {
        if (!(error instanceof SessionUncheckable)) throw error;
        answer(res, 503, UPLOAD_MESSAGES.sessionUnchecked);
        return;
      }
      if (!staff) {
        answer(res, 401, UPLOAD_MESSAGES.unauthenticated);
        return;
      }
      staffOfRequest.set(req, staff);
      if (!server) {
        server = createUploadServer(options());
        for (const watch of uploadServerWatchers) watch(server);
      }
      await server.handle(req, res);
    } catch (error) {
      next(error);
    }
  };
}
