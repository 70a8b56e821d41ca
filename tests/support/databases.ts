import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { runtimeRoleUrl } from '~/server/db/runtime-role.server';

/** Name of the migrated template every test database is cloned from (one per test run). */
export const TEMPLATE_PREFIX = 'soovenirs_tpl_';

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs `fn` with a client connected to `url`, closed afterwards. */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database cloned from the migrated template. `url` connects as the role the shop runs as
 * (no superuser, owner of nothing: docs/decisions/020), as the tests' code should; `ownerUrl` as
 * its owner, for what only the owner may do (a test that changes the schema).
 */
export async function createTestDatabase(
  adminUrl: string,
  template: string,
): Promise<{ name: string; url: string; ownerUrl: string }> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, async (client) => {
    // Two clones of one template at the same instant can collide ("being accessed by other users").
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`create database ${name} template ${client.escapeIdentifier(template)}`);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || attempt > 50) throw error;
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
      }
    }
  });
  const ownerUrl = withDatabase(adminUrl, name);
  return { name, url: runtimeRoleUrl(ownerUrl), ownerUrl };
}

export async function dropTestDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, (client) =>
    client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`),
  );
}

export async function createTemplate(
  adminUrl: string,
  migrate: (url: string) => Promise<void>,
  name = `${TEMPLATE_PREFIX}${process.pid}_${randomBytes(3).toString('hex')}`,
): Promise<string> {
  await withClient(adminUrl, (client) => client.query(`create database ${client.escapeIdentifier(name)}`));
  await migrate(withDatabase(adminUrl, name));
  return name;
}

export async function templateExists(adminUrl: string, name: string): Promise<boolean> {
  const { rowCount } = await withClient(adminUrl, (client) =>
    client.query('select 1 from pg_database where datname = $1', [name]),
  );
  return rowCount === 1;
}

export async function dropTemplate(adminUrl: string, name: string): Promise<void> {
  await dropTestDatabase(adminUrl, name);
}

/** Runs `text` as the owner of this test file's database (tests/support/database-per-file.ts). */
export async function asDatabaseOwner(text: string): Promise<void> {
  const url = process.env.TEST_OWNER_DATABASE_URL;
  if (!url) throw new Error('TEST_OWNER_DATABASE_URL is set by tests/support/database-per-file.ts');
  await withClient(url, (client) => client.query(text));
}
