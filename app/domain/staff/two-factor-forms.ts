import { z } from 'zod';
import { AUTH_MESSAGES } from '../auth-errors';
import '../zod-config';

/*
 * Two-factor sign-in (docs/decisions/016): enabling it from « Sécurité » (the password, then a first
 * code from the app) and the sign-in's second step. French messages; the same schemas in the
 * browser and on the server.
 */

export const TWO_FACTOR_MESSAGES = {
  codeRequired: 'Saisissez le code à 6 chiffres affiché par votre application',
  signInCodeRequired: 'Saisissez le code à 6 chiffres de votre application, ou l’un de vos codes de secours',
  codeInvalid: AUTH_MESSAGES.twoFactorCodeInvalid,
  passwordRequired: 'Saisissez votre mot de passe',
  enabled: 'Double authentification activée',
  disabled: 'Double authentification désactivée',
} as const;

const code = z
  .string({ error: TWO_FACTOR_MESSAGES.codeRequired })
  .trim()
  .transform((value) => value.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, TWO_FACTOR_MESSAGES.codeRequired));

export const enableTwoFactorSchema = z.object({
  intent: z.literal('enable'),
  password: z.string({ error: TWO_FACTOR_MESSAGES.passwordRequired }).min(1).max(128),
});

export const disableTwoFactorSchema = z.object({
  intent: z.literal('disable'),
  password: z.string({ error: TWO_FACTOR_MESSAGES.passwordRequired }).min(1).max(128),
});

export const confirmTwoFactorSchema = z.object({
  intent: z.literal('confirm'),
  code,
});

/** A backup code as Better Auth makes them: 10 letters or digits, shown as « AbC12-dEf34 ». */
const BACKUP_CODE = /^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/;

/** The sign-in's second step: the app's code, or a backup code when the phone is lost. */
export const twoFactorCodeSchema = z.object({
  code: z
    .string({ error: TWO_FACTOR_MESSAGES.signInCodeRequired })
    .transform((value) => value.replace(/\s/g, ''))
    .pipe(
      z.union([z.string().regex(/^\d{6}$/), z.string().regex(BACKUP_CODE)], {
        error: TWO_FACTOR_MESSAGES.signInCodeRequired,
      }),
    )
    .transform((value) =>
      /^\d{6}$/.test(value)
        ? { kind: 'totp' as const, code: value }
        : { kind: 'backup' as const, code: value.includes('-') ? value : `${value.slice(0, 5)}-${value.slice(5)}` },
    ),
  redirectTo: z.string().max(2000).optional(),
});

/** The secret of an otpauth:// URI, grouped by 4 for typing it into an app by hand. */
export function readableSecret(totpUri: string): string {
  const secret = new URL(totpUri).searchParams.get('secret') ?? '';
  return secret.replace(/(.{4})/g, '$1 ').trim();
}
