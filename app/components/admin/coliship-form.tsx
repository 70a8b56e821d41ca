import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { CheckCircle2Icon, XCircleIcon } from 'lucide-react';
import { useEffect } from 'react';
import { useFetcher } from 'react-router';
import { Field } from '~/components/forms/field';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import { Spinner } from '~/components/ui/spinner';
import { toast } from '~/components/ui/toaster';
import type { ColishipInput, PublicColishipCredentials } from '~/domain/admin/coliship';
import { COLISHIP_MESSAGES } from '~/domain/admin/messages';
import { formatDateTimeFr } from '~/domain/format';

export const COLISHIP_PATH = '/admin/api/coliship';

export type ColishipActionData =
  | {
      ok: true;
      check:
        | { ok: true; message: string }
        | { ok: false; kind: 'invalid' | 'error'; message: string; description?: string };
      credentials: PublicColishipCredentials;
      submission: SubmissionResult<string[]>;
    }
  | { ok: false; error: string; submission: SubmissionResult<string[]> };

export function ColishipPanel() {
  const loader = useFetcher<{ credentials: PublicColishipCredentials }>();
  useEffect(() => {
    if (loader.state === 'idle' && !loader.data) loader.load(COLISHIP_PATH);
  }, [loader]);
  if (!loader.data) return <Spinner label="Chargement des identifiants…" showLabel />;
  return <ColishipForm credentials={loader.data.credentials} />;
}

/**
 * The carrier-label credentials card: user name, password, contract number,
 * all required; "Valider" stores them (password encrypted) and asks Colissimo's web service
 * whether it accepts them.
 */
function ColishipForm({ credentials }: { credentials: PublicColishipCredentials }) {
  const fetcher = useFetcher<ColishipActionData>();
  const result = fetcher.data;
  const current = result?.ok ? result.credentials : credentials;
  const validating = fetcher.state !== 'idle';

  useEffect(() => {
    if (fetcher.state !== 'idle' || !result) return;
    if (!result.ok) toast.error(result.error);
    else if (result.check.ok) toast.success(result.check.message);
    else if (result.check.kind === 'invalid')
      toast.error(result.check.message, { description: result.check.description });
    else toast.error(result.check.message);
  }, [fetcher.state, result]);

  // The server validates with the domain's schema (parseWithZod) and answers the toast above: the
  // « Veuillez remplir tous les champs » comes from there, with the fields marked.
  const [form, fields] = useForm<ColishipInput>({
    id: 'coliship',
    lastResult: result?.submission,
    defaultValue: { username: credentials.username, contractNumber: credentials.contractNumber },
    shouldRevalidate: 'onInput',
  });
  return (
    <fetcher.Form method="post" action={COLISHIP_PATH} className="flex flex-col gap-4" {...getFormProps(form)}>
      <Field meta={fields.username} label="Nom d’utilisateur" autoComplete="off" />
      <Field
        meta={fields.password}
        label="Mot de passe"
        type="password"
        autoComplete="new-password"
        placeholder={current.passwordSet ? '•••••••• (enregistré)' : ''}
        hint={current.passwordSet ? 'Laissez vide pour conserver le mot de passe enregistré.' : undefined}
      />
      <Field meta={fields.contractNumber} label="Numéro de contrat" autoComplete="off" inputMode="numeric" />
      {result && !result.ok ? <Alert variant="danger">{result.error}</Alert> : null}
      {current.lastCheck ? (
        <p className="flex items-center gap-2 text-sm">
          {current.lastCheck.ok ? (
            <CheckCircle2Icon className="size-4 text-success" aria-hidden="true" />
          ) : (
            <XCircleIcon className="size-4 text-destructive" aria-hidden="true" />
          )}
          {current.lastCheck.ok ? COLISHIP_MESSAGES.success : COLISHIP_MESSAGES.failure} le{' '}
          {formatDateTimeFr(current.lastCheck.at)}
        </p>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" disabled={validating}>
          {validating ? (
            <Spinner label="Validation en cours…" showLabel className="text-primary-foreground" />
          ) : (
            'Valider'
          )}
        </Button>
      </div>
    </fetcher.Form>
  );
}
