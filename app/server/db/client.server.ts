import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema';

export type Database = NodePgDatabase<typeof schema>;
/** A transaction handle, for functions that must write inside the caller's transaction. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

interface DbState {
  pool: pg.Pool;
  db: Database;
}

// One pool per process, shared by the Express server and the React Router build (which bundles its
// own copy of this module), hence a global rather than a module variable.
const KEY = Symbol.for('soovenirs.db');
type WithDb = typeof globalThis & { [KEY]?: DbState };

// PostgreSQL `bigint` (count(*), sums) as JavaScript numbers: our figures stay far below 2^53.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

function state(): DbState {
  const g = globalThis as WithDb;
  if (!g[KEY]) {
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString) throw new Error('DATABASE_URL is not set: the database was not started.');
    const pool = new pg.Pool({
      connectionString,
      max: Number(process.env.DB_POOL_MAX ?? 10),
      // A database that does not answer (host unreachable, server frozen) fails the request after
      // this long instead of holding it, and the visitor gets the error page (docs/decisions/007).
      connectionTimeoutMillis: Number(process.env.DB_CONNECT_TIMEOUT_MS ?? 10_000),
      // Notices a connection silently dropped by a network device before a query is sent on it.
      keepAlive: true,
    });
    // An idle client losing its connection (database restarted) must not crash the process: the
    // pool drops it and opens a new one for the next query.
    pool.on('error', () => {});
    g[KEY] = { pool, db: drizzle(pool, { schema }) };
  }
  return g[KEY];
}

export function db(): Database {
  return state().db;
}

export function pool(): pg.Pool {
  return state().pool;
}

/** For /healthz: true when a query round-trips within the time limit. */
export async function databaseIsUp(timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const probe = pool()
    .query('select 1')
    .then(() => true)
    .catch(() => false);
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function closeDatabase(): Promise<void> {
  const g = globalThis as WithDb;
  const current = g[KEY];
  g[KEY] = undefined;
  await current?.pool.end();
}
