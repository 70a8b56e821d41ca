import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { chaptersOf, chaptersVtt, formatPhotoDate, isWebPlayable, photoFacts, vttTime } from './playback';
import { MANIFEST_NAME, manifestCsv, parseManifest } from './zip-manifest';

const h264 = (container = 'mov,mp4,m4a,3gp,3g2,mj2', pix = 'yuv420p', audio = 'aac') => ({
  format: { format_name: container },
  streams: [
    { codec_type: 'video', codec_name: 'h264', pix_fmt: pix },
    { codec_type: 'audio', codec_name: audio },
  ],
});

describe('which masters a browser plays as they are', () => {
  it('plays H.264 8-bit 4:2:0 with AAC or MP3 in MP4/MOV, and a silent one', () => {
    expect(isWebPlayable(h264())).toBe(true);
    expect(isWebPlayable(h264(undefined, 'yuvj420p', 'mp3'))).toBe(true);
    expect(isWebPlayable({ format: h264().format, streams: [h264().streams[0] as never] })).toBe(true);
  });
  it('gives a rendition to DV in AVI, MPEG-2, ProRes, 10-bit or 4:2:2 H.264, MKV, PCM sound', () => {
    expect(
      isWebPlayable({ format: { format_name: 'avi' }, streams: [{ codec_type: 'video', codec_name: 'dvvideo' }] }),
    ).toBe(false);
    expect(
      isWebPlayable({ format: { format_name: 'mpeg' }, streams: [{ codec_type: 'video', codec_name: 'mpeg2video' }] }),
    ).toBe(false);
    expect(
      isWebPlayable({ ...h264(), streams: [{ codec_type: 'video', codec_name: 'prores', pix_fmt: 'yuv422p10le' }] }),
    ).toBe(false);
    expect(isWebPlayable(h264(undefined, 'yuv420p10le'))).toBe(false);
    expect(isWebPlayable(h264(undefined, 'yuv422p'))).toBe(false);
    expect(isWebPlayable(h264('matroska,webm'))).toBe(false);
    expect(isWebPlayable(h264(undefined, 'yuv420p', 'pcm_s16le'))).toBe(false);
    expect(isWebPlayable({ format: { format_name: 'mp4' }, streams: [] })).toBe(false);
  });
});

describe('chapters', () => {
  it('keeps valid chapters in order, names the untitled ones, writes WebVTT', () => {
    const chapters = chaptersOf({
      chapters: [
        { start_time: '65.5', end_time: '3725', tags: { title: 'Le  mariage --> la fête' } },
        { start_time: '0', end_time: '65.5' },
        { start_time: '10', end_time: '5' },
      ],
    });
    expect(chapters).toEqual([
      { start: 0, end: 65.5, title: 'Chapitre 2' },
      { start: 65.5, end: 3725, title: 'Le mariage --> la fête' },
    ]);
    expect(vttTime(3725.5)).toBe('01:02:05.500');
    expect(chaptersVtt(chapters)).toBe(
      'WEBVTT\n\n1\n00:00:00.000 --> 00:01:05.500\nChapitre 2\n\n2\n00:01:05.500 --> 01:02:05.000\nLe mariage → la fête\n',
    );
  });
});

describe('a photo’s caption and date', () => {
  it('reads EXIF ImageDescription and DateTimeOriginal as sharp writes them, XMP’s description first', async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } })
      .withExif({
        IFD0: { ImageDescription: 'Mamie, plage de Carnac', DateTime: '2026:11:20 10:00:00' },
        IFD2: { DateTimeOriginal: '1984:07:14 15:30:00' },
      })
      .jpeg()
      .toBuffer();
    const { exif } = await sharp(jpeg).metadata();
    const facts = photoFacts(exif);
    // EXIF's ASCII holds no accent (libvips drops them): accented captions come through XMP.
    expect(facts.caption).toBe('Mamie, plage de Carnac');
    expect(facts.takenAt?.toISOString()).toBe('1984-07-14T15:30:00.000Z');
    expect(formatPhotoDate(facts.takenAt as Date)).toBe('14/07/1984');
    const xmp = Buffer.from(
      '<x:xmpmeta><rdf:RDF><rdf:Description><dc:description><rdf:Alt><rdf:li xml:lang="x-default">Noël &amp; les cousins</rdf:li></rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>',
    );
    expect(photoFacts(exif, xmp).caption).toBe('Noël & les cousins');
  });
  it('ignores cameras’ placeholders and broken blocks', () => {
    expect(photoFacts(Buffer.from('Exif\0\0garbage-garbage'))).toEqual({ caption: null, takenAt: null });
    expect(photoFacts(undefined)).toEqual({ caption: null, takenAt: null });
  });
});

describe('the ZIP’s manifest', () => {
  it('is a CSV French spreadsheets open, read back the same', () => {
    const files = [
      {
        name: 'Photos papier/Été 84; "Mamie".jpg',
        size: 1234,
        sha256: 'a'.repeat(64),
        item: 'Photos papier',
        date: new Date('1984-07-14T15:30:00Z'),
      },
      {
        name: 'Cassettes VHS/Cassette 1.mp4',
        size: 0,
        sha256: 'b'.repeat(64),
        item: 'Cassettes VHS',
        date: new Date('2026-11-20T10:00:00Z'),
      },
    ];
    const csv = manifestCsv(files);
    expect(MANIFEST_NAME).toBe('MANIFESTE.csv');
    expect(csv.startsWith('\uFEFFFichier;Taille (octets);SHA-256;Article;Date\r\n')).toBe(true);
    expect(csv).toContain(`"Photos papier/Été 84; ""Mamie"".jpg";1234;${'a'.repeat(64)};Photos papier;1984-07-14\r\n`);
    expect(parseManifest(csv)).toEqual(
      files.map((file) => ({
        name: file.name,
        size: file.size,
        sha256: file.sha256,
        item: file.item,
        date: file.date.toISOString().slice(0, 10),
      })),
    );
  });
});
