import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

/** Applies the committed SQL migrations in drizzle/; a no-op when they are all applied already. */
export async function migrateDatabase(
  connectionString: string,
  migrationsFolder = path.resolve('drizzle'),
): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    // Two instances starting at once must not apply the same migration twice.
    await client.query('select pg_advisory_lock(72023001)');
    await migrate(drizzle(client), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock(72023001)').catch(() => {});
    await client.end();
  }
}
