import { sql } from 'drizzle-orm';
import { bigint, check, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orderFiles } from './shop';

/** A chapter of a delivered video, read from its container (ffprobe), in seconds. */
export interface VideoChapter {
  start: number;
  end: number;
  title: string;
}

/**
 * What the gallery shows of a delivered file beyond its bytes (decision 027): a photo's
 * caption and date, a video's way to be played in a browser and its chapters. One row per file,
 * written by the previews worker (dates, playback) or the staff (caption, date); a file without a
 * row has not been looked at yet. Its own table so that the files' table stays as it is.
 *
 * `playback`: `master` (the delivered file plays in browsers as it is), `rendition` (a web-playable
 * copy made by ffmpeg is stored under `playback_key`), `none` (not a video browsers can be given:
 * no ffmpeg, or ffmpeg could not read it), `pending` (to try again: `playback_attempts` so far).
 */
export const orderFileMedia = pgTable(
  'order_file_media',
  {
    fileId: uuid('file_id')
      .primaryKey()
      .references(() => orderFiles.id, { onDelete: 'cascade' }),
    /** Shown under the photo: the staff's words, or the file's own description (EXIF, XMP). */
    caption: text('caption'),
    /** When the photo was taken (EXIF DateTimeOriginal, or the staff's date). */
    takenAt: timestamp('taken_at', { withTimezone: true }),
    playback: text('playback', { enum: ['pending', 'master', 'rendition', 'none'] }),
    playbackKey: text('playback_key'),
    playbackContentType: text('playback_content_type'),
    playbackSizeBytes: bigint('playback_size_bytes', { mode: 'number' }),
    playbackAttempts: integer('playback_attempts').notNull().default(0),
    chapters: jsonb('chapters').$type<VideoChapter[]>(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('order_file_media_playback_check', sql`${t.playback} in ('pending', 'master', 'rendition', 'none')`),
    check('order_file_media_caption_check', sql`char_length(${t.caption}) <= 500`),
  ],
);
