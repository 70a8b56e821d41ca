import type { FieldMetadata } from '@conform-to/react';
import { Field } from '~/components/forms/field';
import { ADMIN_PASSWORD_MIN_LENGTH } from '~/domain/account/schemas';

/** A staff member's new password and its confirmation (the first administrator, an invited member). */
export function StaffPasswordFields({
  password,
  confirmPassword,
}: {
  password: FieldMetadata<string>;
  confirmPassword: FieldMetadata<string>;
}) {
  return (
    <>
      <Field
        meta={password}
        type="password"
        label="Mot de passe"
        hint={`Au moins ${ADMIN_PASSWORD_MIN_LENGTH} caractères, sans mot de passe courant.`}
        autoComplete="new-password"
      />
      <Field meta={confirmPassword} type="password" label="Confirmer le mot de passe" autoComplete="new-password" />
    </>
  );
}
