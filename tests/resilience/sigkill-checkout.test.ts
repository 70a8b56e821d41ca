import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { isAlive } from '~/server/db/embedded.server';
import { createTestDatabase, dropTestDatabase } from '../support/databases';
import { type RestartableServer, startRestartableServer } from '../support/server';
import {
  books,
  deliverPaidNotification,
  type LoadRecord,
  newRecord,
  runCheckoutLoad,
  waitUntil,
} from './checkout-load';

/*
 * The server process killed with SIGKILL (no shutdown code runs: a power cut, the OOM killer) in the
 * middle of a crowd of guests ordering and paying, then started again on the same database and
 * DATA_DIR. Whatever the shop acknowledged must be there, nothing may be half-written, and the
 * books must balance: each paid order has one payment and one invoice, invoice numbers have no
 * gap, and the gateway's redelivery of its notifications (what real gateways do when the shop did
 * not answer) completes the payments without paying anything twice.
 */

const GUESTS = 12;
// Enough paid orders before the kill that the load is well under way on every route.
const PAID_BEFORE_KILL = 25;

// The shop's own rate limits are for a crowd of different addresses; here the crowd is one address.
// The crowd pays through the sandbox: a production server allows it only as a demo shop.
const LOAD_ENV = { POST_RATE_LIMIT: '100000', CHECKOUT_RATE_LIMIT: '100000', PAYMENT_SANDBOX: 'on' };

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-resilience-'));
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs the load, kills the server with SIGKILL while requests are in flight, and waits for the crowd to notice. */
async function killMidLoad(server: RestartableServer): Promise<{ record: LoadRecord; inFlightAtKill: number }> {
  const record = newRecord();
  let stopped = false;
  const load = runCheckoutLoad(server.url, record, GUESTS, () => stopped);
  await waitUntil(() => record.paymentsAcknowledged.size >= PAID_BEFORE_KILL, 60_000, 'paid orders');
  // Strike while the crowd is busy (it always is with this many guests, but say so).
  await waitUntil(() => record.inFlight >= GUESTS / 2, 5_000, 'requests in flight');
  const inFlightAtKill = record.inFlight;
  await server.kill('SIGKILL');
  stopped = true;
  await load;
  return { record, inFlightAtKill };
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  // The cluster may go away under it at the end of a test: that is not a failure of the test.
  client.on('error', () => {});
  await client.connect();
  let ended = false;
  const end = client.end.bind(client);
  client.end = (() => {
    if (ended) return Promise.resolve();
    ended = true;
    return end();
  }) as typeof client.end;
  cleanups.push(() => client.end());
  return client;
}

/** The checks an accountant and a customer would make after the crash. */
async function expectConsistentBooks(client: pg.Client, record: LoadRecord) {
  const { orders, paidPayments, invoices, counters } = await books(client);
  const byId = new Map(orders.map((o) => [o.id, o]));

  // Every order whose creation was answered is there, with its lines, at its price.
  for (const [id, { tapes }] of record.ordersAcknowledged) {
    expect(byId.get(id), `acknowledged order ${id}`).toMatchObject({ total_price: tapes * 1700, lines: 1 });
  }
  // No order half-written: each has its lines and its "created" history entry.
  expect(orders.filter((o) => o.lines === 0 || o.created !== 1)).toEqual([]);
  // Every acknowledged payment is recorded.
  for (const id of record.paymentsAcknowledged) expect(byId.get(id)?.payment_status, `paid order ${id}`).toBe('paid');

  // Paid orders, paid payments and invoices match one for one, at the order's amount.
  const paid = orders.filter((o) => o.payment_status === 'paid');
  expect(paidPayments.map((p) => p.order_id).sort()).toEqual(paid.map((o) => o.id).sort());
  expect(invoices.map((i) => i.order_id).sort()).toEqual(paid.map((o) => o.id).sort());
  for (const invoice of invoices) expect(invoice.amount).toBe(byId.get(invoice.order_id)?.total_price);
  for (const payment of paidPayments) expect(payment.amount).toBe(byId.get(payment.order_id)?.total_price);

  // Gapless numbering: TEST-FA-<year>-000001 (the sandbox took the payments: the demonstration
  // series) up to the counter, nothing skipped, nothing twice.
  const year = new Date().getFullYear();
  expect(invoices.map((i) => i.number)).toEqual(
    Array.from({ length: invoices.length }, (_, i) => `TEST-FA-${year}-${String(i + 1).padStart(6, '0')}`),
  );
  expect(counters).toEqual(invoices.length ? [{ year, last: invoices.length }] : []);
  return { orders: orders.length, paid: paid.length };
}

/** The gateway delivers every notification again (twice): each payment completes once. */
async function redeliverAll(url: string, record: LoadRecord) {
  for (let round = 0; round < 2; round++) {
    const statuses = await Promise.all(
      [...record.sessions.values()].map(async (session) => {
        const response = await deliverPaidNotification(url, session);
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  }
}

describe('SIGKILL in the middle of the checkout load', () => {
  it('loses nothing acknowledged and keeps the books straight (DATABASE_URL)', async () => {
    const started = Date.now();
    const adminUrl = inject('pgAdminUrl');
    const database = await createTestDatabase(adminUrl, inject('pgTemplate'));
    cleanups.push(() => dropTestDatabase(adminUrl, database.name));
    const appSecret = randomBytes(32).toString('hex');
    // The test signs the gateway's notifications with the server's secret.
    process.env.APP_SECRET = appSecret;
    const server = await startRestartableServer({
      databaseUrl: database.url,
      dataDir: await tempDir(),
      env: { ...LOAD_ENV, APP_SECRET: appSecret },
    });
    cleanups.push(() => server.stop());

    const { record, inFlightAtKill } = await killMidLoad(server);
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(record.unexpected).toEqual([]);

    await server.restart();
    const client = await connect(database.url);
    const before = await expectConsistentBooks(client, record);
    expect(before.paid).toBeGreaterThanOrEqual(record.paymentsAcknowledged.size);

    await redeliverAll(server.url, record);
    // Payments under way at the kill complete when the gateway tries again; none is paid twice.
    const after = await expectConsistentBooks(client, record);
    const { orders } = await books(client);
    for (const orderId of record.sessions.keys()) {
      expect(orders.find((o) => o.id === orderId)?.payment_status).toBe('paid');
    }
    expect(after.paid).toBe(record.sessions.size);
    expect(after.orders).toBe(before.orders);

    // And the shop takes orders again.
    const again = await fetch(`${server.url}/configurateur`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams({ support: 'vhs', 'vhs.quantity': '1', intent: 'order' }),
    });
    expect(again.status).toBe(302);
    console.info(
      `SIGKILL (DATABASE_URL): ${record.ordersAcknowledged.size} orders acknowledged, ` +
        `${record.paymentsAcknowledged.size} payments acknowledged, ${inFlightAtKill} requests in flight at the kill, ` +
        `${Date.now() - started} ms`,
    );
  });

  it('restarts on its own embedded PostgreSQL, adopting the cluster left running, data intact', async () => {
    const started = Date.now();
    const dataDir = await tempDir();
    const appSecret = randomBytes(32).toString('hex');
    process.env.APP_SECRET = appSecret;
    const server = await startRestartableServer({ dataDir, env: { ...LOAD_ENV, APP_SECRET: appSecret } });
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    const postgresPid = async () => Number((await fs.readFile(pidFile, 'utf8')).split('\n')[0]);
    const firstPostgres = await postgresPid();
    // Whatever happens, the cluster must not outlive the test.
    cleanups.push(async () => {
      await server.stop();
      if (isAlive(firstPostgres)) process.kill(firstPostgres, 'SIGINT');
    });

    const { record } = await killMidLoad(server);
    expect(record.unexpected).toEqual([]);
    // SIGKILL left PostgreSQL running (it is a child process, not killed with its parent).
    expect(isAlive(firstPostgres)).toBe(true);

    await server.restart();
    // Decision 003: the cluster left running is adopted, not started twice.
    expect(await postgresPid()).toBe(firstPostgres);

    const credentials = JSON.parse(await fs.readFile(path.join(dataDir, 'postgres.json'), 'utf8'));
    const { port } = JSON.parse(await fs.readFile(path.join(dataDir, 'server.json'), 'utf8'));
    const client = await connect(
      `postgresql://${credentials.user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/soovenirs`,
    );
    await expectConsistentBooks(client, record);
    await redeliverAll(server.url, record);
    await expectConsistentBooks(client, record);

    // A clean stop of the restarted server stops the adopted cluster too.
    await client.end();
    expect(await server.stop()).toBe(0);
    expect(isAlive(firstPostgres)).toBe(false);
    console.info(
      `SIGKILL (embedded): ${record.ordersAcknowledged.size} orders acknowledged, ` +
        `${record.paymentsAcknowledged.size} payments acknowledged, ${Date.now() - started} ms`,
    );
  });
});
