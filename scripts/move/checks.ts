import type pg from 'pg';
import { quoteIdentifier, type TableShape } from './tables';

/*
 * The figures compared on both sides after a move: every table's row count and the SHA-256 of its
 * rows, the sums of the money columns (orders' totals, payments, refunds, invoices, credit notes,
 * gift cards…), and the customers' files (count and bytes). Money columns are found by name, so
 * that a new table of money is checked without touching this file.
 */

/** The shop's names for amounts in cents (docs/architecture.md: money is integer cents). */
const MONEY_COLUMN = /^(amount|initial_amount|total_price|line_total|unit_price|vat|discount|refund_cents)$/;

export interface TableFigures {
  rows: number;
  /** `table.column` → sum in cents, as text (exact whatever the size). */
  sums: Record<string, string>;
  sha256: string;
}

export type Figures = Map<string, TableFigures>;

/** The money columns of the tables (integer columns named as amounts). */
export async function moneyColumns(client: pg.ClientBase, tables: TableShape[]): Promise<Map<string, string[]>> {
  const { rows } = await client.query<{ table: string; column: string }>(
    `select c.relname::text as table, a.attname::text as column
       from pg_attribute a
       join pg_class c on c.oid = a.attrelid
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
        and a.atttypid in ('int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'numeric'::regtype)
      order by 1, a.attnum`,
  );
  const known = new Set(tables.map((t) => t.name));
  const columns = new Map<string, string[]>();
  for (const { table, column } of rows) {
    if (!known.has(table) || !MONEY_COLUMN.test(column)) continue;
    columns.set(table, [...(columns.get(table) ?? []), column]);
  }
  return columns;
}

/** Row count and money sums of one table, in one scan. */
export async function countAndSum(
  client: pg.ClientBase,
  table: string,
  money: string[],
): Promise<{ rows: number; sums: Record<string, string> }> {
  const sums = money.map((column, i) => `coalesce(sum(${quoteIdentifier(column)}), 0)::text as s${i}`);
  const { rows } = await client.query<Record<string, string>>(
    `select count(*)::text as n${sums.length ? `, ${sums.join(', ')}` : ''} from public.${quoteIdentifier(table)}`,
  );
  const row = rows[0] ?? {};
  return {
    rows: Number(row.n ?? 0),
    sums: Object.fromEntries(money.map((column, i) => [`${table}.${column}`, row[`s${i}`] ?? '0'])),
  };
}

export interface Difference {
  what: string;
  source: string;
  target: string;
}

/** Every figure that differs between the two sides (a table missing on one side included). */
export function compareFigures(source: Figures, target: Figures): Difference[] {
  const differences: Difference[] = [];
  for (const [table, s] of source) {
    const t = target.get(table);
    if (!t) {
      differences.push({ what: `${table} (table)`, source: 'présente', target: 'absente' });
      continue;
    }
    if (s.rows !== t.rows)
      differences.push({ what: `${table} (lignes)`, source: String(s.rows), target: String(t.rows) });
    for (const [sum, value] of Object.entries(s.sums)) {
      if (t.sums[sum] !== value) differences.push({ what: sum, source: value, target: t.sums[sum] ?? '—' });
    }
    if (s.sha256 !== t.sha256) {
      differences.push({ what: `${table} (contenu)`, source: s.sha256.slice(0, 12), target: t.sha256.slice(0, 12) });
    }
  }
  for (const table of target.keys()) {
    if (!source.has(table)) differences.push({ what: `${table} (table)`, source: 'absente', target: 'présente' });
  }
  return differences;
}
