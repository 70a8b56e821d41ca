import { createHash } from 'node:crypto';
import pg from 'pg';

/*
 * The role the shop runs as (docs/decisions/020-sessions-streams-and-database-role.md). The
 * migrations run as the database's owner (the embedded cluster's superuser, or DATABASE_OWNER_URL);
 * the application itself connects as a role that is no superuser and owns no table, so that it
 * cannot switch off what the schema guarantees against it: the audit log's append-only triggers
 * (migration 0010) can be neither disabled nor dropped, since ALTER TABLE and DROP TRIGGER need
 * the table's owner.
 *
 * The role gets what the application does, no more: reading and writing rows, sequences, and
 * reading which migrations are applied (so that it can tell at start that none is pending). On
 * the audit log it may insert and read, and delete what the trigger lets go (the retention
 * housekeeping), but not update or truncate. The payment journal (docs/payment-journal.md) it may
 * only read: its entries are written by the database's triggers (SECURITY DEFINER, as the owner);
 * its closures it may insert and read, never change.
 */

/** The embedded cluster's (and the tests') runtime role. */
export const RUNTIME_ROLE = 'soovenirs_app';

/** Its password, derived from the owner's: stable across restarts, known to whoever holds the owner's. */
function runtimePassword(ownerUrl: string): string {
  const ownerPassword = decodeURIComponent(new URL(ownerUrl).password);
  return createHash('sha256').update(`${RUNTIME_ROLE}:${ownerPassword}`).digest('base64url');
}

/** The owner's URL with the runtime role's credentials: the same database, as the runtime role. */
export function runtimeRoleUrl(ownerUrl: string): string {
  const url = new URL(ownerUrl);
  url.username = RUNTIME_ROLE;
  url.password = encodeURIComponent(runtimePassword(ownerUrl));
  return url.toString();
}

/** The role a connection URL signs in as. */
export function roleOf(url: string): string {
  return decodeURIComponent(new URL(url).username);
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * Gives `role` what the application needs on the database of `ownerUrl`, as its owner. Run after
 * every migration (a new table is granted at once); idempotent.
 */
export async function grantRuntimeRole(ownerUrl: string, role: string): Promise<void> {
  await withClient(ownerUrl, async (client) => {
    const who = client.escapeIdentifier(role);
    await client.query(`
      grant usage on schema public to ${who};
      grant select, insert, update, delete on all tables in schema public to ${who};
      grant usage, select, update on all sequences in schema public to ${who};
      revoke update, truncate, references, trigger on audit_log from ${who};
      revoke insert, update, delete, truncate, references, trigger on payment_journal from ${who};
      revoke update, delete, truncate, references, trigger on payment_journal_closures from ${who};
      grant usage on schema drizzle to ${who};
      grant select on drizzle.__drizzle_migrations to ${who};`);
  });
}

/**
 * The embedded cluster's runtime role: created (as its superuser) when missing, with no right
 * beyond logging in, then granted the database of `ownerUrl`. Returns its connection URL.
 */
export async function ensureRuntimeRole(ownerUrl: string): Promise<string> {
  await withClient(ownerUrl, async (client) => {
    const exists = await client.query('select 1 from pg_roles where rolname = $1', [RUNTIME_ROLE]);
    if (!exists.rowCount) {
      try {
        await client.query(`create role ${client.escapeIdentifier(RUNTIME_ROLE)}`);
      } catch (error) {
        // Created meanwhile by another process starting on the same cluster (the tests' workers).
        if (!['42710', '23505'].includes((error as { code?: string }).code ?? '')) throw error;
      }
    }
    await client.query(
      `alter role ${client.escapeIdentifier(RUNTIME_ROLE)} with login nosuperuser nocreatedb nocreaterole noreplication nobypassrls password ${client.escapeLiteral(runtimePassword(ownerUrl))}`,
    );
  });
  await grantRuntimeRole(ownerUrl, RUNTIME_ROLE);
  return runtimeRoleUrl(ownerUrl);
}
