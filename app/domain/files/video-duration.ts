/*
 * The duration of an MP4 or QuickTime (MOV) video, read from its boxes (ISO/IEC 14496-12, « ISO
 * base media file format »): the file is a sequence of boxes `[size u32][type 4 chars][payload]`
 * (size 1: a 64-bit size follows the type; size 0: the box runs to the end of the file). The movie
 * box `moov` holds the movie header `mvhd`, whose `timescale` (units per second) and `duration`
 * (in those units) give the length of the film.
 *
 * A camera or a capture card often writes `moov` after the media data (`mdat`, gigabytes), so the
 * file is not read from the start: `findMovieDuration` walks the top-level box headers with small
 * reads (16 bytes each), jumping over the payloads, and reads `moov` alone. Reading is injected
 * (a byte range of the storage in the shop, an array in the tests): this module does no I/O.
 */

export interface BoxHeader {
  /** Four characters: `ftyp`, `moov`, `mdat`… */
  type: string;
  /** Where the box starts, from the start of the bytes walked. */
  offset: number;
  /** Bytes of the header (8, or 16 with a 64-bit size). */
  headerSize: number;
  /** Bytes of the whole box, header included. */
  size: number;
}

/** Bytes enough for any box header (size, type, 64-bit size). */
export const BOX_HEADER_BYTES = 16;

/** A `moov` larger than this is not read (a damaged file, not a film: hours of video make a few MB). */
export const MAX_MOVIE_BOX_BYTES = 64 * 1024 * 1024;

/**
 * The header of the box at `offset` of `bytes` (at least its first 8 or 16 bytes), within a
 * container of `end` bytes (the file's size at top level, the parent's end inside a box); null when
 * the bytes do not make a box that fits.
 */
export function parseBoxHeader(bytes: Uint8Array, offset: number, end: number): BoxHeader | null {
  if (offset + 8 > bytes.length || offset + 8 > end) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size32 = view.getUint32(offset);
  const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
  // Four printable ASCII characters (QuickTime's `©xyz` boxes live deeper than we look).
  if (!/^[\x20-\x7e]{4}$/.test(type)) return null;
  let headerSize = 8;
  let size: number;
  if (size32 === 1) {
    if (offset + 16 > bytes.length) return null;
    const large = view.getBigUint64(offset + 8);
    if (large > BigInt(Number.MAX_SAFE_INTEGER)) return null;
    size = Number(large);
    headerSize = 16;
  } else if (size32 === 0) {
    size = end - offset;
  } else {
    size = size32;
  }
  if (size < headerSize || offset + size > end) return null;
  return { type, offset, headerSize, size };
}

/** The payload of the first child box of type `type` in `container` (a box's payload), or null. */
export function childBox(container: Uint8Array, type: string): Uint8Array | null {
  let offset = 0;
  while (offset < container.length) {
    const header = parseBoxHeader(container, offset, container.length);
    if (!header) return null;
    if (header.type === type) return container.subarray(offset + header.headerSize, offset + header.size);
    offset += header.size;
  }
  return null;
}

/** The movie header's time scale and duration: `mvhd` version 0 (32-bit times) or 1 (64-bit). */
export function parseMovieHeader(mvhd: Uint8Array): { timescale: number; duration: number } | null {
  const view = new DataView(mvhd.buffer, mvhd.byteOffset, mvhd.byteLength);
  if (mvhd.length < 4) return null;
  const version = mvhd[0];
  // version(1) flags(3) creation modification timescale(4) duration
  if (version === 0) {
    if (mvhd.length < 20) return null;
    return { timescale: view.getUint32(12), duration: view.getUint32(16) };
  }
  if (version === 1) {
    if (mvhd.length < 32) return null;
    return { timescale: view.getUint32(20), duration: Number(view.getBigUint64(24)) };
  }
  return null;
}

/** The duration in seconds given by a `moov` payload, or null (no `mvhd`, zero time scale, unknown). */
export function durationFromMovieBox(moov: Uint8Array): number | null {
  const mvhd = childBox(moov, 'mvhd');
  const header = mvhd && parseMovieHeader(mvhd);
  if (!header || header.timescale === 0) return null;
  // All ones means « unknown » (a recording cut before its header was finished).
  if (header.duration === 0xffffffff || header.duration === Number.MAX_SAFE_INTEGER) return null;
  return header.duration / header.timescale;
}

/** Reads `length` bytes at `start` (fewer at the end of the file). */
export type ReadBytes = (start: number, length: number) => Promise<Uint8Array>;

/**
 * The duration in seconds of the MP4/MOV file of `fileSize` bytes, reading it through `read`, or
 * null when it is not such a file or has no readable movie header. At most `maxBoxes` top-level
 * boxes are looked at (a well-formed file has a handful).
 */
export async function findMovieDuration(read: ReadBytes, fileSize: number, maxBoxes = 1000): Promise<number | null> {
  let offset = 0;
  for (let boxes = 0; boxes < maxBoxes && offset + 8 <= fileSize; boxes++) {
    const head = await read(offset, Math.min(BOX_HEADER_BYTES, fileSize - offset));
    // The header is parsed against the file's end, with its bytes placed at `offset`.
    const header = parseBoxHeader(head, 0, fileSize - offset);
    if (!header) return null;
    // The first box of an MP4/MOV is one of these; anything else is another format.
    if (boxes === 0 && !['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot'].includes(header.type)) return null;
    if (header.type === 'moov') {
      if (header.size > MAX_MOVIE_BOX_BYTES) return null;
      const moov = await read(offset + header.headerSize, header.size - header.headerSize);
      if (moov.length < header.size - header.headerSize) return null;
      return durationFromMovieBox(moov);
    }
    offset += header.size;
  }
  return null;
}

/** Seconds kept for the gallery: whole seconds, rounded, a film of a few frames counting 1 s. */
export function wholeSeconds(seconds: number): number {
  if (!Number.isFinite(seconds) || seconds <= 0) return 0;
  return Math.max(1, Math.round(seconds));
}
