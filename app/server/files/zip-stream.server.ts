import { crc32 } from 'node:zlib';
import { and, asc, eq, isNull, type SQL } from 'drizzle-orm';
import { supportLabel } from '~/domain/account/order-details';
import {
  centralHeader,
  endRecords,
  localHeader,
  planZip,
  type ZipPlan,
  zipEntryName,
  zipFileName,
} from '~/domain/files/zip-layout';
import { MANIFEST_NAME, manifestCsv } from '~/domain/files/zip-manifest';
import { type Database, db } from '../db/client.server';
import { orderFileMedia, orderFiles } from '../db/schema';
import { type BodyOptions, webStreamOf } from './downloads.server';
import { attachmentDisposition, type FileStorage, fileStorage } from './storage.server';

/*
 * « Tout télécharger » (decision 011): one ZIP of the order's files (or one support's), streamed on
 * the fly from the storage: no temporary file, constant memory (one storage chunk at a time,
 * pulled only as fast as the client reads). The headers come from app/domain/files/zip-layout.ts
 * with the CRC-32 and sizes recorded when each file was stored, so the exact Content-Length is
 * sent before the first byte. A file whose bytes differ in length from its row (a storage fault)
 * aborts the stream: the client sees a truncated download, never a silently corrupt archive.
 */

export interface ZipSource {
  /** Path inside the archive. */
  name: string;
  key: string;
  size: number;
  crc32: number;
  modifiedAt: Date;
  /** For the manifest: the SHA-256 recorded at upload, the item, the photo's date. */
  sha256?: string;
  item?: string;
  takenAt?: Date | null;
  /** An entry made by the shop itself (the manifest), written from memory rather than the storage. */
  bytes?: Uint8Array;
}

/**
 * `MANIFESTE.csv` (app/domain/files/zip-manifest.ts) of these files, as one more entry of the
 * archive, at its root: made from the SHA-256 recorded when each file was stored, so that the ZIP
 * stays a constant-memory stream with an exact length known before its first byte. Shared ZIPs
 * (the family's shares) build theirs with it too.
 */
export function zipManifest(files: readonly ZipSource[]): ZipSource {
  const text = manifestCsv(
    files
      .filter((file) => file.bytes === undefined)
      .map((file) => {
        if (!file.sha256) throw new Error(`no SHA-256 for the manifest: ${file.name}`);
        return {
          name: file.name,
          size: file.size,
          sha256: file.sha256,
          item: file.item ?? file.name.split('/')[0] ?? '',
          date: file.takenAt ?? file.modifiedAt,
        };
      }),
  );
  const bytes = Buffer.from(text, 'utf8');
  // The newest file's date, not the download's: the same files make the same archive, byte for byte.
  const modifiedAt = files.reduce((latest, file) => (file.modifiedAt > latest ? file.modifiedAt : latest), new Date(0));
  return { name: MANIFEST_NAME, key: '', size: bytes.length, crc32: crc32(bytes), modifiedAt, bytes };
}

/** The files and, last, their manifest. */
export function withManifest(files: readonly ZipSource[]): ZipSource[] {
  return [...files, zipManifest(files)];
}

/** The bytes of the archive, in order: header, content, header, content…, central directory, end. */
export async function* zipChunks(
  plan: ZipPlan,
  sources: readonly ZipSource[],
  storage: FileStorage,
): AsyncGenerator<Uint8Array> {
  for (const [index, entry] of plan.entries.entries()) {
    const source = sources[index] as ZipSource;
    yield localHeader(entry);
    if (entry.size === 0) continue;
    if (source.bytes) {
      yield source.bytes;
      continue;
    }
    const stream = await storage.read(source.key);
    if (!stream) throw new Error(`file missing from the storage: ${source.key}`);
    let written = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        written += chunk.length;
        if (written > entry.size) throw new Error(`file larger than recorded: ${source.key}`);
        yield chunk;
      }
    } finally {
      stream.destroy();
    }
    if (written !== entry.size) throw new Error(`file shorter than recorded: ${source.key}`);
  }
  // The central directory in batches of headers: a few hundred KB per write, not one per entry.
  let batch: Uint8Array[] = [];
  let batchLength = 0;
  for (const entry of plan.entries) {
    const header = centralHeader(entry, entry.offset);
    batch.push(header);
    batchLength += header.length;
    if (batchLength >= 256 * 1024) {
      yield Buffer.concat(batch);
      batch = [];
      batchLength = 0;
    }
  }
  batch.push(endRecords(plan));
  yield Buffer.concat(batch);
}

/**
 * The live files of an order (or of one support) as the archive's entries, by support then name,
 * then their manifest (`MANIFESTE.csv`). `within`: only a family share's selection (sharing.server.ts).
 */
export async function zipSourcesOf(
  orderId: string,
  support: string | null,
  database: Database = db(),
  within?: SQL,
): Promise<ZipSource[]> {
  const rows = await database
    .select({
      name: orderFiles.name,
      support: orderFiles.support,
      key: orderFiles.storageKey,
      size: orderFiles.sizeBytes,
      crc32: orderFiles.crc32,
      createdAt: orderFiles.createdAt,
      sha256: orderFiles.sha256,
      takenAt: orderFileMedia.takenAt,
    })
    .from(orderFiles)
    .leftJoin(orderFileMedia, eq(orderFileMedia.fileId, orderFiles.id))
    .where(
      and(
        eq(orderFiles.orderId, orderId),
        isNull(orderFiles.deletedAt),
        support === null ? undefined : eq(orderFiles.support, support),
        within,
      ),
    )
    .orderBy(asc(orderFiles.support), asc(orderFiles.name), asc(orderFiles.id));
  if (rows.length === 0) return [];
  return withManifest(
    rows.map((row) => ({
      name: zipEntryName(supportLabel(row.support), row.name),
      key: row.key,
      size: row.size,
      crc32: row.crc32,
      modifiedAt: row.createdAt,
      sha256: row.sha256,
      item: supportLabel(row.support),
      takenAt: row.takenAt,
    })),
  );
}

/** The download of the archive: 200 with its exact length (HEAD: the headers only). */
export function zipResponse(
  request: Request,
  /** `fileName`: the archive's own name (a family share's must not show the order number). */
  input: { orderNumber: string; support: string | null; sources: readonly ZipSource[]; fileName?: string },
  storage: FileStorage = fileStorage(),
  body: BodyOptions = {},
): Response {
  const plan = planZip(input.sources);
  const headers = new Headers({
    'Content-Type': 'application/zip',
    'Content-Length': String(plan.totalLength),
    'Content-Disposition': attachmentDisposition(
      input.fileName ??
        zipFileName(input.orderNumber, input.support === null ? undefined : supportLabel(input.support)),
    ),
    'Cache-Control': 'private, no-store, no-transform',
    'X-Content-Type-Options': 'nosniff',
  });
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
  return new Response(webStreamOf(zipChunks(plan, input.sources, storage), undefined, body), { status: 200, headers });
}
