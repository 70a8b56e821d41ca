import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { Form, useNavigation } from 'react-router';
import { FormAlert } from '~/components/auth/form-alert';
import { SubmitButton } from '~/components/auth/submit-button';
import { Field } from '~/components/forms/field';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';

export interface ProfileValues {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  street: string;
  postalCode: string;
  city: string;
}

/**
 * The "Profil" tab: names, phone and postal address; the e-mail address is shown, not editable.
 * The route's action checks it with profileSchema and answers Conform's lastResult.
 */
export function ProfileForm({
  profile,
  lastResult,
}: {
  profile: ProfileValues;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'update-profile';
  const [form, fields] = useForm({
    id: 'profile',
    lastResult,
    defaultValue: profile,
    // Checked by the server only (the profile route's parseWithZod): no zod shipped to this page.
    shouldValidate: 'onSubmit',
  });
  return (
    <Form method="post" className="flex max-w-2xl flex-col gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="update-profile" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field meta={fields.firstName} label="Prénom" autoComplete="given-name" />
        <Field meta={fields.lastName} label="Nom" autoComplete="family-name" />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="profile-email">Email</Label>
        <Input
          id="profile-email"
          type="email"
          value={profile.email}
          disabled
          readOnly
          aria-describedby="profile-email-hint"
        />
        <p id="profile-email-hint" className="text-muted-foreground text-xs">
          L’adresse email sert à vous connecter : elle ne peut pas être modifiée ici.
        </p>
      </div>
      <Field meta={fields.phone} type="tel" label="Téléphone" autoComplete="tel" />
      <Field meta={fields.street} label="Adresse" autoComplete="street-address" />
      <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
        <Field meta={fields.postalCode} label="Code postal" autoComplete="postal-code" inputMode="numeric" />
        <Field meta={fields.city} label="Ville" autoComplete="address-level2" />
      </div>
      <SubmitButton pending={pending} pendingLabel="Enregistrement…" className="w-full sm:w-fit">
        Mettre à jour
      </SubmitButton>
    </Form>
  );
}
