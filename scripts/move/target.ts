import pg from 'pg';

/*
 * What the move checks on the target before writing anything (docs/operations.md, « Moving to an
 * external PostgreSQL »): a PostgreSQL the shop supports, a database in UTF-8, and nothing in it
 * yet. A refusal says why in one French sentence and leaves the target as it was.
 */

/** The oldest major version the shop runs on (Debian 12's). */
export const MINIMUM_MAJOR = 15;

export class TargetRefusedError extends Error {
  override name = 'TargetRefusedError';
}

export interface TargetFacts {
  /** e.g. 15.8 */
  version: string;
  major: number;
  database: string;
  role: string;
}

/** The URL with its password hidden, for messages. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return parsed.toString();
    const user = parsed.username ? `${parsed.username}:` : ':';
    return `${parsed.protocol}//${user}***@${parsed.host}${parsed.pathname}${parsed.search}`;
  } catch {
    return '(URL illisible)';
  }
}

export async function connectTarget(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  // A connection dropped while idle must not end the process: the query in flight fails instead.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw new TargetRefusedError(
      `Impossible d’ouvrir la base cible ${withoutPassword(url)}\u00a0: ${(error as Error).message}`,
    );
  }
  return client;
}

/**
 * Refuses a target older than PostgreSQL 15, not in UTF-8, or holding rows already. A database
 * that has the shop's tables with no row in any of them (a move cut short: its rows are written in
 * one transaction) counts as empty, so that the move can simply be run again.
 */
export async function checkTarget(client: pg.Client): Promise<TargetFacts> {
  const { rows } = await client.query<{ version: string; num: number; database: string; role: string; utf8: boolean }>(
    `select current_setting('server_version') as version,
            current_setting('server_version_num')::int as num,
            current_database() as database, current_user as role,
            pg_encoding_to_char(d.encoding) = 'UTF8' as utf8
       from pg_database d where d.datname = current_database()`,
  );
  const facts = rows[0];
  if (!facts) throw new Error('the target did not describe itself');
  const major = Math.floor(facts.num / 10000);
  if (major < MINIMUM_MAJOR) {
    throw new TargetRefusedError(
      `La base cible tourne sous PostgreSQL ${facts.version}\u00a0: la boutique demande PostgreSQL ${MINIMUM_MAJOR} ou plus récent. Rien n’a été écrit.`,
    );
  }
  if (!facts.utf8) {
    throw new TargetRefusedError(
      `La base cible « ${facts.database} » n’est pas en UTF-8\u00a0: recréez-la avec ` +
        `« createdb --encoding=UTF8 --template=template0 ». Rien n’a été écrit.`,
    );
  }
  const occupied = await tablesWithRows(client);
  if (occupied.length) {
    const shown = occupied.slice(0, 5).join(', ') + (occupied.length > 5 ? `… (${occupied.length} tables)` : '');
    throw new TargetRefusedError(
      `La base cible « ${facts.database} » n’est pas vide (${shown})\u00a0: la copie se fait toujours dans une base vide, ` +
        'pour ne jamais mêler deux boutiques. Créez une base neuve (ou supprimez et recréez celle-ci), puis relancez. ' +
        'Rien n’a été écrit.',
    );
  }
  return { version: facts.version, major, database: facts.database, role: facts.role };
}

/**
 * What makes the target not empty: any table, unless they are the shop's own made by its
 * migrations (their journal is there) and hold no row.
 */
async function tablesWithRows(client: pg.Client): Promise<string[]> {
  const { rows: all } = await client.query<{ schema: string; name: string }>(
    `select n.nspname::text as schema, c.relname::text as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p', 'm', 'f')
        and n.nspname not in ('pg_catalog', 'information_schema')
        and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'
      order by 1, 2`,
  );
  const journal = (t: { schema: string; name: string }) => t.schema === 'drizzle' && t.name === '__drizzle_migrations';
  const tables = all.filter((t) => !journal(t));
  const label = ({ schema, name }: { schema: string; name: string }) =>
    schema === 'public' ? name : `${schema}.${name}`;
  if (!all.some(journal)) return tables.map(label);
  const occupied: string[] = [];
  for (const { schema, name } of tables) {
    const table = `${client.escapeIdentifier(schema)}.${client.escapeIdentifier(name)}`;
    const { rowCount } = await client.query(`select 1 from ${table} limit 1`).catch(() => ({ rowCount: 1 }));
    if (rowCount) occupied.push(label({ schema, name }));
  }
  return occupied;
}
