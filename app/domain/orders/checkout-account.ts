import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../account/schemas';
import { AUTH_MESSAGES } from '../auth-errors';
import { isCommonPassword } from '../common-passwords';
import { hasNoForbiddenCharacter } from '../text-input';
import '../zod-config';

/*
 * The account block of /checkout: « Commander en invité »,
 * « Connexion » and « Inscription » as tabs of the page itself (?compte=), each a form posted to
 * the checkout's action, so that signing in or registering keeps the order on screen. The action
 * checks the forms with these schemas (Conform's parseWithZod with `disableAutoCoercion`: an empty
 * field stays '' for the messages below; a refusal of the whole form is its form error, shown
 * above the fields); the server signs in or registers through Better Auth, then
 * attaches the guest order to the account.
 */

export const ACCOUNT_TABS = ['invite', 'connexion', 'inscription'] as const;
export type AccountTab = (typeof ACCOUNT_TABS)[number];

export function accountTabOf(value: string | null): AccountTab {
  return ACCOUNT_TABS.includes(value as AccountTab) ? (value as AccountTab) : 'invite';
}

export const ACCOUNT_TAB_LABELS: Readonly<Record<AccountTab, string>> = {
  invite: 'Commander en invité',
  connexion: 'Connexion',
  inscription: 'Inscription',
};

/** The checkout's words. */
export const CHECKOUT_ACCOUNT_MESSAGES = {
  signInTitle: 'Erreur lors de la connexion',
  invalidCredentials: AUTH_MESSAGES.invalidCredentials,
  fillAllFields: AUTH_MESSAGES.fillAllFields,
  registerTitle: 'Erreur lors de la création du compte',
  fillRequiredFields: AUTH_MESSAGES.fillRequiredFields,
  termsRequired: AUTH_MESSAGES.termsRequired,
  invalidEmail: AUTH_MESSAGES.invalidEmail,
  passwordTooShort: AUTH_MESSAGES.passwordTooShort,
  passwordTooLong: AUTH_MESSAGES.passwordTooLong,
  passwordTooCommon: AUTH_MESSAGES.passwordTooCommon,
  nameInvalid: 'Le prénom et le nom ne doivent pas dépasser 100 caractères ni contenir de caractères spéciaux.',
} as const;

const M = CHECKOUT_ACCOUNT_MESSAGES;
const NAME_MAX = 100;

/** A form's text field ('' when absent), as both forms read them. */
const field = z.preprocess((value) => (typeof value === 'string' ? value : ''), z.string());

/** Sign-in: both fields (« Veuillez remplir tous les champs »), then Better Auth decides. */
export const checkoutSignInSchema = z
  .object({ email: field.pipe(z.string().trim().toLowerCase().max(254, M.invalidCredentials)), password: field })
  .refine((value) => value.email !== '' && value.password !== '', M.fillAllFields);

const name = field.pipe(z.string().trim().max(NAME_MAX, M.nameInvalid).refine(hasNoForbiddenCharacter, M.nameInvalid));

/** Registration: e-mail and password required, names optional, the terms ticked. */
export const checkoutRegistrationSchema = z
  .object({
    email: field.pipe(z.string().trim().toLowerCase()),
    password: field,
    firstName: name,
    lastName: name,
    acceptTerms: field,
  })
  .superRefine((value, ctx) => {
    const issue = registrationIssue(value);
    if (issue) ctx.addIssue({ code: 'custom', message: issue });
  });

function registrationIssue(value: { email: string; password: string; acceptTerms: string }): string | null {
  if (!value.email || !value.password) return M.fillRequiredFields;
  if (value.acceptTerms !== 'on') return M.termsRequired;
  if (!z.email().max(254).safeParse(value.email).success) return M.invalidEmail;
  if (value.password.length < PASSWORD_MIN_LENGTH) return M.passwordTooShort;
  if (value.password.length > PASSWORD_MAX_LENGTH) return M.passwordTooLong;
  if (isCommonPassword(value.password)) return M.passwordTooCommon;
  return null;
}

export type CheckoutSignIn = z.output<typeof checkoutSignInSchema>;
export type CheckoutRegistration = z.output<typeof checkoutRegistrationSchema>;
