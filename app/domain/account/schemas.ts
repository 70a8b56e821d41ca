import { z } from 'zod';
import { AUTH_MESSAGES, STAFF_PASSWORD_MIN_LENGTH } from '../auth-errors';
import { isCommonPassword } from '../common-passwords';
import { FORBIDDEN_CHARACTER_MESSAGE, hasNoForbiddenCharacter } from '../text-input';
import '../zod-config';

/*
 * The forms of the sign-in pages, the account and the first-administrator page: one zod schema
 * each, run in the browser by Conform (instant French messages) and again by the route action
 * (the authority). Conform turns empty fields into `undefined`, so "required" is the message of a
 * missing value. Messages are French, one per field and rule.
 */

const M = AUTH_MESSAGES;

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
/** The first administrator holds every key of the shop: a longer password than customers'. */
export const ADMIN_PASSWORD_MIN_LENGTH = STAFF_PASSWORD_MIN_LENGTH;

export const PROFILE_MESSAGES = {
  tooLong: (max: number) => `Ce champ ne doit pas dépasser ${max} caractères`,
  phone: 'Numéro de téléphone invalide',
  postalCode: 'Le code postal doit contenir 5 chiffres',
} as const;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, PROFILE_MESSAGES.tooLong(max))
    .refine(hasNoForbiddenCharacter, FORBIDDEN_CHARACTER_MESSAGE)
    .optional();

const email = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: M.invalidEmail }).max(254, M.invalidEmail));

/** A new password: the length rules of Better Auth and the common-password refusal, checked early. */
export const newPassword = (
  requiredMessage: string,
  minLength = PASSWORD_MIN_LENGTH,
  tooShort: string = M.passwordTooShort,
) =>
  z
    .string({ error: requiredMessage })
    .min(minLength, tooShort)
    .max(PASSWORD_MAX_LENGTH, M.passwordTooLong)
    .refine((password) => !isCommonPassword(password), M.passwordTooCommon);

/**
 * "Les mots de passe ne correspondent pas" as soon as both are typed, even while other fields are
 * still wrong (zod skips object refinements after a field error unless told when to run them).
 */
export const passwordsMatch = {
  message: M.passwordsDoNotMatch,
  path: ['confirmPassword'],
  when: (payload: { value: unknown }) => {
    const value = (payload.value ?? {}) as { password?: unknown; confirmPassword?: unknown };
    return typeof value.password === 'string' && typeof value.confirmPassword === 'string';
  },
};

/** The origin to come back to after signing in; checked again by safeRedirect on the server. */
const redirectTo = z.string().max(2000).optional();

/** Sign-in: both fields or "Veuillez remplir tous les champs". */
export const signInSchema = z
  .object({
    email: z.string().trim().max(254).optional(),
    password: z.string().max(PASSWORD_MAX_LENGTH).optional(),
    redirectTo,
  })
  .superRefine((value, ctx) => {
    if (!value.email || !value.password) ctx.addIssue({ code: 'custom', message: M.fillAllFields, path: [] });
  });

export const forgotPasswordSchema = z.object({ email: email(M.emailRequired), redirectTo });

export const magicLinkSchema = z.object({ email: email(M.emailRequired), redirectTo });

export const newPasswordSchema = z
  .object({
    password: newPassword(M.fillAllFields),
    confirmPassword: z.string({ error: M.fillAllFields }),
    redirectTo,
  })
  .refine((value) => value.password === value.confirmPassword, passwordsMatch);

export const registerSchema = z
  .object({
    firstName: optionalText(100),
    lastName: optionalText(100),
    email: email(M.emailRequired),
    password: newPassword('Veuillez saisir un mot de passe'),
    confirmPassword: z.string({ error: 'Veuillez confirmer le mot de passe' }),
    acceptTerms: z.literal('on', { error: M.termsRequired }),
    redirectTo,
  })
  .refine((value) => value.password === value.confirmPassword, passwordsMatch);

export const profileSchema = z.object({
  firstName: optionalText(100),
  lastName: optionalText(100),
  phone: z
    .string()
    .trim()
    .regex(/^\+?[0-9][0-9 .-]{5,19}$/, PROFILE_MESSAGES.phone)
    .optional(),
  street: optionalText(200),
  postalCode: z
    .string()
    .trim()
    .regex(/^[0-9]{5}$/, PROFILE_MESSAGES.postalCode)
    .optional(),
  city: optionalText(100),
});

export type ProfileInput = z.output<typeof profileSchema>;

export const setupAdminSchema = z
  .object({
    email: email(M.emailRequired),
    password: newPassword(
      'Veuillez saisir un mot de passe',
      ADMIN_PASSWORD_MIN_LENGTH,
      `Le mot de passe administrateur doit contenir au moins ${ADMIN_PASSWORD_MIN_LENGTH} caractères`,
    ),
    confirmPassword: z.string({ error: 'Veuillez confirmer le mot de passe' }),
    firstName: optionalText(100),
    lastName: optionalText(100),
    // Printed by the server at start (« Aucun administrateur… »): proves access to the machine.
    setupCode: z.string({ error: 'Veuillez saisir le code d’installation' }).trim().max(64),
  })
  .refine((value) => value.password === value.confirmPassword, passwordsMatch);

/** What /setup-super-admin says ('Erreur de connexion au serveur' on failure). */
export const SETUP_MESSAGES = {
  closed: 'La configuration initiale est terminée : un administrateur existe déjà.',
  existingAccount:
    'Un compte existe déjà avec cette adresse : saisissez son mot de passe actuel pour le promouvoir administrateur.',
  serverError: 'Erreur de connexion au serveur',
  wrongCode:
    'Code d’installation incorrect. Il est affiché par le serveur à son démarrage (« Aucun administrateur pour le moment »), dans son terminal ou son journal.',
  tooManyAttempts: 'Trop de tentatives. Veuillez patienter avant de réessayer.',
} as const;
