/*
 * The version of the general terms of sale that a customer accepts when creating an account or
 * placing an order: the date of the one text, content/pages/cgv.md (front matter `modified`),
 * which /cgv and the registration dialog both show. Recorded with the date of the acceptance on
 * the account and on the order (terms_version, terms_accepted_at), so that the shop can show which
 * text applied. A unit test (terms.test.ts) fails when the page's date and this one differ.
 */
export const TERMS_VERSION = '2026-11-24';

/** The page of that text: /cgv, content/pages/cgv.md. */
export const TERMS_PAGE_SLUG = 'cgv';

/** How the back office names a version: « CGV du 21/11/2026 ». */
export function termsVersionLabel(version: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(version);
  return match ? `CGV du ${match[3]}/${match[2]}/${match[1]}` : `CGV ${version}`;
}

/**
 * What the customer reads wherever the terms are offered: « Version du 21/11/2026 ». Takes the
 * version or the page's `modified` date as the content source gives it (« 2026-11-21T00:00:00.000Z »).
 */
export function termsVersionNotice(version: string = TERMS_VERSION): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})(T|$)/.exec(version);
  return match ? `Version du ${match[3]}/${match[2]}/${match[1]}` : `Version ${version}`;
}
