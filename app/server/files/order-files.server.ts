import { createHash, randomUUID } from 'node:crypto';
import { type Readable, Transform } from 'node:stream';
import { crc32 } from 'node:zlib';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { fileTypeOf, sanitizeFileName, uniqueFileName } from '~/domain/files/delivered-files';
import { type Database, db } from '../db/client.server';
import { orderFiles } from '../db/schema';
import { wakeFilePreviews } from './previews.server';
import { type AdoptedFile, type FileStorage, fileKey, fileStorage } from './storage.server';

/*
 * The rows of the customers' files and the one way a file enters the shop (decision 011): the tus
 * uploads of the back office and `npm run files:import` both call `storeOrderFile`, which streams
 * the bytes into the file storage while computing their SHA-256 (shown, compared after a
 * download) and CRC-32 (the ZIP is then streamed without reading any file twice), then records the
 * row. A file is never silently overwritten: the same name with the same content is recognised as
 * already there (an import run again), the same name with other content is kept as « nom (2) ».
 */

export type OrderFile = typeof orderFiles.$inferSelect;

export interface StoreOrderFileInput {
  orderId: string;
  /** The name as given (a browser's file name, a path under the imported folder): sanitised here. */
  name: string;
  /** The support (service key) the file belongs to: photos, vhs… */
  support: string;
  /** The staff member's user id, or `import` for the command line. */
  uploadedBy: string;
}

/** The file's bytes: streamed into the storage, or a file already there taken over (a finished upload). */
export type StoreOrderFileSource =
  | { body: Readable }
  | {
      /** Moved under the file's key by `FileStorage.adopt`, never copied through the process. */
      adopt: AdoptedFile;
      /** Its digests, computed while its bytes arrived (uploads.server.ts). */
      digests: FileDigests;
    };

export interface FileDigests {
  sha256: string;
  crc32: number;
  size: number;
}

export type StoreOrderFileResult =
  | { status: 'stored'; file: OrderFile }
  /** Another file of the order had this name: stored under `file.name`. */
  | { status: 'renamed'; file: OrderFile; requestedName: string }
  /** The same name and the same bytes were already there: nothing stored twice. */
  | { status: 'already_there'; file: OrderFile };

/** Digests of a stream as it passes, without holding it. */
export function digestingStream(): {
  stream: Transform;
  result: () => FileDigests;
} {
  const hash = createHash('sha256');
  let crc = 0;
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      crc = crc32(chunk, crc);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  return { stream, result: () => ({ sha256: hash.digest('hex'), crc32: crc >>> 0, size }) };
}

export async function storeOrderFile(
  input: StoreOrderFileInput & StoreOrderFileSource,
  { database = db(), storage = fileStorage() }: { database?: Database; storage?: FileStorage } = {},
): Promise<StoreOrderFileResult> {
  const requestedName = sanitizeFileName(input.name);
  const { contentType, kind } = fileTypeOf(requestedName);
  const id = randomUUID();
  const storageKey = fileKey(input.orderId, id);
  let digests: FileDigests;
  if ('body' in input) {
    const digest = digestingStream();
    input.body.on('error', (error) => digest.stream.destroy(error));
    await storage.put(storageKey, input.body.pipe(digest.stream), { contentType });
    digests = digest.result();
  } else {
    // A fresh key, as for a stream: the same guarantees (no overwrite, the row after the bytes).
    const { size: stored } = await storage.adopt(storageKey, input.adopt, { contentType });
    if (stored !== input.digests.size) {
      await storage.delete(storageKey).catch(() => undefined);
      throw new Error(`the adopted file has ${stored} bytes, ${input.digests.size} were digested`);
    }
    digests = input.digests;
  }
  const { sha256, crc32: crc, size } = digests;

  try {
    return await database
      .transaction(async (tx) => {
        // One writer at a time per order decides the names (two uploads of « photo.jpg » at once).
        await tx.execute(sqlLockOrder(input.orderId));
        const live = await tx
          .select()
          .from(orderFiles)
          .where(and(eq(orderFiles.orderId, input.orderId), isNull(orderFiles.deletedAt)));
        const same = live.find((file) => file.name === requestedName);
        if (same && same.sha256 === sha256) return { status: 'already_there' as const, file: same };
        const name = uniqueFileName(requestedName, new Set(live.map((file) => file.name)));
        const [file] = await tx
          .insert(orderFiles)
          .values({
            id,
            orderId: input.orderId,
            storageKey,
            name,
            support: input.support,
            kind,
            contentType,
            sizeBytes: size,
            sha256,
            crc32: crc,
            uploadedBy: input.uploadedBy,
            // Only images and videos have previews; the rest shows an icon at once.
            previewStatus: kind === 'other' ? 'none' : 'pending',
          })
          .returning();
        if (!file) throw new Error('order file not recorded');
        return name === requestedName
          ? { status: 'stored' as const, file }
          : { status: 'renamed' as const, file, requestedName };
      })
      .then(async (result) => {
        // The same bytes were already there: the copy just made is not kept.
        if (result.status === 'already_there') await storage.delete(storageKey);
        // A new image or video: this instance's previews worker starts on it now, not at its next poll.
        else if (result.file.previewStatus === 'pending') wakeFilePreviews();
        return result;
      });
  } catch (error) {
    await storage.delete(storageKey).catch(() => undefined);
    throw error;
  }
}

function sqlLockOrder(orderId: string) {
  // A transaction-scoped advisory lock on the order id: cheaper than locking the order row, which
  // the lifecycle holds during its own transitions.
  return sql`select pg_advisory_xact_lock(hashtextextended(${`order-files:${orderId}`}, 0))`;
}

/** The live files of an order, by support then name. */
export async function listOrderFiles(orderId: string, database: Database = db()): Promise<OrderFile[]> {
  return database
    .select()
    .from(orderFiles)
    .where(and(eq(orderFiles.orderId, orderId), isNull(orderFiles.deletedAt)))
    .orderBy(asc(orderFiles.support), asc(orderFiles.name));
}
