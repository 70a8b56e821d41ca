import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/*
 * Files of a backup: copied with Node streams, hashed (SHA-256) on the way, flushed to disk, and
 * listed in the backup's manifest.json so that a restore checks every byte it puts back.
 */

export interface ManifestFile {
  /** Relative to the backup's folder, with `/` separators. */
  path: string;
  size: number;
  sha256: string;
}

export interface BaseBackupManifest {
  format: 1;
  kind: 'base';
  /** When pg_backup_start was called, and when pg_backup_stop returned (ISO 8601, UTC). */
  startedAt: string;
  /** The earliest time a restore of this backup can reach (the end of the backup). */
  consistentAt: string;
  postgresVersion: string;
  systemIdentifier: string;
  timeline: number;
  startLsn: string;
  stopLsn: string;
  /** The WAL segments from the start LSN through the stop LSN, copied into wal/. */
  startWal: string;
  stopWal: string;
  /** The archive this cluster writes to, for a restore to the latest state or a point in time. */
  walArchive: string;
  /** Every directory of the cluster (data/…), empty ones included: PostgreSQL needs them. */
  dirs: string[];
  files: ManifestFile[];
}

export interface DumpManifest {
  format: 1;
  kind: 'dump';
  startedAt: string;
  finishedAt: string;
  postgresVersion: string;
  pgDump: string;
  files: ManifestFile[];
}

export type Manifest = BaseBackupManifest | DumpManifest;

export const MANIFEST = 'manifest.json';

/**
 * Copies `from` to `to` (which must not exist), hashing what it copies, and flushes it to disk.
 * Returns null when `from` disappeared before it could be read (a table dropped during the backup:
 * the WAL replay at restore time does the same).
 */
export async function copyFile(
  from: string,
  to: string,
  mode: number,
): Promise<{ size: number; sha256: string } | null> {
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  let source: fs.FileHandle;
  try {
    source = await fs.open(from, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  await pipeline(createReadStream('', { fd: source }), tap, createWriteStream(to, { flags: 'wx', mode, flush: true }));
  return { size, sha256: hash.digest('hex') };
}

/** The SHA-256 of a file, streamed. */
export async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

export async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

export async function readManifest(folder: string): Promise<Manifest | null> {
  try {
    return JSON.parse(await fs.readFile(path.join(folder, MANIFEST), 'utf8')) as Manifest;
  } catch {
    return null;
  }
}

/** A folder name that sorts in time order and holds no `:` (2026-11-23T22-15-00Z). */
export function stamp(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
}

/** Completed backups (those with a manifest) of `backupDir`, oldest first. */
export async function listBackups(backupDir: string): Promise<{ folder: string; manifest: Manifest }[]> {
  let names: string[];
  try {
    names = (await fs.readdir(backupDir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
  const found: { folder: string; manifest: Manifest }[] = [];
  for (const name of names.sort()) {
    if (name.endsWith('.partial')) continue;
    const manifest = await readManifest(path.join(backupDir, name));
    if (manifest) found.push({ folder: path.join(backupDir, name), manifest });
  }
  return found;
}

/** "1,2 Go", "35,4 Mo": sizes as the French messages show them. */
export function formatSize(bytes: number): string {
  const units = ['o', 'ko', 'Mo', 'Go', 'To'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = unit === 0 ? String(value) : value.toFixed(1).replace('.', ',');
  return `${text}\u00a0${units[unit]}`;
}

/** For `rows[0] ?? noRow()`: the queries here always return one row. */
export function noRow(): never {
  throw new Error('PostgreSQL returned no row');
}
