/*
 * The back office's refusals (specification 001, sections 4 and 6), as the server throws them and
 * the /admin error boundary reads them: unauthenticated (toast "Non authentifié", then /login),
 * forbidden (toast "Accès non autorisé", then /), error (message with logout and home buttons).
 */

export type AccessState = 'unauthenticated' | 'forbidden' | 'error';

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
    ['unauthenticated', 'forbidden', 'error'].includes(String((value as { access: unknown }).access)) &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}
