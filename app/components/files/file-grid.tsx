import { DownloadIcon, FileIcon, FilmIcon, RotateCcwIcon } from 'lucide-react';
import { Button } from '~/components/ui/button';
import { describeFileCount, formatFileSize } from '~/domain/files/delivered-files';
import { formatDuration, originalPath, thumbnailPath, zipPath } from './file-paths';
import type { ViewerFile } from './file-viewer';

/*
 * The gallery's tiles, one section per support (decision 011): the thumbnail when the previews job made
 * one, else an icon (a video with its duration). Each tile is a link to the original, so the page
 * works without JavaScript; once hydrated, a click opens the viewer instead.
 */

export interface GridGroup {
  support: string;
  label: string;
  count: number;
  bytes: number;
}

export interface GridFile extends ViewerFile {
  support: string;
}

interface FileGridProps {
  orderId: string;
  groups: readonly GridGroup[];
  files: readonly GridFile[];
  hydrated: boolean;
  onOpen: (index: number) => void;
}

const THUMBNAIL_SIZE = 240;

export function FileGrid({ orderId, groups, files, hydrated, onOpen }: FileGridProps) {
  return (
    <div className="flex flex-col gap-8">
      {groups.map((group) => {
        const onPage = files
          .map((file, index) => ({ file, index }))
          .filter(({ file }) => file.support === group.support);
        const headingId = `group-${group.support}`;
        return (
          <section key={group.support} aria-labelledby={headingId} className="flex flex-col gap-3">
            <div className="flex flex-wrap items-end justify-between gap-3">
              <div>
                <h2 id={headingId} className="font-semibold text-lg">
                  {group.label}
                </h2>
                <p className="text-muted-foreground text-sm">{describeFileCount(group.count, group.bytes)}</p>
              </div>
              {groups.length > 1 ? (
                <Button asChild variant="outline" size="sm">
                  <a href={zipPath(orderId, group.support)} download>
                    <DownloadIcon aria-hidden="true" />
                    Télécharger ce dossier ({formatFileSize(group.bytes)})
                  </a>
                </Button>
              ) : null}
            </div>
            {onPage.length === 0 ? (
              <p className="text-muted-foreground text-sm">Les fichiers de ce dossier sont sur une autre page.</p>
            ) : (
              <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
                {onPage.map(({ file, index }) => (
                  <li key={file.id}>
                    <a
                      href={originalPath(orderId, file.id)}
                      aria-haspopup={hydrated ? 'dialog' : undefined}
                      onClick={(event) => {
                        if (!hydrated || event.metaKey || event.ctrlKey || event.shiftKey) return;
                        event.preventDefault();
                        onOpen(index);
                      }}
                      className="group flex h-full flex-col overflow-hidden rounded-lg border border-border bg-card text-left shadow-xs transition-colors hover:border-primary focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-2"
                    >
                      <Tile orderId={orderId} file={file} />
                      <span className="flex flex-col gap-0.5 p-2 text-sm">
                        <span className="truncate font-medium" title={file.name}>
                          {file.name}
                        </span>
                        <span className="text-muted-foreground">{formatFileSize(file.sizeBytes)}</span>
                        {file.reworkRequestedAt ? (
                          <span className="inline-flex items-center gap-1 text-sepia">
                            <RotateCcwIcon className="size-3.5" aria-hidden="true" />À refaire
                          </span>
                        ) : null}
                      </span>
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}

function Tile({ orderId, file }: { orderId: string; file: GridFile }) {
  if (file.hasThumbnail) {
    const landscape = !file.width || !file.height || file.width >= file.height;
    const ratio = file.width && file.height ? file.height / file.width : 2 / 3;
    return (
      <span className="flex aspect-square items-center justify-center bg-muted">
        <img
          src={thumbnailPath(orderId, file.id)}
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
