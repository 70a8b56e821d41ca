import { NBSP } from '../format';

/*
 * The customer's delivered files (decision 011): names, kinds, sizes and the retention period, the same
 * for the upload, the gallery, the back office and the e-mails.
 */

export type FileKind = 'image' | 'video' | 'other';

/** How long the files stay online after « Publier la livraison », unless the back office says otherwise. */
export const DEFAULT_RETENTION_DAYS = 60;
/** The reminder e-mail goes this many days before the deletion. */
export const REMINDER_DAYS_BEFORE = 7;
export const MIN_RETENTION_DAYS = 7;
export const MAX_RETENTION_DAYS = 730;

const DAY_MS = 24 * 60 * 60 * 1000;

/** When files published at `from` are deleted, `days` later. */
export function retentionEnd(from: Date, days: number): Date {
  return new Date(from.getTime() + days * DAY_MS);
}

/** When the reminder of files kept until `expiresAt` is due. */
export function reminderDue(expiresAt: Date): Date {
  return new Date(expiresAt.getTime() - REMINDER_DAYS_BEFORE * DAY_MS);
}

const MAX_NAME_LENGTH = 180;

/**
 * A file name safe on every system and in every header: the last part of a path only, no control
 * or reserved characters (< > : " / \ | ? *), no leading dot, at most 180 characters with its
 * extension kept; « fichier » when nothing is left.
 */
export function sanitizeFileName(raw: string): string {
  const last = raw.normalize('NFC').split(/[\\/]/).pop() ?? '';
  const cleaned = last
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  if (cleaned === '') return 'fichier';
  if (cleaned.length <= MAX_NAME_LENGTH) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const extension = dot > 0 && cleaned.length - dot <= 10 ? cleaned.slice(dot) : '';
  return cleaned.slice(0, MAX_NAME_LENGTH - extension.length).trimEnd() + extension;
}

/** `photo.jpg` taken -> `photo (2).jpg`, then `photo (3).jpg`: a file never replaces another. */
export function uniqueFileName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const extension = dot > 0 ? name.slice(dot) : '';
  for (let n = 2; ; n++) {
    const candidate = `${stem} (${n})${extension}`;
    if (!taken.has(candidate)) return candidate;
  }
}

const TYPES: Readonly<Record<string, { type: string; kind: FileKind }>> = {
  jpg: { type: 'image/jpeg', kind: 'image' },
  jpeg: { type: 'image/jpeg', kind: 'image' },
  png: { type: 'image/png', kind: 'image' },
  tif: { type: 'image/tiff', kind: 'image' },
  tiff: { type: 'image/tiff', kind: 'image' },
  mp4: { type: 'video/mp4', kind: 'video' },
  m4v: { type: 'video/mp4', kind: 'video' },
  mov: { type: 'video/quicktime', kind: 'video' },
  avi: { type: 'video/x-msvideo', kind: 'video' },
  mkv: { type: 'video/x-matroska', kind: 'video' },
  mpg: { type: 'video/mpeg', kind: 'video' },
  mpeg: { type: 'video/mpeg', kind: 'video' },
  dv: { type: 'video/x-dv', kind: 'video' },
  webm: { type: 'video/webm', kind: 'video' },
  pdf: { type: 'application/pdf', kind: 'other' },
  txt: { type: 'text/plain; charset=utf-8', kind: 'other' },
  zip: { type: 'application/zip', kind: 'other' },
};

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The content type and kind of a delivered file, from its name (what the workshop produces). */
export function fileTypeOf(name: string): { contentType: string; kind: FileKind } {
  const known = TYPES[extensionOf(name)];
  return known
    ? { contentType: known.type, kind: known.kind }
    : { contentType: 'application/octet-stream', kind: 'other' };
}

const UNITS = ['octets', 'Ko', 'Mo', 'Go', 'To'] as const;

/** `1234567` -> `1,2 Mo` (French units, powers of 1 000 as disks are sold). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1000) {
    const n = Math.max(0, Math.round(Number.isFinite(bytes) ? bytes : 0));
    return `${n}${NBSP}${n > 1 ? 'octets' : 'octet'}`;
  }
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = value < 10 ? 1 : 0;
  return `${value.toLocaleString('fr-FR', { maximumFractionDigits: digits, minimumFractionDigits: 0 })}${NBSP}${UNITS[unit]}`;
}

/** `3 fichiers · 1,2 Go`. */
export function describeFileCount(count: number, bytes: number): string {
  return `${count}${NBSP}fichier${count > 1 ? 's' : ''} · ${formatFileSize(bytes)}`;
}

/** A delivered file as the gallery lists it. */
export interface GalleryFile {
  id: string;
  name: string;
  support: string;
  kind: FileKind;
  sizeBytes: number;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  hasThumbnail: boolean;
  hasPreview: boolean;
  reworkRequestedAt: Date | null;
  reworkComment: string | null;
}
