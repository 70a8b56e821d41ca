import { type SQL, sql } from 'drizzle-orm';
import { type DocumentPrefix, documentNumberMatch, numberYears, textPattern } from '~/domain/admin/search';

/*
 * SQL conditions of the back office's searches. Each branch is one an index answers (the unique
 * b-tree of a number column for exact numbers and prefixes, a trigram GIN index for `LIKE
 * '%term%'`), joined with OR so that PostgreSQL combines them with a BitmapOr instead of reading
 * the table. A term that matches nothing gives `false`, not a scan.
 */

/** Years a bare sequence number ("42") is looked up in: the last ten. */
export function searchYears(now: Date = new Date()): number[] {
  const year = now.getUTCFullYear();
  return numberYears(year - 9, year);
}

/** Exact numbers and prefix of `column` for the term (no condition when the term is no number). */
export function numberConditions(column: SQL, q: string, prefix: DocumentPrefix, years = searchYears()): SQL[] {
  const match = documentNumberMatch(q, prefix, years);
  const conditions: SQL[] = [];
  if (match.exact.length > 0) {
    conditions.push(
      sql`${column} in (${sql.join(
        match.exact.map((n) => sql`${n}`),
        sql`, `,
      )})`,
    );
  }
  if (match.range) conditions.push(sql`(${column} >= ${match.range[0]} and ${column} < ${match.range[1]})`);
  return conditions;
}

/** `column LIKE '%term%'` for a lower-cased text column with a trigram index, or nothing. */
export function textConditions(column: SQL, q: string): SQL[] {
  const pattern = textPattern(q);
  return pattern ? [sql`${column} like ${pattern}`] : [];
}

export function anyOf(conditions: SQL[]): SQL {
  if (conditions.length === 0) return sql`false`;
  return sql`(${sql.join(conditions, sql` or `)})`;
}

/** Orders whose number, customer name or e-mail (orders.search_text) matches. */
export function orderSearchCondition(q: string, alias = sql.raw('o')): SQL {
  return anyOf([...numberConditions(sql`${alias}.number`, q, 'SV'), ...textConditions(sql`${alias}.search_text`, q)]);
}

/**
 * Customer accounts whose name or e-mail matches. The expression is the one of the trigram index
 * asked for in docs/back-office.md (`user_search_trgm_idx`); without that index it is a scan of the
 * accounts, still correct.
 */
export function customerSearchCondition(q: string, alias = sql.raw('u')): SQL {
  return anyOf(textConditions(sql`lower(${alias}.name || ' ' || ${alias}.email)`, q));
}

/** The WHERE of a list: the conditions joined with AND, or nothing. */
export function whereAll(conditions: SQL[]): SQL {
  return conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
}

/** A text column of a raw query (timestamps arrive as text) as an ISO 8601 string. */
export function isoTimestamp(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  // PostgreSQL writes `2026-11-21 14:38:00.123+00`: ISO 8601 wants the T and a full offset.
  if (typeof value === 'string')
    return new Date(value.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00')).toISOString();
  return new Date(Number.NaN).toISOString();
}

export function isoTimestampOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : isoTimestamp(value);
}
