import type { Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { closeDatabase, db, pool } from './client.server';

/*
 * PostgreSQL stopped or restarted under the running shop (docs/decisions/007) ends every open
 * connection, including one checked out of the pool at that moment: a transaction in progress, a
 * worker's claim. The pool listens to its clients' errors only while they are idle; an 'error'
 * event nobody listens to throws, and the process ended (a whole CI run of the database-outage test
 * saw the server die with « Connection terminated unexpectedly »). Here the connection of a
 * checked-out client is ended from another session, as `pg_ctl stop` does.
 */
describe('the pool when a checked-out connection is cut', () => {
  async function terminate(pid: number): Promise<void> {
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    try {
      const { rows } = await other.query<{ done: boolean }>('select pg_terminate_backend($1) as done', [pid]);
      expect(rows[0]?.done).toBe(true);
    } finally {
      await other.end();
    }
  }

  it('fails the query in flight, not the process, and the next query gets a new connection', async () => {
    const client = await pool().connect();
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    const pid = rows[0]?.pid as number;
    await client.query('begin');
    // The cut reaches the client while it is checked out; its 'error' event comes with it.
    const errored = new Promise<Error>((resolve) => client.once('error', resolve));
    await terminate(pid);
    expect((await errored).message).toMatch(/terminat/);
    await expect(client.query('select 1')).rejects.toThrow();
    client.release();

    const next = await pool().query<{ pid: number }>('select pg_backend_pid() as pid');
    expect(next.rows[0]?.pid).not.toBe(pid);
  });

  it('fails a transaction cut in the middle, and the shop queries again afterwards', async () => {
    let pid = 0;
    let inside: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      inside = resolve;
    });
    // Its failure is taken at once: it may come while the cut is still being made.
    const outcome = db()
      .transaction(async (tx) => {
        const result = await tx.execute<{ pid: number }>('select pg_backend_pid() as pid');
        pid = result.rows[0]?.pid as number;
        inside();
        // Holds the connection until the cut.
        await tx.execute('select pg_sleep(30)');
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    await started;
    await terminate(pid);
    expect(await outcome).toBeInstanceOf(Error);
    expect((await pool().query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  /*
   * A BEGIN that fails (PostgreSQL stopping as the transaction starts) must give its connection
   * back (app/server/db/transaction-release.server.ts): else each outage kept one for good, and
   * at shutdown `pool.end()` waited for it forever, so the server never stopped its database.
   */
  it('gives back the connection of a transaction whose BEGIN failed', async () => {
    const own = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1, connectionTimeoutMillis: 5_000 });
    own.on('connect', (client) => client.on('error', () => {}));
    const database = drizzle(own);
    // Cut as the transaction takes it from the pool, before its BEGIN reaches PostgreSQL.
    own.once('acquire', (client) =>
      (client as unknown as { connection: { stream: Socket } }).connection.stream.destroy(),
    );
    await expect(database.transaction(async (tx) => tx.execute(sql`select 1`))).rejects.toThrow();

    // The only connection of this pool is free again: the next transaction runs, the pool closes.
    const rows = await database.transaction(
      async (tx) => (await tx.execute<{ one: number }>(sql`select 1 as one`)).rows,
    );
    expect(rows).toEqual([{ one: 1 }]);
    await own.end();
    expect(own.totalCount).toBe(0);
  });

  it('closes at shutdown within its limit even while a connection is still checked out', async () => {
    const held = await pool().connect();
    const started = Date.now();
    await closeDatabase(300);
    expect(Date.now() - started).toBeLessThan(5_000);
    held.release();
    // The next use opens a new pool.
    expect((await pool().query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });
});
