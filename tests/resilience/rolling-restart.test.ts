import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { UPLOADS_PATH } from '~/domain/files/uploads';
import { signSandboxPayload } from '~/server/payments/sandbox.server';
import { createUser, signIn } from '../support/auth';
import { createTestDatabase, dropTestDatabase } from '../support/databases';
import { type NginxProxy, type ProxyResponse, startNginx } from '../support/nginx';
import { insertTestOrder } from '../support/orders';
import { type RestartableServer, startRestartableServer } from '../support/server';
import { tusMetadata } from '../support/tus';
import { books, waitUntil } from './checkout-load';

/*
 * A rolling restart behind the repository's nginx configuration (deploy/nginx/soovenirs.conf), as an
 * operator upgrades two instances on one PostgreSQL: each in turn is taken out of nginx (`down`,
 * reload), gets SIGTERM, drains, exits, is started again, is ready and is put back before the other
 * one goes, while guests order and pay through nginx.
 * Nothing may be lost: every post gets its answer (no 502 or 504, no connection error), and every
 * acknowledged order and payment is in the database. On the way, the drain itself is watched on the
 * first instance: an upload chunk whose body is still arriving at SIGTERM is stored and answered,
 * with `Connection: close`, and an open notification stream ends at once with its reconnect hint
 * instead of holding the stop.
 */

const GUESTS = 6;
// Orders acknowledged between two steps of the restart, so that the load runs through each one.
const ORDERS_PER_STEP = 10;
const VHS_UNIT_CENTS = 1700;

// One client address for the whole crowd (nginx's); the sandbox takes the payments (a demo shop).
const LOAD_ENV = { POST_RATE_LIMIT: '100000', CHECKOUT_RATE_LIMIT: '100000', PAYMENT_SANDBOX: 'on' };

const adminUrl = inject('pgAdminUrl');
const appSecret = randomBytes(48).toString('base64');
let database: { name: string; url: string };
let a: RestartableServer;
let b: RestartableServer;
let nginx: NginxProxy;
let db: pg.Client;
const dataDirs: string[] = [];

async function instance(): Promise<RestartableServer> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-rolling-'));
  dataDirs.push(dataDir);
  // The drain's steps are info lines: the operator's view of a stop, read below.
  return startRestartableServer({
    databaseUrl: database.url,
    dataDir,
    env: { ...LOAD_ENV, APP_SECRET: appSecret, LOG_LEVEL: 'info' },
  });
}

beforeAll(async () => {
  database = await createTestDatabase(adminUrl, inject('pgTemplate'));
  process.env.APP_SECRET = appSecret;
  [a, b] = await Promise.all([instance(), instance()]);
  nginx = await startNginx([`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`]);
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
});

afterAll(async () => {
  await nginx?.stop();
  await Promise.all([a?.stop(), b?.stop()]);
  await db?.end();
  if (database) await dropTestDatabase(adminUrl, database.name);
  await Promise.all(dataDirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

interface Load {
  orders: Map<string, { tapes: number }>;
  paid: Set<string>;
  /** Every answer that was not the one expected, and every request that got no answer at all. */
  failures: string[];
  posts: number;
}

/** One post through nginx; a connection error is a failure recorded, not an exception. */
async function post(load: Load, what: string, pathname: string, headers: Record<string, string>, body: string) {
  load.posts++;
  try {
    return await nginx.request(pathname, { method: 'POST', headers, body });
  } catch (error) {
    load.failures.push(`${what}: no answer (${(error as Error).message})`);
    return undefined;
  }
}

function expectStatus(load: Load, what: string, response: ProxyResponse | undefined, status: number): boolean {
  if (!response) return false;
  if (response.status === status) return true;
  load.failures.push(`${what}: ${response.status} ${response.body.toString().slice(0, 200)}`);
  return false;
}

/** A guest without JavaScript ordering VHS tapes, then the sandbox gateway paying, until told to stop. */
async function guest(load: Load, seed: number, shouldStop: () => boolean): Promise<void> {
  for (let round = 0; !shouldStop(); round++) {
    const tapes = 1 + ((seed + round) % 5);
    const form = 'application/x-www-form-urlencoded';
    const created = await post(
      load,
      'order',
      '/configurateur',
      { 'content-type': form },
      new URLSearchParams({ support: 'vhs', 'vhs.quantity': String(tapes), intent: 'order' }).toString(),
    );
    if (!expectStatus(load, 'order', created, 302) || !created) continue;
    const orderId = new URL(String(created.headers.location), nginx.url).searchParams.get('orderId') as string;
    load.orders.set(orderId, { tapes });
    const setCookies = (created.headers['set-cookie'] ?? []) as string[];
    const cookie = setCookies.find((c) => c.startsWith(`sv_order_${orderId}=`))?.split(';')[0] ?? '';

    const checkout = await post(
      load,
      'checkout',
      '/api/create-checkout',
      { 'content-type': 'application/json', cookie },
      JSON.stringify({ orderId, customerEmail: `invite-${seed}@example.fr`, returnUrl: '/' }),
    );
    if (!expectStatus(load, 'checkout', checkout, 200) || !checkout) continue;
    const { sessionId } = JSON.parse(checkout.body.toString()) as { sessionId: string };

    const event = JSON.stringify({
      id: `sbxevt_${sessionId}_succeeded`,
      type: 'payment.succeeded',
      created: Math.floor(Date.now() / 1000),
      data: {
        sessionId,
        orderId,
        amountCents: tapes * VHS_UNIT_CENTS,
        currency: 'EUR',
        card: { brand: 'visa', last4: '4242' },
      },
    });
    const notified = await post(
      load,
      'payment notification',
      '/api/webhooks/sandbox',
      { 'content-type': 'application/json', 'soovenirs-sandbox-signature': signSandboxPayload(event) },
      event,
    );
    if (expectStatus(load, 'payment notification', notified, 200)) load.paid.add(orderId);
  }
}

/**
 * A staff member's upload chunk (tus PATCH) straight to `server`, on a slow line: half of it now, the
 * rest once `ready` resolves. Resolves with its answer.
 */
async function slowChunk(server: RestartableServer, cookie: string, ready: Promise<unknown>) {
  const order = await insertTestOrder(database.url, { paymentStatus: 'paid', status: 'processing' });
  const chunk = 4 * 1024 * 1024;
  const metadata = tusMetadata({ orderId: order.id, support: 'vhs', filename: 'cassette.mp4' });
  const created = await fetch(`${server.url}${UPLOADS_PATH}`, {
    method: 'POST',
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': String(2 * chunk), 'Upload-Metadata': metadata, cookie },
  });
  expect(created.status).toBe(201);
  const location = new URL(created.headers.get('location') as string, server.url);
  const body = Buffer.alloc(chunk, 7);
  const answer = new Promise<{ status: number; offset: unknown; connection: unknown }>((resolve, reject) => {
    const req = http.request(
      location,
      {
        method: 'PATCH',
        headers: {
          'Tus-Resumable': '1.0.0',
          'Upload-Offset': '0',
          'Content-Type': 'application/offset+octet-stream',
          'Content-Length': String(chunk),
          cookie,
        },
        agent: new http.Agent({ keepAlive: true }),
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            offset: res.headers['upload-offset'],
            connection: res.headers.connection,
          }),
        );
      },
    );
    req.on('error', reject);
    req.write(body.subarray(0, chunk / 2));
    void ready.then(() => req.end(body.subarray(chunk / 2)));
  });
  return { answer, chunk };
}

/** The back office's notification stream on `server`, as an administrator's tab holds it: all it receives. */
async function openStream(server: RestartableServer, cookie: string) {
  const response = await fetch(`${server.url}/admin/api/notifications/flux`, {
    headers: { cookie, accept: 'text/event-stream' },
  });
  expect(response.status).toBe(200);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let text = '';
  const ended = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text;
      text += new TextDecoder().decode(value);
    }
  })();
  await waitUntil(() => text.includes('retry: 5000'), 10_000, 'the stream to open');
  return { ended };
}

describe('a rolling restart behind nginx', () => {
  it('answers every post and keeps every acknowledged order and payment', async () => {
    const started = Date.now();
    const admin = await createUser({ url: a.url, databaseUrl: database.url, role: 'admin' });
    const adminCookie = await signIn({ url: a.url, email: admin.email });

    const load: Load = { orders: new Map(), paid: new Set(), failures: [], posts: 0 };
    let restartsDone = false;
    const crowd = Promise.all(Array.from({ length: GUESTS }, (_, i) => guest(load, i, () => restartsDone)));
    const stepDurations: number[] = [];

    for (const server of [a, b]) {
      const before = load.orders.size;
      await waitUntil(() => load.orders.size >= before + ORDERS_PER_STEP || load.failures.length > 0, 60_000, 'orders');
      // The operator first takes the instance out of nginx (docs/operations.md, « Upgrading »).
      await nginx.takeOut(`127.0.0.1:${server.port}`);
      const stepStarted = Date.now();
      const drainingLogged = () => server.output().includes('draining: listener closed');
      // On the first instance, the drain itself: a request half sent and an open stream at SIGTERM.
      const watched =
        server === a
          ? {
              slow: await slowChunk(
                server,
                adminCookie,
                waitUntil(drainingLogged, 30_000, 'the drain to start').catch(() => {}),
              ),
              stream: await openStream(server, adminCookie),
            }
          : undefined;
      const exited = new Promise<number | null>((resolve) => server.process().once('exit', resolve));
      server.process().kill('SIGTERM');
      if (watched) {
        const streamText = await watched.stream.ended;
        // Its last words tell the browser to reconnect (elsewhere) within a second.
        expect(streamText).toMatch(/retry: 1000\n: server restarting, reconnect\n\n$/);
        // The chunk half sent at SIGTERM is stored and answered, and the connection is not kept.
        expect(await watched.slow.answer).toEqual({
          status: 204,
          offset: String(watched.slow.chunk),
          connection: 'close',
        });
      }
      expect(await exited).toBe(0);
      // Well under the 10 s an open stream used to hold every stop.
      if (watched) expect(Date.now() - stepStarted).toBeLessThan(8_000);
      expect(server.output()).toContain('draining: every request answered');
      await server.restart();
      await nginx.takeOut(null);
      stepDurations.push(Date.now() - stepStarted);
    }
    // Still ordering after both restarts, through both instances.
    const afterRestarts = load.orders.size;
    await waitUntil(() => load.orders.size >= afterRestarts + ORDERS_PER_STEP, 60_000, 'orders after the restarts');
    restartsDone = true;
    await crowd;

    // On failure, nginx's own account of it (which upstream, what it saw) comes with the message.
    expect(load.failures, `nginx error log:\n${await nginx.errorLog()}`).toEqual([]);
    const { orders } = await books(db);
    const byId = new Map(orders.map((o) => [o.id, o]));
    for (const [id, { tapes }] of load.orders) {
      expect(byId.get(id), `acknowledged order ${id}`).toMatchObject({ total_price: tapes * VHS_UNIT_CENTS });
    }
    for (const id of load.paid) expect(byId.get(id)?.payment_status, `paid order ${id}`).toBe('paid');
    expect(load.paid.size).toBeGreaterThanOrEqual(3 * ORDERS_PER_STEP - GUESTS);
    expect(await nginx.errorLog()).not.toMatch(/upstream prematurely closed|upstream timed out/);
    console.info(
      `rolling restart: ${load.posts} posts, ${load.orders.size} orders and ${load.paid.size} payments acknowledged, ` +
        `restart steps ${stepDurations.join(' ms, ')} ms, ${Date.now() - started} ms in all`,
    );
  });
});
