import path from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

export class MigrationsPendingError extends Error {
  constructor() {
    super(
      "The database has migrations to apply, and DATABASE_URL's role does not own it: set DATABASE_OWNER_URL to the owner's URL (docs/operations.md, « Database role »).",
    );
    this.name = 'MigrationsPendingError';
  }
}

/** When the last committed migration of `migrationsFolder` was made (0 without any), read once. */
const lastMigrationMillis = new Map<string, number>();
function lastMigrationOf(migrationsFolder: string): number {
  let millis = lastMigrationMillis.get(migrationsFolder);
  if (millis === undefined) {
    const migrations = readMigrationFiles({ migrationsFolder });
    millis = migrations[migrations.length - 1]?.folderMillis ?? 0;
    lastMigrationMillis.set(migrationsFolder, millis);
  }
  return millis;
}

/**
 * Whether every migration this code was built with is applied (what drizzle's migrator compares).
 * A database migrated further by a newer version of the shop counts as up to date: migrations are
 * written expand-then-contract (docs/operations.md, « Upgrading »), so this version still runs on it.
 */
export async function upToDate(
  client: Pick<pg.ClientBase, 'query'>,
  migrationsFolder = path.resolve('drizzle'),
): Promise<boolean> {
  const last = lastMigrationOf(migrationsFolder);
  if (!last) return true;
  const table = await client.query<{ ok: boolean }>(
    `select to_regclass('drizzle.__drizzle_migrations') is not null
      and has_table_privilege('drizzle.__drizzle_migrations', 'select') as ok`,
  );
  if (!table.rows[0]?.ok) return false;
  const applied = await client.query<{ at: string | null }>(
    'select max(created_at) as at from drizzle.__drizzle_migrations',
  );
  return Number(applied.rows[0]?.at ?? 0) >= last;
}

/** Whether the URL's role may create what migrations create (the owner, or a superuser). */
async function ownsDatabase(client: pg.Client): Promise<boolean> {
  const result = await client.query<{ ok: boolean }>(
    `select (select rolsuper from pg_roles where rolname = current_user)
      or pg_has_role(current_user, (select datdba from pg_database where datname = current_database()), 'member')
      as ok`,
  );
  return result.rows[0]?.ok === true;
}

/**
 * Applies the committed SQL migrations in drizzle/; a no-op when they are all applied already. The
 * shop's runtime role (db/runtime-role.server.ts) may call it: it only checks, and asks for the
 * owner's URL when something is left to apply.
 */
export async function migrateDatabase(
  connectionString: string,
  migrationsFolder = path.resolve('drizzle'),
): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    // Two instances starting at once must not apply the same migration twice.
    await client.query('select pg_advisory_lock(72023001)');
    if (await upToDate(client, migrationsFolder)) return;
    if (!(await ownsDatabase(client))) throw new MigrationsPendingError();
    await migrate(drizzle(client), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock(72023001)').catch(() => {});
    await client.end();
  }
}
