import { FileIcon, FilmIcon } from 'lucide-react';
import { useRef } from 'react';
import type { GalleryFile } from '~/domain/files/delivered-files';
import { type FileMediaFacts, formatPhotoDate } from '~/domain/files/playback';
import { chaptersPath, previewPath, thumbnailPath, videoPath } from './file-paths';

/*
 * What the gallery's viewer shows of a file (decision 027): a video
 * in an HTML5 player (its still frame as poster, the browser's own controls, which work with the
 * keyboard and on phones, Range requests to seek) with its chapters as a track and as buttons that
 * jump to them; a photo with its caption and date; else the preview or an icon.
 */

// What the loaders answer, read back from JSON: a photo's date may have become a string.
export type FileMediaView = Omit<FileMediaFacts, 'takenAt'> & { takenAt: Date | string | null };

export type MediaFile = Pick<GalleryFile, 'id' | 'name' | 'kind' | 'hasThumbnail' | 'hasPreview'> & {
  media?: FileMediaView | null;
};

export function FileMedia({ orderId, file }: { orderId: string; file: MediaFile }) {
  if (file.kind === 'video' && file.media?.playable) return <VideoPlayer orderId={orderId} file={file} />;
  if (file.hasPreview || file.hasThumbnail) {
    return (
      <img
        key={file.id}
        src={file.hasPreview ? previewPath(orderId, file.id) : thumbnailPath(orderId, file.id)}
        alt={file.media?.caption ? file.media.caption : `Aperçu de ${file.name}`}
        className="max-h-full max-w-full object-contain"
      />
    );
  }
  const Icon = file.kind === 'video' ? FilmIcon : FileIcon;
  return (
    <div className="flex flex-col items-center gap-2 text-white">
      <Icon className="size-16" aria-hidden="true" />
      <p className="text-sm">
        {file.kind === 'video'
          ? 'Pas d’aperçu pour cette vidéo : téléchargez-la pour la regarder.'
          : 'Pas d’aperçu pour ce fichier : téléchargez-le pour l’ouvrir.'}
      </p>
    </div>
  );
}

function VideoPlayer({ orderId, file }: { orderId: string; file: MediaFile }) {
  const video = useRef<HTMLVideoElement>(null);
  const chapters = file.media?.chapters ?? [];
  return (
    <div className="flex h-full w-full min-h-0 flex-col items-center justify-center gap-2">
      {/* biome-ignore lint/a11y/useMediaCaption: family films have no captions; chapters come as a track */}
      <video
        key={file.id}
        ref={video}
        controls
        playsInline
        preload="metadata"
        poster={file.hasPreview ? previewPath(orderId, file.id) : undefined}
        aria-label={`Vidéo ${file.name}`}
        className="max-h-full min-h-0 max-w-full flex-1 bg-black"
      >
        <source src={videoPath(orderId, file.id)} type="video/mp4" />
        {chapters.length > 0 ? (
          <track kind="chapters" src={chaptersPath(orderId, file.id)} srcLang="fr" label="Chapitres" default />
        ) : null}
      </video>
      {chapters.length > 0 ? (
        <nav aria-label="Chapitres de la vidéo" className="w-full shrink-0">
          <ol className="flex max-h-24 flex-wrap gap-2 overflow-y-auto text-sm">
            {chapters.map((chapter) => (
              <li key={`${chapter.start}-${chapter.title}`}>
                <button
                  type="button"
                  className="rounded border border-white/40 px-2 py-1 text-white hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-white"
                  onClick={() => {
                    const player = video.current;
                    if (!player) return;
                    player.currentTime = chapter.start;
                    void player.play().catch(() => undefined);
                  }}
                >
                  <span className="tabular-nums">{clock(chapter.start)}</span> · {chapter.title}
                </button>
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
    </div>
  );
}

/** « Été 84 à la plage · Photo du 14/07/1984 », under the viewer's title; nothing when unknown. */
export function PhotoCaption({ file }: { file: MediaFile }) {
  const caption = file.media?.caption;
  const takenAt = file.media?.takenAt;
  if (!caption && !takenAt) return null;
  return (
    <p className="text-foreground" data-testid="file-caption">
      {caption ? <span>{caption}</span> : null}
      {caption && takenAt ? ' · ' : null}
      {takenAt ? (
        <span>
          {file.kind === 'video' ? 'Filmé le ' : 'Photo du '}
          <time dateTime={new Date(takenAt).toISOString().slice(0, 10)}>{formatPhotoDate(takenAt)}</time>
        </span>
      ) : null}
    </p>
  );
}

/** `3725` -> `1:02:05`, `65` -> `1:05`: where a chapter starts, as players show it. */
function clock(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
