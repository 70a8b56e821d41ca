import http from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { UPLOADS_PATH } from '~/domain/files/uploads';
import { freePort } from '~/server/db/embedded.server';
import { createUser, signIn, type TestUser } from '../support/auth';
import { insertTestOrder } from '../support/orders';
import { payBySandboxCard } from '../support/payments';
import { startServer, type TestServer } from '../support/server';
import { tusMetadata } from '../support/tus';

/*
 * What an operator sees of a running shop with every observability setting on (docs/operations.md
 * « Observability »): Prometheus metrics on their own port after a card checkout, one JSON log line
 * per failing loader or action with the request's id (the answer's X-Request-Id), the traces sent
 * to an OTLP/HTTP collector, the error sent to a Sentry-compatible endpoint; and, during a database
 * outage with a signed-in administrator, no session token in any of them. One server for all of
 * it: the collector and Sentry are one local HTTP peer here.
 */

interface Received {
  path: string;
  body: string;
}

let server: TestServer;
let peer: http.Server;
let metricsPort: number;
const received: Received[] = [];
let admin: TestUser;
let adminCookie: string;
/** A visitor's cookie, which must not leave for the error reporting either. */
const VISITOR_COOKIE = 'visiteur-7f3a9c2e41';

const gunzip = promisify(zlib.gunzip);

/** The collector and the Sentry endpoint: keeps every body it is sent, answers as they do. */
async function startPeer(): Promise<{ server: http.Server; port: number }> {
  const peerServer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = await gunzip(body);
      received.push({ path: req.url ?? '/', body: body.toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => peerServer.listen(0, '127.0.0.1', resolve));
  const address = peerServer.address();
  return { server: peerServer, port: typeof address === 'object' && address ? address.port : 0 };
}

beforeAll(async () => {
  const started = await startPeer();
  peer = started.server;
  metricsPort = await freePort();
  server = await startServer({
    env: {
      PAYMENT_SANDBOX: 'on',
      METRICS_PORT: String(metricsPort),
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${started.port}`,
      // The SDK's batch is sent every 5 s by default: sooner, so that the test waits less.
      OTEL_BSP_SCHEDULE_DELAY: '200',
      SENTRY_DSN: `http://0123456789abcdef0123456789abcdef@127.0.0.1:${started.port}/1`,
      LOG_LEVEL: 'info',
    },
  });
  admin = await createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'admin' });
  adminCookie = await signIn({ url: server.url, email: admin.email });
});

afterAll(async () => {
  await server?.dispose();
  await new Promise((resolve) => peer?.close(resolve));
});

async function metrics(): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

const SCAN = Buffer.from('numérisation de test, 38 octets');

/** An upload of SCAN to the order through the tus protocol, as the back office's client sends it: the last answer's status. */
async function upload(orderId: string, cookie?: string): Promise<number> {
  const metadata = tusMetadata({ orderId, support: 'photos', filename: 'scan.txt' });
  const headers = { 'Tus-Resumable': '1.0.0', origin: server.url, ...(cookie ? { cookie } : {}) };
  const created = await fetch(`${server.url}${UPLOADS_PATH}`, {
    method: 'POST',
    headers: { ...headers, 'Upload-Length': String(SCAN.length), 'Upload-Metadata': metadata },
  });
  const location = created.headers.get('location');
  if (created.status !== 201 || !location) return created.status;
  const sent = await fetch(new URL(location, server.url), {
    method: 'PATCH',
    headers: { ...headers, 'Upload-Offset': '0', 'content-type': 'application/offset+octet-stream' },
    body: SCAN,
  });
  return sent.status;
}

/** The value of one series (`name{labels}`), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const set = match[2] ?? '';
    if (Object.entries(labels).every(([key, value]) => set.includes(`${key}="${value}"`))) return Number(match[3]);
  }
  return undefined;
}

/** The server's lines that are JSON objects. */
function jsonLines(): Record<string, unknown>[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The PostgreSQL of the test refuses the shop's database (and drops its connections), or takes it back. */
async function databaseAccepting(accepting: boolean): Promise<void> {
  const name = new URL(server.databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await client.connect();
  try {
    await client.query(`alter database ${client.escapeIdentifier(name)} allow_connections ${accepting}`);
    if (!accepting) {
      await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
    }
  } finally {
    await client.end();
  }
}

describe('observability', () => {
  it('counts a transfer the staff validate, under its own provider', async () => {
    const order = await insertTestOrder(server.databaseUrl, { guestEmail: 'virement-metriques@example.fr' });
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    await client.query(`update orders set payment_method = 'transfer' where id = $1`, [order.id]);
    await client.end();
    const res = await fetch(`${server.url}/admin/api/paiements`, {
      method: 'POST',
      headers: { cookie: adminCookie, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ decision: 'validate', id: `o:${order.id}` }),
    });
    expect(res.status).toBe(200);
    expect(sample(await metrics(), 'soovenirs_payments_total', { provider: 'transfer', outcome: 'paid' })).toBe(1);
  });

  it('counts a card checkout in the metrics, on their own port only', async () => {
    const order = await insertTestOrder(server.databaseUrl, { guestEmail: 'metriques@example.fr' });
    await payBySandboxCard(server.url, order, 'metriques@example.fr');
    // The staff upload a scan of the paid order (tus), and a stranger's upload is refused.
    expect(await upload(order.id, adminCookie)).toBe(204);
    expect(await upload(order.id)).toBe(401);

    const text = await metrics();
    expect(
      sample(text, 'soovenirs_http_requests_total', { method: 'POST', route: '/api/create-checkout', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'soovenirs_http_request_duration_seconds_count', { route: '/api/create-checkout' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'soovenirs_payments_total', { provider: 'sandbox', outcome: 'paid' })).toBe(1);
    expect(sample(text, 'soovenirs_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'soovenirs_db_pool_connections', { state: 'waiting' })).toBe(0);
    // The paid order's e-mails wait in the outbox: held, as this shop has no SMTP server configured.
    expect(sample(text, 'soovenirs_outbox_messages', { status: 'held' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'soovenirs_outbox_messages', { status: 'queued' })).toBe(0);
    expect(sample(text, 'soovenirs_outbox_oldest_queued_age_seconds')).toBe(0);
    expect(sample(text, 'soovenirs_data_dir_free_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'soovenirs_files_dir_free_bytes')).toBeGreaterThan(0);
    // Declared before its first count.
    expect(text).toContain('# TYPE soovenirs_refunds_total counter');
    expect(sample(text, 'soovenirs_uploads_total', { event: 'started' })).toBe(1);
    expect(sample(text, 'soovenirs_uploads_total', { event: 'finished' })).toBe(1);
    expect(sample(text, 'soovenirs_uploads_total', { event: 'refused' })).toBe(1);
    expect(sample(text, 'soovenirs_upload_bytes_total')).toBe(SCAN.length);
    // The addresses are not labels: the order's id appears nowhere.
    expect(text).not.toContain(order.id);
    // The public site does not serve them.
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
  });

  it('sends the traces of the requests to the OTLP collector', async () => {
    await expect
      .poll(
        () =>
          received
            .filter((r) => r.path === '/v1/traces')
            .some((r) => r.body.includes('/api/create-checkout') && r.body.includes('"soovenirs"')),
        { timeout: 15_000, interval: 200 },
      )
      .toBe(true);
    const spans = received
      .filter((r) => r.path === '/v1/traces')
      .flatMap((r) => {
        const request = JSON.parse(r.body) as {
          resourceSpans: { scopeSpans: { scope: { name: string }; spans: { name: string }[] }[] }[];
        };
        return request.resourceSpans.flatMap((rs) =>
          rs.scopeSpans.flatMap((ss) => ss.spans.map((span) => `${ss.scope.name}: ${span.name}`)),
        );
      });
    expect(spans).toContain('@opentelemetry/instrumentation-http: POST');
    expect(spans.some((span) => span.startsWith('@opentelemetry/instrumentation-pg'))).toBe(true);
  });

  it('logs a failing loader as one JSON line with the request id, during an outage that leaks no session token', async () => {
    // The administrator's live session: the cookie's value and the token inside it.
    const cookieValue = decodeURIComponent(adminCookie.slice(adminCookie.indexOf('=') + 1));
    const token = cookieValue.split('.')[0] as string;
    expect(token.length).toBeGreaterThan(16);

    await databaseAccepting(false);
    try {
      // The back office reads the session (Better Auth, in the database) and says it cannot.
      const office = await fetch(`${server.url}/admin`, { headers: { cookie: adminCookie }, redirect: 'manual' });
      expect(office.status).toBe(503);
      // An order placed in the configurator (an action writing to the database) fails; the id the
      // front proxy gave the request is kept.
      const requestId = `proxy-${Date.now()}-order`;
      const ordered = await fetch(`${server.url}/configurateur`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: server.url,
          cookie: `sv_consent=${VISITOR_COOKIE}`,
          'x-request-id': requestId,
        },
        body: new URLSearchParams({ support: 'vhs', 'vhs.quantity': '2', intent: 'order' }),
      });
      expect(ordered.status).toBe(500);
      expect(await ordered.text()).toContain('Une erreur est survenue');
      expect(ordered.headers.get('x-request-id')).toBe(requestId);

      await expect
        .poll(() => jsonLines().filter((line) => line.requestId === requestId && line.level === 50).length, {
          timeout: 5_000,
        })
        .toBe(1);
      const failure = jsonLines().find((line) => line.requestId === requestId && line.level === 50);
      expect(failure).toMatchObject({ route: '/configurateur', method: 'POST', msg: 'a loader or action failed' });
      expect((failure?.err as { stack?: string } | undefined)?.stack).toContain('\n    at ');

      // An id that could carry anything else is replaced by one of the shop's own.
      const replaced = await fetch(`${server.url}/services`, { headers: { 'x-request-id': 'two words, and more' } });
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

      // The error reached the Sentry-compatible endpoint, without the cookie.
      await expect
        .poll(
          () => received.filter((r) => r.path.startsWith('/api/1/envelope/') && r.body.includes(requestId)).length,
          {
            timeout: 10_000,
          },
        )
        .toBeGreaterThanOrEqual(1);
      const envelope = received.find((r) => r.path.startsWith('/api/1/envelope/') && r.body.includes(requestId));
      expect(envelope?.body).toContain('"route":"/configurateur"');
      expect(envelope?.body).not.toContain(VISITOR_COOKIE);
    } finally {
      await databaseAccepting(true);
    }

    // Back to work, with the same session.
    await expect
      .poll(async () => (await fetch(`${server.url}/admin`, { headers: { cookie: adminCookie } })).status, {
        timeout: 10_000,
      })
      .toBe(200);
    // Where a secret was found, and around it (not the whole output, which would hide the answer).
    const leaks = (secret: string) =>
      [{ path: 'server output', body: server.output() }, ...received]
        .filter((r) => r.body.includes(secret))
        .map(
          (r) =>
            `${r.path}: …${r.body.slice(Math.max(0, r.body.indexOf(secret) - 300), r.body.indexOf(secret) + 100)}…`,
        );
    expect(leaks(token)).toEqual([]);
    expect(leaks(cookieValue)).toEqual([]);
    expect(leaks(VISITOR_COOKIE)).toEqual([]);
    // Every line is JSON but the start's words to the terminal (the address, the setup code): no
    // raw stack, no library printing on its own.
    const raw = server
      .output()
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('{'))
      .filter(
        (line) =>
          !/^(Soovenirs est en ligne|Aucun administrateur|\s+- (dans le navigateur|ou en ligne de commande))/.test(
            line,
          ),
      );
    expect(raw).toEqual([]);
  });
});
