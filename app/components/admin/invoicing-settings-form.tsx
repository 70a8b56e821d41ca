import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { useEffect, useRef } from 'react';
import { useFetcher } from 'react-router';
import { CheckboxField, Field } from '~/components/forms/field';
import { Button } from '~/components/ui/button';
import { Spinner } from '~/components/ui/spinner';
import { toast } from '~/components/ui/toaster';
import { type InvoicingSettings, MAX_PAYMENT_DUE_DAYS } from '~/domain/invoices/invoicing-settings';
import { VAT_ON_DEBITS_MENTION } from '~/domain/invoices/mentions';

export const INVOICING_SETTINGS_PATH = '/admin/api/configuration-facturation';

type ActionData =
  | { ok: true; settings: InvoicingSettings; message: string; submission: SubmissionResult<string[]> }
  | { ok: false; error: string; submission: SubmissionResult<string[]> };

type FormValues = { vatOnDebits: string; paymentDueDays: string; latePenaltyRate: string };

/** « Facturation » (docs/invoicing.md): the settings dialog's form. */
export function InvoicingSettingsPanel() {
  const loader = useFetcher<{ settings: InvoicingSettings }>();
  useEffect(() => {
    if (loader.state === 'idle' && !loader.data) loader.load(INVOICING_SETTINGS_PATH);
  }, [loader]);
  if (!loader.data) return <Spinner label="Chargement des réglages…" showLabel />;
  return <InvoicingSettingsForm settings={loader.data.settings} />;
}

function InvoicingSettingsForm({ settings }: { settings: InvoicingSettings }) {
  const fetcher = useFetcher<ActionData>();
  const handled = useRef<unknown>(null);
  const result = fetcher.data;
  useEffect(() => {
    if (fetcher.state !== 'idle' || !result || handled.current === result) return;
    handled.current = result;
    if (result.ok) toast.success(result.message);
    else toast.error(result.error);
  }, [fetcher.state, result]);
  const [form, fields] = useForm<FormValues>({
    id: 'invoicing-settings',
    lastResult: result?.submission,
    defaultValue: {
      vatOnDebits: settings.vatOnDebits ? 'on' : '',
      paymentDueDays: String(settings.paymentDueDays),
      latePenaltyRate: settings.latePenaltyRate,
    },
  });
  return (
    <fetcher.Form
      method="post"
      action={INVOICING_SETTINGS_PATH}
      className="flex flex-col gap-4"
      {...getFormProps(form)}
    >
      <CheckboxField
        meta={fields.vatOnDebits}
        label={`${VAT_ON_DEBITS_MENTION} (mention portée sur chaque document)`}
      />
      <Field
        meta={fields.paymentDueDays}
        label="Délai de paiement des factures aux professionnels (jours après l’émission)"
        type="number"
        inputMode="numeric"
        min={0}
        max={MAX_PAYMENT_DUE_DAYS}
        hint={`Au plus ${MAX_PAYMENT_DUE_DAYS}\u00a0jours (article L441-10 du Code de commerce). La date d’échéance est imprimée sur la facture.`}
      />
      <Field
        meta={fields.latePenaltyRate}
        label="Taux des pénalités de retard"
        maxLength={200}
        hint="Tel que la facture l’énonce. L’indemnité forfaitaire de 40\u00a0€ pour frais de recouvrement est toujours mentionnée."
      />
      <p className="text-muted-foreground text-sm">Les documents déjà émis gardent les mentions de leur émission.</p>
      <div className="flex justify-end">
        <Button type="submit" disabled={fetcher.state !== 'idle'}>
          {fetcher.state !== 'idle' ? 'Enregistrement…' : 'Enregistrer'}
        </Button>
      </div>
    </fetcher.Form>
  );
}
