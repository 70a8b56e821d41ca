/*
 * The back office's refusals, as the server throws them and
 * the /admin error boundary reads them: unauthenticated (toast "Non authentifié", then /login),
 * forbidden (toast "Accès non autorisé", then /), error (message with logout and home buttons).
 * A staff member whose role lacks the capability (docs/decisions/016) is `denied`: the page says
 * « Accès non autorisé » in place (403), the rest of the back office stays at hand.
 */

export type AccessState = 'unauthenticated' | 'forbidden' | 'denied' | 'error';

export interface AccessRefusal {
  access: AccessState;
  message: string;
  /** Where the page sends the visitor (unauthenticated: the sign-in page, back here afterwards). */
  redirectTo: string | null;
}

export function isAccessRefusal(value: unknown): value is AccessRefusal {
  return (
    typeof value === 'object' &&
    value !== null &&
    'access' in value &&
    ['unauthenticated', 'forbidden', 'denied', 'error'].includes(String((value as { access: unknown }).access)) &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}
