import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { useEffect, useRef } from 'react';
import { useFetcher } from 'react-router';
import { Field } from '~/components/forms/field';
import { Button } from '~/components/ui/button';
import { Spinner } from '~/components/ui/spinner';
import { toast } from '~/components/ui/toaster';
import { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS, REMINDER_DAYS_BEFORE } from '~/domain/files/delivered-files';
import type { FilesConfig } from '~/domain/files/retention';
import { frenchTypography } from '~/domain/format';

export const FILES_CONFIG_PATH = '/admin/api/configuration-fichiers';

type ActionData =
  | { ok: true; config: FilesConfig; message: string; submission: SubmissionResult<string[]> }
  | { ok: false; error: string; submission: SubmissionResult<string[]> };

/** « Durée de conservation des fichiers » (decision 011): the settings dialog's form. */
export function FilesConfigPanel() {
  const loader = useFetcher<{ config: FilesConfig }>();
  useEffect(() => {
    if (loader.state === 'idle' && !loader.data) loader.load(FILES_CONFIG_PATH);
  }, [loader]);
  if (!loader.data) return <Spinner label="Chargement des réglages…" showLabel />;
  return <FilesConfigForm config={loader.data.config} />;
}

function FilesConfigForm({ config }: { config: FilesConfig }) {
  const fetcher = useFetcher<ActionData>();
  const handled = useRef<unknown>(null);
  const result = fetcher.data;
  useEffect(() => {
    if (fetcher.state !== 'idle' || !result || handled.current === result) return;
    handled.current = result;
    if (result.ok) toast.success(result.message);
    else toast.error(result.error);
  }, [fetcher.state, result]);
  // Validated on the server with the domain's schema (parseWithZod), which answers the toast above.
  const [form, fields] = useForm<FilesConfig>({
    id: 'files-config',
    lastResult: result?.submission,
    defaultValue: { retentionDays: config.retentionDays },
  });
  return (
    <fetcher.Form method="post" action={FILES_CONFIG_PATH} className="flex flex-col gap-4" {...getFormProps(form)}>
      <Field
        meta={fields.retentionDays}
        label="Durée de conservation des fichiers (jours)"
        type="number"
        inputMode="numeric"
        min={MIN_RETENTION_DAYS}
        max={MAX_RETENTION_DAYS}
        hint={frenchTypography(
          `Entre ${MIN_RETENTION_DAYS} et ${MAX_RETENTION_DAYS} jours après « Publier la livraison ». Le client reçoit un rappel ${REMINDER_DAYS_BEFORE} jours avant la suppression. Les commandes déjà publiées gardent leur date.`,
        )}
      />
      <div className="flex justify-end">
        <Button type="submit" disabled={fetcher.state !== 'idle'}>
          {fetcher.state !== 'idle' ? 'Enregistrement…' : 'Enregistrer'}
        </Button>
      </div>
    </fetcher.Form>
  );
}
