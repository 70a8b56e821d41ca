import { Form, useNavigation } from 'react-router';
import { TabError } from '~/components/admin/tab-error';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import type { PublicPaConfig } from '~/domain/einvoicing/pa-config';
import { requireStaff } from '~/server/admin/access.server';
import { forgetPaTokens, testPaConnection } from '~/server/einvoicing/pa-client.server';
import {
  getPublicPaConfig,
  loadPaConfig,
  type PaConfigField,
  savePaConfig,
} from '~/server/einvoicing/pa-config.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/e-invoicing';

/*
 * « Plateforme agréée » (a setting, docs/plateforme-agreee.md): where the shop's PA answers (its
 * AFNOR XP Z12-013 Flow and Directory services, its OAuth2 token endpoint), the client id and
 * secret (stored encrypted, never sent back: a stored secret shows masked and is kept when its
 * field is left empty), the shop's SIREN, enabled or not, test or production; « Tester la
 * connexion » asks the PA for a token and its healthcheck. Plain forms: works without JavaScript.
 */

export function meta() {
  return [{ title: 'Plateforme agréée | Soovenirs' }, { name: 'robots', content: 'noindex, nofollow' }];
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'settings');
  return { config: await getPublicPaConfig() };
}

const FIELDS = [
  'flowUrl',
  'directoryUrl',
  'tokenUrl',
  'clientId',
  'clientSecret',
  'scope',
  'sellerSiren',
  'sellerRoutingCode',
] as const;

type ActionData =
  | { ok: true; message: string }
  | { ok: false; error: string; fieldErrors: Partial<Record<PaConfigField, string>>; values: Record<string, string> };

export async function action({ request }: Route.ActionArgs): Promise<ActionData> {
  const staff = await requireStaff(request, 'settings');
  const form = await readFormData(request);
  const intent = form.get('intent');
  if (intent === 'test') {
    const result = await testPaConnection(await loadPaConfig());
    return result.ok
      ? { ok: true, message: result.message }
      : { ok: false, error: result.message, fieldErrors: {}, values: {} };
  }
  if (intent !== 'save') return { ok: false, error: 'Action inconnue.', fieldErrors: {}, values: {} };
  const values: Record<string, string> = {};
  for (const field of FIELDS) values[field] = String(form.get(field) ?? '');
  const result = await savePaConfig(
    { ...values, enabled: form.get('enabled') === 'on', testMode: form.get('testMode') === 'on' },
    staff.id,
  );
  if (!result.ok) {
    // The secret is never sent back, even to a form in error.
    const { clientSecret: _secret, ...kept } = values;
    return { ok: false, error: result.error, fieldErrors: result.fieldErrors, values: kept };
  }
  forgetPaTokens();
  return { ok: true, message: 'Configuration de la plateforme agréée enregistrée.' };
}

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="text-danger text-sm">
      {message}
    </p>
  ) : null;
}

const LABELS: Record<(typeof FIELDS)[number], { label: string; hint?: string; type?: string }> = {
  flowUrl: { label: 'Adresse du service de flux (Flow Service)', hint: 'Sans le /v1 final.' },
  directoryUrl: {
    label: 'Adresse du service d’annuaire (Directory Service)',
    hint: 'Vide : celle du service de flux.',
  },
  tokenUrl: { label: 'Adresse du jeton OAuth2 (token endpoint)' },
  clientId: { label: 'Identifiant du client (client_id)' },
  clientSecret: { label: 'Secret du client (client_secret)', type: 'password' },
  scope: { label: 'Portée (scope), si la plateforme en demande une' },
  sellerSiren: { label: 'SIREN de la boutique' },
  sellerRoutingCode: { label: 'Code de routage de la boutique (facultatif)' },
};

export default function EInvoicingSettings({ loaderData, actionData }: Route.ComponentProps) {
  const config: PublicPaConfig = loaderData.config;
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  const failed = actionData && !actionData.ok ? actionData : null;
  const errors = failed?.fieldErrors ?? {};
  const value = (field: (typeof FIELDS)[number]) =>
    failed?.values[field] ?? (field === 'clientSecret' ? '' : String(config[field as keyof PublicPaConfig] ?? ''));
  return (
    <div className="flex flex-col gap-5">
      <Card>
        <CardHeader>
          <h2 className="font-semibold text-lg">Plateforme agréée (facturation électronique)</h2>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <p className="text-sm">
            Les factures et avoirs des clients professionnels sont déposés sur la plateforme agréée de la boutique
            (interface AFNOR XP Z12-013) ; leurs statuts (déposée, rejetée, refusée, encaissée…) s’affichent dans
            l’historique de chaque commande.
          </p>
          {actionData?.ok ? (
            <Alert variant="success" role="status">
              {actionData.message}
            </Alert>
          ) : null}
          {failed ? <Alert variant="danger">{failed.error}</Alert> : null}
          <p className="text-sm" data-testid="pa-state">
            {config.enabled ? 'Plateforme activée' : 'Plateforme désactivée'}
            {config.testMode ? ' (environnement de test)' : ' (production)'}.
          </p>
          <Form method="post" className="flex flex-col gap-4" noValidate>
            <input type="hidden" name="intent" value="save" />
            <div className="flex flex-wrap gap-6">
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="enabled" defaultChecked={config.enabled} />
                Activer le dépôt sur la plateforme
              </label>
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="testMode" defaultChecked={config.testMode} />
                Environnement de test de la plateforme
              </label>
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              {FIELDS.map((field) => {
                const { label, hint, type } = LABELS[field];
                const secretHint =
                  field === 'clientSecret' && config.clientSecretSet
                    ? 'Secret enregistré : laissez vide pour le conserver.'
                    : undefined;
                const described = [
                  errors[field] ? `pa-${field}-error` : null,
                  hint || secretHint ? `pa-${field}-hint` : null,
                ]
                  .filter(Boolean)
                  .join(' ');
                return (
                  <div key={field} className="flex flex-col gap-1.5">
                    <Label htmlFor={`pa-${field}`}>{label}</Label>
                    <Input
                      id={`pa-${field}`}
                      name={field}
                      type={type ?? 'text'}
                      autoComplete="off"
                      defaultValue={value(field)}
                      placeholder={field === 'clientSecret' && config.clientSecretSet ? config.clientSecretMasked : ''}
                      aria-invalid={errors[field] ? true : undefined}
                      aria-describedby={described || undefined}
                    />
                    {hint || secretHint ? (
                      <p id={`pa-${field}-hint`} className="text-muted-foreground text-xs">
                        {secretHint ?? hint}
                      </p>
                    ) : null}
                    <FieldError id={`pa-${field}-error`} message={errors[field]} />
                  </div>
                );
              })}
            </div>
            <div className="flex justify-end">
              <Button type="submit" disabled={busy}>
                Enregistrer
              </Button>
            </div>
          </Form>
          <Form method="post">
            <input type="hidden" name="intent" value="test" />
            <Button type="submit" variant="outline" disabled={busy}>
              Tester la connexion
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
