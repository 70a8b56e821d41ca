/*
 * Redirect targets that arrive from the outside (`?redirectTo=` on /login, a form field) must stay
 * on this site: an attacker's link to /login?redirectTo=https://evil.example would otherwise send a
 * freshly signed-in customer to a look-alike page (open redirect).
 */

const ORIGIN = 'http://soovenirs.invalid';

/**
 * `to` when it is a local path (one leading `/`, not `//` nor `/\`, no control character, no
 * scheme), otherwise `fallback`.
 */
export function safeRedirect(to: unknown, fallback = '/'): string {
  if (typeof to !== 'string' || to === '') return fallback;
  if (!to.startsWith('/') || to.startsWith('//')) return fallback;
  // Browsers read a backslash as a slash ("/\evil.example" is "//evil.example") and drop tabs and
  // new lines inside URLs ("/\t/evil.example"): refuse both anywhere in the path.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
  if (/[\\\u0000-\u001f\u007f]/.test(to)) return fallback;
  // Last check by the URL parser itself: the target must resolve to the same origin.
  try {
    if (new URL(to, ORIGIN).origin !== ORIGIN) return fallback;
  } catch {
    return fallback;
  }
  return to;
}
