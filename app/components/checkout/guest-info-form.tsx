import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { Form } from 'react-router';
import { Field, RequiredMark } from '~/components/forms/field';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import { Spinner } from '~/components/ui/spinner';
import { GUEST_INFO_MESSAGES, type GuestInfoValues } from '~/domain/orders/guest-info';

/*
 * The guest's information on /checkout (specification 000: guest info), posted to the page's
 * action (intent `guest-info`) and checked there with the schema of domain/orders/guest-info.ts:
 * the French messages come back under the fields (Conform's lastResult) with what was typed.
 */

export function GuestInfoForm({
  values,
  lastResult,
  saved,
  savedBefore,
  pending,
}: {
  /** The saved information, shown until something is posted. */
  values: GuestInfoValues;
  lastResult: SubmissionResult<string[]> | undefined;
  saved: boolean;
  savedBefore: boolean;
  pending: boolean;
}) {
  const [form, fields] = useForm<GuestInfoValues>({
    id: 'guest-info',
    lastResult,
    defaultValue: values,
    shouldValidate: 'onSubmit',
  });
  return (
    <Form method="post" className="flex flex-col gap-4" aria-labelledby="guest-info-title" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="guest-info" />
      <h3 id="guest-info-title" className="font-semibold">
        Vos informations
      </h3>
      <p className="text-muted-foreground text-sm">
        Les champs marqués d’un astérisque (*) sont obligatoires. Nous vous écrivons à cette adresse pour le suivi de
        votre commande.
      </p>
      {form.errors?.length ? (
        <Alert id={form.errorId} variant="danger" title="Informations invité">
          {form.errors.map((error) => (
            <p key={error}>{error}</p>
          ))}
        </Alert>
      ) : null}
      {saved ? (
        <p
          role="status"
          className="rounded-md border border-success-tint-border bg-success-tint px-3 py-2 text-success-tint-foreground text-sm"
        >
          {GUEST_INFO_MESSAGES.saved}
        </p>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          meta={fields.email}
          type="email"
          label={
            <>
              Adresse e-mail
              <RequiredMark />
            </>
          }
          autoComplete="email"
          aria-required
          className="flex flex-col gap-1.5 sm:col-span-2"
        />
        <Field meta={fields.firstName} label="Prénom" autoComplete="given-name" />
        <Field meta={fields.lastName} label="Nom" autoComplete="family-name" />
        <Field
          meta={fields.phone}
          type="tel"
          label="Téléphone"
          autoComplete="tel"
          className="flex flex-col gap-1.5 sm:col-span-2"
        />
        <Field
          meta={fields.address}
          label="Adresse"
          autoComplete="street-address"
          className="flex flex-col gap-1.5 sm:col-span-2"
        />
        <Field meta={fields.postalCode} label="Code postal" autoComplete="postal-code" inputMode="numeric" />
        <Field meta={fields.city} label="Ville" autoComplete="address-level2" />
      </div>
      <Button type="submit" variant="outline" className="w-fit" disabled={pending}>
        {pending ? (
          <Spinner label="Enregistrement…" showLabel />
        ) : savedBefore ? (
          'Mettre à jour mes informations'
        ) : (
          'Enregistrer mes informations'
        )}
      </Button>
    </Form>
  );
}
