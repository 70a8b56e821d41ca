import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { freePort } from '~/server/db/embedded.server';
import { createTestDatabase, dropTestDatabase } from './databases';

export interface TestServer {
  /** e.g. http://127.0.0.1:41234, also the server's BASE_URL */
  url: string;
  /** The server's own database, for assertions and fixtures, as the role the shop runs as. */
  databaseUrl: string;
  /** The same database as its owner, for a test that changes the schema (docs/decisions/020). */
  ownerDatabaseUrl: string;
  dataDir: string;
  /** Its APP_SECRET: a restart on the same database needs the same one (the database checks it). */
  appSecret: string;
  process: ChildProcess;
  /** What the server printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, then wait for a clean exit; returns the exit code. */
  stop(): Promise<number | null>;
  /** Stops the server and removes its database and DATA_DIR. */
  dispose(): Promise<void>;
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}):\n${output()}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`The server did not become healthy in time:\n${output()}`);
}

export function spawnServer(
  env: Record<string, string>,
  /** Variables of this process the server must not inherit (e.g. DATABASE_URL, to run its embedded cluster). */
  unset: string[] = [],
): { child: ChildProcess; output: () => string } {
  let text = '';
  // Vitest's own variables (Vite sets BASE_URL=/, among others) are not the server's.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !['BASE_URL', 'MODE', 'DEV', 'PROD', 'SSR', 'VITEST', ...unset].includes(key),
    ),
  );
  const child = spawn(process.execPath, ['server/start.js'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    // The tests serve the build made for the run (global-build.ts), even if a file is edited
    // meanwhile: `npm start` would otherwise rebuild it under the other servers (server/start.js).
    env: { ...inherited, NODE_ENV: 'production', LOG_LEVEL: 'warn', REBUILD_WHEN_STALE: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c: Buffer) => {
    text += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    text += c.toString();
  });
  return { child, output: () => text };
}

/**
 * The real production server (the built app, `npm start`'s entry) on a free port, with a fresh
 * database cloned from the migrated template. `npm test` builds the app once beforehand.
 */
export async function startServer({ env = {} }: { env?: Record<string, string> } = {}): Promise<TestServer> {
  return startServerOn({ adminUrl: inject('pgAdminUrl'), template: inject('pgTemplate') }, env);
}

/** startServer with the test PostgreSQL named (where `inject` is not available: a globalSetup). */
export async function startServerOn(
  { adminUrl, template }: { adminUrl: string; template: string },
  env: Record<string, string> = {},
  // Under the e2e hook's 120 s: with other suites on the 2 cores, a start took over 60 s (four files
  // of one CI run failed so, 2026-11-27).
  healthTimeoutMs = 110_000,
): Promise<TestServer> {
  const database = await createTestDatabase(adminUrl, template);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const appSecret = env.APP_SECRET ?? randomBytes(32).toString('hex');
  const { child, output } = spawnServer({
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: url,
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    ...env,
    APP_SECRET: appSecret,
  });
  try {
    await waitForHealth(url, child, output, healthTimeoutMs);
  } catch (error) {
    // Not left running behind the failure (a shared server's is retried by the next file).
    child.kill('SIGKILL');
    await dropTestDatabase(adminUrl, database.name).catch(() => {});
    await fs.rm(dataDir, { recursive: true, force: true });
    throw error;
  }

  const stop = async () => {
    if (child.exitCode !== null) return child.exitCode;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    return exited;
  };
  return {
    url,
    databaseUrl: database.url,
    ownerDatabaseUrl: database.ownerUrl,
    dataDir,
    appSecret,
    process: child,
    output,
    stop,
    dispose: async () => {
      await stop();
      await dropTestDatabase(adminUrl, database.name);
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export { waitForHealth };

/**
 * The one-time setup code a server printed at start while the shop has no administrator (« …/setup-super-admin,
 * avec le code d’installation ABCD-EFGH-JKMN »). It is printed just after the server starts listening: waits
 * for that line.
 */
export async function printedSetupCode(output: () => string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const codes = [...output().matchAll(/code d’installation ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})/g)];
    const last = codes.at(-1)?.[1];
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`the server printed no setup code:\n${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A server process that a test may kill and start again on the same port, database and DATA_DIR. */
export interface RestartableServer {
  url: string;
  port: number;
  dataDir: string;
  /** The process of the current run. */
  process(): ChildProcess;
  /** Output of every run so far. */
  output(): string;
  /** Sends `signal` and waits until the process is gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Starts the server again with the same environment and waits until /healthz answers 200. */
  restart(): Promise<void>;
  /** SIGTERM and wait for a clean exit (no-op when not running); returns the exit code. */
  stop(): Promise<number | null>;
}

/**
 * The production server with a given environment, restartable. Without `databaseUrl` the server
 * runs its own embedded PostgreSQL in `dataDir`, as `npm start` does on a shop's machine.
 */
export async function startRestartableServer({
  databaseUrl,
  dataDir,
  env = {},
}: {
  databaseUrl?: string;
  dataDir: string;
  env?: Record<string, string>;
}): Promise<RestartableServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const fullEnv: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: url,
    DATA_DIR: dataDir,
    APP_SECRET: randomBytes(32).toString('hex'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  };
  type Run = { child: ChildProcess; output: () => string };
  let previous = '';
  let current: Run | undefined;
  const run = (): Run => {
    if (!current) throw new Error('the server was never started');
    return current;
  };
  const launch = async () => {
    if (current) previous += current.output();
    const started = spawnServer(fullEnv, databaseUrl ? [] : ['DATABASE_URL']);
    current = started;
    await waitForHealth(url, started.child, () => previous + started.output(), 90_000);
  };
  await launch();
  const exited = (child: ChildProcess) =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    port,
    dataDir,
    process: () => run().child,
    output: () => previous + (current?.output() ?? ''),
    async kill(signal) {
      const { child } = run();
      const done = exited(child);
      child.kill(signal);
      await done;
    },
    restart: launch,
    async stop() {
      const { child } = run();
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const done = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      return done;
    },
  };
}
