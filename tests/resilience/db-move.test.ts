import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase } from '~/server/db/client.server';
import { runtimeRoleUrl } from '~/server/db/runtime-role.server';
import { publishOrderFiles } from '~/server/files/publish.server';
import { createS3Storage } from '~/server/files/storage.server';
import { refundOrder } from '~/server/orders/refunds.server';
import { loadPaymentConfig } from '~/server/payments/config.server';
import { createUser, randomIp, signIn, TEST_PASSWORD } from '../support/auth';
import { type DebianPostgres, startDebianPostgres } from '../support/debian-postgres';
import { type FakeS3, startFakeS3 } from '../support/fake-s3';
import { storePaymentConfig } from '../support/payments';
import { isPdf, pdfText } from '../support/pdf';
import { type RestartableServer, startRestartableServer } from '../support/server';

/*
 * The way out of one machine (docs/operations.md, « Moving to an external PostgreSQL »): a shop
 * running on its embedded PostgreSQL 17 with its files in DATA_DIR, seeded as an operator would
 * (demo orders with payments, invoices and credit notes; a refund and a payment key through the
 * app's own functions; delivered files through `npm run files:import`), is moved while it runs by
 * `npm run db:move` into Debian's PostgreSQL 15 and the fake S3. The built shop then started on the
 * target with the written environment, in a new empty DATA_DIR, must show the same orders and
 * invoices in its exports, serve the invoice and credit note PDFs and the files from the bucket,
 * and read the stored payment key. A target that is not empty is refused, and nothing is written.
 */

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const API_KEY = 'sk_test_deplacement_0123456789';
const FILES = {
  'autres/lettre.txt': 'Chère Marie, voici les photos de Noël.\n',
  'autres/inventaire.csv': 'a;b\n1;2\n',
};

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

/** `npm run <script>` as an operator runs it: the shop's DATA_DIR, no DATABASE_URL. */
async function command(script: string, args: string[], env: Record<string, string>) {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !['BASE_URL', 'DATABASE_URL', 'APP_SECRET', 'VITEST', 'MODE'].includes(key) && !key.startsWith('S3_'),
    ),
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

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Runs the app's own server functions against `databaseUrl`, with the shop's APP_SECRET. */
async function asTheShop<T>(databaseUrl: string, appSecret: string, work: () => Promise<T>): Promise<T> {
  const saved = { url: process.env.DATABASE_URL, secret: process.env.APP_SECRET };
  // The shop's DATA_DIR and address, for the environment the app reads once (files, e-mails' links).
  process.env.DATA_DIR = dataDir;
  process.env.BASE_URL = source.url;
  process.env.DATABASE_URL = databaseUrl;
  process.env.APP_SECRET = appSecret;
  try {
    return await work();
  } finally {
    await closeDatabase();
    process.env.DATABASE_URL = saved.url;
    process.env.APP_SECRET = saved.secret;
  }
}

/** An admin's GET, as text or bytes. */
async function adminGet(url: string, cookie: string, pathname: string): Promise<Response> {
  return fetch(`${url}${pathname}`, { headers: { cookie, 'x-forwarded-for': randomIp() } });
}

/** Every order and invoice of the demo's 18 months, in exports of a year at most (the exports' limit). */
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
const EXPORTS = ['commandes', 'factures'].flatMap((dataset) =>
  [
    [day(-1), day(364)],
    [day(365), day(730)],
  ].map(([to, from]) => `/admin/exports/${dataset}?format=csv&from=${from}&to=${to}`),
);

let work: string;
let dataDir: string;
let source: RestartableServer;
let sourceUrl: string;
let appSecret: string;
let admin: { email: string; cookie: string };
let target: DebianPostgres;
let s3: FakeS3;
let refunded: { orderId: string; creditNote: string; invoice: string };
let delivered: { orderId: string; files: { id: string; name: string }[] };
let sourceExports: string[];

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-move-'));
  cleanups.push(() => fs.rm(work, { recursive: true, force: true }));
  // Run as root, PostgreSQL runs as `postgres`, which must reach the DATA_DIR inside.
  await fs.chmod(work, 0o755);
  dataDir = path.join(work, 'data');
  // No APP_SECRET: the shop generates DATA_DIR/app-secret, which the move must carry over.
  const [started, cluster, bucket] = await Promise.all([
    startRestartableServer({ dataDir, env: { APP_SECRET: '' } }),
    startDebianPostgres(15),
    startFakeS3(),
  ]);
  source = started;
  target = cluster;
  s3 = bucket;
  cleanups.push(
    () => source.stop(),
    () => target.stop(),
    () => s3.close(),
  );
  appSecret = (await fs.readFile(path.join(dataDir, 'app-secret'), 'utf8')).trim();
  const { user, password } = JSON.parse(await fs.readFile(path.join(dataDir, 'postgres.json'), 'utf8'));
  const { port } = JSON.parse(await fs.readFile(path.join(dataDir, 'server.json'), 'utf8'));
  sourceUrl = runtimeRoleUrl(`postgresql://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/soovenirs`);

  const seeded = await command('seed.ts', ['--demo', '--orders', '20', '--seed-value', 'move'], { DATA_DIR: dataDir });
  expect(seeded.stderr).toBe('');
  const staff = await createUser({ url: source.url, databaseUrl: sourceUrl, role: 'admin' });
  admin = { email: staff.email, cookie: staff.cookie };

  // A refund and a payment key through the app's own code, as the back office makes them.
  const [paid, other] = await query<{ id: string; number: string; invoice: string }>(
    sourceUrl,
    `select o.id, o.number, i.number as invoice from orders o join invoices i on i.order_id = o.id
      where o.payment_status = 'paid' and o.status <> 'canceled' order by o.number limit 2`,
  );
  if (!paid || !other) throw new Error('the demo data has fewer than two paid orders');
  await asTheShop(sourceUrl, appSecret, async () => {
    const refund = await refundOrder({
      orderId: paid.id,
      amountCents: 500,
      method: 'transfer',
      reason: 'Une cassette illisible',
      actor: admin.email,
    });
    if (!refund.ok) throw new Error(`refund refused: ${refund.message}`);
    refunded = { orderId: paid.id, creditNote: refund.creditNoteNumber as string, invoice: paid.invoice };
  });
  process.env.APP_SECRET = appSecret;
  await storePaymentConfig(sourceUrl, { type: 'stripe', apiKey: API_KEY, webhookSecret: 'whsec_deplacement' });

  // Delivered files, stored in DATA_DIR/files by the scanning stations' command, then published.
  const folder = path.join(work, 'scans');
  for (const [name, text] of Object.entries(FILES)) {
    await fs.mkdir(path.dirname(path.join(folder, name)), { recursive: true });
    await fs.writeFile(path.join(folder, name), text);
  }
  const imported = await command('files-import.ts', ['--order', other.number, folder], { DATA_DIR: dataDir });
  expect(imported.stderr).toBe('');
  expect(imported.code).toBe(0);
  const [adminRow] = await query<{ id: string }>(sourceUrl, 'select id from "user" where email = $1', [admin.email]);
  await asTheShop(sourceUrl, appSecret, async () => {
    const published = await publishOrderFiles(other.id, adminRow?.id as string);
    if (!published.ok) throw new Error(`publication refused: ${published.message}`);
  });
  delivered = {
    orderId: other.id,
    files: await query(sourceUrl, 'select id, name from order_files where order_id = $1 order by name', [other.id]),
  };
  expect(delivered.files).toHaveLength(2);

  sourceExports = [];
  for (const pathname of EXPORTS) {
    const response = await adminGet(source.url, admin.cookie, pathname);
    expect(response.status).toBe(200);
    sourceExports.push(await response.text());
  }

  // The operator's external server: an owner of the database and a plain role for the shop.
  await query(target.adminUrl, `create role soovenirs_owner login password 'mot-de-passe-proprietaire'`);
  await query(target.adminUrl, 'create database soovenirs owner soovenirs_owner');
  await query(target.adminUrl, `create role soovenirs_app login password 'mot-de-passe-boutique' nosuperuser`);
}, 240_000);

describe('npm run db:move', () => {
  it('refuses a target that is not empty, and writes nothing there nor in the bucket', async () => {
    await query(target.adminUrl, 'create database occupied owner soovenirs_owner');
    const occupied = target.urlFor('soovenirs_owner', 'mot-de-passe-proprietaire', 'occupied');
    await query(occupied, 'create table notes (id int primary key, text text)');
    await query(occupied, `insert into notes values (1, 'une autre application')`);

    const refused = await command('db-move.ts', ['--to', occupied, '--files-to-s3'], { DATA_DIR: dataDir, ...s3.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('La base cible « occupied » n’est pas vide (notes)');
    expect(refused.stderr).toContain('Rien n’a été écrit.');
    expect(refused.stderr).not.toContain('mot-de-passe-proprietaire');
    const tables = await query<{ name: string }>(
      occupied,
      `select schemaname || '.' || tablename as name from pg_tables
        where schemaname not in ('pg_catalog', 'information_schema')`,
    );
    expect(tables).toEqual([{ name: 'public.notes' }]);
    const bucket = createS3Storage(s3.settings);
    expect(await bucket.stat(`orders/${delivered.orderId}/${delivered.files[0]?.id}`)).toBeNull();
  });

  it('moves the running shop to PostgreSQL 15 and S3; the shop started there has every order, invoice, file and secret', async () => {
    const ownerUrl = target.urlFor('soovenirs_owner', 'mot-de-passe-proprietaire', 'soovenirs');
    const appUrl = target.urlFor('soovenirs_app', 'mot-de-passe-boutique', 'soovenirs');
    const envFile = path.join(work, 'nouvelle-machine.env');
    // The shop keeps running: the copy reads one snapshot.
    const moved = await command(
      'db-move.ts',
      ['--to', ownerUrl, '--app-url', appUrl, '--files-to-s3', '--write-env', envFile],
      { DATA_DIR: dataDir, ...s3.env },
    );
    expect(moved.code, moved.stderr + moved.stdout).toBe(0);
    expect(moved.stdout).toContain('PostgreSQL 15.');
    expect(moved.stdout).toMatch(/orders\s+\d+\s+\d+\s+identique/);
    expect(moved.stdout).toMatch(/refunds\.amount\s+5,00\s€\s+5,00\s€\s+identique/);
    expect(moved.stdout).toMatch(/nombre\s+2\s+2\s+identique/);
    expect(moved.stdout).toMatch(/[1-9]\d* séquence\(s\) reprise\(s\) à la même valeur\./);
    expect(moved.stdout).toContain('Vérification\u00a0: tout concorde');
    expect(moved.stdout).not.toContain('DIFFÉRENT');
    // The secrets are in the file only: never on the screen.
    for (const secret of [
      appSecret,
      'mot-de-passe-proprietaire',
      'mot-de-passe-boutique',
      s3.settings.secretAccessKey,
    ]) {
      expect(moved.stdout + moved.stderr).not.toContain(secret);
    }
    expect((await fs.stat(envFile)).mode & 0o777).toBe(0o600);
    const written = Object.fromEntries(
      (await fs.readFile(envFile, 'utf8'))
        .split('\n')
        .filter((line) => /^[A-Z_0-9]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1).replace(/^'(.*)'$/, '$1')]),
    );
    expect(written).toEqual({
      DATABASE_URL: appUrl,
      DATABASE_OWNER_URL: ownerUrl,
      APP_SECRET: appSecret,
      ...s3.env,
    });

    // Run again after a cut: the files are all there already, and the check still holds.
    const again = await command('db-move.ts', ['--files-only', '--files-to-s3'], { DATA_DIR: dataDir, ...s3.env });
    expect(again.code, again.stderr + again.stdout).toBe(0);
    expect(again.stdout).toContain('0 envoyé(s) (0\u00a0Ko), 2 déjà présent(s)');

    // The switch: the old shop stops; the new one starts from the file, with an empty DATA_DIR.
    expect(await source.stop()).toBe(0);
    const newDataDir = path.join(work, 'nouvelle-machine');
    const moved2 = await startRestartableServer({
      databaseUrl: written.DATABASE_URL,
      dataDir: newDataDir,
      env: written,
    });
    cleanups.push(() => moved2.stop());
    // No embedded PostgreSQL there (nor anything else: the files are in the bucket).
    expect(await fs.readdir(newDataDir).catch(() => [])).not.toContain('postgres');

    // Every order and invoice, as the exports show them; the same administrator signs in.
    const cookie = await signIn({ url: moved2.url, email: admin.email, password: TEST_PASSWORD });
    for (const [i, pathname] of EXPORTS.entries()) {
      const response = await adminGet(moved2.url, cookie, pathname);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(sourceExports[i]);
    }
    // The refunded order's invoice and credit note, drawn from the copied snapshots.
    const invoice = Buffer.from(
      await (await adminGet(moved2.url, cookie, `/facture/${refunded.orderId}/pdf`)).arrayBuffer(),
    );
    expect(isPdf(invoice)).toBe(true);
    expect(pdfText(invoice)).toContain(refunded.invoice);
    const note = await adminGet(moved2.url, cookie, `/facture/${refunded.orderId}/pdf?avoir=${refunded.creditNote}`);
    expect(note.status).toBe(200);
    expect(pdfText(Buffer.from(await note.arrayBuffer()))).toContain(refunded.creditNote);
    // The delivered files, now served from the bucket.
    for (const file of delivered.files) {
      const response = await adminGet(moved2.url, cookie, `/commande/${delivered.orderId}/fichiers/${file.id}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(FILES[`autres/${file.name}` as keyof typeof FILES]);
    }
    // The payment key stored encrypted on the old machine reads back with the same APP_SECRET.
    const settings = await adminGet(moved2.url, cookie, '/admin/api/configuration-paiement');
    expect(await settings.json()).toMatchObject({
      config: { type: 'stripe', apiKeySet: true, webhookSecretSet: true },
    });
    const config = await asTheShop(written.DATABASE_URL as string, appSecret, () => loadPaymentConfig());
    expect(config).toMatchObject({ apiKey: API_KEY, unreadable: [] });
    expect(await moved2.stop()).toBe(0);
  });
});
