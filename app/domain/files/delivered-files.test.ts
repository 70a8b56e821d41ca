import { describe, expect, it } from 'vitest';
import {
  describeFileCount,
  fileTypeOf,
  formatFileSize,
  reminderDue,
  retentionEnd,
  sanitizeFileName,
  uniqueFileName,
} from './delivered-files';

const S = '\u00A0';

describe('delivered file names', () => {
  it('keep only a safe last part of the name', () => {
    expect(sanitizeFileName('C:\\Scans\\Été 1984\\IMG_0001.JPG')).toBe('IMG_0001.JPG');
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('mariage: "Paul" <&> Marie?.tif')).toBe('mariage_ _Paul_ _&_ Marie_.tif');
    expect(sanitizeFileName('a\u0000b\nc.jpg')).toBe('a_b_c.jpg');
    expect(sanitizeFileName('  .cache  ')).toBe('cache');
    expect(sanitizeFileName('...')).toBe('fichier');
    expect(sanitizeFileName('e\u0301te\u0301.png')).toBe('été.png');
    const long = sanitizeFileName(`${'x'.repeat(300)}.tiff`);
    expect(long).toHaveLength(180);
    expect(long.endsWith('.tiff')).toBe(true);
  });

  it('never replace another file', () => {
    expect(uniqueFileName('photo.jpg', new Set())).toBe('photo.jpg');
    expect(uniqueFileName('photo.jpg', new Set(['photo.jpg', 'photo (2).jpg']))).toBe('photo (3).jpg');
    expect(uniqueFileName('LISEZMOI', new Set(['LISEZMOI']))).toBe('LISEZMOI (2)');
  });

  it('know the kind of what the workshop delivers', () => {
    expect(fileTypeOf('scan.TIF')).toEqual({ contentType: 'image/tiff', kind: 'image' });
    expect(fileTypeOf('cassette-1.mp4')).toEqual({ contentType: 'video/mp4', kind: 'video' });
    expect(fileTypeOf('notes')).toEqual({ contentType: 'application/octet-stream', kind: 'other' });
  });
});

describe('sizes and the retention period', () => {
  it('read as a French customer expects', () => {
    expect(formatFileSize(1)).toBe(`1${S}octet`);
    expect(formatFileSize(999)).toBe(`999${S}octets`);
    expect(formatFileSize(1_234_567)).toBe(`1,2${S}Mo`);
    expect(formatFileSize(2_000_000_000)).toBe(`2${S}Go`);
    expect(formatFileSize(350_400)).toBe(`350${S}Ko`);
    expect(describeFileCount(3, 1_234_567_890)).toBe(`3${S}fichiers · 1,2${S}Go`);
  });

  it('ends 60 days after publishing by default, with the reminder a week before', () => {
    const published = new Date('2026-11-24T10:00:00Z');
    expect(retentionEnd(published, 60).toISOString()).toBe('2027-01-23T10:00:00.000Z');
    expect(reminderDue(new Date('2027-01-23T10:00:00Z')).toISOString()).toBe('2027-01-16T10:00:00.000Z');
  });
});
