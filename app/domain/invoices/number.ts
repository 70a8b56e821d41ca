import { SHOP_TIME_ZONE } from '../format';

/*
 * Numbers of the accounting documents: `FA-2026-000001` for invoices, `AV-2026-000001` for credit
 * notes (avoirs). One continuous sequence per kind and per calendar year (French time), without
 * gaps: the database counter `invoice_counters(kind, year, last)` is incremented in the
 * transaction that issues the document (server/invoices), so a rolled-back transaction gives its
 * number back.
 */

export const DOCUMENT_KINDS = ['invoice', 'credit_note'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export const DOCUMENT_PREFIXES: Readonly<Record<DocumentKind, string>> = { invoice: 'FA', credit_note: 'AV' };

export const DOCUMENT_TITLES: Readonly<Record<DocumentKind, string>> = { invoice: 'Facture', credit_note: 'Avoir' };

/** At least six digits; a year with a millionth document gets a seventh rather than wrapping. */
export function formatDocumentNumber(kind: DocumentKind, year: number, sequence: number): string {
  if (!Number.isInteger(year) || year < 2000 || year > 9999) throw new RangeError(`invalid year: ${year}`);
  if (!Number.isSafeInteger(sequence) || sequence < 1) throw new RangeError(`invalid sequence: ${sequence}`);
  return `${DOCUMENT_PREFIXES[kind]}-${year}-${String(sequence).padStart(6, '0')}`;
}

export function parseDocumentNumber(value: string): { kind: DocumentKind; year: number; sequence: number } | null {
  const match = /^(FA|AV)-(\d{4})-(\d{6,})$/.exec(value);
  if (!match) return null;
  return {
    kind: match[1] === 'FA' ? 'invoice' : 'credit_note',
    year: Number(match[2]),
    sequence: Number(match[3]),
  };
}

const parisYear = new Intl.DateTimeFormat('en-CA', { timeZone: SHOP_TIME_ZONE, year: 'numeric' });
const parisDate = new Intl.DateTimeFormat('en-CA', {
  timeZone: SHOP_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The year a document issued at `date` is numbered in: the calendar year in France. */
export function documentYear(date: Date): number {
  return Number(parisYear.format(date));
}

/** `2026-11-21`: the calendar day in France. */
export function parisDay(date: Date): string {
  return parisDate.format(date);
}
