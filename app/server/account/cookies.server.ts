import { randomBytes } from 'node:crypto';
import { type AccountToastKey, isAccountToastKey } from '~/domain/account/toasts';
import { baseUrl } from '../env.server';

/*
 * Two short-lived cookies of the sign-in pages, both HttpOnly, SameSite=Lax, Secure over https:
 *
 *  - `sv_flash`: the toast to show after a redirect ("Déconnexion réussie"...), as a key of
 *    ACCOUNT_TOASTS plus the path of the page that must show it and a random id (so that a toast
 *    is shown once even when React renders twice). Only that page consumes it; it expires after a
 *    minute anyway. A key, never text: nobody can make the shop say words of their choosing.
 *  - `sv_recovery`: the password-reset token of the e-mailed link, moved out of the address bar
 *    (the link's parameters are cleared from the address after use) until the new
 *    password is chosen.
 */

export const FLASH_COOKIE = 'sv_flash';
export const RECOVERY_COOKIE = 'sv_recovery';
const FLASH_MAX_AGE = 60;
/** Better Auth's reset token lives an hour; the form has half an hour once the link is opened. */
export const RECOVERY_MAX_AGE = 30 * 60;

function attributes(maxAge: number): string {
  const secure = baseUrl().startsWith('https://');
  return `Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The value of cookie `name` in the request, or null. */
export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() === name) {
      try {
        return decodeURIComponent(part.slice(separator + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** Set-Cookie for a toast that the page at `path` will show on its next load. */
export function flashCookie(key: AccountToastKey, path: string): string {
  const value = encodeURIComponent(JSON.stringify({ key, path, id: randomBytes(6).toString('hex') }));
  return `${FLASH_COOKIE}=${value}; ${attributes(FLASH_MAX_AGE)}`;
}

export interface Flash {
  key: AccountToastKey;
  /** Unique per redirect: the browser shows a toast with a given id once. */
  id: string;
}

/**
 * The toast waiting for the page at `pathname`, and the Set-Cookie that consumes it (null when
 * there is none, or when it belongs to another page).
 */
export function consumeFlash(request: Request, pathname: string): { flash: Flash | null; setCookie: string | null } {
  const raw = readCookie(request, FLASH_COOKIE);
  if (!raw) return { flash: null, setCookie: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { flash: null, setCookie: expiredCookie(FLASH_COOKIE) };
  }
  const value = (parsed && typeof parsed === 'object' ? parsed : {}) as { key?: unknown; path?: unknown; id?: unknown };
  if (!isAccountToastKey(value.key) || typeof value.id !== 'string') {
    return { flash: null, setCookie: expiredCookie(FLASH_COOKIE) };
  }
  if (value.path !== pathname) return { flash: null, setCookie: null };
  return { flash: { key: value.key, id: value.id }, setCookie: expiredCookie(FLASH_COOKIE) };
}

export function recoveryCookie(token: string, maxAge = RECOVERY_MAX_AGE): string {
  return `${RECOVERY_COOKIE}=${encodeURIComponent(token)}; ${attributes(Math.max(1, Math.floor(maxAge)))}`;
}

/** An accounting export's refusal, for « Exports comptables » to show once. */
export const EXPORT_ERROR_COOKIE = 'sv_export_error';

/**
 * Set-Cookie carrying an export's refusal to the page that shows it, for a minute. Never in the
 * address: a link anyone can write would put its own words in the back office's alert.
 */
export function exportErrorCookie(message: string): string {
  return `${EXPORT_ERROR_COOKIE}=${encodeURIComponent(message)}; ${attributes(60)}`;
}

export function expiredCookie(name: string): string {
  return `${name}=; ${attributes(0)}`;
}
