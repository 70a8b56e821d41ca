import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort, openEmbeddedPostgres } from '../../app/server/db/embedded.server';

/*
 * The real production server for the bench, as `npm start` runs it: the built app, its own
 * DATA_DIR with the embedded PostgreSQL, limits on form posts raised (a bench posts thousands).
 */

export const root = path.resolve(import.meta.dirname, '../..');

export function ensureBuild(rebuild = false) {
  if (!rebuild && fs.existsSync(path.join(root, 'build/server/index.js'))) return;
  console.log('Construction de l’application (react-router build)…');
  const result = spawnSync(path.join(root, 'node_modules/.bin/react-router'), ['build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error('La construction a échoué.');
}

export async function makeDataDir(label: string): Promise<string> {
  return fsp.mkdtemp(path.join(os.tmpdir(), `soovenirs-bench-${label}-`));
}

/** Runs one of the shop's scripts (seed, admin:create) on a DATA_DIR, and fails loudly if it fails. */
export function runScript(script: string, args: string[], dataDir: string) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
  });
  if (result.status !== 0) throw new Error(`${script} ${args.join(' ')} a échoué (code ${result.status}).`);
}

export interface BenchServer {
  url: string;
  dataDir: string;
  appSecret: string;
  /** The server's database (its embedded PostgreSQL), for checks in SQL. */
  databaseUrl(): Promise<string>;
  output(): string;
  stop(options?: { keepData?: boolean }): Promise<void>;
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Le serveur s’est arrêté (${child.exitCode}) :\n${output()}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Le serveur n’a pas répondu à temps :\n${output()}`);
}

export async function startBenchServer({
  dataDir,
  env = {},
}: {
  dataDir?: string;
  env?: Record<string, string>;
} = {}): Promise<BenchServer> {
  const dir = dataDir ?? (await makeDataDir('server'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const appSecret = randomBytes(32).toString('hex');
  let text = '';
  const child = spawn(process.execPath, ['server/start.js'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: url,
      DATA_DIR: dir,
      DATABASE_URL: '',
      APP_SECRET: appSecret,
      // The bench is one client posting thousands of forms: the per-address limits would stop it.
      POST_RATE_LIMIT: '1000000',
      CHECKOUT_RATE_LIMIT: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  await waitForHealth(url, child, () => text);
  return {
    url,
    dataDir: dir,
    appSecret,
    output: () => text,
    async databaseUrl() {
      // While the server runs, a script role joins its cluster instead of starting one.
      const cluster = await openEmbeddedPostgres({ dataDir: dir, role: 'script' });
      return cluster.url.replace(/\/postgres$/, '/soovenirs');
    },
    async stop({ keepData = false } = {}) {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (!keepData) await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}
