import { createHash, type Hash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import { FileStore } from '@tus/file-store';
import { type MetadataValue, S3Store } from '@tus/s3-store';
import { type DataStore, ERRORS, Server, type Upload } from '@tus/server';
import { eq } from 'drizzle-orm';
import { chunkFits, DEFAULT_DISK_RESERVE, type DiskReserve, uploadableBytes } from '~/domain/files/disk-space';
import {
  decodeUploadOutcome,
  diskFullMessage,
  encodeUploadOutcome,
  MAX_UPLOAD_BYTES,
  OTHER_SUPPORT,
  UPLOAD_BODY_LIMIT_BYTES,
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
import { baseUrl } from '../env.server';
import { log } from '../log.server';
import { isOrderId } from '../orders/access.server';
import { diskReserveFromEnv, measureDisk, pendingUploadBytes } from './disk-space.server';
import { digestingStream, type FileDigests, storeOrderFile } from './order-files.server';
import {
  type AdoptedFile,
  createS3Storage,
  type FileStorage,
  fileStorage,
  localUploadsDir,
  type S3Settings,
  s3SettingsFromEnv,
} from './storage.server';

/*
 * The back office's resumable uploads (decision 012): the tus protocol (@tus/server) at
 * /admin/api/televersements, mounted in server/app.ts before compression, the rate limit of posts
 * and React Router, which would otherwise touch the raw body tus streams.
 *
 * - Staff only: every request (POST, HEAD, PATCH, DELETE, OPTIONS) is checked against the Better
 *   Auth session here, before tus sees it: 401 without a session, 403 for a customer, in French.
 *   Non-safe requests from a foreign Origin are refused (the app's sameOriginOnly runs later).
 * - The partial uploads live where the shop's files live: FILES_DIR/uploads (@tus/file-store), or
 *   the bucket under `uploads/` (@tus/s3-store, one S3 multipart upload per file). A PATCH is
 *   streamed into the store chunk by chunk: memory stays flat whatever the file's size.
 * - On the local disk, an upload whose declared size does not fit the free space less the reserve
 *   (UPLOAD_DISK_RESERVE) and less what the uploads in progress still have to write is refused at
 *   creation (413, in French), and so is a chunk that would eat into the reserve: the files' disk
 *   may be the database's (decision 042).
 * - Metadata `orderId`, `support` and `filename` are checked when the upload is created (the order
 *   exists, is placed and not cancelled; the support is one of its lines' or « autres »).
 * - The SHA-256 and CRC-32 are computed as the chunks arrive. When the last byte arrives, the upload
 *   is moved into the files by storeOrderFile (a rename on the disk, a server-side copy in the
 *   bucket: never copied through the process, decision 042), and the last PATCH's answer carries
 *   the outcome in the `Soovenirs-Upload-Result` header (domain/files/uploads.ts). The outcome is
 *   kept beside the partial uploads: a retry of the last PATCH, or a HEAD after a proxy's timeout,
 *   gets it again instead of « introuvable ».
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
  /** What uploads never take of the disk of `uploadsDir` (UPLOAD_DISK_RESERVE). */
  reserve?: DiskReserve;
  database?: Database;
}

export function uploadsOptionsFromEnv(): UploadsOptions {
  return {
    storage: fileStorage(),
    s3: s3SettingsFromEnv(),
    uploadsDir: localUploadsDir(),
    reserve: diskReserveFromEnv(),
  };
}

/** What a retry of a finished upload is answered: its size and what became of it. */
interface FinishedUpload {
  size: number;
  outcome: UploadOutcome;
}

/** How a store keeps partial uploads and gives back a finished one. */
interface UploadBackend {
  datastore: DataStore;
  /** The store's id of an upload from the id in its URL (32 hexadecimal digits). */
  storeId(urlId: string): string;
  urlId(storeId: string): string;
  /** The finished upload as FileStorage.adopt takes it over. */
  finished(storeId: string): AdoptedFile;
  /** Its bytes read once more, for its digests when they could not be computed as they arrived. */
  readFinished(storeId: string): Promise<Readable>;
  discard(storeId: string): Promise<void>;
  recordOutcome(storeId: string, finished: FinishedUpload): Promise<void>;
  outcomeOf(storeId: string): Promise<FinishedUpload | null>;
}

const URL_ID = /^[0-9a-f]{32}$/;
const S3_PREFIX = 'uploads/';

/**
 * An upload that received no byte for this long is abandoned (a file the staff never finished
 * sending): removeAbandonedUploads (the housekeeping, every 15 minutes) removes it, its address then answers
 * 404 and the client starts the file again. A day: the bytes it still promised are counted against
 * the disk until then (docs/operations.md).
 */
export const ABANDONED_UPLOAD_MS = 24 * 60 * 60 * 1000;

/** The outcomes of finished uploads, beside the partial ones (FILES_DIR/uploads/finished). */
const FINISHED_DIR = 'finished';

function localStore(directory: string): FileStore {
  fs.mkdirSync(directory, { recursive: true });
  // No expiration in tus itself: it counts from the creation, which would cut a long upload still
  // under way; removeAbandonedUploads counts from the last byte received.
  return new FileStore({ directory });
}

/**
 * Removes the partial uploads of FILES_DIR/uploads that received nothing for ABANDONED_UPLOAD_MS,
 * and the outcomes of finished ones as old; returns how many uploads. In a bucket, the partial
 * uploads are the bucket's: a lifecycle rule on `uploads/` and on incomplete multipart uploads
 * removes them (docs/decisions/012-resumable-uploads.md).
 */
export async function removeAbandonedUploads(
  options: UploadsOptions = uploadsOptionsFromEnv(),
  now = Date.now(),
): Promise<number> {
  if (options.s3) return 0;
  const directory = options.uploadsDir;
  const lastActivity = async (file: string) =>
    fs.promises.stat(file).then(
      (stats) => stats.mtimeMs,
      () => 0,
    );
  let removed = 0;
  for (const name of await fs.promises.readdir(directory).catch(() => [] as string[])) {
    if (!name.endsWith('.json')) continue;
    const id = name.slice(0, -'.json'.length);
    const info = path.join(directory, name);
    const created = await fs.promises
      .readFile(info, 'utf8')
      .then((text) => Date.parse((JSON.parse(text) as { creation_date?: string }).creation_date ?? ''))
      .catch(() => Number.NaN);
    const last = Math.max(Number.isNaN(created) ? 0 : created, await lastActivity(path.join(directory, id)));
    if (now - last <= ABANDONED_UPLOAD_MS) continue;
    await fs.promises.rm(path.join(directory, id), { force: true });
    await fs.promises.rm(info, { force: true });
    digests.delete(id);
    removed++;
  }
  const finished = path.join(directory, FINISHED_DIR);
  for (const name of await fs.promises.readdir(finished).catch(() => [] as string[])) {
    if (now - (await lastActivity(path.join(finished, name))) > ABANDONED_UPLOAD_MS) {
      await fs.promises.rm(path.join(finished, name), { force: true });
    }
  }
  return removed;
}

function localBackend(directory: string): UploadBackend {
  const datastore = localStore(directory);
  const outcomeFile = (storeId: string) => path.join(directory, FINISHED_DIR, `${storeId}.json`);
  return {
    datastore,
    storeId: (urlId) => urlId,
    urlId: (storeId) => storeId,
    finished: (storeId) => ({ localPath: path.join(directory, storeId) }),
    async readFinished(storeId) {
      return fs.createReadStream(path.join(directory, storeId), { highWaterMark: 1024 * 1024 });
    },
    async discard(storeId) {
      // The bytes are usually gone already (moved into the files): the info file must go too.
      await fs.promises.rm(path.join(directory, storeId), { force: true });
      await fs.promises.rm(path.join(directory, `${storeId}.json`), { force: true });
    },
    async recordOutcome(storeId, finished) {
      await fs.promises.mkdir(path.join(directory, FINISHED_DIR), { recursive: true });
      await fs.promises.writeFile(outcomeFile(storeId), JSON.stringify(finished));
    },
    async outcomeOf(storeId) {
      const text = await fs.promises.readFile(outcomeFile(storeId), 'utf8').catch(() => null);
      return text ? parseFinished(text) : null;
    },
  };
}

function parseFinished(text: string): FinishedUpload | null {
  try {
    const value = JSON.parse(text) as { size?: unknown; outcome?: unknown };
    const outcome = decodeUploadOutcome(encodeUploadOutcome(value.outcome as UploadOutcome));
    return typeof value.size === 'number' && outcome ? { size: value.size, outcome } : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// The digests of an upload, as its bytes arrive

interface RunningDigests {
  sha256: Hash;
  crc32: number;
  /** Bytes digested: equal to the upload's offset while the digests are right. */
  bytes: number;
}

/**
 * Per upload, in this process: the SHA-256 and CRC-32 of the bytes written so far. Lost when a chunk
 * fails half-written, when another instance took a chunk, or at a restart: the upload is then read
 * once more when it is finished (finishedDigests), still never copied.
 */
const digests = new Map<string, RunningDigests>();

/** Digests every chunk the store writes, on the way in. */
function digestWrites(datastore: DataStore): void {
  const write = datastore.write.bind(datastore);
  datastore.write = async (readable, id, offset) => {
    let running = digests.get(id);
    if (!running || running.bytes !== offset) {
      running = offset === 0 ? { sha256: createHash('sha256'), crc32: 0, bytes: 0 } : undefined;
    }
    digests.delete(id);
    if (!running) return write(readable, id, offset);
    const state = running;
    const tee = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        state.sha256.update(chunk);
        state.crc32 = crc32(chunk, state.crc32);
        state.bytes += chunk.length;
        callback(null, chunk);
      },
    });
    readable.on('error', (error) => tee.destroy(error));
    const written = await write(readable.pipe(tee), id, offset);
    // Only digests that match the bytes on the store are kept (a chunk cut half-way is fine: what
    // was digested is what was written).
    if (state.bytes === written) digests.set(id, state);
    return written;
  };
  const remove = datastore.remove.bind(datastore);
  datastore.remove = async (id) => {
    digests.delete(id);
    return remove(id);
  };
}

/** The digests of a finished upload: those computed on the way in, or else from its bytes read once. */
async function finishedDigests(backend: UploadBackend, upload: Upload): Promise<FileDigests> {
  const running = digests.get(upload.id);
  digests.delete(upload.id);
  if (running && running.bytes === upload.size) {
    return { sha256: running.sha256.digest('hex'), crc32: running.crc32 >>> 0, size: running.bytes };
  }
  log.info(
    { upload: upload.id },
    'a finished upload is read once for its digests (not kept as it arrived: another process, a restart)',
  );
  const digest = digestingStream();
  // pipeline: the file is closed whatever happens.
  await pipeline(await backend.readFinished(upload.id), digest.stream, async (source) => {
    for await (const _ of source) {
      // drained: only the digests matter
    }
  });
  return digest.result();
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
  const outcomeKey = (storeId: string) => `${storeId}.outcome`;
  return {
    datastore,
    storeId: (urlId) => `${S3_PREFIX}${urlId}`,
    urlId: (storeId) => storeId.slice(S3_PREFIX.length),
    finished: (storeId) => ({ bucketKey: storeId }),
    async readFinished(storeId) {
      const body = await bucket.read(storeId);
      if (!body) throw new Error(`the finished upload ${storeId} is not in the bucket`);
      return body;
    },
    discard: (storeId) => datastore.discard(storeId),
    // Under `uploads/` with the partial uploads: the bucket's lifecycle rule removes it with them.
    async recordOutcome(storeId, finished) {
      await bucket.put(outcomeKey(storeId), Readable.from([Buffer.from(JSON.stringify(finished))]), {
        contentType: 'application/json',
      });
    },
    async outcomeOf(storeId) {
      const body = await bucket.read(outcomeKey(storeId)).catch(() => null);
      if (!body) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      return parseFinished(Buffer.concat(chunks).toString('utf8'));
    },
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

/**
 * A finished upload asked again (the last PATCH resent after a proxy's timeout, a HEAD on resuming,
 * from this instance or another): complete, with its outcome, as its last PATCH answered.
 */
function answerFinished(req: IncomingMessage, res: ServerResponse, { size, outcome }: FinishedUpload): void {
  res.statusCode = req.method === 'HEAD' ? 200 : 204;
  res.setHeader('Tus-Resumable', '1.0.0');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Upload-Offset', String(size));
  res.setHeader('Upload-Length', String(size));
  res.setHeader(UPLOAD_RESULT_HEADER, encodeUploadOutcome(outcome));
  // A resent chunk's body is not wanted: Node reads and drops it after the answer.
  res.end();
}

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

/** The tus server and what the middleware asks of its store before tus does. */
interface UploadService {
  server: Server;
  /** What became of a finished upload, by the id in its address; null while it is not finished. */
  finished(urlId: string): Promise<FinishedUpload | null>;
}

function createUploadService(options: UploadsOptions): UploadService {
  const database = options.database ?? db();
  const backend = options.s3 ? s3Backend(options.s3) : localBackend(options.uploadsDir);
  digestWrites(backend.datastore);
  const reserve = options.reserve ?? DEFAULT_DISK_RESERVE;
  // S3: the partial uploads are in the bucket, the local disk only holds a few parts in transit.
  const localDisk = options.s3 ? null : options.uploadsDir;

  const server = new Server({
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

    async onIncomingRequest(req) {
      // A chunk that would eat into the reserve (the disk filled by something else meanwhile).
      if (!localDisk || req.method !== 'PATCH') return;
      const length = Number(req.headers.get('content-length'));
      const chunk = Number.isFinite(length) && length > 0 ? length : UPLOAD_BODY_LIMIT_BYTES;
      if (!chunkFits(await measureDisk(localDisk), reserve, chunk)) {
        log.warn({ chunk }, 'an upload chunk was refused: the files disk is down to its reserve');
        throw refusal(413, UPLOAD_MESSAGES.diskFullDuring);
      }
    },

    async onUploadCreate(req, upload) {
      const staff = staffOf(req);
      const target = await checkUploadTarget(upload.metadata, database);
      if (localDisk) await checkDeclaredSize(localDisk, reserve, upload.size);
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
            adopt: backend.finished(upload.id),
            digests: await finishedDigests(backend, upload),
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
      // Kept before the upload goes: a retry after a lost answer (a proxy's timeout) finds it.
      await backend.recordOutcome(upload.id, { size: upload.size ?? 0, outcome }).catch((error) => {
        log.warn({ err: error, upload: upload.id }, 'the outcome of a finished upload could not be kept');
      });
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
  return {
    server,
    finished: (urlId) => backend.outcomeOf(backend.storeId(urlId)).catch(() => null),
  };
}

/**
 * A new upload on the local disk: its declared size must fit the free space less the reserve and
 * less what the uploads in progress still have to write (« 100 uploads of 200 GB » are not all
 * accepted on a 71 GB disk). Refused with 413: the panel shows the French body and does not retry.
 */
async function checkDeclaredSize(directory: string, reserve: DiskReserve, declared: number | undefined) {
  // Without a declared size nothing could be reserved (tus's deferred length, which our panel never uses).
  if (declared === undefined) throw refusal(400, UPLOAD_MESSAGES.lengthRequired);
  const available = uploadableBytes(await measureDisk(directory), reserve, await pendingUploadBytes(directory));
  if (declared > available) {
    log.warn({ declared, available }, 'an upload was refused: it does not fit the files disk less its reserve');
    throw refusal(413, diskFullMessage(declared, available));
  }
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
  let service: UploadService | undefined;
  // Creations one at a time in this process: each counts the ones before it against the disk.
  let creating: Promise<unknown> = Promise.resolve();
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
      if (!service) {
        service = createUploadService(options());
        for (const watch of uploadServerWatchers) watch(service.server);
      }
      const uploads = service;
      const urlId = pathname.slice(UPLOADS_PATH.length + 1);
      if ((req.method === 'HEAD' || req.method === 'PATCH') && URL_ID.test(urlId)) {
        const finished = await uploads.finished(urlId);
        if (finished) {
          answerFinished(req, res, finished);
          return;
        }
      }
      if (req.method === 'POST') {
        const created = creating.then(() => uploads.server.handle(req, res));
        creating = created.catch(() => undefined);
        await created;
      } else await uploads.server.handle(req, res);
    } catch (error) {
      next(error);
    }
  };
}
