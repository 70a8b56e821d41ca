import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { useFetcher } from 'react-router';
import { FormAlert } from '~/components/auth/form-alert';
import { Field } from '~/components/forms/field';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import type { CustomerDetails } from '~/domain/admin/views';

export interface CustomerEditResult {
  ok: boolean;
  result: SubmissionResult<string[]>;
}

/**
 * « Modifier les coordonnées » of an account in the Clients tab: the profile's fields and
 * rules (app/domain/account/schemas.ts), checked by the server, which answers under each field.
 * The e-mail is the account's sign-in and stays as it is.
 */
export function CustomerEditForm({ customer, onDone }: { customer: CustomerDetails; onDone: () => void }) {
  const fetcher = useFetcher<CustomerEditResult>();
  const saving = fetcher.state !== 'idle';
  const [form, fields] = useForm({
    id: `client-${customer.id}`,
    lastResult: saving ? undefined : fetcher.data?.result,
    defaultValue: {
      firstName: customer.firstName,
      lastName: customer.lastName,
      phone: customer.phone ?? '',
      street: customer.address ?? '',
      postalCode: customer.postalCode ?? '',
      city: customer.city ?? '',
    },
  });
  const saved = !saving && fetcher.data?.ok;
  return (
    <fetcher.Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="update-customer" />
      <input type="hidden" name="customerId" value={customer.id} />
      <FormAlert id={form.errorId} errors={form.errors} />
      {saved ? <Alert variant="success">Coordonnées enregistrées.</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field meta={fields.firstName} label="Prénom" autoComplete="off" />
        <Field meta={fields.lastName} label="Nom" autoComplete="off" />
      </div>
      <Field meta={fields.phone} type="tel" label="Téléphone" autoComplete="off" />
      <Field meta={fields.street} label="Adresse" autoComplete="off" />
      <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
        <Field meta={fields.postalCode} label="Code postal" inputMode="numeric" autoComplete="off" />
        <Field meta={fields.city} label="Ville" autoComplete="off" />
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" onClick={onDone}>
          {saved ? 'Fermer' : 'Annuler'}
        </Button>
        <Button type="submit" disabled={saving}>
          {saving ? 'Enregistrement…' : 'Enregistrer'}
        </Button>
      </div>
    </fetcher.Form>
  );
}
