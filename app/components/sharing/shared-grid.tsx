import { DownloadIcon, EyeIcon, FileIcon, FilmIcon } from 'lucide-react';
import { formatDuration } from '~/components/files/file-paths';
import { describeFileCount, formatFileSize } from '~/domain/files/delivered-files';
import { shareFilePaths } from '~/domain/files/sharing';

/*
 * The files of a family share (decision 028), one section per support: the thumbnail, the
 * name and size, « Voir » (the web-size preview, when there is one) and « Télécharger » (a share
 * « avec téléchargement »). Plain links: the page works without JavaScript and on a phone.
 * Nothing of the owner's gallery that is theirs alone (« À refaire », their comments) is here.
 */

export interface SharedGroup {
  support: string;
  label: string;
  count: number;
  bytes: number;
}

export interface SharedFile {
  id: string;
  name: string;
  support: string;
  kind: 'image' | 'video' | 'other';
  sizeBytes: number;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  hasThumbnail: boolean;
  hasPreview: boolean;
}

const THUMBNAIL_SIZE = 240;

export function SharedGrid({
  token,
  groups,
  files,
  allowDownloads,
}: {
  token: string;
  groups: readonly SharedGroup[];
  files: readonly SharedFile[];
  allowDownloads: boolean;
}) {
  return (
    <div className="flex flex-col gap-8">
      {groups.map((group) => {
        const onPage = files.filter((file) => file.support === group.support);
        const headingId = `shared-group-${group.support}`;
        return (
          <section key={group.support} aria-labelledby={headingId} className="flex flex-col gap-3">
            <div>
              <h2 id={headingId} className="font-semibold text-lg">
                {group.label}
              </h2>
              <p className="text-muted-foreground text-sm">{describeFileCount(group.count, group.bytes)}</p>
            </div>
            {onPage.length === 0 ? (
              <p className="text-muted-foreground text-sm">Les fichiers de ce dossier sont sur une autre page.</p>
            ) : (
              <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
                {onPage.map((file) => {
                  const paths = shareFilePaths(token, file.id);
                  return (
                    <li
                      key={file.id}
                      className="flex h-full flex-col overflow-hidden rounded-lg border border-border bg-card shadow-xs"
                    >
                      <Thumbnail file={file} src={paths.thumbnail} />
                      <div className="flex flex-1 flex-col gap-1 p-2 text-sm">
                        <span className="truncate font-medium" title={file.name}>
                          {file.name}
                        </span>
                        <span className="text-muted-foreground">{formatFileSize(file.sizeBytes)}</span>
                        <span className="mt-auto flex flex-wrap gap-x-3 gap-y-1 pt-1">
                          {file.hasPreview ? (
                            <a
                              href={paths.preview}
                              className="inline-flex min-h-6 items-center gap-1 text-primary underline-offset-4 hover:underline"
                            >
                              <EyeIcon className="size-4" aria-hidden="true" />
                              Voir<span className="sr-only"> {file.name}</span>
                            </a>
                          ) : null}
                          {allowDownloads ? (
                            <a
                              href={paths.original}
                              download
                              className="inline-flex min-h-6 items-center gap-1 text-primary underline-offset-4 hover:underline"
                            >
                              <DownloadIcon className="size-4" aria-hidden="true" />
                              Télécharger<span className="sr-only"> {file.name}</span>
                            </a>
                          ) : null}
                        </span>
                      </div>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}

function Thumbnail({ file, src }: { file: SharedFile; src: string }) {
  if (file.hasThumbnail) {
    const landscape = !file.width || !file.height || file.width >= file.height;
    const ratio = file.width && file.height ? file.height / file.width : 2 / 3;
    return (
      <span className="flex aspect-square items-center justify-center bg-muted">
        <img
          src={src}
          alt=""
          loading="lazy"
          decoding="async"
          width={landscape ? THUMBNAIL_SIZE : Math.round(THUMBNAIL_SIZE / ratio)}
          height={landscape ? Math.round(THUMBNAIL_SIZE * ratio) : THUMBNAIL_SIZE}
          className="max-h-full max-w-full object-contain"
        />
      </span>
    );
  }
  const Icon = file.kind === 'video' ? FilmIcon : FileIcon;
  return (
    <span className="flex aspect-square flex-col items-center justify-center gap-2 bg-muted text-muted-foreground">
      <Icon className="size-10" aria-hidden="true" />
      {file.kind === 'video' && file.durationSeconds ? (
        <span className="text-sm">{formatDuration(file.durationSeconds)}</span>
      ) : null}
    </span>
  );
}
