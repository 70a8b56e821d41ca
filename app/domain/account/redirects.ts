import { safeRedirect } from '../redirect';
import { isStaffRole } from '../staff/permissions';
import type { Role } from './session-user';

/*
 * Where the sign-in pages send people, as pure functions of the role
 * and of the page the visitor came from (`?redirectTo=`, always passed through safeRedirect).
 *
 *  - after signing in: back to the page that asked for it (a checkout, /profile, an admin page...),
 *    otherwise by role: admin to /admin, customers to /profile;
 *  - /login while already signed in: admin to /admin, others back to a checkout origin, else /;
 *  - /register while already signed in: a checkout origin, else /.
 */

export type AccountRole = Role;

/** Where the visitor came from, which sets the sign-in page's subtitle. */
export type LoginOrigin = 'checkout' | 'admin' | 'account';

/** Pages that must never be the destination after signing in: they would loop or sign out again. */
const AUTH_PAGES = ['/login', '/register', '/logout', '/setup-super-admin'];

function pathOf(to: string): string {
  return to.split(/[?#]/, 1)[0] ?? to;
}

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** The local path of `redirectTo`, or null when absent, foreign or a sign-in page. */
export function originPath(redirectTo: unknown): string | null {
  const to = safeRedirect(redirectTo, '');
  if (to === '') return null;
  const path = pathOf(to);
  if (AUTH_PAGES.some((page) => isUnder(path, page))) return null;
  return to;
}

/*
 * An order's documents: the invoice's or a credit note's PDF, the order slip, the prepaid
 * label, the files' ZIP, an original file, its thumbnail and preview. A signed-out owner who opens
 * one from an e-mail is sent to /login and back to it; the way back must then load it as a
 * document (a download), not as a page of the app.
 */
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const ORDER_DOCUMENTS = [
  new RegExp(`^/facture/${UUID}/pdf$`, 'i'),
  new RegExp(`^/commande/${UUID}/(bordereau\\.pdf|etiquette\\.pdf|fichiers\\.zip)$`, 'i'),
  new RegExp(`^/commande/${UUID}/fichiers/${UUID}(/miniature\\.jpg|/apercu\\.jpg)?$`, 'i'),
];

/** Whether `to` (a local path, query allowed) is one of an order's documents rather than a page. */
export function isDocumentPath(to: string | null): to is string {
  if (to === null) return false;
  const path = pathOf(to);
  return ORDER_DOCUMENTS.some((pattern) => pattern.test(path));
}

export function isCheckoutPath(to: string | null): to is string {
  return to !== null && isUnder(pathOf(to), '/checkout');
}

export function isAdminPath(to: string | null): to is string {
  return to !== null && isUnder(pathOf(to), '/admin');
}

export function loginOrigin(redirectTo: unknown): LoginOrigin {
  const to = originPath(redirectTo);
  if (isCheckoutPath(to)) return 'checkout';
  if (isAdminPath(to)) return 'admin';
  return 'account';
}

/** The subtitle under "Connexion", by origin. */
export const LOGIN_SUBTITLES: Readonly<Record<LoginOrigin, string>> = {
  checkout: 'Connectez-vous pour finaliser votre commande',
  admin: 'Connectez-vous pour accéder au tableau de bord d’administration',
  account: 'Connectez-vous pour accéder à votre compte',
};

export const ADMIN_ZONE_NOTICE = 'Cette zone est réservée aux administrateurs.';

/** The home of a role: the staff to /admin, customers to /profile. */
export function roleHome(role: AccountRole): string {
  return isStaffRole(role) ? '/admin' : '/profile';
}

/** After a sign-in (password, magic link, new password, registration). */
export function destinationAfterSignIn(role: AccountRole, redirectTo: unknown): string {
  return originPath(redirectTo) ?? roleHome(role);
}

/** /login visited while signed in (not in password recovery). */
export function destinationWhenSignedIn(role: AccountRole, redirectTo: unknown): string {
  if (isStaffRole(role)) return '/admin';
  const to = originPath(redirectTo);
  return isCheckoutPath(to) ? to : '/';
}

/** /register visited while signed in. */
export function registerDestinationWhenSignedIn(redirectTo: unknown): string {
  const to = originPath(redirectTo);
  return isCheckoutPath(to) ? to : '/';
}

/** `path` with `?redirectTo=` kept, for the links between /login and /register and the modes. */
export function withRedirectTo(path: string, redirectTo: unknown, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(extra);
  const to = originPath(redirectTo);
  if (to) params.set('redirectTo', to);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
