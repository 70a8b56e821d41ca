import { describe, expect, it } from 'vitest';
import {
  chunkFits,
  DEFAULT_DISK_RESERVE,
  diskIsLow,
  parseDiskReserve,
  reserveBytes,
  uploadableBytes,
  uploadFits,
} from './disk-space';

const GiB = 1024 ** 3;
const GB = 1000 ** 3;

describe('the reserve an operator writes', () => {
  it.each([
    ['1GiB', { bytes: GiB }],
    ['1 GiB', { bytes: GiB }],
    ['2G', { bytes: 2 * GiB }],
    ['500MB', { bytes: 500 * 1000 ** 2 }],
    ['64m', { bytes: 64 * 1024 ** 2 }],
    ['1073741824', { bytes: GiB }],
    ['0', { bytes: 0 }],
    ['5%', { percent: 5 }],
    ['2.5 %', { percent: 2.5 }],
  ])('reads %s', (text, expected) => {
    expect(parseDiskReserve(text)).toEqual(expected);
  });

  it.each(['', 'beaucoup', '-1G', '1 PB', '100%', '1G2'])('refuses %j', (text) => {
    expect(parseDiskReserve(text)).toBeNull();
  });

  it('is a share of the disk or a size', () => {
    expect(reserveBytes({ percent: 5 }, 200 * GB)).toBe(10 * GB);
    expect(reserveBytes(DEFAULT_DISK_RESERVE, 200 * GB)).toBe(GiB);
  });
});

describe('what an upload may declare', () => {
  const disk = { freeBytes: 71 * GB, totalBytes: 100 * GB };

  it('refuses a declared size beyond the free space less the reserve', () => {
    expect(uploadFits(disk, { bytes: GiB }, 0, 200 * GB)).toBe(false);
    expect(uploadFits(disk, { bytes: GiB }, 0, 71 * GB - GiB)).toBe(true);
    expect(uploadFits(disk, { bytes: GiB }, 0, 71 * GB - GiB + 1)).toBe(false);
  });

  it('counts what the uploads in progress declared and have not written yet', () => {
    // « 100 uploads declaring 200 GB each »: the first that fits is the last accepted.
    let pending = 0;
    let accepted = 0;
    for (let i = 0; i < 100; i++) {
      if (uploadFits(disk, { bytes: GiB }, pending, 30 * GB)) {
        pending += 30 * GB;
        accepted++;
      }
    }
    expect(accepted).toBe(2);
    expect(uploadableBytes(disk, { bytes: GiB }, pending)).toBe(11 * GB - GiB);
  });

  it('never goes below nothing', () => {
    expect(uploadableBytes({ freeBytes: GiB / 2, totalBytes: 10 * GB }, { bytes: GiB }, 0)).toBe(0);
  });
});

describe('a chunk of an upload already accepted', () => {
  it('is written while it stays out of the reserve, whatever the other uploads', () => {
    const reserve = { bytes: 100 };
    expect(chunkFits({ freeBytes: 1100, totalBytes: 5000 }, reserve, 1000)).toBe(true);
    // The disk filled by something else meanwhile.
    expect(chunkFits({ freeBytes: 1099, totalBytes: 5000 }, reserve, 1000)).toBe(false);
  });
});

describe('a low disk', () => {
  it('is one under its reserve', () => {
    expect(diskIsLow({ freeBytes: 99, totalBytes: 1000 }, { percent: 10 })).toBe(true);
    expect(diskIsLow({ freeBytes: 100, totalBytes: 1000 }, { percent: 10 })).toBe(false);
  });
});
