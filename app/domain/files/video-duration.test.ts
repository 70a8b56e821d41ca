import { describe, expect, it } from 'vitest';
import { box, fileType, largeBox, minimalMp4, movieHeader } from '../../../tests/support/mp4';
import {
  durationFromMovieBox,
  findMovieDuration,
  MAX_MOVIE_BOX_BYTES,
  parseBoxHeader,
  parseMovieHeader,
  wholeSeconds,
} from './video-duration';

/** Reads from an in-memory file, recording each range asked for. */
function reader(file: Uint8Array) {
  const reads: { start: number; length: number }[] = [];
  const read = async (start: number, length: number) => {
    reads.push({ start, length });
    return file.subarray(start, start + length);
  };
  return { read, reads };
}

describe('MP4 box headers', () => {
  it.each([
    ['a 32-bit size', box('ftyp', Buffer.alloc(12)), { type: 'ftyp', headerSize: 8, size: 20 }],
    ['a 64-bit size', largeBox('mdat', Buffer.alloc(30)), { type: 'mdat', headerSize: 16, size: 46 }],
  ])('read %s', (_label, bytes, expected) => {
    expect(parseBoxHeader(bytes, 0, bytes.length)).toMatchObject({ offset: 0, ...expected });
  });

  it('take a size of 0 as « to the end of the file »', () => {
    const bytes = Buffer.concat([Buffer.from([0, 0, 0, 0]), Buffer.from('mdat'), Buffer.alloc(100)]);
    expect(parseBoxHeader(bytes, 0, 5000)).toMatchObject({ type: 'mdat', size: 5000 });
  });

  it.each([
    ['too short', Buffer.from([0, 0, 0])],
    ['a size below its header', Buffer.concat([Buffer.from([0, 0, 0, 4]), Buffer.from('moov')])],
    ['a box running past the end', Buffer.concat([Buffer.from([0, 0, 1, 0]), Buffer.from('moov')])],
    ['a type that is not text', Buffer.from([0, 0, 0, 8, 0xff, 0xd8, 0xff, 0xe0])],
  ])('refuse %s', (_label, bytes) => {
    expect(parseBoxHeader(bytes, 0, bytes.length)).toBeNull();
  });
});

describe('the movie header', () => {
  it.each([
    { version: 0 as const, timescale: 600, duration: 600 * 95 },
    { version: 1 as const, timescale: 90_000, duration: 90_000 * 3600 * 2 },
  ])('gives time scale and duration (version $version)', ({ version, timescale, duration }) => {
    const mvhd = movieHeader({ version, timescale, duration }).subarray(8);
    expect(parseMovieHeader(mvhd)).toEqual({ timescale, duration });
  });

  it('makes seconds from a movie box, or nothing without a header or a time scale', () => {
    expect(durationFromMovieBox(movieHeader({ timescale: 1000, duration: 12_345 }))).toBe(12.345);
    expect(durationFromMovieBox(box('trak', Buffer.alloc(8)))).toBeNull();
    expect(durationFromMovieBox(movieHeader({ timescale: 0, duration: 10 }))).toBeNull();
    expect(durationFromMovieBox(movieHeader({ timescale: 1000, duration: 0xffffffff }))).toBeNull();
  });
});

describe('the duration of a video file', () => {
  it('finds a movie box written after the media data without reading the media data', async () => {
    const file = minimalMp4({ seconds: 83.4, mdatBytes: 200_000 });
    const { read, reads } = reader(file);
    expect(await findMovieDuration(read, file.length)).toBeCloseTo(83.4);
    // Three headers (ftyp, mdat, moov) then the movie box: nothing near 200 000 bytes is read.
    expect(reads).toHaveLength(4);
    expect(reads.reduce((sum, r) => sum + r.length, 0)).toBeLessThan(1000);
  });

  it('finds a movie box written first (« fast start »), and one after a 64-bit media box', async () => {
    const fast = minimalMp4({ seconds: 7, fastStart: true });
    expect(await findMovieDuration(reader(fast).read, fast.length)).toBe(7);
    const moov = box('moov', movieHeader({ timescale: 30_000, duration: 30_000 * 61 }));
    const large = Buffer.concat([fileType('qt  '), box('wide'), largeBox('mdat', Buffer.alloc(1000)), moov]);
    expect(await findMovieDuration(reader(large).read, large.length)).toBe(61);
  });

  it.each([
    ['a JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1])],
    ['a file cut before its movie box', minimalMp4({ seconds: 5 }).subarray(0, 4000)],
    ['an MP4 without a movie box', Buffer.concat([fileType(), box('mdat', Buffer.alloc(100))])],
    ['an empty file', Buffer.alloc(0)],
  ])('gives nothing for %s', async (_label, file) => {
    expect(await findMovieDuration(reader(file).read, file.length)).toBeNull();
  });

  it('does not read a movie box too large to be one', async () => {
    const header = Buffer.alloc(8);
    header.writeUInt32BE(MAX_MOVIE_BOX_BYTES + 8, 0);
    header.write('moov', 4, 'latin1');
    const { read, reads } = reader(Buffer.concat([fileType(), header]));
    expect(await findMovieDuration(read, fileType().length + MAX_MOVIE_BOX_BYTES + 8)).toBeNull();
    expect(reads).toHaveLength(2);
  });

  it.each([
    [83.4, 83],
    [83.5, 84],
    [0.2, 1],
    [0, 0],
    [Number.NaN, 0],
  ])('keeps %s s as %s whole seconds', (seconds, expected) => {
    expect(wholeSeconds(seconds)).toBe(expected);
  });
});
