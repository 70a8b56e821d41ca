import { type SQL, sql } from 'drizzle-orm';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import type { PgDialect, PgTransactionConfig } from 'drizzle-orm/pg-core';
import type { TablesRelationalConfig } from 'drizzle-orm/relations';
import pg from 'pg';

/*
 * drizzle-orm 0.45's node-postgres `transaction()` checks a client out of the pool and runs BEGIN
 * before the try/finally that gives it back (drizzle-team/drizzle-orm#6241, open). When BEGIN fails
 * (PostgreSQL stopping or restarting under the shop: « terminating connection due to administrator
 * command »), the client stays checked out for the life of the process: each outage took a slot of
 * the pool for good, and `pool.end()` at shutdown waited for it forever, so the server exited with
 * nothing left to wait on before stopping its embedded PostgreSQL (the database-outage resilience
 * test saw the adopted postmaster outlive the app).
 *
 * This is the same transaction with BEGIN inside the guard; a client whose BEGIN or ROLLBACK failed
 * is given back with the error, so that the pool closes it instead of lending it again. The caller
 * gets the transaction's own error, as before. Transactions on a single client (not a pool) keep
 * drizzle's code. Remove this file once drizzle releases the fix.
 */

type Internals = {
  client: unknown;
  dialect: PgDialect;
  schema: ConstructorParameters<typeof NodePgSession>[2];
  options: ConstructorParameters<typeof NodePgSession>[3];
};

/** Drizzle's own rendering of isolation level, access mode and deferrable (public in its code, not in its types). */
type ConfigSql = { getTransactionConfigSQL(config: PgTransactionConfig): SQL };

const original = NodePgSession.prototype.transaction;

NodePgSession.prototype.transaction = async function transaction<T>(
  this: NodePgSession<Record<string, unknown>, TablesRelationalConfig>,
  body: (tx: NodePgTransaction<Record<string, unknown>, TablesRelationalConfig>) => Promise<T>,
  config?: PgTransactionConfig,
): Promise<T> {
  const self = this as unknown as Internals;
  if (!(self.client instanceof pg.Pool)) return original.call(this, body, config) as Promise<T>;
  const client = await self.client.connect();
  const session = new NodePgSession(client, self.dialect, self.schema, self.options);
  const tx = new NodePgTransaction(self.dialect, session, self.schema);
  let broken: Error | undefined;
  try {
    await tx.execute(
      sql`begin${config ? sql` ${(tx as unknown as ConfigSql).getTransactionConfigSQL(config)}` : undefined}`,
    );
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  try {
    const result = await body(tx);
    await tx.execute(sql`commit`);
    return result;
  } catch (error) {
    await tx.execute(sql`rollback`).catch((rollbackFailed: Error) => {
      broken = rollbackFailed;
    });
    throw error;
  } finally {
    client.release(broken);
  }
} as typeof original;
