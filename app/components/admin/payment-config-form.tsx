import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { useEffect, useMemo, useRef } from 'react';
import { useFetcher } from 'react-router';
import { Field, RadioGroupField } from '~/components/forms/field';
import { Button } from '~/components/ui/button';
import { Spinner } from '~/components/ui/spinner';
import { toast } from '~/components/ui/toaster';
import {
  createPaymentConfigSchema,
  PAYMENT_CONFIG_MESSAGES,
  PAYMENT_MODE_OPTIONS,
  PAYMENT_PROVIDER_LABELS,
  PAYMENT_PROVIDERS,
  type PaymentConfigFormInput,
  type PaymentConfigInput,
  type PublicPaymentConfig,
} from '~/domain/payments/payment-config';

export const PAYMENT_CONFIG_PATH = '/admin/api/configuration-paiement';

export type PaymentConfigActionData =
  | { ok: true; config: PublicPaymentConfig; submission: SubmissionResult<string[]> }
  | { ok: false; error: string; submission: SubmissionResult<string[]> };

const PROVIDER_OPTIONS = PAYMENT_PROVIDERS.map((provider) => ({
  value: provider,
  label: PAYMENT_PROVIDER_LABELS[provider],
}));

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
 * The payment solution and its credentials: sandbox (ours,
 * nothing to configure), Stripe or Monetico; changing the solution puts test mode back on; a
 * stored key is shown masked and kept when its field is left empty. Validated with the domain's
 * schema (parseWithZod) in the browser and again on the server, the French messages under the fields.
 */
export function PaymentConfigForm({ config, idPrefix }: { config: PublicPaymentConfig; idPrefix: string }) {
  const fetcher = useFetcher<PaymentConfigActionData>();
  const handled = useRef<unknown>(null);
  const result = fetcher.data;
  const saved = result?.ok ? result.config : config;

  useEffect(() => {
    if (fetcher.state !== 'idle' || !result || handled.current === result) return;
    handled.current = result;
    if (result.ok) toast.success('Configuration de paiement enregistrée');
    else toast.error(result.error);
  }, [fetcher.state, result]);

  // The secrets already stored may be left empty (kept); the server checks again in its transaction.
  const schema = useMemo(
    () =>
      createPaymentConfigSchema({
        stored: { apiKey: saved.apiKeySet, webhookSecret: saved.webhookSecretSet, secretKey: saved.secretKeySet },
      }),
    [saved.apiKeySet, saved.webhookSecretSet, saved.secretKeySet],
  );
  const [form, fields] = useForm<PaymentConfigFormInput, PaymentConfigInput>({
    // Two forms may be on screen (the dialog over the Comptabilité tab): their ids differ.
    id: idPrefix,
    lastResult: result?.submission,
    defaultValue: {
      type: config.type,
      testMode: config.testMode ? 'true' : 'false',
      merchantId: config.merchantId,
      companyCode: config.companyCode,
    },
    // Checked in the browser too (the back office may ship zod): a field being corrected drops its
    // message as it is typed, and the mode's reset below stays in the browser.
    onValidate({ formData }) {
      const submission = parseWithZod(formData, { schema });
      // « Enregistrer » refused in the browser (not a re-check while typing): the same toast as the server's.
      if (submission.status === 'error') toast.error(PAYMENT_CONFIG_MESSAGES.invalid);
      return submission;
    },
    shouldRevalidate: 'onInput',
  });
  const type = fields.type.value ?? config.type;
  const testMode = fields.testMode.value !== 'false';

  return (
    <fetcher.Form method="post" action={PAYMENT_CONFIG_PATH} className="flex flex-col gap-4" {...getFormProps(form)}>
      <RadioGroupField
        meta={fields.type}
        legend="Solution de paiement"
        variant="cards"
        options={PROVIDER_OPTIONS}
        // Switching the solution resets test mode to true.
        onValueChange={() => form.update({ name: fields.testMode.name, value: 'true' })}
      />
      <RadioGroupField
        meta={fields.testMode}
        legend="Mode"
        variant="cards"
        options={PAYMENT_MODE_OPTIONS}
        className="grid gap-2 sm:grid-cols-2"
      />
      {type === 'sandbox' ? (
        <p className="rounded-md bg-muted p-3 text-muted-foreground text-sm">
          Le bac à sable simule les paiements par carte : aucune clé n’est nécessaire, aucun paiement réel n’est
          encaissé.
        </p>
      ) : null}
      {type === 'stripe' ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            meta={fields.apiKey}
            label="Clé secrète Stripe"
            type="password"
            autoComplete="off"
            placeholder={saved.apiKeySet ? saved.apiKeyMasked : testMode ? 'sk_test_…' : 'sk_live_…'}
            hint={saved.apiKeySet ? 'Clé enregistrée : laissez vide pour la conserver.' : undefined}
          />
          <Field
            meta={fields.webhookSecret}
            label="Secret de signature du webhook"
            type="password"
            autoComplete="off"
            placeholder={saved.webhookSecretSet ? saved.webhookSecretMasked : 'whsec_…'}
            hint={saved.webhookSecretSet ? 'Secret enregistré : laissez vide pour le conserver.' : undefined}
          />
        </div>
      ) : null}
      {type === 'monetico' ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field meta={fields.merchantId} label="Numéro de TPE" autoComplete="off" inputMode="numeric" />
          <Field meta={fields.companyCode} label="Code société" autoComplete="off" />
          <Field
            className="flex flex-col gap-1.5 sm:col-span-2"
            meta={fields.secretKey}
            label="Clé de sécurité Monetico"
            type="password"
            autoComplete="off"
            placeholder={saved.secretKeySet ? saved.secretKeyMasked : ''}
            hint={saved.secretKeySet ? 'Clé enregistrée : laissez vide pour la conserver.' : undefined}
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
