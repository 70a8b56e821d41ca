import type { IncomingMessage } from 'node:http';
import pg from 'pg';
import { describe, expect } from 'vitest';
import { UPLOADS_PATH } from '~/domain/files/uploads';
import { createUser, signIn, TEST_PASSWORD } from '../support/auth';
import { startCaddy } from '../support/caddy';
import { startNginx } from '../support/nginx';
import { insertTestOrder } from '../support/orders';
import { payBySandboxCard } from '../support/payments';
import { test } from '../support/shared-shop';
import type { ProxyRequestOptions, ProxyResponse } from '../support/tls-client';
import { tusMetadata } from '../support/tus';

/*
 * The repository's front-proxy configurations (deploy/nginx/soovenirs.conf, deploy/caddy/Caddyfile)
 * in front of this worker's shared shop, run by Debian's nginx and caddy as an operator gets them by
 * copying the files: TLS, the redirect from HTTP, the health endpoints, the back office's event
 * stream passed on unbuffered, the client's address seen by the shop, a 16 MiB upload chunk.
 */

interface Proxy {
  url: string;
  request(pathname: string, options?: ProxyRequestOptions): Promise<ProxyResponse>;
  open(pathname: string, options?: ProxyRequestOptions): Promise<IncomingMessage>;
  stop(): Promise<void>;
}

type Kind = 'nginx' | 'caddy';
const proxies = new Map<string, Promise<Proxy>>();

test.afterAll(async () => {
  for (const proxy of proxies.values()) await (await proxy).stop();
});

/** One proxy of each kind per shop for the whole file. */
function proxyFor(kind: Kind, shopUrl: string): Promise<Proxy> {
  const key = `${kind} ${shopUrl}`;
  let proxy = proxies.get(key);
  if (!proxy) {
    const upstream = [new URL(shopUrl).host];
    proxy = kind === 'nginx' ? startNginx(upstream) : startCaddy(upstream);
    proxies.set(key, proxy);
  }
  return proxy;
}

test('nginx serves the shop over TLS and sends plain HTTP there', async ({ shop }) => {
  const nginx = await startNginxFor(shop.url);
  const home = await nginx.request('/');
  expect(home.status).toBe(200);
  expect(home.body.toString()).toContain('lang="fr"');

  const plain = await fetch(`${nginx.httpUrl}/commander`, { redirect: 'manual' });
  expect(plain.status).toBe(301);
  // To the standard HTTPS port of the name asked for (the test's own port is not 443).
  expect(plain.headers.get('location')).toBe('https://127.0.0.1/commander');
});

async function startNginxFor(shopUrl: string) {
  return (await proxyFor('nginx', shopUrl)) as Awaited<ReturnType<typeof startNginx>>;
}

describe.each<Kind>(['nginx', 'caddy'])('behind %s', (kind) => {
  test('answers over TLS, liveness and readiness apart', async ({ shop }) => {
    const proxy = await proxyFor(kind, shop.url);
    const home = await proxy.request('/');
    expect(home.status).toBe(200);
    expect(home.body.toString()).toContain('lang="fr"');

    const live = await proxy.request('/livez');
    expect(live.status).toBe(200);
    expect(JSON.parse(live.body.toString())).toEqual({ status: 'ok' });
    const ready = await proxy.request('/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body.toString())).toMatchObject({ database: 'ok', migrations: 'ok', server: 'ok' });
  });

  test('passes the notification stream on as each event comes', async ({ sandboxShop: shop }) => {
    const proxy = await proxyFor(kind, shop.url);
    const admin = await createUser({ url: shop.url, databaseUrl: shop.databaseUrl, role: 'admin' });
    const cookie = await signIn({ url: shop.url, email: admin.email });
    const stream = await proxy.open('/admin/api/notifications/flux', {
      headers: { cookie, accept: 'text/event-stream' },
    });
    expect(stream.statusCode).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    let received = '';
    stream.on('data', (chunk: Buffer) => {
      received += chunk.toString();
    });
    try {
      await expect.poll(() => received).toContain('retry: 5000');

      // A guest pays while the administrator's tab is open: the stream brings its notification.
      const order = await insertTestOrder(shop.databaseUrl);
      await payBySandboxCard(shop.url, order, 'invite@example.fr');
      await expect.poll(() => received).toContain(`"orderId":"${order.id}"`);
      expect(received).toContain('event: notification');
    } finally {
      stream.destroy();
    }
  });

  test('lets the shop see the client’s address, not the proxy’s', async ({ shop }) => {
    const proxy = await proxyFor(kind, shop.url);
    const member = await createUser({ url: shop.url, databaseUrl: shop.databaseUrl });
    // From 127.0.0.2, while the proxy reaches the shop from 127.0.0.1: the session Better Auth
    // records (and the rate limits count) is the client's.
    const signedIn = await proxy.request('/api/auth/sign-in/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: shop.url },
      body: JSON.stringify({ email: member.email, password: TEST_PASSWORD }),
      localAddress: '127.0.0.2',
    });
    expect(signedIn.status).toBe(200);
    const db = new pg.Client({ connectionString: shop.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ ip_address: string }>(
        'select ip_address from session where user_id = $1 order by created_at desc limit 1',
        [member.id],
      );
      expect(rows).toEqual([{ ip_address: '127.0.0.2' }]);
    } finally {
      await db.end();
    }
  });

  test('takes a 16 MiB upload chunk', async ({ shop }) => {
    const proxy = await proxyFor(kind, shop.url);
    const admin = await createUser({ url: shop.url, databaseUrl: shop.databaseUrl, role: 'admin' });
    const cookie = await signIn({ url: shop.url, email: admin.email });
    const order = await insertTestOrder(shop.databaseUrl, { paymentStatus: 'paid', status: 'processing' });
    const chunk = 16 * 1024 * 1024;
    const metadata = tusMetadata({ orderId: order.id, support: 'vhs', filename: 'cassette.mp4' });
    const created = await proxy.request(UPLOADS_PATH, {
      method: 'POST',
      headers: {
        'Tus-Resumable': '1.0.0',
        // Two chunks: the first one is the proxy's business, finishing a file is not.
        'Upload-Length': String(2 * chunk),
        'Upload-Metadata': metadata,
        origin: shop.url,
        cookie,
      },
    });
    expect(created.status, created.body.toString()).toBe(201);
    const location = new URL(String(created.headers.location), proxy.url).pathname;

    const patched = await proxy.request(location, {
      method: 'PATCH',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
        origin: shop.url,
        cookie,
      },
      body: Buffer.alloc(chunk, 7),
    });
    expect(patched.status, patched.body.toString()).toBe(204);
    expect(patched.headers['upload-offset']).toBe(String(chunk));

    const cancelled = await proxy.request(location, {
      method: 'DELETE',
      headers: { 'Tus-Resumable': '1.0.0', origin: shop.url, cookie },
    });
    expect(cancelled.status).toBe(204);
  });
});
