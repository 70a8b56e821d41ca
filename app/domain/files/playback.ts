/*
 * Watching a delivered video in the gallery, and a photo's caption and date (decision 027):
 * which masters a browser plays as they are, the WebVTT chapters track of a video's chapters, and
 * the two things the gallery reads from a photo's EXIF (its description and the date it was taken).
 * Pure: the server gives ffprobe's answer and the EXIF bytes.
 */

/** What ffprobe says of a file (`-show_format -show_streams -show_chapters`, JSON), the parts we read. */
export interface ProbeResult {
  format?: { format_name?: string; duration?: string };
  streams?: { codec_type?: string; codec_name?: string; pix_fmt?: string }[];
  chapters?: { start_time?: string; end_time?: string; tags?: Record<string, string> }[];
}

export interface Chapter {
  start: number;
  end: number;
  title: string;
}

/*
 * Played by every current browser (Chrome, Firefox, Safari, Edge, on phones too) without a plug-in:
 * an MP4/MOV container holding H.264 in 8-bit 4:2:0 (yuv420p: 4:2:2 or 10-bit H.264 from some
 * cameras does not decode in most browsers) with AAC or MP3 sound, or no sound. Anything else
 * — DV in AVI, MPEG-2 from a DVD, ProRes, HEVC (no Firefox), MKV, WebM (no older Safari) — gets
 * a rendition.
 */
const PLAYABLE_CONTAINERS = ['mov', 'mp4', 'm4a', '3gp', '3g2', 'mj2'];
const PLAYABLE_PIXEL_FORMATS = ['yuv420p', 'yuvj420p'];
const PLAYABLE_AUDIO = ['aac', 'mp3'];

/** Whether the master itself can be given to an HTML5 `<video>` (else: make a rendition). */
export function isWebPlayable(probe: ProbeResult): boolean {
  const containers = (probe.format?.format_name ?? '').split(',');
  if (!containers.some((name) => PLAYABLE_CONTAINERS.includes(name))) return false;
  const streams = probe.streams ?? [];
  const video = streams.filter((stream) => stream.codec_type === 'video');
  const audio = streams.filter((stream) => stream.codec_type === 'audio');
  if (video.length === 0) return false;
  // A cover image (mjpeg/png attached picture) next to the film does not stop it from playing.
  const film = video.filter((stream) => stream.codec_name !== 'mjpeg' && stream.codec_name !== 'png');
  if (film.length !== 1) return false;
  const [main] = film;
  if (main?.codec_name !== 'h264' || !PLAYABLE_PIXEL_FORMATS.includes(main.pix_fmt ?? '')) return false;
  return audio.every((stream) => PLAYABLE_AUDIO.includes(stream.codec_name ?? ''));
}

/** Whether ffprobe found a video stream at all (else the file is not a film we can show). */
export function hasVideoStream(probe: ProbeResult): boolean {
  return (probe.streams ?? []).some((stream) => stream.codec_type === 'video');
}

const MAX_CHAPTERS = 500;
const MAX_TITLE = 200;

/** The chapters ffprobe found, in order, with a title each (« Chapitre 3 » when it has none). */
export function chaptersOf(probe: ProbeResult): Chapter[] {
  const chapters: Chapter[] = [];
  for (const [index, chapter] of (probe.chapters ?? []).slice(0, MAX_CHAPTERS).entries()) {
    const start = Number(chapter.start_time);
    const end = Number(chapter.end_time);
    if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start || start < 0) continue;
    const raw = chapter.tags?.title ?? chapter.tags?.TITLE ?? '';
    const title = raw.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE) || `Chapitre ${index + 1}`;
    chapters.push({ start, end, title });
  }
  return chapters.sort((a, b) => a.start - b.start);
}

/** `3725.5` -> `01:02:05.500`, a WebVTT timestamp. */
export function vttTime(seconds: number): string {
  const millis = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(millis / 3_600_000);
  const m = Math.floor((millis % 3_600_000) / 60_000);
  const s = Math.floor((millis % 60_000) / 1000);
  const ms = millis % 1000;
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms, 3)}`;
}

/** The WebVTT file of a `<track kind="chapters">`. Cue text cannot hold « --> » nor a blank line. */
export function chaptersVtt(chapters: readonly Chapter[]): string {
  const cues = chapters.map(
    (chapter, index) =>
      `${index + 1}\n${vttTime(chapter.start)} --> ${vttTime(chapter.end)}\n${chapter.title
        .replace(/-->/g, '→')
        .replace(/[\r\n]+/g, ' ')}`,
  );
  return `WEBVTT\n\n${cues.join('\n\n')}${cues.length ? '\n' : ''}`;
}

// ---------------------------------------------------------------------------------------------
// EXIF: a photo's description and date

export interface PhotoFacts {
  caption: string | null;
  takenAt: Date | null;
}

const IMAGE_DESCRIPTION = 0x010e;
const DATE_TIME = 0x0132;
const EXIF_IFD = 0x8769;
const DATE_TIME_ORIGINAL = 0x9003;

/** The tags of one IFD we read (ASCII values and the EXIF pointer), or null when it is malformed. */
function readIfd(tiff: Buffer, offset: number, little: boolean): Map<number, string | number> | null {
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  if (offset + 2 > tiff.length) return null;
  const count = u16(offset);
  const tags = new Map<number, string | number>();
  for (let index = 0; index < count; index++) {
    const at = offset + 2 + index * 12;
    if (at + 12 > tiff.length) return tags;
    const tag = u16(at);
    const type = u16(at + 2);
    const length = u32(at + 4);
    if (tag === EXIF_IFD && (type === 4 || type === 13)) {
      tags.set(tag, u32(at + 8));
    } else if (type === 2 && (tag === IMAGE_DESCRIPTION || tag === DATE_TIME || tag === DATE_TIME_ORIGINAL)) {
      const start = length <= 4 ? at + 8 : u32(at + 8);
      if (start + length > tiff.length || length > 4096) continue;
      tags.set(
        tag,
        tiff
          .subarray(start, start + length)
          .toString('utf8')
          .replace(/\0+$/, '')
          .trim(),
      );
    }
  }
  return tags;
}

/** `1984:07:14 15:30:00` (EXIF's local time, no zone) -> a Date at that wall-clock time in UTC. */
export function exifDate(value: string | undefined): Date | null {
  const match = value && /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as number[];
  if (!year || year < 1826 || !month || month > 12 || !day || day > 31) return null;
  const date = new Date(Date.UTC(year, month - 1, day, hour ?? 0, minute ?? 0, second ?? 0));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Placeholders cameras and scanners write in ImageDescription instead of nothing. */
const NO_CAPTION = /^(|OLYMPUS DIGITAL CAMERA|SONY DSC|DCIM|DIGITAL CAMERA|default|image|photo|untitled)$/i;

/** A caption worth showing: trimmed, one line, at most 500 characters, no placeholder. */
export function cleanCaption(raw: string | null | undefined): string | null {
  const text = (raw ?? '').replace(/\s+/g, ' ').trim().slice(0, 500);
  return NO_CAPTION.test(text) ? null : text;
}

/**
 * The description and date of a photo from its EXIF block (as sharp gives it: `Exif\0\0` then a
 * TIFF structure) and its XMP packet: XMP's dc:description wins over EXIF's ImageDescription
 * (photo software writes it, in UTF-8); the date is DateTimeOriginal, else DateTime.
 */
export function photoFacts(exif: Buffer | undefined, xmp?: Buffer | undefined): PhotoFacts {
  let caption: string | null = null;
  let takenAt: Date | null = null;
  if (exif && exif.length > 14) {
    try {
      const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
      const order = tiff.subarray(0, 2).toString('latin1');
      const little = order === 'II';
      if (little || order === 'MM') {
        const first = little ? tiff.readUInt32LE(4) : tiff.readUInt32BE(4);
        const ifd0 = readIfd(tiff, first, little);
        const pointer = ifd0?.get(EXIF_IFD);
        const exifIfd = typeof pointer === 'number' ? readIfd(tiff, pointer, little) : null;
        caption = cleanCaption(ifd0?.get(IMAGE_DESCRIPTION) as string | undefined);
        takenAt =
          exifDate(exifIfd?.get(DATE_TIME_ORIGINAL) as string | undefined) ??
          exifDate(ifd0?.get(DATE_TIME) as string | undefined);
      }
    } catch {
      // A damaged EXIF block says nothing.
    }
  }
  if (xmp) {
    const text = xmp.toString('utf8');
    const match = /<dc:description>[\s\S]*?<rdf:li[^>]*>([\s\S]*?)<\/rdf:li>/.exec(text);
    const described = cleanCaption(match?.[1] ? decodeXml(match[1]) : null);
    if (described) caption = described;
  }
  return { caption, takenAt };
}

function decodeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, '&');
}

/** `14/07/1984`: a photo's date as its EXIF says it, without moving it to another time zone. */
export function formatPhotoDate(takenAt: Date | string): string {
  const date = typeof takenAt === 'string' ? new Date(takenAt) : takenAt;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`;
}

/** A delivered file's caption, date and playback (decision 027), as the gallery and the viewer read them. */
export interface FileMediaFacts {
  caption: string | null;
  takenAt: Date | null;
  /** The `<video>` can play it (master or rendition). */
  playable: boolean;
  chapters: Chapter[];
}
