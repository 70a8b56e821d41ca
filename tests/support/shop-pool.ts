import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { type BrowserServer, chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS } from './browser-options';
import { startServerOn, type TestServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The e2e project's pool of shared servers and its one browser (tests/support/shared-shop.ts). */
    shopPoolUrl: string;
  }
}

/** What a test file receives of a shared server (serialisable: it crosses from this process to the worker). */
export interface SharedServerInfo {
  url: string;
  databaseUrl: string;
  ownerDatabaseUrl: string;
  dataDir: string;
  appSecret: string;
}

/*
 * The e2e project's shared servers and browser, owned by Vitest's main process for the whole run.
 *
 * Booting the production server (a database clone, Node, the bundle) and Chromium took 15 to 25 s
 * per test file on this 2-core machine, for 50 files: most files now borrow them instead.
 *  - one Chromium (`launchServer`), which every e2e file connects to (`launchBrowser()` in
 *    tests/support/browser.ts); each test opens its own context, so pages never share cookies;
 *  - servers started on demand, one per test worker (VITEST_POOL_ID) and environment: the files a
 *    worker runs one after the other share its server, never at the same time, so that a file's
 *    before/after counts see only its own requests. A file asks with the environment it needs
 *    (`sharedServer({ PAYMENT_SANDBOX: 'on' })`): files with the same environment share a server.
 *
 * Workers reach this process over a small HTTP endpoint on 127.0.0.1 (globalSetup cannot share
 * objects with the workers, only serialisable values through `provide`).
 */
export default async function setup(project: TestProject) {
  const { pgAdminUrl, pgTemplate } = project.getProvidedContext();
  const servers = new Map<string, Promise<TestServer>>();
  let browser: Promise<BrowserServer> | undefined;

  // The SMTP peer of a test file lives in its worker, for that file only; the shared server
  // keeps one SMTP port: a TCP relay per worker slot forwards each connection to the peer of the
  // file running now (TLS stays end to end, between the server and that peer).
  const smtpRoutes = new Map<string, number>();
  const relays = new Map<string, Promise<net.Server>>();
  const relayFor = (slot: string) => {
    let relay = relays.get(slot);
    if (!relay) {
      const server = net.createServer((client) => {
        const port = smtpRoutes.get(slot);
        if (!port) return client.destroy();
        const peer = net.connect(port, '127.0.0.1');
        client.pipe(peer).pipe(client);
        client.on('error', () => peer.destroy());
        peer.on('error', () => client.destroy());
      });
      relay = new Promise<net.Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
      relays.set(slot, relay);
    }
    return relay;
  };

  const serverFor = (slot: string, env: Record<string, string>) => {
    const key = `${slot} ${JSON.stringify(Object.entries(env).sort())}`;
    let server = servers.get(key);
    if (!server) {
      server = startServerOn({ adminUrl: pgAdminUrl, template: pgTemplate }, env);
      // A failed start is reported to the file that asked, and tried again by the next one.
      server.catch(() => servers.delete(key));
      servers.set(key, server);
    }
    return server;
  };

  const endpoint = http.createServer((req, res) => {
    const answer = async () => {
      const url = new URL(req.url ?? '/', 'http://pool');
      if (url.pathname === '/browser') {
        browser ??= chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
        return { wsEndpoint: (await browser).wsEndpoint() };
      }
      if (url.pathname === '/server') {
        const slot = url.searchParams.get('slot') ?? '1';
        const env = JSON.parse(url.searchParams.get('env') ?? '{}') as Record<string, string>;
        if (url.searchParams.get('smtp') === '1') {
          // The saved configuration says port 587; the relay listens elsewhere, the peer is self-signed.
          env.SMTP_CONNECT_PORT = String(((await relayFor(slot)).address() as AddressInfo).port);
          env.SMTP_TLS_REJECT_UNAUTHORIZED = 'false';
        }
        const server = await serverFor(slot, env);
        if (server.process.exitCode !== null || server.process.signalCode !== null) {
          throw new Error(`the shared server exited:\n${server.output()}`);
        }
        return {
          url: server.url,
          databaseUrl: server.databaseUrl,
          ownerDatabaseUrl: server.ownerDatabaseUrl,
          dataDir: server.dataDir,
          appSecret: server.appSecret,
        } satisfies SharedServerInfo;
      }
      if (url.pathname === '/smtp-route') {
        smtpRoutes.set(url.searchParams.get('slot') ?? '1', Number(url.searchParams.get('port')));
        return { ok: true };
      }
      if (url.pathname === '/output') {
        for (const server of servers.values()) {
          const s = await server.catch(() => null);
          if (s?.url === url.searchParams.get('url')) return s.output();
        }
      }
      res.statusCode = 404;
      return { error: 'unknown' };
    };
    answer().then(
      (body) => res.setHeader('content-type', 'application/json').end(JSON.stringify(body)),
      (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(error.stack ?? String(error)),
    );
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  project.provide('shopPoolUrl', `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}`);

  return async () => {
    endpoint.close();
    for (const relay of relays.values()) (await relay).close();
    await Promise.all([...servers.values()].map((server) => server.then((s) => s.dispose()).catch(() => {})));
    if (browser) await (await browser).close().catch(() => {});
  };
}
