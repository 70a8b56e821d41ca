import fs from 'node:fs/promises';
import path from 'node:path';

/*
 * WAL segment names: TTTTTTTTXXXXXXXXYYYYYYYY, the timeline then the segment number split in two
 * (XXXXXXXX counts "logical log files" of 4 GB, YYYYYYYY the segment within one).
 */

const SEGMENT = /^[0-9A-F]{24}$/;

export function isSegment(name: string): boolean {
  return SEGMENT.test(name);
}

/** The segments from `first` through `last` (same timeline), for segments of `segmentSize` bytes. */
export function segmentsBetween(first: string, last: string, segmentSize: number): string[] {
  if (!isSegment(first) || !isSegment(last)) throw new Error(`Not WAL segment names: ${first}, ${last}`);
  const timeline = first.slice(0, 8);
  const perLog = 0x100000000 / segmentSize;
  const number = (name: string) =>
    Number.parseInt(name.slice(8, 16), 16) * perLog + Number.parseInt(name.slice(16), 16);
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(8, '0');
  const names: string[] = [];
  for (let n = number(first); n <= number(last); n++) {
    names.push(`${timeline}${hex(Math.floor(n / perLog))}${hex(n % perLog)}`);
  }
  return names;
}

/**
 * Removes from `archive` the segments older than `oldestNeeded` (whatever their timeline, as
 * pg_archivecleanup does), and the partial segments and backup history files that go with them.
 * Timeline history files (*.history) are kept: they are tiny and a restore needs them.
 */
export async function pruneArchive(archive: string, oldestNeeded: string): Promise<{ removed: number; bytes: number }> {
  let names: string[];
  try {
    names = await fs.readdir(archive);
  } catch {
    return { removed: 0, bytes: 0 };
  }
  const limit = oldestNeeded.slice(8, 24);
  let removed = 0;
  let bytes = 0;
  for (const name of names) {
    const base = name.slice(0, 24);
    if (!isSegment(base) || name.endsWith('.history')) continue;
    if (base.slice(8) >= limit) continue;
    const file = path.join(archive, name);
    const { size } = await fs.stat(file);
    await fs.rm(file, { force: true });
    removed++;
    bytes += size;
  }
  return { removed, bytes };
}
