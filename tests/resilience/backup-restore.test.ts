import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openEmbeddedPostgres } from '~/server/db/embedded.server';
import { startRestartableServer } from '../support/server';
import { books, type LoadRecord, newRecord, runCheckoutLoad, waitUntil } from './checkout-load';

/*
 * An online backup of a shop that keeps selling (docs/operations.md, « Back up and restore »):
 * guests order and pay through the sandbox gateway while `npm run backup` copies the running
 * embedded PostgreSQL; more orders come after it, then the WAL is archived. `npm run restore` must
 * bring back, into a new DATA_DIR, every order and invoice the shop acknowledged (the latest
 * state), and a point-in-time restore must stop between two orders. The books of each restored copy
 * must balance, invoice numbers gapless.
 */

const GUESTS = 4;
const LOAD_ENV = { POST_RATE_LIMIT: '100000', CHECKOUT_RATE_LIMIT: '100000', PAYMENT_SANDBOX: 'on' };
const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

/** `npm run <script>` as an operator runs it, with the shop's DATA_DIR (no DATABASE_URL). */
async function command(script: string, args: string[], env: Record<string, string>) {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !['BASE_URL', 'DATABASE_URL', 'VITEST', 'MODE'].includes(key)),
  );
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', `scripts/${script}`, ...args], {
      cwd: root,
      env: { ...inherited, ...env },
      timeout: 90_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failure.code ?? -1, stdout: failure.stdout ?? '', stderr: failure.stderr ?? '' };
  }
}

/** The superuser URL of the cluster running in `dataDir` (its credentials and the holder's port). */
async function clusterUrl(dataDir: string, database = 'soovenirs'): Promise<string> {
  const { user, password } = JSON.parse(await fs.readFile(path.join(dataDir, 'postgres.json'), 'utf8'));
  const { port } = JSON.parse(await fs.readFile(path.join(dataDir, 'server.json'), 'utf8'));
  return `postgresql://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** Every acknowledged order of `present` is there, none of `absent`; payments, invoices and numbering balance. */
async function expectBooks(client: pg.Client, present: LoadRecord[], absent: LoadRecord[] = []) {
  const { orders, paidPayments, invoices, counters } = await books(client);
  const byId = new Map(orders.map((o) => [o.id, o]));
  for (const record of present) {
    for (const [id, { tapes }] of record.ordersAcknowledged) {
      expect(byId.get(id), `acknowledged order ${id}`).toMatchObject({ total_price: tapes * 1700, lines: 1 });
    }
    for (const id of record.paymentsAcknowledged) expect(byId.get(id)?.payment_status, `paid order ${id}`).toBe('paid');
  }
  for (const record of absent) {
    for (const id of record.ordersAcknowledged.keys()) expect(byId.has(id), `later order ${id}`).toBe(false);
  }
  const paid = orders.filter((o) => o.payment_status === 'paid');
  expect(paidPayments.map((p) => p.order_id).sort()).toEqual(paid.map((o) => o.id).sort());
  expect(invoices.map((i) => i.order_id).sort()).toEqual(paid.map((o) => o.id).sort());
  const year = new Date().getFullYear();
  expect(invoices.map((i) => i.number)).toEqual(
    Array.from({ length: invoices.length }, (_, i) => `TEST-FA-${year}-${String(i + 1).padStart(6, '0')}`),
  );
  expect(counters).toEqual(invoices.length ? [{ year, last: invoices.length }] : []);
  return { orders: orders.length, invoices: invoices.length };
}

describe('online backup under load, then restore', () => {
  // About 90 s on a quiet 2-core machine; the margin is for a loaded one.
  it('restores every acknowledged order and invoice, to the latest state and to a point in time', {
    timeout: 180_000,
  }, async () => {
    const started = Date.now();
    const work = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-backup-'));
    cleanups.push(() => fs.rm(work, { recursive: true, force: true }));
    // Run as root, PostgreSQL runs as `postgres`, which must reach the DATA_DIRs inside.
    await fs.chmod(work, 0o755);
    const dataDir = path.join(work, 'data');
    const backupDir = path.join(work, 'backups');
    // No APP_SECRET: the shop generates DATA_DIR/app-secret, which the backup must carry.
    const server = await startRestartableServer({ dataDir, env: { ...LOAD_ENV, APP_SECRET: '' } });
    cleanups.push(() => server.stop());
    const appSecret = await fs.readFile(path.join(dataDir, 'app-secret'), 'utf8');
    // The test plays the sandbox gateway, which signs its notifications with the shop's secret.
    process.env.APP_SECRET = appSecret.trim();

    // Guests keep ordering and paying before, during and after the backup.
    const record = newRecord();
    let stopped = false;
    const load = runCheckoutLoad(server.url, record, GUESTS, () => stopped);
    await waitUntil(() => record.paymentsAcknowledged.size >= 6, 60_000, 'paid orders before the backup');
    const paidBefore = record.paymentsAcknowledged.size;
    const backup = await command('backup.ts', [], { DATA_DIR: dataDir, BACKUP_DIR: backupDir });
    const paidDuring = record.paymentsAcknowledged.size - paidBefore;
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain('Sauvegarde terminée en');
    // The shop never stopped selling: payments were acknowledged while the backup ran.
    expect(paidDuring).toBeGreaterThan(0);
    await waitUntil(
      () => record.paymentsAcknowledged.size >= paidBefore + paidDuring + 3,
      60_000,
      'paid orders after the backup',
    );
    stopped = true;
    await load;
    expect(record.unexpected).toEqual([]);

    // The backup: one dated folder with the cluster, its WAL, the secret (still private) and a manifest.
    const [name] = await fs.readdir(backupDir);
    const folder = path.join(backupDir, name as string);
    const manifest = JSON.parse(await fs.readFile(path.join(folder, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ kind: 'base', postgresVersion: expect.stringMatching(/^17\./) });
    expect(manifest.files.map((f: { path: string }) => f.path)).toEqual(
      expect.arrayContaining(['data/backup_label', 'data/PG_VERSION', 'app-secret', `wal/${manifest.startWal}`]),
    );
    expect((await fs.stat(path.join(folder, 'app-secret'))).mode & 0o777).toBe(0o600);

    // A moment between two orders, then one more guest's orders after it.
    const between = new Date();
    const later = newRecord();
    await runCheckoutLoad(server.url, later, 1, () => later.paymentsAcknowledged.size >= 2);
    expect(later.paymentsAcknowledged.size).toBe(2);

    // The WAL of the last orders reaches the archive (archive_timeout would do it within a minute).
    const live = await connect(await clusterUrl(dataDir));
    const { segment } = (await live.query('select pg_walfile_name(pg_switch_wal()) as segment')).rows[0];
    const deadline = Date.now() + 30_000;
    while ((await live.query('select last_archived_wal from pg_stat_archiver')).rows[0].last_archived_wal < segment) {
      if (Date.now() > deadline) throw new Error(`segment ${segment} not archived in time`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const expected = await expectBooks(live, [record, later]);
    await live.end();
    expect(await server.stop()).toBe(0);

    // Latest state, into a new DATA_DIR: PostgreSQL starts on it and every acknowledged order is there.
    const latestDir = path.join(work, 'restored');
    const restored = await command('restore.ts', [backupDir, '--target', latestDir], {});
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(`DATA_DIR=${latestDir} npm start`);
    expect(restored.stdout).toContain(`${expected.orders} commande(s), ${expected.invoices} facture(s)`);
    expect(await fs.readFile(path.join(latestDir, 'app-secret'), 'utf8')).toBe(appSecret);
    expect((await fs.stat(path.join(latestDir, 'app-secret'))).mode & 0o777).toBe(0o600);

    const refused = await command('restore.ts', [backupDir, '--target', latestDir], {});
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('n’est pas vide');

    const copyCluster = await openEmbeddedPostgres({ dataDir: latestDir, role: 'script' });
    cleanups.push(() => copyCluster.stop());
    const copy = await connect(copyCluster.url.replace(/\/postgres$/, '/soovenirs'));
    expect(await expectBooks(copy, [record, later])).toEqual(expected);
    await copy.end();
    await copyCluster.stop();

    // Point in time: everything acknowledged before `between`, nothing of the orders after it.
    const pointDir = path.join(work, 'point-in-time');
    const time = between.toISOString().replace('T', ' ').replace('Z', '+00');
    const pit = await command('restore.ts', [backupDir, '--target', pointDir, '--time', time], {});
    expect(pit.stderr).toBe('');
    expect(pit.code).toBe(0);
    const cluster = await openEmbeddedPostgres({ dataDir: pointDir, role: 'script' });
    cleanups.push(() => cluster.stop());
    const past = await connect(cluster.url.replace(/\/postgres$/, '/soovenirs'));
    const atThatTime = await expectBooks(past, [record], [later]);
    expect(atThatTime.invoices).toBe(expected.invoices - 2);
    await past.end();
    await cluster.stop();

    console.info(
      `backup under load: ${paidBefore} payments before, ${paidDuring} during the backup, ` +
        `${record.paymentsAcknowledged.size + later.paymentsAcknowledged.size} in all; ${Date.now() - started} ms`,
    );
  });
});
