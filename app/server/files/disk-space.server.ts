import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_DISK_RESERVE, type DiskReserve, type DiskSpace, parseDiskReserve } from '~/domain/files/disk-space';
import { env } from '../env.server';

/*
 * What the files' disk holds and promises (domain/files/disk-space.ts does the arithmetic):
 * its free space (statfs), and the bytes the uploads in progress declared and have not written yet,
 * read from the partial uploads' folder itself (each `<id>.json` says the declared size, `<id>` holds
 * what came), so that every instance sharing the folder and a restarted one count the same.
 */

export async function measureDisk(directory: string): Promise<DiskSpace> {
  const stats = await fs.promises.statfs(directory);
  return { freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize };
}

/** The reserve of the environment (UPLOAD_DISK_RESERVE, checked by env.server.ts), 1 GiB by default. */
export function diskReserveFromEnv(): DiskReserve {
  const text = env().UPLOAD_DISK_RESERVE;
  return (text && parseDiskReserve(text)) || DEFAULT_DISK_RESERVE;
}

/** The bytes declared by the uploads in progress in `directory` and not written yet. */
export async function pendingUploadBytes(directory: string): Promise<number> {
  const names = await fs.promises.readdir(directory).catch(() => [] as string[]);
  let pending = 0;
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const declared = await fs.promises
      .readFile(path.join(directory, name), 'utf8')
      .then((text) => Number((JSON.parse(text) as { size?: unknown }).size))
      .catch(() => Number.NaN);
    if (!Number.isFinite(declared)) continue;
    const written = await fs.promises
      .stat(path.join(directory, name.slice(0, -'.json'.length)))
      .then((stats) => stats.size)
      .catch(() => declared);
    pending += Math.max(0, declared - written);
  }
  return pending;
}
