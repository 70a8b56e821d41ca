import { Form, useNavigation } from 'react-router';
import { thumbnailPath } from '~/components/files/file-paths';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Textarea } from '~/components/ui/textarea';
import { supportLabel } from '~/domain/account/order-details';
import { formatFileSize } from '~/domain/files/delivered-files';
import {
  SHARE_DEFAULT_DAYS,
  SHARE_DURATION_CHOICES,
  SHARE_LABEL_MAX,
  SHARE_MAX_INVITATIONS,
  SHARE_MESSAGE_MAX,
} from '~/domain/files/sharing';
import { formatDateFr } from '~/domain/format';

/*
 * « Nouveau partage » (decision 028): all the files or a selection (native checkboxes grouped
 * by support), view-only or with downloads, the duration, the addresses to invite and a message.
 * Native controls in one plain form: it works without JavaScript and on a phone; a refused form
 * comes back with everything that was typed (`values`).
 */

export interface ShareFormValues {
  scope: 'all' | 'selection';
  fileIds: string[];
  access: 'view' | 'download';
  days: string;
  emails: string;
  label: string;
  message: string;
}

export interface ShareableFile {
  id: string;
  name: string;
  support: string;
  kind: 'image' | 'video' | 'other';
  sizeBytes: number;
  hasThumbnail: boolean;
}

const fieldset = 'flex flex-col gap-2 rounded-lg border border-border p-4';
const legend = 'px-1 font-semibold';
const choice = 'flex min-h-11 items-center gap-3 rounded-md px-1';
const native = 'size-5 shrink-0 accent-primary';

export function ShareForm({
  files,
  orderId,
  retentionEnd,
  values,
}: {
  files: readonly ShareableFile[];
  orderId: string;
  retentionEnd: Date | string | null;
  values: ShareFormValues | null;
}) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const v: ShareFormValues = values ?? {
    scope: 'all',
    fileIds: [],
    access: 'view',
    days: String(SHARE_DEFAULT_DAYS),
    emails: '',
    label: '',
    message: '',
  };
  const supports = [...new Set(files.map((file) => file.support))];
  return (
    <section aria-labelledby="share-form-title" className="flex flex-col gap-4">
      <h2 id="share-form-title" className="font-semibold text-xl">
        Nouveau partage
      </h2>
      <Form method="post" className="flex flex-col gap-5 rounded-xl border border-border bg-card p-4 shadow-sm sm:p-6">
        <input type="hidden" name="intent" value="create" />

        <fieldset className={fieldset}>
          <legend className={legend}>Que partager ?</legend>
          <label className={choice}>
            <input type="radio" name="scope" value="all" defaultChecked={v.scope === 'all'} className={native} />
            Tous mes fichiers ({files.length})
          </label>
          <label className={choice}>
            <input
              type="radio"
              name="scope"
              value="selection"
              defaultChecked={v.scope === 'selection'}
              className={native}
            />
            Seulement les fichiers cochés ci-dessous
          </label>
          <div className="flex max-h-96 flex-col gap-4 overflow-y-auto rounded-md border border-border p-3">
            {supports.map((support) => (
              <fieldset key={support} className="flex flex-col gap-1">
                <legend className="font-medium text-sm">{supportLabel(support)}</legend>
                <ul className="grid gap-1 sm:grid-cols-2">
                  {files
                    .filter((file) => file.support === support)
                    .map((file) => (
                      <li key={file.id}>
                        <label className={`${choice} text-sm`}>
                          <input
                            type="checkbox"
                            name="fileId"
                            value={file.id}
                            defaultChecked={v.fileIds.includes(file.id)}
                            className={native}
                          />
                          {file.hasThumbnail ? (
                            <img
                              src={thumbnailPath(orderId, file.id)}
                              alt=""
                              loading="lazy"
                              width={40}
                              height={40}
                              className="size-10 shrink-0 rounded object-cover"
                            />
                          ) : null}
                          <span className="min-w-0 truncate" title={file.name}>
                            {file.name}
                          </span>
                          <span className="ml-auto shrink-0 text-muted-foreground">
                            {formatFileSize(file.sizeBytes)}
                          </span>
                        </label>
                      </li>
                    ))}
                </ul>
              </fieldset>
            ))}
          </div>
        </fieldset>

        <fieldset className={fieldset}>
          <legend className={legend}>Ce que vos proches peuvent faire</legend>
          <label className={choice}>
            <input type="radio" name="access" value="view" defaultChecked={v.access === 'view'} className={native} />
            Regarder seulement
          </label>
          <label className={choice}>
            <input
              type="radio"
              name="access"
              value="download"
              defaultChecked={v.access === 'download'}
              className={native}
            />
            Regarder et télécharger (fichier par fichier ou tout en ZIP)
          </label>
        </fieldset>

        <div className="flex flex-col gap-2">
          <label htmlFor="share-days" className="font-semibold">
            Durée du partage
          </label>
          <select
            id="share-days"
            name="days"
            defaultValue={v.days}
            aria-describedby="share-days-hint"
            className="h-11 w-full rounded-md border border-input bg-card px-3 sm:w-60"
          >
            {SHARE_DURATION_CHOICES.map((option) => (
              <option key={option.days} value={String(option.days)}>
                {option.label}
              </option>
            ))}
          </select>
          <p id="share-days-hint" className="text-muted-foreground text-sm">
            Vous pouvez arrêter le partage à tout moment.
            {retentionEnd
              ? ` Il prend fin au plus tard le ${formatDateFr(retentionEnd)}, quand vos fichiers ne sont plus conservés.`
              : ''}
          </p>
        </div>

        <div className="flex flex-col gap-2">
          <label htmlFor="share-emails" className="font-semibold">
            Inviter par e-mail (facultatif)
          </label>
          <Textarea
            id="share-emails"
            name="emails"
            rows={3}
            defaultValue={v.emails}
            autoComplete="off"
            inputMode="email"
            aria-describedby="share-emails-hint"
          />
          <p id="share-emails-hint" className="text-muted-foreground text-sm">
            Une adresse par ligne, ou séparées par des virgules ({SHARE_MAX_INVITATIONS} au plus). Chacune reçoit un
            e-mail avec le lien ; en y répondant, vos proches vous écrivent directement.
          </p>
        </div>

        <div className="flex flex-col gap-2">
          <label htmlFor="share-message" className="font-semibold">
            Votre message (facultatif)
          </label>
          <Textarea id="share-message" name="message" rows={3} maxLength={SHARE_MESSAGE_MAX} defaultValue={v.message} />
        </div>

        <div className="flex flex-col gap-2">
          <label htmlFor="share-label" className="font-semibold">
            Nom du partage, pour vous (facultatif)
          </label>
          <Input id="share-label" name="label" maxLength={SHARE_LABEL_MAX} defaultValue={v.label} className="sm:w-96" />
        </div>

        <Button type="submit" size="lg" className="w-full sm:w-fit" disabled={pending}>
          Créer le partage
        </Button>
      </Form>
    </section>
  );
}
