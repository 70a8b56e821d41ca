import { openEmbeddedPostgres } from './embedded.server';
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
  const cluster = await openEmbeddedPostgres({ dataDir, role, onLog });
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
