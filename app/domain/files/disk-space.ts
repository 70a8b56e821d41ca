/*
 * The arithmetic of the files' disk (docs/operations.md, « Files and uploads on disk »): how much
 * an operator keeps free (UPLOAD_DISK_RESERVE), whether a new upload fits, whether a chunk may be
 * written, and when the disk counts as low. Pure: the server measures (fs.statfs, the uploads in
 * progress) and asks here.
 */

/** A reserve as written by the operator: a number of bytes, or a share of the disk. */
export type DiskReserve = { bytes: number } | { percent: number };

/** 1 GiB: room for the system, logs and previews when nothing else is said. */
export const DEFAULT_DISK_RESERVE: DiskReserve = { bytes: 1024 ** 3 };

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1000,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1000 ** 4,
  tib: 1024 ** 4,
};

/**
 * « 1GiB », « 500 MB », « 2G » (binary), « 1073741824 » or « 5% »; null when it is none of these.
 * Zero is allowed (no reserve: a test, or a disk that holds nothing else).
 */
export function parseDiskReserve(text: string): DiskReserve | null {
  const value = text.trim().toLowerCase();
  const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(value);
  if (percent) {
    const share = Number(percent[1]);
    return share < 100 ? { percent: share } : null;
  }
  const size = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/.exec(value);
  const unit = size ? UNITS[size[2] ?? ''] : undefined;
  if (!size || unit === undefined) return null;
  return { bytes: Math.round(Number(size[1]) * unit) };
}

/** The reserve in bytes on a disk of `totalBytes`. */
export function reserveBytes(reserve: DiskReserve, totalBytes: number): number {
  return 'bytes' in reserve ? reserve.bytes : Math.ceil((totalBytes * reserve.percent) / 100);
}

export interface DiskSpace {
  /** Bytes an unprivileged process may still write (statfs: bavail × bsize). */
  freeBytes: number;
  totalBytes: number;
}

/**
 * What new uploads may still declare: the free space, less the reserve, less what the uploads in
 * progress declared and have not written yet (their bytes are promised, not yet on the disk).
 */
export function uploadableBytes(space: DiskSpace, reserve: DiskReserve, pendingBytes: number): number {
  return Math.max(0, space.freeBytes - reserveBytes(reserve, space.totalBytes) - pendingBytes);
}

/** A new upload of `declaredBytes` fits. */
export function uploadFits(
  space: DiskSpace,
  reserve: DiskReserve,
  pendingBytes: number,
  declaredBytes: number,
): boolean {
  return declaredBytes <= uploadableBytes(space, reserve, pendingBytes);
}

/**
 * A chunk of an upload already accepted may be written: it does not eat into the reserve. Its own
 * bytes were counted when it was accepted; only something else filling the disk meanwhile (another
 * program, previews, logs) refuses it.
 */
export function chunkFits(space: DiskSpace, reserve: DiskReserve, chunkBytes: number): boolean {
  return chunkBytes <= space.freeBytes - reserveBytes(reserve, space.totalBytes);
}

/** The files' disk is low: under its reserve (readiness reports it; new uploads are refused). */
export function diskIsLow(space: DiskSpace, reserve: DiskReserve): boolean {
  return space.freeBytes < reserveBytes(reserve, space.totalBytes);
}
