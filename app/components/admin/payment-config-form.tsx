import { useEffect, useState } from 'react';
import { useFetcher } from 'react-router';
import { Button } from '~/components/ui/button';
import { Checkbox } from '~/components/ui/checkbox';
import { Label } from '~/components/ui/label';
import { RadioGroup, RadioGroupItem } from '~/components/ui/radio-group';
import { Spinner } from '~/components/ui/spinner';
import { toast } from '~/components/ui/toaster';
import {
  PAYMENT_PROVIDER_LABELS,
  PAYMENT_PROVIDERS,
  type PaymentProviderName,
  type PublicPaymentConfig,
} from '~/domain/payments/payment-config';
import { fieldError, TextField } from './text-field';

export const PAYMENT_CONFIG_PATH = '/admin/api/configuration-paiement';

export type PaymentConfigActionData =
  | { ok: true; config: PublicPaymentConfig }
  | { ok: false; error: string; fieldErrors: Record<string, string[]> };

/** Loads the configuration, then shows the form (used by the dialog and by the Comptabilité tab). */
export function PaymentConfigPanel({ idPrefix }: { idPrefix: string }) {
  const loader = useFetcher<{ config: PublicPaymentConfig }>();
  useEffect(() => {
    if (loader.state === 'idle' && !loader.data) loader.load(PAYMENT_CONFIG_PATH);
  }, [loader]);
  if (!loader.data) return <Spinner label="Chargement de la configuration…" showLabel />;
  return <PaymentConfigForm config={loader.data.config} idPrefix={idPrefix} />;
}

/**
 * The payment solution and its credentials (specification 001, sections 3-5): sandbox (ours,
 * nothing to configure), Stripe or Monetico; changing the solution puts test mode back on; a
 * stored key is shown masked and kept when its field is left empty.
 */
export function PaymentConfigForm({ config, idPrefix }: { config: PublicPaymentConfig; idPrefix: string }) {
  const fetcher = useFetcher<PaymentConfigActionData>();
  const [type, setType] = useState<PaymentProviderName>(config.type);
  const [testMode, setTestMode] = useState(config.testMode);
  const result = fetcher.data;
  const saved = result?.ok ? result.config : config;
  const errors = result && !result.ok ? result.fieldErrors : undefined;

  useEffect(() => {
    if (fetcher.state !== 'idle' || !result) return;
    if (result.ok) toast.success('Configuration de paiement enregistrée');
    else toast.error(result.error);
  }, [fetcher.state, result]);

  return (
    <fetcher.Form method="post" action={PAYMENT_CONFIG_PATH} noValidate className="flex flex-col gap-4">
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 font-medium text-sm">Solution de paiement</legend>
        <RadioGroup
          name="type"
          value={type}
          onValueChange={(value) => {
            setType(value as PaymentProviderName);
            // The specification: switching the solution resets test mode to true.
            setTestMode(true);
          }}
          className="grid gap-2 sm:grid-cols-3"
        >
          {PAYMENT_PROVIDERS.map((provider) => (
            <div key={provider} className="flex items-center gap-2 rounded-md border border-border p-3">
              <RadioGroupItem value={provider} id={`${idPrefix}-${provider}`} />
              <Label htmlFor={`${idPrefix}-${provider}`}>{PAYMENT_PROVIDER_LABELS[provider]}</Label>
            </div>
          ))}
        </RadioGroup>
      </fieldset>
      <div className="flex items-center gap-3">
        <Checkbox
          id={`${idPrefix}-test-mode`}
          checked={testMode}
          onCheckedChange={(checked) => setTestMode(checked === true)}
        />
        <input type="hidden" name="testMode" value={testMode ? 'true' : 'false'} />
        <Label htmlFor={`${idPrefix}-test-mode`}>Mode test (aucun paiement réel)</Label>
      </div>
      {type === 'sandbox' ? (
        <p className="rounded-md bg-muted p-3 text-muted-foreground text-sm">
          Le bac à sable simule les paiements par carte : aucune clé n’est nécessaire, aucun paiement réel n’est
          encaissé.
        </p>
      ) : null}
      {type === 'stripe' ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Clé secrète Stripe"
            name="apiKey"
            type="password"
            autoComplete="off"
            placeholder={saved.apiKeySet ? saved.apiKeyMasked : testMode ? 'sk_test_…' : 'sk_live_…'}
            hint={saved.apiKeySet ? 'Clé enregistrée : laissez vide pour la conserver.' : undefined}
            error={fieldError(errors, 'apiKey')}
          />
          <TextField
            label="Secret de signature du webhook"
            name="webhookSecret"
            type="password"
            autoComplete="off"
            placeholder={saved.webhookSecretSet ? saved.webhookSecretMasked : 'whsec_…'}
            hint={saved.webhookSecretSet ? 'Secret enregistré : laissez vide pour le conserver.' : undefined}
            error={fieldError(errors, 'webhookSecret')}
          />
        </div>
      ) : null}
      {type === 'monetico' ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Numéro de TPE"
            name="merchantId"
            defaultValue={saved.merchantId}
            autoComplete="off"
            error={fieldError(errors, 'merchantId')}
          />
          <TextField
            label="Code société"
            name="companyCode"
            defaultValue={saved.companyCode}
            autoComplete="off"
            error={fieldError(errors, 'companyCode')}
          />
          <TextField
            className="flex flex-col gap-1.5 sm:col-span-2"
            label="Clé de sécurité Monetico"
            name="secretKey"
            type="password"
            autoComplete="off"
            placeholder={saved.secretKeySet ? saved.secretKeyMasked : ''}
            hint={saved.secretKeySet ? 'Clé enregistrée : laissez vide pour la conserver.' : undefined}
            error={fieldError(errors, 'secretKey')}
          />
        </div>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" disabled={fetcher.state !== 'idle'}>
          {fetcher.state !== 'idle' ? 'Enregistrement…' : 'Enregistrer'}
        </Button>
      </div>
    </fetcher.Form>
  );
}
