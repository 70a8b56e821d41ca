import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  S3Client,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { awsSdkLogger } from '~/server/observability/library-loggers.server';
import { env } from '../env.server';
import { log } from '../log.server';

/*
 * The one storage of the customers' files (docs/fulfilment.md; decision 011): a folder in
 * DATA_DIR by default (nothing to install), or S3-compatible object storage through the official
 * SDK when S3_BUCKET is set (several machines share one bucket). Everything else (uploads,
 * previews, the gallery, downloads, the retention job) goes through `FileStorage`, never through
 * `fs` or the SDK, so that both backends behave the same and are tested the same.
 *
 * Keys are ours, never a customer's file name (`orders/<order id>/<file id>`): only [a-z0-9/._-],
 * no `..`. A key is written once: `put` refuses an existing key, so a file is never silently
 * overwritten.
 */

/** Inclusive byte range, as in HTTP's `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface FileStorage {
  readonly kind: 'local' | 's3';
  /** Stores the stream under `key`; throws FileExistsError when the key already holds a file. */
  put(key: string, body: Readable, options: { contentType: string }): Promise<{ size: number }>;
  /**
   * Takes `from` over as `key` without passing its bytes through the process where the medium
   * allows (decision 042): a rename on the same disk, a server-side copy in the bucket. The source
   * is gone afterwards (local) or left to the caller to remove (bucket). Never overwrites: throws
   * FileExistsError when the key already holds a file.
   */
  adopt(key: string, from: AdoptedFile, options: { contentType: string }): Promise<{ size: number }>;
  /** The bytes of `key` (or of its range), streamed; null when there is no such file. */
  read(key: string, range?: ByteRange): Promise<Readable | null>;
  /** The size of `key`, or null when there is no such file. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes `key`; a missing key is not an error (deletion is idempotent). */
  delete(key: string): Promise<void>;
  /**
   * A short-lived link a browser can download from directly (S3: presigned), or null when the
   * shop streams the file itself (local folder).
   */
  signedDownloadUrl(key: string, options: { fileName: string; contentType: string }): Promise<string | null>;
}

/**
 * A file already on the storage's own medium that `adopt` takes over: a finished upload, on this
 * machine's disk (local folder) or in the bucket (S3).
 */
export type AdoptedFile = { localPath: string } | { bucketKey: string };

export class FileExistsError extends Error {
  constructor(key: string) {
    super(`a file is already stored under ${key}`);
    this.name = 'FileExistsError';
  }
}

const KEY_PATTERN = /^[a-z0-9][a-z0-9/._-]*$/;

export function assertStorageKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
  }
}

/** How long a presigned link stays valid: enough to start a download, short enough not to be shared. */
export const SIGNED_URL_SECONDS = 5 * 60;

/** `Content-Disposition` of a download, with the UTF-8 name for browsers and an ASCII fallback. */
export function attachmentDisposition(fileName: string): string {
  const ascii =
    fileName
      .normalize('NFD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\]/g, '_') || 'fichier';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

// ---------------------------------------------------------------------------------------------
// A folder (DATA_DIR/files by default)

export function createLocalStorage(root: string): FileStorage {
  const pathOf = (key: string) => {
    assertStorageKey(key);
    return path.join(root, ...key.split('/'));
  };
  // link() fails atomically when the key exists: no overwrite, even between two machines on one disk.
  const linkInPlace = (key: string, source: string, target: string) =>
    fs.promises.link(source, target).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EEXIST' ? new FileExistsError(key) : error;
    });
  const storage: FileStorage = {
    kind: 'local',
    async put(key, body) {
      const target = pathOf(key);
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      // Written aside, then linked into place: a reader never sees half a file, and link() fails
      // atomically when the key exists (no overwrite, even between two machines on one disk).
      const partial = `${target}.${randomUUID()}.partial`;
      try {
        await pipeline(body, fs.createWriteStream(partial, { flags: 'wx' }));
        await linkInPlace(key, partial, target);
        return { size: (await fs.promises.stat(target)).size };
      } finally {
        await fs.promises.rm(partial, { force: true });
      }
    },
    async adopt(key, from, options) {
      if (!('localPath' in from)) throw new Error('the local folder adopts files of this machine only');
      const target = pathOf(key);
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      try {
        // A second name on the same disk, then the first removed: no byte copied, no overwrite.
        await linkInPlace(key, from.localPath, target);
      } catch (error) {
        // Another disk (FILES_DIR's uploads mounted apart, which the docs advise against): copied.
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        log.warn({ key }, 'a finished upload is on another disk than the files: copied instead of moved');
        const size = await storage.put(key, fs.createReadStream(from.localPath), options);
        await fs.promises.rm(from.localPath, { force: true });
        return size;
      }
      await fs.promises.rm(from.localPath, { force: true });
      return { size: (await fs.promises.stat(target)).size };
    },
    async read(key, range) {
      const file = pathOf(key);
      const handle = await fs.promises.open(file, 'r').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
      if (!handle) return null;
      return handle.createReadStream({
        ...(range ? { start: range.start, end: range.end } : {}),
        highWaterMark: 1024 * 1024,
      });
    },
    async stat(key) {
      const stats = await fs.promises.stat(pathOf(key)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
      return stats?.isFile() ? { size: stats.size } : null;
    },
    async delete(key) {
      await fs.promises.rm(pathOf(key), { force: true });
    },
    async signedDownloadUrl() {
      return null;
    },
  };
  return storage;
}

// ---------------------------------------------------------------------------------------------
// S3-compatible object storage

export interface S3Settings {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export function s3Client(settings: S3Settings): S3Client {
  return new S3Client({
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    region: settings.region,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Most S3-compatible services (MinIO, Garage, Scaleway, OVH) address buckets by path, and not
    // all of them read the SDK's streamed checksums: send them only when an operation requires one.
    forcePathStyle: Boolean(settings.endpoint),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Its warnings through the scrubbing logger (observability/library-loggers.server.ts).
    logger: awsSdkLogger,
  });
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

export function createS3Storage(settings: S3Settings, client: S3Client = s3Client(settings)): FileStorage {
  const Bucket = settings.bucket;
  const stat = async (key: string) => {
    assertStorageKey(key);
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
      return { size: Number(head.ContentLength ?? 0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  };
  return {
    kind: 's3',
    stat,
    async put(key, body, { contentType }) {
      // Keys carry a fresh id: the check guards against a bug, not against a race.
      if (await stat(key)) throw new FileExistsError(key);
      let size = 0;
      body.on('data', (chunk: Buffer) => {
        size += chunk.length;
      });
      // Multipart in parts of 16 MB, at most 4 in memory: constant memory whatever the file's size.
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: body, ContentType: contentType },
        partSize: 16 * 1024 * 1024,
        queueSize: 4,
      });
      await upload.done();
      return { size };
    },
    async adopt(key, from) {
      if (!('bucketKey' in from)) throw new Error('the bucket adopts objects of the bucket only');
      assertStorageKey(key);
      if (await stat(key)) throw new FileExistsError(key);
      const source = await stat(from.bucketKey);
      if (!source) throw new Error(`no object ${from.bucketKey} to adopt`);
      await serverSideCopy(client, Bucket, from.bucketKey, key, source.size);
      return source;
    },
    async read(key, range) {
      assertStorageKey(key);
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
        );
        return object.Body instanceof Readable ? object.Body : null;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      assertStorageKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async signedDownloadUrl(key, { fileName, contentType }) {
      assertStorageKey(key);
      return getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket,
          Key: key,
          ResponseContentDisposition: attachmentDisposition(fileName),
          ResponseContentType: contentType,
        }),
        { expiresIn: SIGNED_URL_SECONDS },
      );
    },
  };
}

/** S3's largest single CopyObject; past it, the copy goes by parts (UploadPartCopy). */
export const S3_SINGLE_COPY_BYTES = 5 * 1024 ** 3;
const COPY_PART_BYTES = 1024 ** 3;

/**
 * Copies `from` to `to` inside the bucket: the service moves the bytes, not the shop. Objects over
 * 5 GiB go by parts of 1 GiB (UploadPartCopy, which Amazon S3, MinIO, Garage and the large
 * providers have; s3rver, the tests' peer, does not: only the single copy is tested).
 */
async function serverSideCopy(client: S3Client, Bucket: string, from: string, to: string, size: number) {
  const CopySource = `${Bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
  if (size <= S3_SINGLE_COPY_BYTES) {
    await client.send(new CopyObjectCommand({ Bucket, Key: to, CopySource }));
    return;
  }
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: to }));
  const Parts: { ETag: string | undefined; PartNumber: number }[] = [];
  for (let start = 0, PartNumber = 1; start < size; start += COPY_PART_BYTES, PartNumber++) {
    const end = Math.min(size, start + COPY_PART_BYTES) - 1;
    const part = await client.send(
      new UploadPartCopyCommand({
        Bucket,
        Key: to,
        UploadId,
        PartNumber,
        CopySource,
        CopySourceRange: `bytes=${start}-${end}`,
      }),
    );
    Parts.push({ ETag: part.CopyPartResult?.ETag, PartNumber });
  }
  await client.send(new CompleteMultipartUploadCommand({ Bucket, Key: to, UploadId, MultipartUpload: { Parts } }));
}

// ---------------------------------------------------------------------------------------------
// The shop's storage, from its environment

/** The S3 settings of the environment, or null for the local folder (env.server.ts checked them). */
export function s3SettingsFromEnv(): S3Settings | null {
  const e = env();
  if (!e.S3_BUCKET || !e.S3_ACCESS_KEY_ID || !e.S3_SECRET_ACCESS_KEY) return null;
  return {
    endpoint: e.S3_ENDPOINT,
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
  };
}

/**
 * Where the local folder keeps the files: FILES_DIR, by default DATA_DIR/files (where they always
 * were), apart from the embedded PostgreSQL's DATA_DIR/postgres so that it may be another disk.
 */
export function localFilesRoot(): string {
  const e = env();
  return path.resolve(e.FILES_DIR ?? path.join(e.DATA_DIR, 'files'));
}

/**
 * The partial uploads: FILES_DIR/uploads, on the files' own disk so that finishing one is a rename
 * (as the bucket keeps them under `uploads/`). Storage keys all start with `orders/`: no clash.
 */
export function localUploadsDir(): string {
  return path.join(localFilesRoot(), 'uploads');
}

/**
 * The partial uploads' folder before FILES_DIR (DATA_DIR/uploads): its uploads in progress are moved
 * under FILES_DIR/uploads at start when both are on one disk, else left to the client to start
 * again (they are then removed as abandoned).
 */
async function adoptLegacyUploads(): Promise<void> {
  const legacy = path.resolve(env().DATA_DIR, 'uploads');
  const current = localUploadsDir();
  if (legacy === current) return;
  const entries = await fs.promises.readdir(legacy).catch(() => null);
  if (!entries) return;
  await fs.promises.mkdir(current, { recursive: true });
  let moved = 0;
  for (const name of entries) {
    try {
      await fs.promises.rename(path.join(legacy, name), path.join(current, name));
      moved++;
    } catch (error) {
      log.warn({ err: error, name }, 'a partial upload of DATA_DIR/uploads could not be moved under FILES_DIR');
    }
  }
  await fs.promises.rmdir(legacy).catch(() => undefined);
  if (moved > 0) log.info({ moved, to: current }, 'partial uploads moved from DATA_DIR/uploads');
}

let shared: FileStorage | undefined;

export function fileStorage(): FileStorage {
  if (!shared) {
    const s3 = s3SettingsFromEnv();
    shared = s3 ? createS3Storage(s3) : createLocalStorage(localFilesRoot());
  }
  return shared;
}

/**
 * Checked at start (server/serve.ts): the bucket answers with these credentials, or the local
 * folder can be written. Throws a French message for the operator.
 */
export async function checkFileStorage(): Promise<void> {
  const s3 = s3SettingsFromEnv();
  if (!s3) {
    const root = localFilesRoot();
    try {
      await fs.promises.mkdir(localUploadsDir(), { recursive: true });
      await fs.promises.access(root, fs.constants.W_OK);
    } catch (error) {
      throw new Error(
        `Le dossier des fichiers des clients (${root}) ne peut pas être créé ou écrit : ${(error as Error).message}. ` +
          'Vérifiez FILES_DIR (ou DATA_DIR) et les droits du dossier.',
      );
    }
    await adoptLegacyUploads();
    return;
  }
  try {
    await s3Client(s3).send(new HeadBucketCommand({ Bucket: s3.bucket }));
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    const why =
      status === 404
        ? `le compartiment « ${s3.bucket} » n’existe pas`
        : status === 403 || status === 401
          ? 'les identifiants S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY sont refusés'
          : `le service ne répond pas (${(error as Error).message})`;
    throw new Error(
      `Le stockage objet des fichiers est inutilisable : ${why}. Vérifiez S3_ENDPOINT, S3_BUCKET, S3_REGION, ` +
        'S3_ACCESS_KEY_ID et S3_SECRET_ACCESS_KEY.',
    );
  }
}

/** The storage key of an order's file and of its previews: ours, never the customer's file name. */
export function fileKey(orderId: string, fileId: string, variant?: 'thumbnail' | 'preview'): string {
  return variant ? `orders/${orderId}/${fileId}.${variant}.jpg` : `orders/${orderId}/${fileId}`;
}
