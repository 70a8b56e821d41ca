import { SHOP_TIME_ZONE } from '../format';

/*
 * The bytes of a ZIP archive around its files' contents (PKWARE APPNOTE 6.3.10), for « Tout
 * télécharger » (decision 011): the shop streams the archive on the fly, without a temporary file, so
 * everything but the files' bytes is built here from what order_files already knows (size, CRC-32,
 * date). Choices, and why:
 *  - STORE (method 0): scans and videos are already compressed; deflating them costs CPU for
 *    nothing, and the archive's exact length is then known before the first byte (Content-Length,
 *    Range on the archive).
 *  - The CRC-32 and sizes go in the local headers (no data descriptor, flag bit 3 off): every
 *    reader, including the streaming ones, can check each entry as it comes.
 *  - UTF-8 names (flag bit 11): « Été 84/Mamie.jpg » reads the same on Windows, macOS and Linux.
 *  - ZIP64 only where needed: an entry of 4 GiB or more (a VHS tape) carries ZIP64 sizes in both
 *    headers; an entry starting at or beyond 4 GiB carries a ZIP64 offset in its central header;
 *    the ZIP64 end records are added when the archive has more than 65 535 entries or its central
 *    directory starts or ends beyond 4 GiB. Small archives stay plain ZIP for old readers.
 * Pure: Uint8Array and DataView, no Node API.
 */

export interface ZipEntryInput {
  /** The path inside the archive (« Photos papier/IMG_0001.jpg »), '/' separated. */
  name: string;
  size: number;
  /** CRC-32 of the content (unsigned). */
  crc32: number;
  modifiedAt: Date;
}

export interface ZipEntryPlan extends ZipEntryInput {
  /** Where its local header starts in the archive. */
  offset: number;
  /** Length of its local header (the content follows it). */
  headerLength: number;
}

export interface ZipPlan {
  entries: ZipEntryPlan[];
  centralDirectoryOffset: number;
  centralDirectoryLength: number;
  /** The archive's exact length: the Content-Length of the download. */
  totalLength: number;
  zip64: boolean;
}

const U16_MAX = 0xffff;
const U32_MAX = 0xffffffff;
const LOCAL_HEADER_SIGNATURE = 0x04034b50;
const CENTRAL_HEADER_SIGNATURE = 0x02014b50;
const ZIP64_END_SIGNATURE = 0x06064b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const END_SIGNATURE = 0x06054b50;
const LOCAL_HEADER_LENGTH = 30;
const CENTRAL_HEADER_LENGTH = 46;
const ZIP64_END_LENGTH = 56;
const ZIP64_LOCATOR_LENGTH = 20;
const END_LENGTH = 22;
/** Bit 11: the name is UTF-8. */
const FLAG_UTF8 = 0x0800;
const VERSION_PLAIN = 20;
const VERSION_ZIP64 = 45;
/** « Made by » Unix (3), so that the external attributes below are read as permissions. */
const MADE_BY_UNIX = 3 << 8;
/** A regular file, rw-r--r--. */
const EXTERNAL_ATTRIBUTES = (0o100644 << 16) >>> 0;

const encoder = new TextEncoder();

export function encodeName(name: string): Uint8Array {
  return encoder.encode(name);
}

/** An entry whose size needs ZIP64 fields (in both headers). */
function bigEntry(size: number): boolean {
  return size >= U32_MAX;
}

function localHeaderLength(entry: ZipEntryInput): number {
  return LOCAL_HEADER_LENGTH + encodeName(entry.name).length + (bigEntry(entry.size) ? 20 : 0);
}

/** The ZIP64 extra field of a central header: only the values that overflowed, in this order. */
function centralZip64Values(entry: ZipEntryInput, offset: number): number[] {
  const values: number[] = [];
  if (bigEntry(entry.size)) values.push(entry.size, entry.size);
  if (offset >= U32_MAX) values.push(offset);
  return values;
}

function centralHeaderLength(entry: ZipEntryInput, offset: number): number {
  const values = centralZip64Values(entry, offset).length;
  return CENTRAL_HEADER_LENGTH + encodeName(entry.name).length + (values > 0 ? 4 + 8 * values : 0);
}

/** Where everything goes: offsets, the central directory's place, the exact total length. */
export function planZip(inputs: readonly ZipEntryInput[]): ZipPlan {
  const entries: ZipEntryPlan[] = [];
  let position = 0;
  for (const input of inputs) {
    if (!Number.isSafeInteger(input.size) || input.size < 0) throw new Error(`invalid size for ${input.name}`);
    const headerLength = localHeaderLength(input);
    entries.push({
      name: input.name,
      size: input.size,
      crc32: input.crc32,
      modifiedAt: input.modifiedAt,
      offset: position,
      headerLength,
    });
    position += headerLength + input.size;
  }
  const centralDirectoryOffset = position;
  let centralDirectoryLength = 0;
  for (const entry of entries) centralDirectoryLength += centralHeaderLength(entry, entry.offset);
  const zip64 = needsZip64End(entries.length, centralDirectoryOffset, centralDirectoryLength);
  const totalLength =
    centralDirectoryOffset +
    centralDirectoryLength +
    (zip64 ? ZIP64_END_LENGTH + ZIP64_LOCATOR_LENGTH : 0) +
    END_LENGTH;
  return { entries, centralDirectoryOffset, centralDirectoryLength, totalLength, zip64 };
}

function needsZip64End(count: number, offset: number, length: number): boolean {
  return count > U16_MAX || offset >= U32_MAX || offset + length >= U32_MAX;
}

const dosParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: SHOP_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

const HOUR_MS = 60 * 60 * 1000;
/** Paris' offset from UTC for each UTC hour met: offsets change only on the hour, and reading one costs ~25 µs. */
const offsets = new Map<number, number>();

function parisOffsetMs(at: number): number {
  const hour = Math.floor(at / HOUR_MS);
  let offset = offsets.get(hour);
  if (offset === undefined) {
    const start = hour * HOUR_MS;
    const parts = Object.fromEntries(
      dosParts.formatToParts(new Date(start)).map((part) => [part.type, Number(part.value)]),
    );
    const local = Date.UTC(
      parts.year ?? 1970,
      (parts.month ?? 1) - 1,
      parts.day ?? 1,
      parts.hour ?? 0,
      parts.minute ?? 0,
      parts.second ?? 0,
    );
    offset = local - start;
    if (offsets.size > 10_000) offsets.clear();
    offsets.set(hour, offset);
  }
  return offset;
}

/**
 * MS-DOS date and time (local time, 2-second steps, 1980–2107), in the shop's time zone as the
 * customer's file manager shows it. Dates outside the range are clamped.
 */
export function dosDateTime(at: Date): { date: number; time: number } {
  const ms = at.getTime();
  const local = new Date(ms + parisOffsetMs(ms));
  const year = local.getUTCFullYear();
  if (year < 1980) return { date: (1 << 5) | 1, time: 0 };
  if (year > 2107) return { date: (127 << 9) | (12 << 5) | 31, time: (23 << 11) | (59 << 5) | 29 };
  return {
    date: ((year - 1980) << 9) | ((local.getUTCMonth() + 1) << 5) | local.getUTCDate(),
    time: (local.getUTCHours() << 11) | (local.getUTCMinutes() << 5) | Math.floor(local.getUTCSeconds() / 2),
  };
}

function u64(view: DataView, at: number, value: number): void {
  view.setBigUint64(at, BigInt(value), true);
}

/** The local header of an entry: its content follows it at once. */
export function localHeader(entry: ZipEntryInput): Uint8Array {
  const name = encodeName(entry.name);
  const big = bigEntry(entry.size);
  const bytes = new Uint8Array(LOCAL_HEADER_LENGTH + name.length + (big ? 20 : 0));
  const view = new DataView(bytes.buffer);
  const { date, time } = dosDateTime(entry.modifiedAt);
  view.setUint32(0, LOCAL_HEADER_SIGNATURE, true);
  view.setUint16(4, big ? VERSION_ZIP64 : VERSION_PLAIN, true);
  view.setUint16(6, FLAG_UTF8, true);
  view.setUint16(8, 0, true); // STORE
  view.setUint16(10, time, true);
  view.setUint16(12, date, true);
  view.setUint32(14, entry.crc32 >>> 0, true);
  view.setUint32(18, big ? U32_MAX : entry.size, true);
  view.setUint32(22, big ? U32_MAX : entry.size, true);
  view.setUint16(26, name.length, true);
  view.setUint16(28, big ? 20 : 0, true);
  bytes.set(name, LOCAL_HEADER_LENGTH);
  if (big) {
    const extra = LOCAL_HEADER_LENGTH + name.length;
    view.setUint16(extra, 0x0001, true);
    view.setUint16(extra + 2, 16, true);
    u64(view, extra + 4, entry.size);
    u64(view, extra + 12, entry.size);
  }
  return bytes;
}

/** The central directory's record of an entry whose local header starts at `offset`. */
export function centralHeader(entry: ZipEntryInput, offset: number): Uint8Array {
  const name = encodeName(entry.name);
  const big = bigEntry(entry.size);
  const values = centralZip64Values(entry, offset);
  const extraLength = values.length > 0 ? 4 + 8 * values.length : 0;
  const bytes = new Uint8Array(CENTRAL_HEADER_LENGTH + name.length + extraLength);
  const view = new DataView(bytes.buffer);
  const { date, time } = dosDateTime(entry.modifiedAt);
  const version = values.length > 0 ? VERSION_ZIP64 : VERSION_PLAIN;
  view.setUint32(0, CENTRAL_HEADER_SIGNATURE, true);
  view.setUint16(4, MADE_BY_UNIX | version, true);
  view.setUint16(6, version, true);
  view.setUint16(8, FLAG_UTF8, true);
  view.setUint16(10, 0, true);
  view.setUint16(12, time, true);
  view.setUint16(14, date, true);
  view.setUint32(16, entry.crc32 >>> 0, true);
  view.setUint32(20, big ? U32_MAX : entry.size, true);
  view.setUint32(24, big ? U32_MAX : entry.size, true);
  view.setUint16(28, name.length, true);
  view.setUint16(30, extraLength, true);
  view.setUint16(32, 0, true); // comment
  view.setUint16(34, 0, true); // disk
  view.setUint16(36, 0, true); // internal attributes
  view.setUint32(38, EXTERNAL_ATTRIBUTES, true);
  view.setUint32(42, offset >= U32_MAX ? U32_MAX : offset, true);
  bytes.set(name, CENTRAL_HEADER_LENGTH);
  if (values.length > 0) {
    const extra = CENTRAL_HEADER_LENGTH + name.length;
    view.setUint16(extra, 0x0001, true);
    view.setUint16(extra + 2, 8 * values.length, true);
    for (const [index, value] of values.entries()) u64(view, extra + 4 + 8 * index, value);
  }
  return bytes;
}

/** What closes the archive: the ZIP64 end record and locator when needed, then the end record. */
export function endRecords(
  plan: Pick<ZipPlan, 'entries' | 'centralDirectoryOffset' | 'centralDirectoryLength' | 'zip64'>,
): Uint8Array {
  const count = plan.entries.length;
  const { centralDirectoryOffset: offset, centralDirectoryLength: length, zip64 } = plan;
  const bytes = new Uint8Array((zip64 ? ZIP64_END_LENGTH + ZIP64_LOCATOR_LENGTH : 0) + END_LENGTH);
  const view = new DataView(bytes.buffer);
  let at = 0;
  if (zip64) {
    const zip64EndOffset = offset + length;
    view.setUint32(0, ZIP64_END_SIGNATURE, true);
    u64(view, 4, ZIP64_END_LENGTH - 12);
    view.setUint16(12, MADE_BY_UNIX | VERSION_ZIP64, true);
    view.setUint16(14, VERSION_ZIP64, true);
    view.setUint32(16, 0, true);
    view.setUint32(20, 0, true);
    u64(view, 24, count);
    u64(view, 32, count);
    u64(view, 40, length);
    u64(view, 48, offset);
    view.setUint32(56, ZIP64_LOCATOR_SIGNATURE, true);
    view.setUint32(60, 0, true);
    u64(view, 64, zip64EndOffset);
    view.setUint32(72, 1, true);
    at = ZIP64_END_LENGTH + ZIP64_LOCATOR_LENGTH;
  }
  view.setUint32(at, END_SIGNATURE, true);
  view.setUint16(at + 4, 0, true);
  view.setUint16(at + 6, 0, true);
  view.setUint16(at + 8, Math.min(count, U16_MAX), true);
  view.setUint16(at + 10, Math.min(count, U16_MAX), true);
  view.setUint32(at + 12, zip64 ? Math.min(length, U32_MAX) : length, true);
  view.setUint32(at + 16, zip64 ? Math.min(offset, U32_MAX) : offset, true);
  view.setUint16(at + 20, 0, true);
  return bytes;
}

/** `Photos papier` + `IMG_1.jpg` -> `Photos papier/IMG_1.jpg`: no '/' or '\' inside a part. */
export function zipEntryName(folder: string, fileName: string): string {
  const clean = (part: string) => part.replace(/[\\/]/g, '-').trim() || 'fichiers';
  return `${clean(folder)}/${clean(fileName)}`;
}

/** `SV-2026-000042` (+ support) -> `Soovenirs SV-2026-000042 - Photos papier.zip`. */
export function zipFileName(orderNumber: string, folder?: string): string {
  return folder ? `Soovenirs ${orderNumber} - ${folder.replace(/[\\/]/g, '-')}.zip` : `Soovenirs ${orderNumber}.zip`;
}
