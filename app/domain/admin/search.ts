/*
 * What a back-office search term means for the database, decided without I/O so that it can be
 * tested on its own:
 *  - a piece of name or e-mail: a `LIKE '%term%'` on lower-cased text, which the trigram indexes
 *    answer (from 3 characters: shorter patterns have no trigram and would read the whole index);
 *  - a document number (`SV-2026-000042`, `FA-2026-000001`, `AV-…`), typed whole or in part:
 *    `SV-2026-00` is a prefix (a range on the unique b-tree index), `42` or `2026-42` the
 *    sequence number 42 of each year (exact look-ups on the same index).
 */

export type DocumentPrefix = 'SV' | 'FA' | 'AV';

/** Text patterns need this many characters to use a trigram index. */
export const MIN_TEXT_SEARCH_LENGTH = 3;

/** Escapes LIKE's wildcards (`%`, `_`) and its escape character. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `%martin%` for "Martin", or null when the term is too short for the index. */
export function textPattern(q: string): string | null {
  const term = q.trim().toLowerCase();
  if (term.length < MIN_TEXT_SEARCH_LENGTH) return null;
  return `%${escapeLike(term)}%`;
}

export interface NumberMatch {
  /** Whole numbers to look up. */
  exact: string[];
  /** `[from, to)`: numbers starting with `from` (`to` is `from` followed by a character above any digit). */
  range: [string, string] | null;
}

const pad = (sequence: string) => sequence.padStart(6, '0');

/**
 * The document numbers a term can designate. `years` are the years numbers may carry (for a bare
 * sequence number); a number is `PREFIX-YYYY-NNNNNN`.
 */
export function documentNumberMatch(q: string, prefix: DocumentPrefix, years: readonly number[]): NumberMatch {
  const term = q.trim().toUpperCase().replace(/\s+/g, '');
  const none: NumberMatch = { exact: [], range: null };
  if (term === '') return none;

  // "42", "000042": that sequence number in each year.
  if (/^\d{1,6}$/.test(term)) {
    return { exact: years.map((year) => `${prefix}-${year}-${pad(term)}`), range: null };
  }
  // "2026-42", "2026-000042": one number.
  const yearAndSequence = /^(\d{4})-(\d{1,6})$/.exec(term);
  if (yearAndSequence) {
    return { exact: [`${prefix}-${yearAndSequence[1]}-${pad(yearAndSequence[2] as string)}`], range: null };
  }
  // "SV", "SV-2026", "SV-2026-0000", "SV2026000042": a prefix (dashes optional when typing).
  const parts = /^([A-Z]{2})-?(\d{0,4})(?:-?(\d{0,6}))?$/.exec(term);
  if (parts && parts[1] === prefix) {
    const year = parts[2] ?? '';
    const sequence = parts[3] ?? '';
    let from = prefix;
    if (year !== '' || term.length > 2) from += '-';
    from += year;
    if (year.length === 4 && (sequence !== '' || term.endsWith('-'))) from += `-${sequence}`;
    if (year.length === 4 && sequence.length === 6) return { exact: [from], range: null };
    // '~' sorts after digits, letters and '-', the only characters of a number.
    return { exact: [], range: [from, `${from}~`] };
  }
  return none;
}

/** Whether a term can match anything: a text pattern or a document number. */
export function hasSearchCriteria(q: string, prefixes: readonly DocumentPrefix[], years: readonly number[]): boolean {
  if (textPattern(q)) return true;
  return prefixes.some((prefix) => {
    const match = documentNumberMatch(q, prefix, years);
    return match.exact.length > 0 || match.range !== null;
  });
}

/** The years a bare sequence number is looked up in: from `first` to `last`, at most ten. */
export function numberYears(first: number, last: number): number[] {
  const start = Math.max(first, last - 9);
  const years: number[] = [];
  for (let year = last; year >= start; year--) years.push(year);
  return years;
}
