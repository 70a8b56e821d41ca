import { getFormProps, useForm } from '@conform-to/react';
import { FileIcon, FilmIcon, ImageIcon, RotateCcwIcon, Trash2Icon } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { FormAlert } from '~/components/auth/form-alert';
import { Field } from '~/components/forms/field';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import {
  type AdminFile,
  deliveryLabel,
  downloadsLabel,
  formatFileSize,
  groupAdminFiles,
  previewLabel,
  reworkFiles,
  reworkHeading,
} from '~/domain/files/admin-files';
import { describeFileCount } from '~/domain/files/delivered-files';
import { EXTENSION_DAYS, type ExtensionFormInput, parisDayKey } from '~/domain/files/retention';
import { formatDateFr, formatDateTimeFr, frenchTypography } from '~/domain/format';
import type { OrderFilesActionData, loader as orderFilesLoader } from '~/routes/admin/api/order-files';
import { ORDER_FILES_CHANGED_EVENT } from './file-upload-panel';
import { useResultToast } from './use-result-toast';

/*
 * « Fichiers livrés » in the order dialog (decision 011): the files the customer flagged
 * « À refaire » first, then every file by support with its size, preview and downloads; « Publier
 * la livraison » (confirmed), the delivery's dates with « Prolonger la conservation », deleting one
 * file (confirmed). Data and actions: /admin/api/commandes/:orderId/fichiers.
 */

type SectionData = Awaited<ReturnType<typeof orderFilesLoader>>['data'];

const KIND_ICONS = { image: ImageIcon, video: FilmIcon, other: FileIcon } as const;

export function OrderFilesSection({ orderId }: { orderId: string }) {
  const panel = useFetcher<SectionData>();
  const action = useFetcher<OrderFilesActionData>();
  const url = `/admin/api/commandes/${orderId}/fichiers`;

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once per order, and again after each change
  useEffect(() => {
    if (action.state === 'idle') panel.load(url);
  }, [url, action.state]);
  useResultToast(action);
  // A file stored by the upload panel beside this section: the list follows without a reload.
  // biome-ignore lint/correctness/useExhaustiveDependencies: panel.load is stable enough; the URL is what matters
  useEffect(() => {
    const reload = (event: Event) => {
      if ((event as CustomEvent<{ orderId?: string }>).detail?.orderId === orderId) panel.load(url);
    };
    window.addEventListener(ORDER_FILES_CHANGED_EVENT, reload);
    return () => window.removeEventListener(ORDER_FILES_CHANGED_EVENT, reload);
  }, [orderId, url]);

  const value = panel.data;
  const busy = action.state !== 'idle';
  return (
    <section aria-labelledby="commande-fichiers" className="flex flex-col gap-3 rounded-lg border border-border p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id="commande-fichiers" className="font-semibold">
          Fichiers livrés
        </h3>
        {value && value.files.length > 0 ? (
          <p className="text-muted-foreground text-sm">
            {describeFileCount(
              value.files.length,
              value.files.reduce((sum, file) => sum + file.sizeBytes, 0),
            )}
          </p>
        ) : null}
      </div>
      {!value ? <p className="text-muted-foreground text-sm">Chargement…</p> : null}
      {value ? (
        <>
          <Delivery value={value} url={url} fetcher={action} busy={busy} />
          <Rework files={reworkFiles(value.files)} url={url} fetcher={action} busy={busy} />
          {value.files.length === 0 ? (
            <p className="text-muted-foreground text-sm">
              {value.delivery.deletedAt ? 'Les fichiers ont été supprimés.' : 'Aucun fichier déposé pour le moment.'}
            </p>
          ) : (
            groupAdminFiles(value.files).map((group) => (
              <section key={group.support} aria-label={`${group.label} : ${group.summary}`} className="flex flex-col">
                <h4 className="font-medium text-sm">
                  {group.label} <span className="font-normal text-muted-foreground">· {group.summary}</span>
                </h4>
                <ul className="flex flex-col divide-y divide-border">
                  {group.files.map((file) => (
                    <FileRow key={file.id} file={file} url={url} fetcher={action} busy={busy} />
                  ))}
                </ul>
              </section>
            ))
          )}
          {value.droppedByCustomer?.length ? (
            <details className="text-sm">
              <summary className="cursor-pointer font-medium">
                {`Retirés par le client lors de sa sélection (${value.droppedByCustomer.length})`}
              </summary>
              <ul className="mt-1 flex flex-col text-muted-foreground">
                {value.droppedByCustomer.map((file) => (
                  <li key={`${file.support}/${file.name}`}>{file.name}</li>
                ))}
              </ul>
            </details>
          ) : null}
          {value.files.length > 0 ? (
            <a href={`/commande/${orderId}/fichiers`} className="w-fit text-primary text-sm underline">
              Voir la galerie du client
            </a>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

type ActionFetcher = ReturnType<typeof useFetcher<OrderFilesActionData>>;

function Delivery({
  value,
  url,
  fetcher,
  busy,
}: {
  value: SectionData;
  url: string;
  fetcher: ActionFetcher;
  busy: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);
  useEffect(() => {
    if (fetcher.state === 'idle') setConfirming(false);
  }, [fetcher.state]);
  const { delivery } = value;
  const online = delivery.publishedAt && !delivery.deletedAt;
  const count = value.files.length;
  return (
    <div className="flex flex-col gap-3 rounded-md bg-muted/50 p-3">
      <p className="text-sm">{deliveryLabel(delivery)}</p>
      {online && delivery.reminderSentAt ? (
        <p className="text-muted-foreground text-sm">Rappel envoyé le {formatDateTimeFr(delivery.reminderSentAt)}</p>
      ) : null}
      {!delivery.deletedAt && count > 0 ? (
        confirming ? (
          <fetcher.Form
            method="post"
            action={url}
            className="flex flex-col gap-2"
            aria-label="Confirmer la publication"
          >
            <input type="hidden" name="intent" value="publish" />
            <p className="text-sm">
              {frenchTypography(
                `Publier ${describeFileCount(
                  count,
                  value.files.reduce((sum, file) => sum + file.sizeBytes, 0),
                )} ? Le client est prévenu par email et ses fichiers restent en ligne ${value.retentionDays} jours.`,
              )}
            </p>
            <div className="flex flex-wrap gap-2">
              <Button ref={confirmButton} type="submit" size="sm" disabled={busy}>
                {busy ? 'Publication…' : 'Confirmer la publication'}
              </Button>
              <Button type="button" size="sm" variant="outline" onClick={() => setConfirming(false)}>
                Annuler
              </Button>
            </div>
          </fetcher.Form>
        ) : (
          <Button type="button" size="sm" className="w-fit" onClick={() => setConfirming(true)} disabled={busy}>
            {delivery.publishedAt ? 'Publier de nouveau la livraison' : 'Publier la livraison'}
          </Button>
        )
      ) : null}
      {online ? <ExtendForm expiresAt={delivery.expiresAt} url={url} fetcher={fetcher} busy={busy} /> : null}
    </div>
  );
}

function ExtendForm({
  expiresAt,
  url,
  fetcher,
  busy,
}: {
  expiresAt: string | null;
  url: string;
  fetcher: ActionFetcher;
  busy: boolean;
}) {
  const id = useId();
  const today = parisDayKey(new Date());
  const [form, fields] = useForm<ExtensionFormInput>({
    id: `${id}-prolonger`,
    lastResult: fetcher.data?.intent === 'extend' ? fetcher.data.submission : undefined,
  });
  return (
    <fetcher.Form
      method="post"
      action={url}
      className="flex flex-col gap-2"
      aria-labelledby={`${id}-title`}
      {...getFormProps(form)}
    >
      <input type="hidden" name="intent" value="extend" />
      <p id={`${id}-title`} className="font-medium text-sm">
        Prolonger la conservation{expiresAt ? ` (actuellement jusqu’au ${formatDateFr(expiresAt)})` : ''}
      </p>
      <div className="flex flex-wrap items-end gap-2">
        <Field meta={fields.until} label="Nouvelle date" type="date" min={today} className="flex flex-col gap-1" />
        <Button type="submit" size="sm" variant="outline" name="mode" value="until" disabled={busy}>
          Prolonger
        </Button>
        <Button type="submit" size="sm" variant="outline" name="mode" value="days" disabled={busy}>
          + {EXTENSION_DAYS} jours
        </Button>
      </div>
      <FormAlert id={form.errorId} errors={form.errors} />
    </fetcher.Form>
  );
}

function Rework({
  files,
  url,
  fetcher,
  busy,
}: {
  files: AdminFile[];
  url: string;
  fetcher: ActionFetcher;
  busy: boolean;
}) {
  if (files.length === 0) return null;
  return (
    <section
      aria-labelledby="fichiers-a-refaire"
      className="flex flex-col gap-2 rounded-md border border-warning-tint-border bg-warning-tint p-3 text-warning-tint-foreground"
    >
      <h4 id="fichiers-a-refaire" className="font-semibold text-sm">
        {reworkHeading(files.length)}
      </h4>
      <ul className="flex flex-col gap-2">
        {files.map((file) => (
          <li key={file.id} className="flex flex-wrap items-start justify-between gap-2 text-sm">
            <div className="min-w-0">
              <p className="break-all font-medium">{file.name}</p>
              {file.reworkComment ? <p className="whitespace-pre-wrap">« {file.reworkComment} »</p> : null}
              {file.reworkRequestedAt ? (
                <p className="text-xs">Demandé le {formatDateTimeFr(file.reworkRequestedAt)}</p>
              ) : null}
            </div>
            <fetcher.Form method="post" action={url}>
              <input type="hidden" name="intent" value="rework-done" />
              <input type="hidden" name="fileId" value={file.id} />
              <Button type="submit" size="sm" variant="outline" disabled={busy} aria-label={`${file.name} : refait`}>
                <RotateCcwIcon aria-hidden="true" />
                Refait
              </Button>
            </fetcher.Form>
          </li>
        ))}
      </ul>
    </section>
  );
}

function FileRow({
  file,
  url,
  fetcher,
  busy,
}: {
  file: AdminFile;
  url: string;
  fetcher: ActionFetcher;
  busy: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);
  const Icon = KIND_ICONS[file.kind];
  const preview = previewLabel(file.previewStatus, file.kind);
  return (
    <li className="flex flex-col gap-1 py-2 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        <span className="min-w-0 break-all font-medium">{file.name}</span>
        <span className="text-muted-foreground">{formatFileSize(file.sizeBytes)}</span>
        {file.reworkRequestedAt ? <Badge variant="warning">À refaire</Badge> : null}
        {preview ? <Badge variant={file.previewStatus === 'pending' ? 'info' : 'outline'}>{preview}</Badge> : null}
        {confirming ? null : (
          <Button
            type="button"
            size="sm"
            variant="ghost"
            className="ml-auto"
            onClick={() => setConfirming(true)}
            disabled={busy}
            aria-label={`Supprimer ${file.name}`}
          >
            <Trash2Icon aria-hidden="true" />
            <span className="hidden sm:inline">Supprimer</span>
          </Button>
        )}
      </div>
      <p className="text-muted-foreground text-xs">{downloadsLabel(file.downloadCount, file.lastDownloadedAt)}</p>
      {confirming ? (
        <fetcher.Form method="post" action={url} className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="intent" value="delete-file" />
          <input type="hidden" name="fileId" value={file.id} />
          <p className="w-full">
            {frenchTypography(`Supprimer définitivement ${file.name} ? Le client ne le verra plus.`)}
          </p>
          <Button ref={confirmButton} type="submit" size="sm" variant="destructive" disabled={busy}>
            Supprimer définitivement
          </Button>
          <Button type="button" size="sm" variant="outline" onClick={() => setConfirming(false)}>
            Annuler
          </Button>
        </fetcher.Form>
      ) : null}
    </li>
  );
}
