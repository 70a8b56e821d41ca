import { z } from 'zod';
import { FORBIDDEN_CHARACTER_MESSAGE, hasNoForbiddenCharacter } from '../text-input';
import '../zod-config';

/*
 * A guest's information on their order (`update-guest-order`): the e-mail
 * address (required), names, phone, street address, city and postal code. One schema for the
 * checkout's « Vos informations » form (through Conform's parseWithZod) and for the JSON API.
 */

export const GUEST_INFO_MESSAGES = {
  required: 'Veuillez remplir tous les champs obligatoires',
  emailRequired: 'L’adresse e-mail est requise',
  emailInvalid: 'Adresse e-mail invalide',
  phoneInvalid: 'Numéro de téléphone invalide',
  postalCodeInvalid: 'Code postal invalide (5 chiffres)',
  tooLong: 'Ce champ est trop long',
  saveError: 'Erreur lors de l’enregistrement des informations invité',
  orderNotFound: 'Commande introuvable',
  alreadyPaid: 'Cette commande est déjà payée : ses informations ne peuvent plus être modifiées.',
  saved: 'Vos informations ont été enregistrées.',
} as const;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, GUEST_INFO_MESSAGES.tooLong)
    // PostgreSQL's text cannot hold NUL: refused here with a French message, not a 500 at insert.
    .refine(hasNoForbiddenCharacter, FORBIDDEN_CHARACTER_MESSAGE)
    .optional()
    .transform((value) => (value ? value : null));

export const guestInfoSchema = z.object({
  email: z
    .string({ error: GUEST_INFO_MESSAGES.emailRequired })
    .trim()
    .min(1, GUEST_INFO_MESSAGES.emailRequired)
    .max(254, GUEST_INFO_MESSAGES.tooLong)
    .pipe(z.email(GUEST_INFO_MESSAGES.emailInvalid))
    .transform((value) => value.toLowerCase()),
  firstName: optionalText(100),
  lastName: optionalText(100),
  phone: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : null))
    .refine((value) => value === null || /^\+?[0-9 .()-]{6,20}$/.test(value), GUEST_INFO_MESSAGES.phoneInvalid),
  address: optionalText(200),
  city: optionalText(100),
  postalCode: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value.replace(/\s+/g, '') : null))
    .refine((value) => value === null || /^[0-9]{5}$/.test(value), GUEST_INFO_MESSAGES.postalCodeInvalid),
});

export type GuestInfo = z.output<typeof guestInfoSchema>;
export type GuestInfoField = keyof GuestInfo;
export type GuestInfoErrors = Partial<Record<GuestInfoField, string>>;

/** Validates a guest's information sent as JSON (the API); the first French message of each field. */
export function parseGuestInfo(
  input: unknown,
): { success: true; data: GuestInfo } | { success: false; fieldErrors: GuestInfoErrors } {
  const parsed = guestInfoSchema.safeParse(input ?? {});
  if (parsed.success) return { success: true, data: parsed.data };
  const fieldErrors: GuestInfoErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && field in guestInfoSchema.shape && !fieldErrors[field as GuestInfoField]) {
      fieldErrors[field as GuestInfoField] = issue.message;
    }
  }
  if (Object.keys(fieldErrors).length === 0) fieldErrors.email = GUEST_INFO_MESSAGES.emailRequired;
  return { success: false, fieldErrors };
}
