import { log } from '../log.server';
import { openEmbeddedPostgres, type SupervisionOptions } from './embedded.server';
import { migrateDatabase } from './migrate.server';
import { ensureRuntimeRole, grantRuntimeRole, roleOf } from './runtime-role.server';

export interface OpenedDatabase {
  /** What the shop connects as: no superuser, owner of nothing (docs/decisions/020). */
  url: string;
  /** The owner's (the migrations', backups' and restores'). */
  ownerUrl: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/**
 * The database named by DATABASE_URL, or the embedded PostgreSQL of DATA_DIR (started here, or the
 * one a running server already started), migrated as its owner, and published as
 * process.env.DATABASE_URL for the connection pool, with the role the shop runs as
 * (docs/decisions/020): in embedded mode a role of its own made here; with DATABASE_URL, that
 * URL's role, the migrations running as DATABASE_OWNER_URL's when it is given (the runtime role
 * then granted what it needs), as DATABASE_URL's own otherwise.
 */
export async function openDatabase({
  role,
  databaseUrl,
  ownerUrl = process.env.DATABASE_OWNER_URL || undefined,
  dataDir,
  onLog,
}: {
  role: 'server' | 'script';
  databaseUrl?: string;
  ownerUrl?: string;
  dataDir: string;
  onLog?: (line: string) => void;
}): Promise<OpenedDatabase> {
  if (databaseUrl) {
    await migrateDatabase(ownerUrl ?? databaseUrl);
    if (ownerUrl && roleOf(ownerUrl) !== roleOf(databaseUrl)) await grantRuntimeRole(ownerUrl, roleOf(databaseUrl));
    return { url: databaseUrl, ownerUrl: ownerUrl ?? databaseUrl, embedded: false, stop: async () => {} };
  }
  const cluster = await openEmbeddedPostgres({
    dataDir,
    role,
    onLog,
    supervise: role === 'server' ? supervision() : undefined,
  });
  try {
    await ensureDatabase(cluster.url, 'soovenirs');
    const owner = cluster.url.replace(/\/postgres$/, '/soovenirs');
    await migrateDatabase(owner);
    const url = await ensureRuntimeRole(owner);
    process.env.DATABASE_URL = url;
    return { url, ownerUrl: owner, embedded: true, stop: cluster.stop };
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
