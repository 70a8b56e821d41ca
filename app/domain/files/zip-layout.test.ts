import { describe, expect, it } from 'vitest';
import {
  centralHeader,
  dosDateTime,
  encodeName,
  endRecords,
  localHeader,
  planZip,
  type ZipEntryInput,
  zipEntryName,
  zipFileName,
} from './zip-layout';

/*
 * The ZIP's own bytes around the files: read back field by field here; the archives themselves are
 * read by real readers (unzip, Python's zipfile) in app/server/files/zip-stream.server.test.ts.
 */

const GiB = 1024 ** 3;
const at = new Date('2026-11-21T10:30:08Z');
const entry = (name: string, size: number, crc32 = 0x12345678): ZipEntryInput => ({
  name,
  size,
  crc32,
  modifiedAt: at,
});
const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Everything but the contents, laid out as the stream writes it: its length must be the plan's. */
function archiveLength(inputs: ZipEntryInput[]): { written: number; planned: number } {
  const plan = planZip(inputs);
  let written = 0;
  const misplaced: string[] = [];
  for (const e of plan.entries) {
    const header = localHeader(e);
    if (written !== e.offset || header.length !== e.headerLength) misplaced.push(e.name);
    written += header.length + e.size;
  }
  expect(misplaced).toEqual([]);
  expect(written).toBe(plan.centralDirectoryOffset);
  for (const e of plan.entries) written += centralHeader(e, e.offset).length;
  expect(written - plan.centralDirectoryOffset).toBe(plan.centralDirectoryLength);
  written += endRecords(plan).length;
  return { written, planned: plan.totalLength };
}

describe('local header', () => {
  it('carries STORE, the UTF-8 flag, the CRC and the sizes (no data descriptor)', () => {
    const bytes = localHeader(entry('Photos papier/Été 84.jpg', 1234, 0xdeadbeef));
    const v = view(bytes);
    expect(v.getUint32(0, true)).toBe(0x04034b50);
    expect(v.getUint16(4, true)).toBe(20);
    expect(v.getUint16(6, true)).toBe(0x0800);
    expect(v.getUint16(8, true)).toBe(0);
    expect(v.getUint32(14, true)).toBe(0xdeadbeef);
    expect(v.getUint32(18, true)).toBe(1234);
    expect(v.getUint32(22, true)).toBe(1234);
    const name = encodeName('Photos papier/Été 84.jpg');
    expect(v.getUint16(26, true)).toBe(name.length);
    expect(v.getUint16(28, true)).toBe(0);
    expect(new TextDecoder().decode(bytes.slice(30))).toBe('Photos papier/Été 84.jpg');
  });

  it('switches to ZIP64 sizes for an entry of 4 GiB or more', () => {
    for (const [size, zip64] of [
      [0xfffffffe, false],
      [0xffffffff, true],
      [5 * GiB, true],
    ] as const) {
      const bytes = localHeader(entry('VHS/cassette.mp4', size));
      const v = view(bytes);
      const nameLength = v.getUint16(26, true);
      expect(v.getUint16(4, true)).toBe(zip64 ? 45 : 20);
      expect(v.getUint32(18, true)).toBe(zip64 ? 0xffffffff : size);
      expect(v.getUint16(28, true)).toBe(zip64 ? 20 : 0);
      if (zip64) {
        const extra = 30 + nameLength;
        expect(v.getUint16(extra, true)).toBe(0x0001);
        expect(v.getUint16(extra + 2, true)).toBe(16);
        expect(Number(v.getBigUint64(extra + 4, true))).toBe(size);
        expect(Number(v.getBigUint64(extra + 12, true))).toBe(size);
      }
    }
  });
});

describe('central header', () => {
  it('points at the local header, with ZIP64 values only for what overflows', () => {
    const plain = view(centralHeader(entry('a.jpg', 10), 1000));
    expect(plain.getUint32(0, true)).toBe(0x02014b50);
    expect(plain.getUint16(8, true)).toBe(0x0800);
    expect(plain.getUint32(42, true)).toBe(1000);
    expect(plain.getUint16(30, true)).toBe(0);

    // A small file after 5 GiB of others: only its offset is ZIP64.
    const far = centralHeader(entry('b.jpg', 10), 5 * GiB);
    const v = view(far);
    expect(v.getUint32(20, true)).toBe(10);
    expect(v.getUint32(42, true)).toBe(0xffffffff);
    expect(v.getUint16(30, true)).toBe(12);
    expect(Number(v.getBigUint64(46 + 5 + 4, true))).toBe(5 * GiB);

    // A big file far away: sizes, then the offset.
    const both = view(centralHeader(entry('c.mp4', 6 * GiB), 5 * GiB));
    expect(both.getUint16(30, true)).toBe(28);
    expect(Number(both.getBigUint64(46 + 5 + 4, true))).toBe(6 * GiB);
    expect(Number(both.getBigUint64(46 + 5 + 12, true))).toBe(6 * GiB);
    expect(Number(both.getBigUint64(46 + 5 + 20, true))).toBe(5 * GiB);
  });
});

describe('the plan', () => {
  it.each([
    ['no file', [] as ZipEntryInput[], false],
    ['a few photos', [entry('Photos/1.jpg', 3_000_000), entry('Photos/2.jpg', 0), entry('Vidéo/é.mp4', 42)], false],
    ['a 5 GiB tape', [entry('VHS/1.mp4', 5 * GiB), entry('VHS/2.mp4', 100)], true],
    ['three 2 GiB tapes', [entry('a', 2 * GiB), entry('b', 2 * GiB), entry('c', 2 * GiB)], true],
    ['65 536 photos', Array.from({ length: 65_536 }, (_, i) => entry(`Photos/${i}.jpg`, 10)), true],
  ])(
    'computes the exact length of %s',
    (_name, inputs, zip64) => {
      const plan = planZip(inputs);
      expect(plan.zip64).toBe(zip64);
      const { written, planned } = archiveLength(inputs);
      expect(written).toBe(planned);
    },
    // 65 536 entries take a few seconds on a busy two-core machine.
    30_000,
  );

  it('ends with the ZIP64 records when there are more than 65 535 entries', () => {
    const plan = planZip(Array.from({ length: 65_536 }, (_, i) => entry(`${i}`, 1)));
    const end = endRecords(plan);
    const v = view(end);
    expect(v.getUint32(0, true)).toBe(0x06064b50);
    expect(Number(v.getBigUint64(32, true))).toBe(65_536);
    expect(Number(v.getBigUint64(48, true))).toBe(plan.centralDirectoryOffset);
    expect(v.getUint32(56, true)).toBe(0x07064b50);
    expect(Number(v.getBigUint64(64, true))).toBe(plan.centralDirectoryOffset + plan.centralDirectoryLength);
    expect(v.getUint32(76, true)).toBe(0x06054b50);
    expect(v.getUint16(76 + 10, true)).toBe(0xffff);

    const small = view(endRecords(planZip([entry('a', 1), entry('b', 2)])));
    expect(small.getUint32(0, true)).toBe(0x06054b50);
    expect(small.getUint16(10, true)).toBe(2);
  });
});

describe('names and dates', () => {
  it('dates entries in Paris time, two-second steps', () => {
    // 10:30:08 UTC is 11:30:08 in Paris in November.
    expect(dosDateTime(at)).toEqual({
      date: ((2026 - 1980) << 9) | (11 << 5) | 21,
      time: (11 << 11) | (30 << 5) | 4,
    });
    expect(dosDateTime(new Date('1970-01-01T00:00:00Z'))).toEqual({ date: (1 << 5) | 1, time: 0 });
  });

  it('keeps one folder per support, never a path inside a name', () => {
    expect(zipEntryName('Photos papier', 'IMG_1.jpg')).toBe('Photos papier/IMG_1.jpg');
    expect(zipEntryName('Diapos/négatifs', '..\\x.jpg')).toBe('Diapos-négatifs/..-x.jpg');
    expect(zipFileName('SV-2026-000042')).toBe('Soovenirs SV-2026-000042.zip');
    expect(zipFileName('SV-2026-000042', 'Photos papier')).toBe('Soovenirs SV-2026-000042 - Photos papier.zip');
  });
});
