import { getFormProps, useForm } from '@conform-to/react';
import { Form, useNavigation } from 'react-router';
import { CheckboxField, Field } from '~/components/forms/field';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import { NBSP } from '~/domain/format';
import { TWO_FACTOR_MESSAGES } from '~/domain/staff/two-factor-forms';
import { TWO_FACTOR_POLICY_MESSAGES, type TwoFactorPolicy } from '~/domain/staff/two-factor-policy';
import type { SecurityActionData } from '~/domain/staff/two-factor-views';

/**
 * « Sécurité »: two-factor sign-in. Off: the password, then the QR code (its secret in text for an
 * app without camera), the backup codes shown this once, and the first code to confirm. For
 * administrators, the team's rule below it; an administrator held by the rule reads why first.
 */
export function SecurityPanel({
  enabled,
  required,
  policy,
  actionData,
}: {
  enabled: boolean;
  required: boolean;
  policy: TwoFactorPolicy | null;
  actionData: SecurityActionData | null;
}) {
  return (
    <div className="flex flex-col gap-6">
      {required ? <Alert variant="warning">{TWO_FACTOR_POLICY_MESSAGES.required}</Alert> : null}
      <TwoFactorSection enabled={enabled} actionData={actionData} />
      {policy ? (
        <PolicySection policy={policy} actionData={actionData?.intent === 'policy' ? actionData : null} />
      ) : null}
    </div>
  );
}

function TwoFactorSection({ enabled, actionData }: { enabled: boolean; actionData: SecurityActionData | null }) {
  const setup = actionData?.intent === 'enable' ? actionData.setup : undefined;
  const confirming = Boolean(setup) || (actionData?.intent === 'confirm' && !actionData.done);
  return (
    <section aria-labelledby="securite-titre" className="flex max-w-2xl flex-col gap-4 rounded-lg border bg-card p-4">
      <h2 id="securite-titre" className="font-heading font-semibold text-xl">
        Double authentification
      </h2>
      {actionData?.intent === 'disable' && actionData.done ? <Alert variant="info">{actionData.message}</Alert> : null}
      {enabled ? (
        <>
          <Alert variant="success" title={TWO_FACTOR_MESSAGES.enabled}>
            <p>À chaque connexion, votre application d’authentification vous donne le code de vérification.</p>
          </Alert>
          <DisableForm lastResult={actionData?.intent === 'disable' ? actionData : null} />
        </>
      ) : (
        <p className="text-muted-foreground">
          Protégez votre compte{NBSP}: à chaque connexion, un code à 6 chiffres de votre application d’authentification
          (Google Authenticator, Microsoft Authenticator, FreeOTP…) vous sera demandé en plus du mot de passe.
        </p>
      )}
      {!enabled && !confirming ? <EnableForm lastResult={actionData?.intent === 'enable' ? actionData : null} /> : null}
      {setup ? (
        <div className="flex flex-col gap-3">
          <p>1. Scannez ce QR code avec votre application d’authentification{NBSP}:</p>
          <div
            role="img"
            aria-label="QR code de la double authentification"
            className="size-48 bg-white p-2"
            // An SVG drawn on the server from the otpauth:// address (uqr): no script, no request.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: our own SVG, generated on the server
            dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
          />
          <p>
            Ou saisissez cette clé à la main{NBSP}:{' '}
            <code className="break-all rounded bg-muted px-1.5 py-0.5 font-mono" data-testid="totp-secret">
              {setup.secret}
            </code>
          </p>
          <div className="flex flex-col gap-2">
            <p>
              2. Notez ces codes de secours, chacun sert une fois si vous perdez votre téléphone. Ils ne seront plus
              affichés.
            </p>
            <ul aria-label="Codes de secours" className="grid grid-cols-2 gap-1 font-mono sm:grid-cols-4">
              {setup.backupCodes.map((code) => (
                <li key={code}>{code}</li>
              ))}
            </ul>
          </div>
        </div>
      ) : null}
      {confirming ? <ConfirmForm lastResult={actionData?.intent === 'confirm' ? actionData : null} /> : null}
    </section>
  );
}

function EnableForm({ lastResult }: { lastResult: SecurityActionData | null }) {
  const navigation = useNavigation();
  const [form, fields] = useForm<{ password: string }>({ id: 'enable-2fa', lastResult: lastResult?.submission });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3">
      <input type="hidden" name="intent" value="enable" />
      {form.errors?.length ? <Alert variant="danger">{form.errors[0]}</Alert> : null}
      <Field meta={fields.password} type="password" label="Votre mot de passe" autoComplete="current-password" />
      <Button type="submit" className="self-start" disabled={navigation.state !== 'idle'}>
        Activer la double authentification
      </Button>
    </Form>
  );
}

/** A new phone, or no app any more: the password turns it off (then on again with the new phone). */
function DisableForm({ lastResult }: { lastResult: SecurityActionData | null }) {
  const navigation = useNavigation();
  const [form, fields] = useForm<{ password: string }>({ id: 'disable-2fa', lastResult: lastResult?.submission });
  return (
    // Open again after a refusal, with its message.
    <details className="rounded-md border p-3" open={Boolean(lastResult) || undefined}>
      <summary className="cursor-pointer font-medium">Changer de téléphone ou désactiver</summary>
      <Form method="post" {...getFormProps(form)} className="mt-3 flex flex-col gap-3">
        <input type="hidden" name="intent" value="disable" />
        {form.errors?.length ? <Alert variant="danger">{form.errors[0]}</Alert> : null}
        <p className="text-muted-foreground text-sm">
          Désactivez-la, puis activez-la de nouveau avec votre nouveau téléphone. Si elle est obligatoire pour les
          administrateurs, seul cet onglet vous restera ouvert en attendant.
        </p>
        <Field meta={fields.password} type="password" label="Votre mot de passe" autoComplete="current-password" />
        <Button type="submit" variant="outline" className="self-start" disabled={navigation.state !== 'idle'}>
          Désactiver la double authentification
        </Button>
      </Form>
    </details>
  );
}

function ConfirmForm({ lastResult }: { lastResult: SecurityActionData | null }) {
  const navigation = useNavigation();
  const [form, fields] = useForm<{ code: string }>({ id: 'confirm-2fa', lastResult: lastResult?.submission });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3">
      <input type="hidden" name="intent" value="confirm" />
      {form.errors?.length ? <Alert variant="danger">{form.errors[0]}</Alert> : null}
      <Field
        meta={fields.code}
        label="3. Code de vérification"
        hint="Le code à 6 chiffres affiché par l’application."
        inputMode="numeric"
        autoComplete="one-time-code"
      />
      <Button type="submit" className="self-start" disabled={navigation.state !== 'idle'}>
        Confirmer
      </Button>
    </Form>
  );
}

function PolicySection({ policy, actionData }: { policy: TwoFactorPolicy; actionData: SecurityActionData | null }) {
  const navigation = useNavigation();
  const [form, fields] = useForm<{ adminTwoFactorRequired: boolean }>({
    id: 'two-factor-policy',
    lastResult: actionData?.submission,
    defaultValue: { adminTwoFactorRequired: policy.adminTwoFactorRequired ? 'on' : undefined },
  });
  return (
    <section aria-labelledby="regle-titre" className="flex max-w-2xl flex-col gap-4 rounded-lg border bg-card p-4">
      <h2 id="regle-titre" className="font-heading font-semibold text-xl">
        Règle de l’équipe
      </h2>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="policy" />
        {form.errors?.length ? <Alert variant="danger">{form.errors[0]}</Alert> : null}
        {actionData?.message ? <Alert variant="success">{actionData.message}</Alert> : null}
        <CheckboxField
          meta={fields.adminTwoFactorRequired}
          label="Double authentification obligatoire pour les administrateurs (sans elle, un administrateur ne peut que l’activer)"
        />
        <Button type="submit" variant="outline" className="self-start" disabled={navigation.state !== 'idle'}>
          Enregistrer la règle
        </Button>
      </Form>
    </section>
  );
}
