import { log } from '../log.server';
import { openEmbeddedPostgres, type SupervisionOptions } from './embedded.server';
import { migrateDatabase } from './migrate.server';

export interface OpenedDatabase {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/**
 * The database named by DATABASE_URL, or the embedded PostgreSQL of DATA_DIR (started here, or the
 * one a running server already started), migrated, and published as process.env.DATABASE_URL for
 * the connection pool.
 */
export async function openDatabase({
  role,
  databaseUrl,
  dataDir,
  onLog,
}: {
  role: 'server' | 'script';
  databaseUrl?: string;
  dataDir: string;
  onLog?: (line: string) => void;
}): Promise<OpenedDatabase> {
  if (databaseUrl) {
    await migrateDatabase(databaseUrl);
    return { url: databaseUrl, embedded: false, stop: async () => {} };
  }
  const cluster = await openEmbeddedPostgres({
    dataDir,
    role,
    onLog,
    supervise: role === 'server' ? supervision() : undefined,
  });
  try {
    await ensureDatabase(cluster.url, 'soovenirs');
    const url = cluster.url.replace(/\/postgres$/, '/soovenirs');
    await migrateDatabase(url);
    process.env.DATABASE_URL = url;
    return { url, embedded: true, stop: cluster.stop };
  } catch (error) {
    if (cluster.owned) await cluster.stop();
    throw error;
  }
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/**
 * The server keeps its embedded PostgreSQL running: if it stops under the app (crash, OOM killer,
 * someone's `pg_ctl stop`), it is started again while the app answers 503 for what needs the
 * database (docs/decisions/007-database-outages.md). EMBEDDED_PG_RESTART_DELAY_MS sets the first
 * delay (1 s by default); the resilience tests lengthen it to watch the outage from outside.
 */
function supervision(): SupervisionOptions {
  const configured = Number(process.env.EMBEDDED_PG_RESTART_DELAY_MS);
  return {
    restartDelayMs: Number.isFinite(configured) && configured >= 0 ? configured : undefined,
    onExit: ({ pid, retryInMs }) =>
      log.error({ pid, retryInMs }, 'the embedded PostgreSQL stopped unexpectedly: restarting it'),
    onRestart: ({ pid, adopted }) =>
      log.warn(
        { pid, adopted },
        adopted ? 'the embedded PostgreSQL is back (started elsewhere)' : 'the embedded PostgreSQL restarted',
      ),
    onRestartFailed: ({ error, retryInMs }) =>
      log.error({ err: error, retryInMs }, 'the embedded PostgreSQL could not be restarted: trying again'),
  };
}
