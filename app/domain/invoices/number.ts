import { SHOP_TIME_ZONE } from '../format';

/*
 * Numbers of the accounting documents: `FA-2026-000001` for invoices, `AV-2026-000001` for credit
 * notes (avoirs). One continuous sequence per kind and per calendar year (French time), without
 * gaps: the database counter `invoice_counters(kind, year, last)` is incremented in the
 * transaction that issues the document (server/invoices), so a rolled-back transaction gives its
 * number back.
 *
 * Documents for money taken by the built-in sandbox (a demonstration shop, docs/payments.md
 * « The sandbox ») have their own series, `TEST-FA-2026-000001` and `TEST-AV-2026-000001`, counted
 * apart (counter kinds `demo_invoice`, `demo_credit_note`): the real series stays gapless and no
 * demonstration document can be taken for a real one.
 */

export const DOCUMENT_KINDS = ['invoice', 'credit_note'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** The counter (invoice_counters.kind) of a document kind, real or demonstration. */
export type CounterKind = DocumentKind | `demo_${DocumentKind}`;

export const DEMO_PREFIX = 'TEST-';

export function counterKind(kind: DocumentKind, demo: boolean): CounterKind {
  return demo ? `demo_${kind}` : kind;
}

export const DOCUMENT_PREFIXES: Readonly<Record<DocumentKind, string>> = { invoice: 'FA', credit_note: 'AV' };

export const DOCUMENT_TITLES: Readonly<Record<DocumentKind, string>> = { invoice: 'Facture', credit_note: 'Avoir' };

/** At least six digits; a year with a millionth document gets a seventh rather than wrapping. */
export function formatDocumentNumber(kind: DocumentKind, year: number, sequence: number, demo = false): string {
  if (!Number.isInteger(year) || year < 2000 || year > 9999) throw new RangeError(`invalid year: ${year}`);
  if (!Number.isSafeInteger(sequence) || sequence < 1) throw new RangeError(`invalid sequence: ${sequence}`);
  return `${demo ? DEMO_PREFIX : ''}${DOCUMENT_PREFIXES[kind]}-${year}-${String(sequence).padStart(6, '0')}`;
}

export function parseDocumentNumber(
  value: string,
): { kind: DocumentKind; year: number; sequence: number; demo?: true } | null {
  const match = /^(TEST-)?(FA|AV)-(\d{4})-(\d{6,})$/.exec(value);
  if (!match) return null;
  return {
    kind: match[2] === 'FA' ? 'invoice' : 'credit_note',
    year: Number(match[3]),
    sequence: Number(match[4]),
    ...(match[1] ? { demo: true as const } : {}),
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
