/*
 * Minimal MP4/MOV files built by hand, box by box (ISO/IEC 14496-12), for the tests of the video
 * duration: a `ftyp`, a `mdat` of filler bytes and a `moov` holding only its `mvhd`, in the order a
 * test asks (a camera writes `moov` last; « fast start » files put it first).
 */

export function box(type: string, ...payload: Uint8Array[]): Buffer {
  const body = Buffer.concat(payload);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

/** A box with a 64-bit size (size field 1), as writers use for a `mdat` over 4 GB. */
export function largeBox(type: string, payload: Uint8Array): Buffer {
  const header = Buffer.alloc(16);
  header.writeUInt32BE(1, 0);
  header.write(type, 4, 'latin1');
  header.writeBigUInt64BE(BigInt(16 + payload.length), 8);
  return Buffer.concat([header, payload]);
}

export function movieHeader({
  timescale,
  duration,
  version = 0,
}: {
  timescale: number;
  duration: number;
  version?: 0 | 1;
}) {
  // version, flags, creation and modification times, time scale, duration, then rate, volume,
  // reserved, matrix, pre-defined and next track id (80 bytes), zeros here.
  if (version === 0) {
    const payload = Buffer.alloc(4 + 4 + 4 + 4 + 4 + 80);
    payload.writeUInt32BE(timescale, 12);
    payload.writeUInt32BE(duration, 16);
    return box('mvhd', payload);
  }
  const payload = Buffer.alloc(4 + 8 + 8 + 4 + 8 + 80);
  payload[0] = 1;
  payload.writeUInt32BE(timescale, 20);
  payload.writeBigUInt64BE(BigInt(duration), 24);
  return box('mvhd', payload);
}

export function fileType(brand = 'isom'): Buffer {
  return box('ftyp', Buffer.from(`${brand}\0\0\x02\0isomiso2mp41`, 'latin1'));
}

/** An MP4 of `seconds` whose movie box comes after `mdatBytes` of media data (or before, `fastStart`). */
export function minimalMp4({
  seconds,
  timescale = 1000,
  mdatBytes = 4096,
  fastStart = false,
}: {
  seconds: number;
  timescale?: number;
  mdatBytes?: number;
  fastStart?: boolean;
}): Buffer {
  const moov = box('moov', movieHeader({ timescale, duration: Math.round(seconds * timescale) }));
  const mdat = box('mdat', Buffer.alloc(mdatBytes, 0x42));
  return Buffer.concat(fastStart ? [fileType(), moov, mdat] : [fileType(), mdat, moov]);
}
