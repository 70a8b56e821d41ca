import { ChevronLeftIcon, ChevronRightIcon, DownloadIcon, RotateCcwIcon } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useFetcher } from 'react-router';
import { FormAlert } from '~/components/auth/form-alert';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '~/components/ui/dialog';
import { Label } from '~/components/ui/label';
import { Textarea } from '~/components/ui/textarea';
import { formatFileSize, type GalleryFile } from '~/domain/files/delivered-files';
import { FileMedia, type FileMediaView, PhotoCaption } from './file-media';
import { formatDuration, originalPath } from './file-paths';

/*
 * The full-screen viewer of the gallery (decision 011): the preview image, the name and size,
 * « Télécharger » and « À refaire » with a comment. Radix's dialog traps the focus and closes on
 * Échap; ← and → go to the previous and next file (not while typing a comment), and the same
 * moves have visible buttons. Without JavaScript the gallery's tiles are plain links to the files.
 */

/** A gallery file as the page's loader answers it (dates may be strings once through JSON). */
export type ViewerFile = Omit<GalleryFile, 'support' | 'reworkRequestedAt'> & {
  reworkRequestedAt: Date | string | null;
  /** Caption, date, playback and chapters (file-media.tsx, decision 027); absent when not known. */
  media?: FileMediaView | null;
};

export type ReworkActionData =
  | { intent: 'rework'; ok: true; fileId: string }
  | { intent: 'rework'; ok: false; fileId: string | null; error: string };

interface FileViewerProps {
  orderId: string;
  files: readonly ViewerFile[];
  index: number | null;
  onIndexChange: (index: number | null) => void;
  canRework: boolean;
}

export function FileViewer({ orderId, files, index, onIndexChange, canRework }: FileViewerProps) {
  const file = index === null ? undefined : files[index];
  const position = index ?? 0;
  const go = (delta: number) => {
    if (index === null || files.length === 0) return;
    onIndexChange((index + delta + files.length) % files.length);
  };

  return (
    <Dialog open={file !== undefined} onOpenChange={(open) => (open ? null : onIndexChange(null))}>
      {file ? (
        <DialogContent
          className="flex h-[calc(100dvh-1rem)] w-[calc(100%-1rem)] max-w-6xl flex-col gap-4 p-4 sm:p-6"
          onKeyDown={(event) => {
            const target = event.target as HTMLElement;
            // The video's own controls seek with the arrows.
            if (target.closest('textarea, input, video')) return;
            if (event.key === 'ArrowLeft') {
              event.preventDefault();
              go(-1);
            } else if (event.key === 'ArrowRight') {
              event.preventDefault();
              go(1);
            }
          }}
        >
          <div className="flex flex-col gap-1 pr-10">
            <DialogTitle className="break-all text-lg">{file.name}</DialogTitle>
            <DialogDescription>
              Fichier {position + 1} sur {files.length} · {formatFileSize(file.sizeBytes)}
              {file.durationSeconds ? ` · ${formatDuration(file.durationSeconds)}` : ''}
            </DialogDescription>
            <PhotoCaption file={file} />
          </div>
          <div className="relative flex min-h-0 flex-1 items-center justify-center rounded-md bg-ink/90">
            <FileMedia orderId={orderId} file={file} />
          </div>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div className="flex gap-2">
              <Button type="button" variant="outline" onClick={() => go(-1)} disabled={files.length < 2}>
                <ChevronLeftIcon aria-hidden="true" />
                Précédent
              </Button>
              <Button type="button" variant="outline" onClick={() => go(1)} disabled={files.length < 2}>
                Suivant
                <ChevronRightIcon aria-hidden="true" />
              </Button>
            </div>
            <Button asChild>
              <a href={originalPath(orderId, file.id)} download={file.name}>
                <DownloadIcon aria-hidden="true" />
                Télécharger
              </a>
            </Button>
          </div>
          {canRework ? <ReworkForm key={file.id} file={file} /> : null}
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

function ReworkForm({ file }: { file: ViewerFile }) {
  const fetcher = useFetcher<ReworkActionData>();
  const [open, setOpen] = useState(false);
  const id = useId();
  const result = fetcher.data?.fileId === file.id ? fetcher.data : undefined;
  const done = result?.ok === true || (file.reworkRequestedAt !== null && !open);
  const busy = fetcher.state !== 'idle';
  useEffect(() => {
    if (result?.ok) setOpen(false);
  }, [result]);

  if (done && !open) {
    return (
      <Alert icon={RotateCcwIcon}>
        Vous avez demandé à refaire ce fichier{file.reworkComment ? ` : « ${file.reworkComment} »` : ''}. L’équipe s’en
        occupe.
      </Alert>
    );
  }
  if (!open) {
    return (
      <Button type="button" variant="secondary" className="w-fit" onClick={() => setOpen(true)}>
        <RotateCcwIcon aria-hidden="true" />À refaire
      </Button>
    );
  }
  return (
    <fetcher.Form method="post" className="flex flex-col gap-2">
      <input type="hidden" name="intent" value="rework" />
      <input type="hidden" name="fileId" value={file.id} />
      <FormAlert errors={result && !result.ok ? [result.error] : null} />
      <Label htmlFor={`${id}-comment`}>Qu’est-ce qui doit être refait{'\u202F'}?</Label>
      <Textarea
        id={`${id}-comment`}
        name="comment"
        rows={3}
        maxLength={1000}
        autoFocus
        aria-invalid={result && !result.ok ? true : undefined}
      />
      <div className="flex gap-2">
        <Button type="submit" disabled={busy}>
          Demander à refaire
        </Button>
        <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
          Annuler
        </Button>
      </div>
    </fetcher.Form>
  );
}
