import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { Form, useNavigation } from 'react-router';
import { FormAlert } from '~/components/auth/form-alert';
import { SubmitButton } from '~/components/auth/submit-button';
import { BusinessBuyerFields } from '~/components/checkout/invoicing-fields';
import type { BusinessFormValues } from '~/domain/invoices/business-buyer';

/** The intents of the « Facturation professionnelle » forms (the profile route's action). */
export const BUSINESS_PROFILE_INTENTS = { save: 'save-business', remove: 'remove-business' } as const;

/**
 * « Facturation professionnelle » of the « Profil » tab (docs/invoicing.md): the business identity
 * the checkout starts from (« Je commande pour une entreprise… » ticked and filled). Plain form
 * posts checked by the server only (businessProfileSchema), whose French messages come back under
 * each field with what was typed; « Organisme public » opens its field with CSS alone. Once saved,
 * a second form removes it.
 */
export function BusinessProfileForm({
  defaults,
  saved,
  lastResult,
}: {
  defaults: BusinessFormValues;
  /** The profile keeps a business identity (the removal is offered). */
  saved: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const navigation = useNavigation();
  const sending = navigation.state !== 'idle' ? navigation.formData?.get('intent') : null;
  const [form, fields] = useForm({
    id: 'business-profile',
    lastResult,
    defaultValue: defaults,
    shouldValidate: 'onSubmit',
  });
  return (
    <section aria-labelledby="business-profile-title" className="flex max-w-2xl flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 id="business-profile-title" className="font-semibold text-xl">
          Facturation professionnelle
        </h2>
        <p className="text-muted-foreground text-sm">
          Vous commandez pour une entreprise, une association ou un organisme public&#8239;? Ces informations
          préremplissent vos prochaines commandes et figurent sur leurs factures. Une commande déjà passée garde les
          siennes.
        </p>
      </div>
      <Form method="post" className="group grid gap-4 sm:grid-cols-2" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={BUSINESS_PROFILE_INTENTS.save} />
        <div className="sm:col-span-2">
          <FormAlert id={form.errorId} errors={form.errors} />
        </div>
        <BusinessBuyerFields fields={fields} engagement={false} />
        <SubmitButton
          pending={sending === BUSINESS_PROFILE_INTENTS.save}
          pendingLabel="Enregistrement…"
          className="w-full sm:col-span-2 sm:w-fit"
        >
          Enregistrer la facturation professionnelle
        </SubmitButton>
      </Form>
      {saved ? (
        <Form method="post">
          <input type="hidden" name="intent" value={BUSINESS_PROFILE_INTENTS.remove} />
          <SubmitButton
            variant="outline"
            pending={sending === BUSINESS_PROFILE_INTENTS.remove}
            pendingLabel="Suppression…"
            className="w-full sm:w-fit"
          >
            Supprimer ces informations
          </SubmitButton>
        </Form>
      ) : null}
    </section>
  );
}
