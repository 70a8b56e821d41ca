import { renderSVG } from 'uqr';
import { readableSecret } from '~/domain/staff/two-factor-forms';
import type { TwoFactorSetupView } from '~/domain/staff/two-factor-views';
import { type AuthCallResult, callAuth } from '../account/auth-calls.server';

/*
 * Enabling two-factor sign-in for a staff member (docs/decisions/016), through Better Auth's
 * two-factor plugin over its HTTP handler (its rate limits apply): the password gives a TOTP URI
 * and backup codes; the first code from the app confirms it. The QR code is drawn on the server
 * (an SVG: no script in the page, and the secret never leaves the response).
 */

export async function startTwoFactor(
  request: Request,
  password: string,
): Promise<{ ok: true; setup: TwoFactorSetupView } | { ok: false; message: string }> {
  // A wrong password reads « Le mot de passe actuel est incorrect », as when changing it.
  const result = await callAuth<{ totpURI?: string; backupCodes?: string[] }>(
    request,
    '/two-factor/enable',
    { password },
    'change-password',
  );
  const uri = result.data?.totpURI;
  if (!result.ok || !uri)
    return { ok: false, message: result.message ?? 'La double authentification n’a pas pu être activée.' };
  return {
    ok: true,
    setup: {
      qrSvg: renderSVG(uri, { border: 2 }),
      secret: readableSecret(uri),
      backupCodes: result.data?.backupCodes ?? [],
    },
  };
}

/** The app's first code (with a session) or the sign-in's second step (with the two-factor cookie). */
export function verifyTotp(request: Request, code: string): Promise<AuthCallResult> {
  return callAuth(request, '/two-factor/verify-totp', { code });
}

/** The sign-in's second step with a backup code (each serves once; Better Auth strikes it off). */
export function verifyBackupCode(request: Request, code: string): Promise<AuthCallResult> {
  return callAuth(request, '/two-factor/verify-backup-code', { code });
}

/** Turns two-factor sign-in off for the signed-in staff member: their password again. */
export function disableTwoFactor(request: Request, password: string): Promise<AuthCallResult> {
  // A wrong password reads « Le mot de passe actuel est incorrect », as when changing it.
  return callAuth(request, '/two-factor/disable', { password }, 'change-password');
}
