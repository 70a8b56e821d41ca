import fs from 'node:fs/promises';
import path from 'node:path';
import { assertStorageKey, FileExistsError, type FileStorage } from '../../app/server/files/storage.server';

/*
 * The customers' files, from the local folder to the bucket, through `FileStorage` on both sides
 * (app/server/files/storage.server.ts): the same keys, the same multipart streaming as the shop's
 * own uploads. A file already in the bucket with the same size is skipped, so that the command can
 * be run again after a cut and sends only what is missing (an S3 object appears whole or not at all).
 */

export interface StoredFile {
  key: string;
  size: number;
}

/**
 * Every file of the local storage under `root`, by key. The storage's own leftovers (a
 * `….partial` being written, or left by a crash), names that are no storage key and the uploads
 * under way (`uploads/`: tus's partial files, which a bucket keeps as multipart uploads of its own;
 * an upload unfinished at the move is sent again) are not files of the shop: they are counted apart.
 */
export async function listLocalFiles(root: string): Promise<{ files: StoredFile[]; ignored: string[] }> {
  const files: StoredFile[] = [];
  const ignored: string[] = [];
  const visit = async (dir: string, prefix: string) => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const key = prefix ? `${prefix}/${entry.name}` : entry.name;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && key === 'uploads') ignored.push('uploads/');
      else if (entry.isDirectory()) await visit(full, key);
      else if (!entry.isFile() || entry.name.endsWith('.partial') || !isStorageKey(key)) ignored.push(key);
      else files.push({ key, size: (await fs.stat(full)).size });
    }
  };
  await visit(root, '');
  return { files, ignored };
}

function isStorageKey(key: string): boolean {
  try {
    assertStorageKey(key);
    return true;
  } catch {
    return false;
  }
}

export interface FileCopyResult {
  copied: number;
  skipped: number;
  bytesCopied: number;
  /** Keys the bucket holds with another size: never overwritten, reported. */
  conflicts: { key: string; localSize: number; bucketSize: number }[];
}

/** A file this large streams alone: each multipart upload holds up to 64 MB in memory. */
const LARGE_FILE = 16 * 1024 * 1024;
const WORKERS = 4;

export async function copyFiles({
  files,
  from,
  to,
  contentTypeOf,
  onProgress,
}: {
  files: StoredFile[];
  from: FileStorage;
  to: FileStorage;
  contentTypeOf: (key: string) => string;
  onProgress?: (done: number, total: number) => void;
}): Promise<FileCopyResult> {
  const result: FileCopyResult = { copied: 0, skipped: 0, bytesCopied: 0, conflicts: [] };
  let next = 0;
  let done = 0;
  let large: Promise<void> = Promise.resolve();
  const copyOne = async (file: StoredFile) => {
    const there = await to.stat(file.key);
    if (there) {
      if (there.size === file.size) result.skipped += 1;
      else result.conflicts.push({ key: file.key, localSize: file.size, bucketSize: there.size });
      return;
    }
    const body = await from.read(file.key);
    if (!body) throw new Error(`${file.key} disappeared from the local folder during the copy`);
    try {
      const { size } = await to.put(file.key, body, { contentType: contentTypeOf(file.key) });
      result.copied += 1;
      result.bytesCopied += size;
    } catch (error) {
      body.destroy();
      // Sent meanwhile by another run of the command: the size check below tells whether it is whole.
      if (!(error instanceof FileExistsError)) throw error;
      const now = await to.stat(file.key);
      if (now?.size === file.size) result.skipped += 1;
      else result.conflicts.push({ key: file.key, localSize: file.size, bucketSize: now?.size ?? 0 });
    }
  };
  const worker = async () => {
    for (;;) {
      const file = files[next++];
      if (!file) return;
      if (file.size >= LARGE_FILE) {
        // One large file at a time: the others go on with the small ones.
        const turn = large.then(() => copyOne(file));
        large = turn.catch(() => {});
        await turn;
      } else await copyOne(file);
      done += 1;
      onProgress?.(done, files.length);
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, worker));
  return result;
}

/** What the bucket holds of `files`: how many, and their bytes. */
export async function measureFiles(
  storage: FileStorage,
  files: StoredFile[],
): Promise<{ count: number; bytes: number; missing: string[] }> {
  let count = 0;
  let bytes = 0;
  const missing: string[] = [];
  let next = 0;
  const worker = async () => {
    for (;;) {
      const file = files[next++];
      if (!file) return;
      const stat = await storage.stat(file.key);
      if (!stat) missing.push(file.key);
      else {
        count += 1;
        bytes += stat.size;
      }
    }
  };
  await Promise.all(Array.from({ length: WORKERS * 2 }, worker));
  return { count, bytes, missing: missing.sort() };
}
