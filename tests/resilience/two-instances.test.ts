import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { closeDatabase } from '~/server/db/client.server';
import { configureSmtpFor } from '~/server/email/testing/fixtures';
import { startTestSmtpServer, type TestSmtpServer } from '~/server/email/testing/smtp-test-server';
import { createUser, signIn } from '../support/auth';
import { createTestDatabase, dropTestDatabase } from '../support/databases';
import { insertTestOrder } from '../support/orders';
import { type RestartableServer, spawnServer, startRestartableServer } from '../support/server';

/*
 * Two instances of the built shop on one PostgreSQL, as behind a load balancer (docs/operations.md,
 * « Several instances »; docs/decisions/009): a price published on one shows on the
 * other's cached pages within 2 s; the contact limit counts both; every e-mail leaves exactly once
 * through the real SMTP peer; invoices validated on both stay gapless. A third instance started
 * with another APP_SECRET refuses to start and says what to do.
 */

const adminUrl = inject('pgAdminUrl');
const appSecret = randomBytes(48).toString('base64');

let database: { name: string; url: string };
let smtp: TestSmtpServer;
let a: RestartableServer;
let b: RestartableServer;
let db: pg.Client;
let adminCookie: string;
let intruder: ReturnType<typeof spawnServer>;
let intruderExit: Promise<number | null>;
const dataDirs: string[] = [];

async function instance(): Promise<RestartableServer> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-instance-'));
  dataDirs.push(dataDir);
  return startRestartableServer({
    databaseUrl: database.url,
    dataDir,
    env: {
      APP_SECRET: appSecret,
      SMTP_CONNECT_PORT: String(smtp.port),
      SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
    },
  });
}

beforeAll(async () => {
  [database, smtp] = await Promise.all([
    createTestDatabase(adminUrl, inject('pgTemplate')),
    startTestSmtpServer({ mode: 'starttls' }),
  ]);
  // Both start at once: one records the secret's fingerprint, the other finds it equal.
  [a, b] = await Promise.all([instance(), instance()]);
  // The owner's e-mail settings, encrypted with the shop's secret (as the settings page would).
  process.env.DATABASE_URL = database.url;
  process.env.APP_SECRET = appSecret;
  await configureSmtpFor(smtp, 'starttls');
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
  // An administrator signs in on A; the session is valid on B too (same database, same secret).
  const admin = await createUser({ url: a.url, databaseUrl: database.url, role: 'admin' });
  adminCookie = await signIn({ url: a.url, email: admin.email });
  // A third instance with its own secret, started now (the fingerprint is recorded) and checked last,
  // so that its start overlaps the other tests.
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-instance-'));
  dataDirs.push(dataDir);
  intruder = spawnServer({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    APP_SECRET: randomBytes(48).toString('base64'),
  });
  intruderExit = new Promise((resolve) => intruder.child.once('exit', resolve));
});

afterAll(async () => {
  intruder?.child.kill('SIGTERM');
  await Promise.all([a?.stop(), b?.stop()]);
  await db?.end();
  await closeDatabase();
  await smtp?.stop();
  if (database) await dropTestDatabase(adminUrl, database.name);
  await Promise.all(dataDirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

function post(server: RestartableServer, pathname: string, body: URLSearchParams, cookie?: string) {
  return fetch(`${server.url}${pathname}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: server.url,
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie ? { cookie } : {}),
    },
    body,
  });
}

async function page(server: RestartableServer, pathname: string): Promise<{ cache: string | null; html: string }> {
  const response = await fetch(`${server.url}${pathname}`);
  expect(response.status).toBe(200);
  return { cache: response.headers.get('x-cache'), html: await response.text() };
}

/** The price per photo /services shows (« À partir de 0,35 € par photo »). */
async function photoPrice(server: RestartableServer): Promise<string | undefined> {
  const { html } = await page(server, '/services');
  return /À partir de ([\d,]+)\u00A0€ par photo/.exec(html)?.[1];
}

describe('two instances on one database', () => {
  it('shows a price published on one on the other’s cached pages within 2 s', async () => {
    await page(b, '/services');
    expect((await page(b, '/services')).cache).toBe('HIT');
    expect(await photoPrice(b)).toBe('0,35');

    // The Tarifs tab's form on A, as the browser posts it once the summary is confirmed.
    const published = await post(
      a,
      '/admin/tarifs',
      new URLSearchParams({ intent: 'update', 'supports.photos.basePrice': '0,42', confirmed: '1' }),
      adminCookie,
    );
    expect(published.status).toBe(200);
    const publishedAt = Date.now();

    let seen = await photoPrice(b);
    while (seen !== '0,42' && Date.now() - publishedAt < 2_000) seen = await photoPrice(b);
    expect(seen).toBe('0,42');
    expect(Date.now() - publishedAt).toBeLessThan(2_000);
    expect(await photoPrice(a)).toBe('0,42');
  });

  it('renders pages afresh on the other instance when an administrator invalidates the content', async () => {
    await page(b, '/a-propos');
    expect((await page(b, '/a-propos')).cache).toBe('HIT');
    const invalidated = await fetch(`${a.url}/api/content/invalidate`, {
      method: 'POST',
      headers: { cookie: adminCookie, origin: a.url },
    });
    expect(invalidated.status).toBe(200);
    const invalidatedAt = Date.now();
    let seen = await page(b, '/a-propos');
    while (seen.cache === 'HIT' && Date.now() - invalidatedAt < 2_000) seen = await page(b, '/a-propos');
    expect(seen.cache).toBe('MISS');
  });

  it('counts the contact limit across both: 5 messages in all, then refused on either', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await post(
        i % 2 === 0 ? a : b,
        '/contact',
        new URLSearchParams({
          name: `Visiteur ${i}`,
          email: `visiteur-${i}@example.fr`,
          subject: `Numérisation ${i}`,
          message: 'Bonjour, combien pour 300 diapositives ?',
        }),
      );
      const html = await response.text();
      statuses.push(response.status);
      if (response.status === 429) expect(html).toContain('Vous avez envoyé plusieurs messages en peu de temps');
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from contact_messages');
    expect(rows[0]?.n).toBe(5);
  });

  it('numbers the invoices of payments validated on both without a gap', async () => {
    const orders = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const order = await insertTestOrder(database.url, { guestEmail: `client-${i}@example.fr`, extraCents: i });
        await db.query(`update orders set payment_method = 'transfer' where id = $1`, [order.id]);
        return order;
      }),
    );
    // Validation Paiements, three orders on each instance, at the same time.
    const answers = await Promise.all(
      orders.map(async (order, i) => {
        const response = await post(
          i % 2 === 0 ? a : b,
          '/admin/api/paiements',
          new URLSearchParams({ decision: 'validate', id: `o:${order.id}` }),
          adminCookie,
        );
        expect(response.status).toBe(200);
        return (await response.json()) as { results: { ok: boolean }[] };
      }),
    );
    expect(answers.flatMap((answer) => answer.results.map((r) => r.ok))).toEqual([true, true, true, true, true, true]);
    const { rows } = await db.query<{ number: string }>(
      'select number from invoices where order_id = any($1) order by number',
      [orders.map((o) => o.id)],
    );
    expect(rows).toHaveLength(6);
    const sequence = rows.map((r) => Number(r.number.split('-').at(-1)));
    const series = new Set(rows.map((r) => r.number.split('-').slice(0, -1).join('-')));
    expect(series.size).toBe(1);
    expect(sequence).toEqual(Array.from({ length: 6 }, (_, i) => (sequence[0] as number) + i));
    const { rows: all } = await db.query<{ n: number; max: number }>(
      `select count(*)::int as n, max(split_part(number, '-', 3)::int) as max from invoices where number like $1`,
      [`${[...series][0]}-%`],
    );
    // No number skipped in the whole series either.
    expect(all[0]?.max).toBe(all[0]?.n);
  });

  it('sends every e-mail exactly once, whichever instance’s worker takes it', async () => {
    const outbox = async () =>
      (await db.query<{ status: string }>('select status from email_outbox')).rows.map((r) => r.status);
    const expected = (await outbox()).length;
    // Contact messages and payment confirmations at least.
    expect(expected).toBeGreaterThanOrEqual(10);
    await smtp.waitForMessages(expected, 60_000);
    await expect.poll(outbox, { timeout: 10_000 }).toEqual(Array(expected).fill('sent'));
    expect(smtp.messages).toHaveLength(expected);
    const ids = smtp.messages.map((m) => m.headers.get('message-id'));
    expect(new Set(ids).size).toBe(expected);
  });

  it('refuses to start a third instance with another APP_SECRET, saying what to do', async () => {
    const code = await intruderExit;
    const { output } = intruder;
    expect(code).toBe(1);
    expect(output()).toContain('La clé APP_SECRET de cette instance ne correspond pas');
    expect(output()).toContain('donnez à APP_SECRET exactement la même valeur que sur les autres instances');
    // The two others still serve.
    expect((await fetch(`${a.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${b.url}/healthz`)).status).toBe(200);
  });
});
