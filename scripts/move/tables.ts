import { createHash } from 'node:crypto';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

/*
 * The rows of the shop's tables, from one PostgreSQL to another (docs/decisions/039): COPY … TO
 * STDOUT on the source streamed into COPY … FROM STDIN on the target, with back-pressure, so that
 * memory stays constant whatever a table's size. The text format is the one both ends read the
 * same way across major versions (17 to 15 included); the sessions' settings below make both
 * servers write a row with the same bytes, so that the content read back from the target hashes to
 * what was read from the source.
 */

/** One table of the `public` schema: its name and the columns a COPY writes (no generated ones). */
export interface TableShape {
  name: string;
  columns: string[];
}

/** Same text for the same values on both servers (dates, intervals, floats, bytea, encoding). */
export const COPY_SESSION_SETTINGS = [
  "set datestyle = 'ISO, MDY'",
  "set timezone = 'UTC'",
  "set intervalstyle = 'postgres'",
  'set extra_float_digits = 1',
  "set bytea_output = 'hex'",
  "set client_encoding = 'UTF8'",
  // A large table read back from its start, as written, not from where another scan is.
  'set synchronize_seqscans = off',
  // The copied payments and refunds are not new money: the payment journal's triggers leave them to
  // the copied journal (they skip for this variable in the tables' owner's session only).
  "set soovenirs.copying_rows = 'on'",
].join('; ');

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The tables of the `public` schema with their columns, by name. */
export async function listTables(client: pg.ClientBase): Promise<TableShape[]> {
  const { rows } = await client.query<{ name: string; columns: string[] }>(
    `select c.relname::text as name,
            array_agg(a.attname::text order by a.attnum) as columns
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      where n.nspname = 'public' and c.relkind = 'r'
      group by c.relname
      order by c.relname`,
  );
  return rows;
}

/**
 * The tables in an order where every table comes after those its foreign keys point to, so that
 * each COPY finds the rows it refers to (the constraints are not deferrable). A table's reference
 * to itself is checked at the end of its own COPY: no order needed within a table.
 */
export async function foreignKeyOrder(client: pg.ClientBase, tables: TableShape[]): Promise<TableShape[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `select distinct child.relname::text as child, parent.relname::text as parent
       from pg_constraint k
       join pg_class child on child.oid = k.conrelid
       join pg_class parent on parent.oid = k.confrelid
       join pg_namespace n on n.oid = child.relnamespace
      where k.contype = 'f' and n.nspname = 'public' and k.conrelid <> k.confrelid`,
  );
  const parents = new Map(tables.map((t) => [t.name, new Set<string>()]));
  for (const { child, parent } of rows) parents.get(child)?.add(parent);
  const ordered: TableShape[] = [];
  const placed = new Set<string>();
  let remaining = [...tables];
  while (remaining.length) {
    const ready = remaining.filter((t) => [...(parents.get(t.name) ?? [])].every((p) => placed.has(p)));
    if (!ready.length) {
      throw new Error(`foreign keys form a cycle between ${remaining.map((t) => t.name).join(', ')}`);
    }
    for (const table of ready) {
      ordered.push(table);
      placed.add(table.name);
    }
    remaining = remaining.filter((t) => !placed.has(t.name));
  }
  return ordered;
}

function copyStatement(table: TableShape, direction: 'to stdout' | 'from stdin'): string {
  const columns = table.columns.map(quoteIdentifier).join(', ');
  return `copy public.${quoteIdentifier(table.name)} (${columns}) ${direction}`;
}

/** Streams a table's rows from `source` into `target`; returns the rows and the SHA-256 of their text. */
export async function copyTable(
  source: pg.ClientBase,
  target: pg.ClientBase,
  table: TableShape,
): Promise<{ rows: number; sha256: string }> {
  const hash = createHash('sha256');
  const reading = source.query(copyTo(copyStatement(table, 'to stdout')));
  const writing = target.query(copyFrom(copyStatement(table, 'from stdin')));
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(reading, tap, writing);
  return { rows: writing.rowCount, sha256: hash.digest('hex') };
}

/** The SHA-256 of a table's rows as COPY writes them (in the order they are stored). */
export async function tableDigest(client: pg.ClientBase, table: TableShape): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(
    client.query(copyTo(copyStatement(table, 'to stdout'))),
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done();
      },
    }),
  );
  return hash.digest('hex');
}

/** The `public` schema's sequences (serial and identity columns) with their state. */
export async function readSequences(
  client: pg.ClientBase,
): Promise<{ name: string; lastValue: string; isCalled: boolean }[]> {
  const { rows: names } = await client.query<{ name: string }>(
    `select c.relname::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
  );
  const sequences: { name: string; lastValue: string; isCalled: boolean }[] = [];
  for (const { name } of names) {
    const { rows } = await client.query<{ last_value: string; is_called: boolean }>(
      `select last_value::text, is_called from public.${quoteIdentifier(name)}`,
    );
    const row = rows[0];
    if (row) sequences.push({ name, lastValue: row.last_value, isCalled: row.is_called });
  }
  return sequences;
}

/** Sets each sequence of the target where the source's is: no id handed out twice. */
export async function writeSequences(
  client: pg.ClientBase,
  sequences: { name: string; lastValue: string; isCalled: boolean }[],
): Promise<void> {
  for (const sequence of sequences) {
    await client.query('select setval($1::regclass, $2::bigint, $3)', [
      `public.${quoteIdentifier(sequence.name)}`,
      sequence.lastValue,
      sequence.isCalled,
    ]);
  }
}
