import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { log } from '../log.server';
import * as schema from './schema';
// Before any transaction: a failed BEGIN gives its connection back (see the file).
import './transaction-release.server';

export type Database = NodePgDatabase<typeof schema>;
/** A transaction handle, for functions that must write inside the caller's transaction. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

interface DbState {
  pool: pg.Pool;
  db: Database;
}

// One pool per process, made on first use from DATABASE_URL (docs/decisions/002); the server bundle
// loads this module once, so the startup, the workers and the pages share it (docs/decisions/033).
let current: DbState | undefined;

// PostgreSQL `bigint` (count(*), sums) as JavaScript numbers: our figures stay far below 2^53.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

function state(): DbState {
  if (!current) {
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
    // pool drops it and opens a new one for the next query. Said once per connection, as JSON.
    pool.on('error', (error) => log.warn({ err: error }, 'database: an idle connection was lost'));
    // Nor a client checked out at that moment (a transaction, a worker's claim): the pool listens to
    // its clients' errors only while they are idle, and an 'error' event nobody listens to ends the
    // process. Its query in flight fails with the error, and the pool drops it when it is released.
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    current = { pool, db: drizzle(pool, { schema }) };
  }
  return current;
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

/**
 * Closes the pool once every connection is back, or after `withinMs` with a warning: a connection
 * never given back must not keep the server from stopping its embedded PostgreSQL afterwards (the
 * timer also keeps the process alive until then: a promise nobody resolves ends Node with code 0).
 */
export async function closeDatabase(withinMs = 10_000): Promise<void> {
  const closing = current;
  current = undefined;
  if (!closing) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), withinMs);
  });
  try {
    if ((await Promise.race([closing.pool.end(), late])) === 'late') {
      const held = closing.pool.totalCount - closing.pool.idleCount;
      log.warn({ held }, 'database: connections still checked out at shutdown; closing without them');
    }
  } finally {
    clearTimeout(timer);
  }
}
