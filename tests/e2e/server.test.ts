import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, isAlive } from '~/server/db/embedded.server';
import { createUser, randomIp } from '../support/auth';
import { rawRequest } from '../support/bad-input';
import { spawnServer, startServer, type TestServer, waitForHealth } from '../support/server';

async function childrenOf(parent: number): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // Fields after the command name (which may hold spaces): state, ppid, ...
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === parent) pids.push(Number(entry));
  }
  return pids;
}

/** Sends `sig` to `pid`; false when the process is already gone. */
function signal(pid: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

describe('the HTTP server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('answers /healthz with the state of the database', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ok',
      database: 'ok',
      migrations: 'ok',
      server: 'ok',
      disk: 'ok',
    });
  });

  it('serves French pages with a per-request CSP nonce and security headers', async () => {
    const first = await fetch(`${server.url}/`);
    const second = await fetch(`${server.url}/`);
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(html).toMatch(/<html lang="fr"/);
    const csp = first.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(html).toContain(`nonce="${nonce}"`);
    expect(second.headers.get('content-security-policy')).not.toContain(nonce);
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(first.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(first.headers.get('strict-transport-security')).toContain('max-age=');
  });

  it('caches hashed assets for a year and compresses responses', async () => {
    // A page that hydrates (the site's pages load no framework, docs/decisions/018).
    const html = await (await fetch(`${server.url}/configurateur`)).text();
    // The framework chunk: large enough to be compressed (the entry chunk is a few hundred bytes).
    const asset = /\/assets\/framework-[\w-]+\.js/.exec(html)?.[0];
    expect(asset).toBeTruthy();
    const res = await fetch(`${server.url}${asset}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-encoding')).toBe('gzip');
  });

  it('refuses a POST sent from a foreign site, in French', async () => {
    const res = await fetch(`${server.url}/`, { method: 'POST', headers: { Origin: 'https://pirate.example' } });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('origine non autorisée');
    const own = await fetch(`${server.url}/api/auth/get-session`, { headers: { Origin: server.url } });
    expect(own.status).not.toBe(403);
  });

  it('keeps the connection between requests without a body, cached pages included', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const answers = [];
      // The second and third are served from the HTML cache; /healthz answers outside it.
      for (const path of ['/faq', '/faq', '/faq', '/healthz']) {
        answers.push(await rawRequest(`${server.url}${path}`, { agent, headers: { 'accept-encoding': 'gzip' } }));
      }
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect(answers[2]?.headers['x-cache']).toBe('HIT');
      expect(answers.map((a) => a.headers.connection)).toEqual([
        'keep-alive',
        'keep-alive',
        'keep-alive',
        'keep-alive',
      ]);
      // One connection for the four.
      expect(new Set(answers.map((a) => a.localPort)).size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('closes the connection after answering a post whose body it did not read', async () => {
    const answer = await rawRequest(`${server.url}/`, {
      method: 'POST',
      headers: {
        origin: 'https://pirate.example',
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(200 * 1024),
      },
      body: [Buffer.alloc(200 * 1024, 'a')],
    });
    expect(answer.status).toBe(403);
    expect(answer.headers.connection).toBe('close');
  });

  it('answers an unknown page with a French 404', async () => {
    const res = await fetch(`${server.url}/cette-page-n-existe-pas`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Page introuvable');
  });

  it('holds one copy of each server module: a page sees the outbox worker the startup started', async () => {
    // The startup (server/serve.ts) starts the worker in app/server/email/worker.server.ts; the back
    // office's outbox (a page of the React Router build) reads that module's state. With a second
    // copy of the module in the process, the page would read its own, never started (docs/decisions/033).
    const before = Date.now();
    const admin = await createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'admin' });
    const res = await fetch(`${server.url}/admin/api/emails`, {
      headers: { cookie: admin.cookie, 'x-forwarded-for': randomIp() },
    });
    expect(res.status).toBe(200);
    const { worker } = (await res.json()) as { worker: { running: boolean; startedAt: string | null } };
    expect(worker.running).toBe(true);
    // Started with the server, before this test made its account.
    expect(new Date(worker.startedAt ?? '').getTime()).toBeLessThan(before);
  });

  it('finishes cleanly on SIGTERM and keeps the data for the next start', async () => {
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    await client.query(
      `insert into contact_messages (name, email, subject, message) values ('Jeanne Martin', 'jeanne@example.fr', 'Diapositives', 'Bonjour !')`,
    );
    await client.end();
    expect(await server.stop()).toBe(0);

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const again = spawnServer({
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: url,
      DATABASE_URL: server.databaseUrl,
      DATA_DIR: server.dataDir,
      // The database keeps a fingerprint of the secret: the shop's own is required.
      APP_SECRET: server.appSecret,
    });
    try {
      await waitForHealth(url, again.child, again.output);
      const check = new pg.Client({ connectionString: server.databaseUrl });
      await check.connect();
      const { rows } = await check.query('select name from contact_messages');
      await check.end();
      expect(rows).toEqual([{ name: 'Jeanne Martin' }]);
    } finally {
      again.child.kill('SIGTERM');
      await new Promise((r) => again.child.once('exit', r));
    }
  });
});

describe('the embedded PostgreSQL in DATA_DIR', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-embedded-'));
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('is started by the server, refused to a second server, reports 503 when down, and stops cleanly', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const first = spawnServer({
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
    });
    try {
      await waitForHealth(url, first.child, first.output, 90_000);

      const secondPort = await freePort();
      const second = spawnServer({
        PORT: String(secondPort),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
      });
      const code = await new Promise((r) => second.child.once('exit', r));
      expect(code).toBe(1);
      expect(second.output()).toContain(`Another Soovenirs server (pid ${first.child.pid}) is already using DATA_DIR`);

      // The database going away shows in /healthz.
      const postmaster = await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
      const pgPid = Number(postmaster.split('\n')[0]);
      // Freeze PostgreSQL and every backend it forked, as a hung database server would be.
      // A backend may exit between the listing and the signal (an idle connection closed): skipped.
      const frozen = [pgPid, ...(await childrenOf(pgPid))].filter((pid) => signal(pid, 'SIGSTOP'));
      try {
        const res = await fetch(`${url}/healthz`);
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual({
          status: 'error',
          database: 'down',
          migrations: 'down',
          server: 'ok',
          disk: 'ok',
        });
      } finally {
        for (const pid of frozen) signal(pid, 'SIGCONT');
      }
      expect((await fetch(`${url}/healthz`)).status).toBe(200);

      first.child.kill('SIGTERM');
      expect(await new Promise((r) => first.child.once('exit', r))).toBe(0);
      // The database was stopped with the server, and DATA_DIR is free again.
      expect(isAlive(pgPid)).toBe(false);
      await expect(fs.access(path.join(dataDir, 'server.json'))).rejects.toThrow();
    } finally {
      if (first.child.exitCode === null) first.child.kill('SIGKILL');
    }
  });

  it('refuses to start with an invalid environment, saying what is wrong', async () => {
    const bad = spawnServer({ PORT: 'quatre-vingts', DATA_DIR: dataDir });
    expect(await new Promise((r) => bad.child.once('exit', r))).toBe(1);
    expect(bad.output()).toContain('Invalid environment');
    expect(bad.output()).toContain('PORT');
  });
});
