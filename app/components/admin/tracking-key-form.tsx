import { CheckCircle2Icon } from 'lucide-react';
import { useEffect } from 'react';
import { useFetcher } from 'react-router';
import { PasswordInput } from '~/components/auth/password-input';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import { Label } from '~/components/ui/label';
import { Spinner } from '~/components/ui/spinner';
import { toast } from '~/components/ui/toaster';

export const TRACKING_KEY_PATH = '/admin/api/suivi-colis';

type TrackingKeyAnswer = { ok: true; message: string; keySet: boolean } | { ok: false; error: string };

/**
 * The key of La Poste's tracking service (X-Okapi-Key), under the Coliship credentials: with it the
 * customers' order pages show their parcels' carrier events. Saved encrypted, never shown again.
 */
export function TrackingKeyPanel() {
  const loader = useFetcher<{ keySet: boolean }>();
  const fetcher = useFetcher<TrackingKeyAnswer>();
  useEffect(() => {
    if (loader.state === 'idle' && !loader.data) loader.load(TRACKING_KEY_PATH);
  }, [loader]);
  const result = fetcher.data;
  useEffect(() => {
    if (fetcher.state !== 'idle' || !result) return;
    if (result.ok) toast.success(result.message);
    else toast.error(result.error);
  }, [fetcher.state, result]);
  if (!loader.data) return <Spinner label="Chargement du suivi des colis…" showLabel />;
  const keySet = result?.ok ? result.keySet : loader.data.keySet;
  const saving = fetcher.state !== 'idle';
  return (
    <section aria-labelledby="tracking-key-title" className="flex flex-col gap-3 border-border border-t pt-4">
      <h3 id="tracking-key-title" className="font-semibold">
        Suivi des colis (API Suivi de La Poste)
      </h3>
      <p className="text-muted-foreground text-sm">
        Avec cette clé, la page de chaque commande montre les étapes de ses colis Colissimo, lues chez La Poste au plus
        toutes les 30&nbsp;minutes.
      </p>
      <fetcher.Form method="post" action={TRACKING_KEY_PATH} className="flex flex-col gap-3">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="tracking-api-key">Clé de l’API (X-Okapi-Key)</Label>
          <PasswordInput
            id="tracking-api-key"
            name="apiKey"
            autoComplete="off"
            placeholder={keySet ? '•••••••• (enregistrée)' : ''}
            aria-describedby={keySet ? 'tracking-api-key-hint' : undefined}
          />
          {keySet ? (
            <p id="tracking-api-key-hint" className="text-muted-foreground text-sm">
              Laissez vide pour conserver la clé enregistrée.
            </p>
          ) : null}
        </div>
        {result && !result.ok ? <Alert variant="danger">{result.error}</Alert> : null}
        {keySet ? (
          <p className="flex items-center gap-2 text-sm">
            <CheckCircle2Icon className="size-4 text-success" aria-hidden="true" />
            Clé enregistrée
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          {keySet ? (
            <Button type="submit" name="remove" value="on" variant="outline" disabled={saving}>
              Supprimer la clé
            </Button>
          ) : null}
          <Button type="submit" disabled={saving}>
            Enregistrer la clé
          </Button>
        </div>
      </fetcher.Form>
    </section>
  );
}
