import { Form, useNavigation } from 'react-router';
import { TabError } from '~/components/admin/tab-error';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { Textarea } from '~/components/ui/textarea';
import { requireStaff } from '~/server/admin/access.server';
import { type DkimField, getPublicDkim, removeDkim, saveDkim } from '~/server/email/dkim.server';
import { getPublicEmailConfig } from '~/server/email/email-config.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/email-signing';

/*
 * « Signature DKIM » (a setting, docs/operations.md « E-mail authentication »): the signing
 * domain and selector, a key generated here (RSA 2048) or the private key pasted from the
 * provider, stored encrypted; the page shows the TXT record to publish. Plain forms: the page works
 * before (or without) its JavaScript.
 */

export function meta() {
  return [{ title: 'Signature DKIM | Soovenirs' }, { name: 'robots', content: 'noindex, nofollow' }];
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'settings');
  const [dkim, email] = await Promise.all([getPublicDkim(), getPublicEmailConfig()]);
  return { dkim, senderDomain: email.senderEmail.split('@')[1] ?? '' };
}

type ActionData =
  | { ok: true; message: string }
  | { ok: false; error?: string; fieldErrors: Partial<Record<DkimField, string>>; values: Record<string, string> };

export async function action({ request }: Route.ActionArgs): Promise<ActionData> {
  const staff = await requireStaff(request, 'settings');
  const form = await readFormData(request);
  const intent = form.get('intent');
  if (intent === 'remove') {
    await removeDkim(staff.id);
    return { ok: true, message: 'Signature DKIM désactivée\u00a0: les e-mails partent sans signature.' };
  }
  const text = (name: string) => String(form.get(name) ?? '');
  const values = { domain: text('domain'), selector: text('selector') };
  if (intent !== 'generate' && intent !== 'paste') {
    return { ok: false, error: 'Action inconnue.', fieldErrors: {}, values };
  }
  const result = await saveDkim({ ...values, privateKey: intent === 'paste' ? text('privateKey') : null }, staff.id);
  if (!result.ok) return { ok: false, error: result.error, fieldErrors: result.fieldErrors, values };
  return {
    ok: true,
    message:
      intent === 'generate'
        ? 'Clé générée et enregistrée\u00a0: publiez l’enregistrement DNS ci-dessous.'
        : 'Clé enregistrée\u00a0: publiez l’enregistrement DNS ci-dessous.',
  };
}

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="text-danger text-sm">
      {message}
    </p>
  ) : null;
}

export default function EmailSigning({ loaderData, actionData }: Route.ComponentProps) {
  const { dkim, senderDomain } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  const failed = actionData && !actionData.ok ? actionData : null;
  const errors = failed?.fieldErrors ?? {};
  const domain = failed?.values.domain ?? dkim?.domain ?? senderDomain;
  const selector = failed?.values.selector ?? dkim?.selector ?? `soovenirs${new Date().getFullYear()}`;
  const described = (field: DkimField) => (errors[field] ? `dkim-${field}-error` : undefined);
  return (
    <div className="flex flex-col gap-5">
      <Card>
        <CardHeader>
          <h2 className="font-semibold text-lg">Signature DKIM des e-mails</h2>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <p className="text-sm">
            Les messageries (Gmail, Yahoo…) exigent des expéditeurs une signature DKIM : chaque e-mail de la boutique
            est signé avec une clé privée, et la clé publique est publiée dans le DNS du domaine.
          </p>
          {actionData?.ok ? <Alert variant="success">{actionData.message}</Alert> : null}
          {failed ? <Alert variant="danger">{failed.error ?? 'Veuillez corriger les champs signalés.'}</Alert> : null}
          {dkim ? (
            <section aria-labelledby="dkim-record-title" className="flex flex-col gap-2">
              <h3 id="dkim-record-title" className="font-semibold">
                Enregistrement DNS à publier (TXT)
              </h3>
              {dkim.readable ? null : (
                <Alert variant="danger">
                  La clé enregistrée est illisible (APP_SECRET a changé ?) : les e-mails partent sans signature. Générez
                  ou collez une nouvelle clé.
                </Alert>
              )}
              <dl className="grid gap-1 text-sm">
                <dt className="font-medium">Nom</dt>
                <dd>
                  <code data-testid="dkim-record-name">{dkim.record.name}</code>
                </dd>
                <dt className="font-medium">Valeur</dt>
                <dd>
                  <code data-testid="dkim-record-value" className="break-all">
                    {dkim.record.value}
                  </code>
                </dd>
              </dl>
              <p className="text-muted-foreground text-sm">
                Clé RSA de {dkim.bits} bits, domaine {dkim.domain}, sélecteur {dkim.selector}.
              </p>
              <Form method="post">
                <input type="hidden" name="intent" value="remove" />
                <Button type="submit" variant="outline" size="sm" disabled={busy}>
                  Désactiver la signature
                </Button>
              </Form>
            </section>
          ) : (
            <Alert variant="warning">Aucune clé DKIM : les e-mails de la boutique partent sans signature.</Alert>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <h2 className="font-semibold text-lg">{dkim ? 'Remplacer la clé' : 'Créer la clé'}</h2>
        </CardHeader>
        <CardContent>
          <Form method="post" className="flex flex-col gap-4" noValidate>
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="flex flex-col gap-1.5">
                <Label htmlFor="dkim-domain">Domaine signataire</Label>
                <Input
                  id="dkim-domain"
                  name="domain"
                  defaultValue={domain}
                  aria-invalid={errors.domain ? true : undefined}
                  aria-describedby={described('domain')}
                />
                <FieldError id="dkim-domain-error" message={errors.domain} />
              </div>
              <div className="flex flex-col gap-1.5">
                <Label htmlFor="dkim-selector">Sélecteur</Label>
                <Input
                  id="dkim-selector"
                  name="selector"
                  defaultValue={selector}
                  aria-invalid={errors.selector ? true : undefined}
                  aria-describedby={described('selector')}
                />
                <FieldError id="dkim-selector-error" message={errors.selector} />
              </div>
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="dkim-private-key">Clé privée fournie par votre prestataire (facultatif)</Label>
              <Textarea
                id="dkim-private-key"
                name="privateKey"
                rows={6}
                spellCheck={false}
                autoComplete="off"
                placeholder="-----BEGIN PRIVATE KEY-----"
                aria-invalid={errors.privateKey ? true : undefined}
                aria-describedby={described('privateKey')}
              />
              <FieldError id="dkim-privateKey-error" message={errors.privateKey} />
            </div>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" name="intent" value="generate" disabled={busy}>
                Générer une clé RSA 2048
              </Button>
              <Button type="submit" name="intent" value="paste" variant="outline" disabled={busy}>
                Enregistrer la clé collée
              </Button>
            </div>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
