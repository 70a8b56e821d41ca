/*
 * The version of the general terms of sale (content/pages/cgv.md, front matter `modified`) that a
 * customer accepts when creating an account or placing an order. Recorded with the date of the
 * acceptance on the account and on the order (terms_version, terms_accepted_at), so that the shop
 * can show which text applied. Change it whenever /cgv changes (issue 17 unifies the /cgv page and
 * the registration dialog's summary, and may derive this from the page).
 */
export const TERMS_VERSION = '2026-11-21';

/** How the back office names a version: « CGV du 21/11/2026 ». */
export function termsVersionLabel(version: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(version);
  return match ? `CGV du ${match[3]}/${match[2]}/${match[1]}` : `CGV ${version}`;
}
