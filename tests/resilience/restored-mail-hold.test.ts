import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDatabase } from '~/server/db/client.server';
import { configureSmtpFor } from '~/server/email/testing/fixtures';
import { startTestSmtpServer } from '~/server/email/testing/smtp-test-server';
import { createUser } from '../support/auth';
import { startRestartableServer } from '../support/server';
import { deliverPaidNotification } from './checkout-load';

/*
 * The restore drill must not e-mail real customers (docs/operations.md, « Back up and restore »):
 * a guest's order confirmation is still waiting in the outbox (the shop's SMTP server is down) when
 * `npm run backup` runs; `npm run restore` brings it back, and a shop started on the restored
 * DATA_DIR, its SMTP server reachable again, sends nothing (the worker's passes run and skip), says
 * so (log, back office banner), until an administrator releases it from the banner: then the
 * confirmation arrives, once; `npm run mail:release` then finds nothing to release.
 */

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

/** The superuser URL of the cluster running in `dataDir`. */
async function clusterUrl(dataDir: string): Promise<string> {
  const { user, password } = JSON.parse(await fs.readFile(path.join(dataDir, 'postgres.json'), 'utf8'));
  const { port } = JSON.parse(await fs.readFile(path.join(dataDir, 'server.json'), 'utf8'));
  return `postgresql://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/soovenirs`;
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  return client;
}

async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  what: string,
  explain: () => Promise<unknown> = async () => '',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(await explain())}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One order of a VHS tape by a signed-in customer, paid by card on the sandbox gateway. */
async function placePaidOrder(url: string, cookie: string): Promise<void> {
  const created = await fetch(`${url}/configurateur`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url, cookie },
    body: new URLSearchParams({ support: 'vhs', 'vhs.quantity': '1', intent: 'order' }),
  });
  expect(created.status).toBe(302);
  const orderId = new URL(created.headers.get('location') ?? '', url).searchParams.get('orderId') as string;
  const orderCookie = created.headers
    .getSetCookie()
    .find((c) => c.startsWith(`sv_order_${orderId}=`))
    ?.split(';')[0];
  const checkout = await fetch(`${url}/api/create-checkout`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: url,
      cookie: [cookie, orderCookie].filter(Boolean).join('; '),
    },
    body: JSON.stringify({ orderId, returnUrl: '/' }),
  });
  expect(checkout.status, await checkout.clone().text()).toBe(200);
  const { sessionId } = (await checkout.json()) as { sessionId: string };
  const notified = await deliverPaidNotification(url, { orderId, sessionId, amountCents: 1700 });
  expect(notified.ok).toBe(true);
}

const SKIPPED_PASS = 'pass skipped, outgoing e-mail held';

// About 80 s on a loaded 2-core machine: two starts of an embedded cluster (the first one creates
// it), a backup, a restore, and the worker's real retry schedule (the confirmation is due again 30 s
// after its failed attempt): it must be due while held, or « nothing sent » would prove nothing.
describe('a shop started on a restored backup', () => {
  it('holds the order confirmation that was in flight until an operator releases it', {
    timeout: 240_000,
  }, async () => {
    const started = Date.now();
    const work = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-mail-hold-'));
    cleanups.push(() => fs.rm(work, { recursive: true, force: true }));
    // Run as root, PostgreSQL runs as `postgres`, which must reach the DATA_DIRs inside.
    await fs.chmod(work, 0o755);
    const smtp = await startTestSmtpServer({ mode: 'starttls' });
    cleanups.push(() => smtp.stop());
    const env = {
      // No APP_SECRET: DATA_DIR/app-secret, carried by the backup, decrypts the SMTP password.
      APP_SECRET: '',
      SMTP_CONNECT_PORT: String(smtp.port),
      SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
      PAYMENT_SANDBOX: 'on',
    };

    // The shop, its e-mail configured, its SMTP server down: a guest's confirmation waits.
    const dataDir = path.join(work, 'data');
    const shop = await startRestartableServer({ dataDir, env });
    cleanups.push(() => shop.stop());
    process.env.DATABASE_URL = await clusterUrl(dataDir);
    process.env.APP_SECRET = (await fs.readFile(path.join(dataDir, 'app-secret'), 'utf8')).trim();
    await configureSmtpFor(smtp, 'starttls');
    await closeDatabase();
    await smtp.stop();
    // A customer orders and pays (the sandbox gateway's notification): the confirmation is queued.
    const customer = await createUser({ url: shop.url });
    await placePaidOrder(shop.url, customer.cookie);
    const live = await connect(await clusterUrl(dataDir));
    const pending = await waitFor(
      async () =>
        (
          await live.query<{ id: string; to: string }>(
            `select id, "to" from email_outbox where template = 'order-confirmation' and status = 'queued' and attempts >= 1`,
          )
        ).rows[0],
      30_000,
      'the worker to try the confirmation and fail',
      async () => (await live.query('select template, status, attempts, last_error from email_outbox')).rows,
    );
    await live.end();

    const backupDir = path.join(work, 'backups');
    const backup = await command('backup.ts', [], { DATA_DIR: dataDir, BACKUP_DIR: backupDir });
    expect(backup.code, backup.stderr).toBe(0);
    expect(await shop.stop()).toBe(0);

    const restoredDir = path.join(work, 'restored');
    const restored = await command('restore.ts', [backupDir, '--target', restoredDir], {});
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain('Les e-mails sortants de cette copie sont retenus');
    expect(restored.stdout).toContain(`DATA_DIR=${restoredDir} npm run mail:release`);

    // The SMTP server is back; the copy starts (its worker's passes logged at debug level).
    await smtp.start();
    const copy = await startRestartableServer({ dataDir: restoredDir, env: { ...env, LOG_LEVEL: 'debug' } });
    cleanups.push(() => copy.stop());
    expect(copy.output()).toContain('outgoing e-mail held: this database is a restored copy');
    const db = await connect(await clusterUrl(restoredDir));
    cleanups.push(() => db.end());
    // Wait until the confirmation is due again (its retry time passed), then for a pass after that.
    await waitFor(
      async () =>
        (await db.query(`select 1 from email_outbox where id = $1 and next_at <= now()`, [pending.id])).rowCount
          ? true
          : undefined,
      90_000,
      'the confirmation to be due',
    );
    const passesBefore = copy.output().split(SKIPPED_PASS).length;
    await waitFor(
      async () => (copy.output().split(SKIPPED_PASS).length > passesBefore ? true : undefined),
      30_000,
      'a pass of the worker while the confirmation is due',
    );
    expect(smtp.messages).toEqual([]);
    const held = await db.query<{ status: string }>('select status from email_outbox where id = $1', [pending.id]);
    expect(held.rows[0]?.status).toBe('queued');
    expect(copy.output()).toContain('e-mail worker: outgoing e-mail is held, nothing sent until it is released');

    // The back office says so on every tab, and an administrator releases it with the banner's
    // plain form (no JavaScript needed): the confirmation goes, once.
    const admin = await createUser({ url: copy.url, databaseUrl: await clusterUrl(restoredDir), role: 'admin' });
    const dashboard = await fetch(`${copy.url}/admin`, { headers: { cookie: admin.cookie } });
    const html = await dashboard.text();
    expect(dashboard.status).toBe(200);
    expect(html).toContain('E-mails sortants retenus');
    expect(html).toContain('Cette boutique tourne sur une copie restaurée');
    const released = await fetch(`${copy.url}/admin/api/emails`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: copy.url, cookie: admin.cookie },
      body: new URLSearchParams({ intent: 'release', choice: 'send' }),
    });
    expect(released.status).toBe(302);
    expect(released.headers.get('location')).toBe('/admin');
    const message = await smtp.waitForMail(pending.to, (m) => /commande/i.test(m.subject), 30_000);
    expect(message.subject).toMatch(/commande/i);
    expect(await (await fetch(`${copy.url}/admin`, { headers: { cookie: admin.cookie } })).text()).not.toContain(
      'E-mails sortants retenus',
    );
    // At the console, with the running shop's cluster: nothing left to release.
    const again = await command('mail-release.ts', [], { DATA_DIR: restoredDir });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('rien à libérer');
    // Every message of the copy's outbox left once (the confirmation, and any other for this guest).
    const rows = await waitFor(
      async () => {
        const { rows } = await db.query<{ status: string }>('select status from email_outbox where "to" = $1', [
          pending.to,
        ]);
        return rows.every((r) => r.status === 'sent') ? rows : undefined;
      },
      30_000,
      'every message of the guest to be sent',
    );
    expect(smtp.messages.filter((m) => m.envelopeTo.includes(pending.to))).toHaveLength(rows.length);
    expect(await copy.stop()).toBe(0);
    console.info(`restored copy held its mail, then released it: ${Date.now() - started} ms`);
  });
});
