import { UploadIcon, XIcon } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { DetailedError, Upload } from 'tus-js-client';
import { NativeSelect } from '~/components/admin/native-select';
import { Button } from '~/components/ui/button';
import { cn } from '~/components/ui/cn';
import { supportLabel } from '~/domain/account/order-details';
import {
  decodeUploadOutcome,
  describeUploadOutcome,
  describeUploadProgress,
  OTHER_SUPPORT,
  OTHER_SUPPORT_LABEL,
  UPLOAD_CHUNK_BYTES,
  UPLOAD_RESULT_HEADER,
  UPLOADS_PATH,
  uploadPercent,
  uploadRefusalMessage,
} from '~/domain/files/uploads';
import { NBSP } from '~/domain/format';

/*
 * « Fichiers à livrer » in the order dialog (decision 011): the staff choose the support, pick or drop
 * any number of files, and each is sent with the tus protocol (tus-js-client, loaded only here so
 * that no public page carries it) in chunks of 16 MiB, with a progress bar per file and an overall
 * one. A network cut is resumed on its own: a few quick retries, then as soon as the browser is
 * back online (or every 10 s); a reload of the page resumes too, as the address of each upload is
 * kept in localStorage under a fingerprint of the order, the support and the file.
 */

export interface UploadSupport {
  key: string;
  label: string;
}

/** The supports of an order's lines, then « Autres fichiers ». */
export function uploadSupports(items: ReadonlyArray<{ type: string }>): UploadSupport[] {
  const keys = [...new Set(items.map((item) => item.type))];
  return [
    ...keys.map((key) => ({ key, label: supportLabel(key) })),
    { key: OTHER_SUPPORT, label: OTHER_SUPPORT_LABEL },
  ];
}

/** Fired on window when a file was stored, for the lists of files to reload. */
export const ORDER_FILES_CHANGED_EVENT = 'soovenirs:order-files-changed';

type EntryState = 'waiting' | 'uploading' | 'reconnecting' | 'done' | 'failed' | 'canceled';

interface Entry {
  id: number;
  name: string;
  supportLabel: string;
  sent: number;
  total: number;
  state: EntryState;
  message: string;
}

const STATE_LABELS: Record<EntryState, string> = {
  waiting: 'En attente',
  uploading: 'Envoi en cours',
  reconnecting: `Connexion perdue${NBSP}: reprise automatique dès son retour…`,
  done: 'Déposé',
  failed: 'Échec',
  canceled: 'Annulé',
};

/** Quick retries within one attempt; after them, the panel waits for the network itself. */
const RETRY_DELAYS = [0, 1000, 3000, 5000];
const RECONNECT_MS = 10_000;
/** Two files at a time: enough to fill the line, without starving the rest of the page. */
const PARALLEL = 2;

export function FileUploadPanel({ orderId, supports }: { orderId: string; supports: UploadSupport[] }) {
  const headingId = useId();
  const inputId = useId();
  const [support, setSupport] = useState(supports[0]?.key ?? OTHER_SUPPORT);
  const [entries, setEntries] = useState<Entry[]>([]);
  const [dragging, setDragging] = useState(false);
  const uploads = useRef(new Map<number, Upload>());
  const queue = useRef<{ id: number; file: File; support: string }[]>([]);
  const running = useRef(0);
  const nextId = useRef(1);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    const active = uploads.current;
    return () => {
      mounted.current = false;
      // Closing the dialog pauses the uploads; they resume from where they were next time.
      for (const upload of active.values()) void upload.abort(false);
      active.clear();
      queue.current = [];
      running.current = 0;
    };
  }, []);

  const update = useCallback((id: number, change: Partial<Entry>) => {
    if (!mounted.current) return;
    setEntries((current) => current.map((entry) => (entry.id === id ? { ...entry, ...change } : entry)));
  }, []);

  const startNext = useCallback(async () => {
    while (running.current < PARALLEL && queue.current.length > 0) {
      const job = queue.current.shift();
      if (!job) break;
      running.current++;
      void send(job).finally(() => {
        running.current--;
        void startNext();
      });
    }

    async function send({ id, file, support: key }: { id: number; file: File; support: string }): Promise<void> {
      const tus = await import('tus-js-client');
      await new Promise<void>((resolve) => {
        let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
        const resumeWhenOnline = () => {
          window.removeEventListener('online', resumeWhenOnline);
          clearTimeout(reconnectTimer);
          if (!uploads.current.has(id)) return;
          update(id, { state: 'uploading', message: '' });
          upload.start();
        };
        const finish = () => {
          window.removeEventListener('online', resumeWhenOnline);
          clearTimeout(reconnectTimer);
          uploads.current.delete(id);
          resolve();
        };
        const upload = new tus.Upload(file, {
          endpoint: UPLOADS_PATH,
          chunkSize: UPLOAD_CHUNK_BYTES,
          retryDelays: RETRY_DELAYS,
          metadata: { orderId, support: key, filename: file.name, filetype: file.type },
          // Resumable after a reload: the address is kept per order, support and file.
          storeFingerprintForResuming: true,
          removeFingerprintOnSuccess: true,
          fingerprint: async (f: File) => ['soovenirs', orderId, key, f.name, f.type, f.size, f.lastModified].join('/'),
          onProgress(sent, total) {
            update(id, { sent, total, state: 'uploading', message: '' });
          },
          onShouldRetry(error: DetailedError) {
            const status = error.originalResponse?.getStatus() ?? 0;
            const retry = status === 0 || status >= 500 || status === 409 || status === 423;
            if (retry) update(id, { state: 'reconnecting' });
            return retry && navigator.onLine;
          },
          onSuccess({ lastResponse }) {
            const outcome = decodeUploadOutcome(lastResponse.getHeader(UPLOAD_RESULT_HEADER));
            update(id, { sent: file.size, total: file.size, state: 'done', message: describeUploadOutcome(outcome) });
            window.dispatchEvent(new CustomEvent(ORDER_FILES_CHANGED_EVENT, { detail: { orderId } }));
            finish();
          },
          onError(error) {
            if (!uploads.current.has(id)) return finish();
            const response = (error as DetailedError).originalResponse;
            const status = response?.getStatus() ?? 0;
            if (status === 0 || status >= 500 || status === 409 || status === 423) {
              // The network (or the server) is away: wait for it rather than give up.
              update(id, { state: 'reconnecting', message: '' });
              window.addEventListener('online', resumeWhenOnline);
              reconnectTimer = setTimeout(resumeWhenOnline, RECONNECT_MS);
              return;
            }
            const body = response?.getBody()?.trim();
            update(id, { state: 'failed', message: body || uploadRefusalMessage(status) });
            finish();
          },
        });
        uploads.current.set(id, upload);
        void upload
          .findPreviousUploads()
          .then((previous) => {
            const last = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
            if (last) upload.resumeFromPreviousUpload(last);
          })
          .catch(() => undefined)
          .finally(() => {
            if (uploads.current.has(id)) {
              update(id, { state: 'uploading' });
              upload.start();
            } else finish();
          });
      });
    }
  }, [orderId, update]);

  const addFiles = (files: FileList | File[]) => {
    const label = supports.find((s) => s.key === support)?.label ?? support;
    const added: Entry[] = [];
    for (const file of Array.from(files)) {
      const id = nextId.current++;
      added.push({
        id,
        name: file.name,
        supportLabel: label,
        sent: 0,
        total: file.size,
        state: 'waiting',
        message: '',
      });
      queue.current.push({ id, file, support });
    }
    if (added.length === 0) return;
    setEntries((current) => [...current, ...added]);
    void startNext();
  };

  const cancel = (id: number) => {
    queue.current = queue.current.filter((job) => job.id !== id);
    const upload = uploads.current.get(id);
    uploads.current.delete(id);
    // Terminates the upload on the server too: its partial bytes are removed.
    if (upload) void upload.abort(true).catch(() => undefined);
    update(id, { state: 'canceled', message: '' });
  };

  const counted = entries.filter((entry) => entry.state !== 'canceled');
  const overallSent = counted.reduce((sum, entry) => sum + entry.sent, 0);
  const overallTotal = counted.reduce((sum, entry) => sum + entry.total, 0);
  const overallPercent = uploadPercent(overallSent, overallTotal);
  const finished = counted.filter((entry) => entry.state === 'done').length;

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-lg border border-border p-4">
      <h3 id={headingId} className="font-semibold">
        Fichiers à livrer
      </h3>
      <NativeSelect
        label="Support des fichiers"
        value={support}
        onChange={(event) => setSupport(event.target.value)}
        options={supports.map((s) => ({ value: s.key, label: s.label }))}
      />
      {/* Dropping is a shortcut for the mouse; the file input below does the same from the keyboard. */}
      <fieldset
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          addFiles(event.dataTransfer.files);
        }}
        className={cn(
          'flex flex-col items-center gap-2 rounded-md border-2 border-dashed p-4 text-center text-sm',
          dragging ? 'border-primary bg-muted' : 'border-border',
        )}
      >
        <legend className="sr-only">Zone de dépôt des fichiers</legend>
        <UploadIcon aria-hidden="true" className="size-5 text-muted-foreground" />
        <p className="text-muted-foreground">Glissez les fichiers ici, ou</p>
        <label
          htmlFor={inputId}
          className="cursor-pointer rounded-md border border-input bg-card px-3 py-2 font-medium focus-within:outline-2 focus-within:outline-ring"
        >
          Choisir des fichiers
          <input
            id={inputId}
            type="file"
            multiple
            className="sr-only"
            onChange={(event) => {
              if (event.target.files) addFiles(event.target.files);
              event.target.value = '';
            }}
          />
        </label>
      </fieldset>

      {counted.length > 0 ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${inputId}-total`} className="text-sm font-medium">
            Progression totale{NBSP}: {finished}
            {NBSP}sur{NBSP}
            {counted.length} fichier{counted.length > 1 ? 's' : ''} · {overallPercent}
            {NBSP}%
          </label>
          <progress id={`${inputId}-total`} className="h-2 w-full" max={100} value={overallPercent}>
            {overallPercent}
            {NBSP}%
          </progress>
          <p className="text-muted-foreground text-xs">{describeUploadProgress(overallSent, overallTotal)}</p>
        </div>
      ) : null}

      {entries.length > 0 ? (
        <ul className="flex flex-col gap-3" aria-label="Fichiers en cours de dépôt">
          {entries.map((entry) => (
            <UploadRow key={entry.id} entry={entry} onCancel={() => cancel(entry.id)} />
          ))}
        </ul>
      ) : null}
      {/* Outcomes for screen readers, once each. */}
      <p className="sr-only" aria-live="polite">
        {entries
          .filter((entry) => entry.state === 'done' || entry.state === 'failed')
          .map((entry) => `${entry.name}${NBSP}: ${entry.message || STATE_LABELS[entry.state]}`)
          .join('. ')}
      </p>
    </section>
  );
}

function UploadRow({ entry, onCancel }: { entry: Entry; onCancel: () => void }) {
  const progressId = useId();
  const percent = uploadPercent(entry.sent, entry.total);
  const active = entry.state === 'waiting' || entry.state === 'uploading' || entry.state === 'reconnecting';
  const status =
    entry.state === 'done' ? entry.message : entry.state === 'failed' ? entry.message : STATE_LABELS[entry.state];
  return (
    <li className="flex flex-col gap-1 text-sm">
      <div className="flex items-start justify-between gap-2">
        <label htmlFor={progressId} className="min-w-0 break-words font-medium">
          {entry.name}
          <span className="block font-normal text-muted-foreground text-xs">{entry.supportLabel}</span>
        </label>
        {active ? (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={onCancel}
            aria-label={`Annuler le dépôt de ${entry.name}`}
          >
            <XIcon aria-hidden="true" />
            Annuler
          </Button>
        ) : null}
      </div>
      <progress id={progressId} className="h-2 w-full" max={100} value={percent}>
        {percent}
        {NBSP}%
      </progress>
      <p className="flex flex-wrap justify-between gap-x-2 text-xs">
        <span className="text-muted-foreground">
          {percent}
          {NBSP}% · {describeUploadProgress(entry.sent, entry.total)}
        </span>
        <span
          className={cn(
            entry.state === 'failed' && 'text-destructive',
            entry.state === 'done' && 'text-success',
            entry.state === 'reconnecting' && 'text-warning-tint-foreground',
          )}
        >
          {status}
        </span>
      </p>
    </li>
  );
}
