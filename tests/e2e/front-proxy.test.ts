import { expect } from 'vitest';
import { type NginxProxy, startNginx } from '../support/nginx';
import { test } from '../support/shared-shop';

/*
 * The repository's nginx configuration (deploy/nginx/soovenirs.conf) in front of this worker's
 * shared shop: TLS, the redirect from HTTP, the forwarded headers and the health endpoints, as an
 * operator gets them by copying the file.
 */

let proxy: NginxProxy | undefined;

test.afterAll(async () => {
  await proxy?.stop();
});

async function nginxFor(shopUrl: string): Promise<NginxProxy> {
  proxy ??= await startNginx([new URL(shopUrl).host]);
  return proxy;
}

test('serves the shop over TLS and sends plain HTTP there', async ({ shop }) => {
  const nginx = await nginxFor(shop.url);
  const home = await nginx.request('/');
  expect(home.status).toBe(200);
  expect(home.body.toString()).toContain('lang="fr"');

  const plain = await fetch(`${nginx.httpUrl}/commander`, { redirect: 'manual' });
  expect(plain.status).toBe(301);
  // To the standard HTTPS port of the name asked for (the test's own port is not 443).
  expect(plain.headers.get('location')).toBe('https://127.0.0.1/commander');
});

test('answers liveness and readiness apart, through the proxy', async ({ shop }) => {
  const nginx = await nginxFor(shop.url);
  const live = await nginx.request('/livez');
  expect(live.status).toBe(200);
  expect(JSON.parse(live.body.toString())).toEqual({ status: 'ok' });

  const ready = await nginx.request('/readyz');
  expect(ready.status).toBe(200);
  expect(JSON.parse(ready.body.toString())).toMatchObject({ database: 'ok', migrations: 'ok', server: 'ok' });
});
