/*
 * French typography and formats for the e-mails (and any other French text built in code):
 *  - U+202F (narrow no-break space) before ; : ! ? and inside « », so that the sign never starts a
 *    line;
 *  - amounts as Intl's fr-FR euro format: `1 234,50 €` (U+202F between thousands, U+00A0 before €);
 *  - dates as `21/11/2026`, in the shop's time zone (Paris), whatever the server's zone.
 */

export const NNBSP = '\u202F';
export const NBSP = '\u00A0';
export const SHOP_TIME_ZONE = 'Europe/Paris';

const euros = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
const shortDate = new Intl.DateTimeFormat('fr-FR', { timeZone: SHOP_TIME_ZONE, dateStyle: 'short' });
const time = new Intl.DateTimeFormat('fr-FR', { timeZone: SHOP_TIME_ZONE, hour: '2-digit', minute: '2-digit' });

export const PRICE_UNAVAILABLE = 'Prix non disponible';

/** `3500` -> `35,00 €`; anything but a finite number -> `Prix non disponible`. */
export function formatEurosFromCents(cents: unknown): string {
  if (typeof cents !== 'number' || !Number.isFinite(cents)) return PRICE_UNAVAILABLE;
  return euros.format(cents / 100);
}

function toDate(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value);
}

/** `2026-11-21T10:00:00Z` -> `21/11/2026` (Paris time). */
export function formatDateFr(value: Date | string | number): string {
  return shortDate.format(toDate(value));
}

/** `2026-11-21T10:00:00Z` -> `21/11/2026 à 11:00` (Paris time). */
export function formatDateTimeFr(value: Date | string | number): string {
  const date = toDate(value);
  return `${shortDate.format(date)} à ${time.format(date)}`;
}

/**
 * Puts narrow no-break spaces where French typography wants them: before ; ! ? and before a colon
 * that ends a word (`Total : 35 €`, not `https://` nor `14:30`), and inside « ». Any ordinary or
 * no-break space already there is replaced. Meant for prose, not for URLs or addresses.
 */
export function frenchTypography(text: string): string {
  return (
    text
      // "mot ?" / "mot?" -> "mot\u202F?" ; only after a letter, digit, closing sign or space.
      .replace(/(?<=[\p{L}\p{N})\]»"'’.…%€])[ \u00A0\u202F]?([;!?])/gu, `${NNBSP}$1`)
      // A colon followed by a space or the end: a label, not a URL scheme or a time of day.
      .replace(/(?<=[\p{L}\p{N})\]»"'’.…%€])[ \u00A0\u202F]?:(?=\s|$)/gu, `${NNBSP}:`)
      .replace(/«[ \u00A0\u202F]?/g, `«${NNBSP}`)
      .replace(/[ \u00A0\u202F]?»/g, `${NNBSP}»`)
  );
}

/** A count with its word in French: the singular for 0 and 1 (« 0 reçu », « 1 reçu », « 2 reçus »). */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count}\u00a0${Math.abs(count) < 2 ? singular : plural}`;
}
