import path from 'node:path';
import type { Express, Request, Response } from 'express';
import { diskIsLow } from '~/domain/files/disk-space';
import { databaseIsUp, pool } from './db/client.server';
import { upToDate } from './db/migrate.server';
import { env } from './env.server';
import { diskReserveFromEnv, measureDisk } from './files/disk-space.server';
import { localFilesRoot, s3SettingsFromEnv } from './files/storage.server';

/*
 * Two questions an orchestrator or a load balancer asks, answered apart (docs/operations.md,
 * « Health endpoints »):
 * - liveness, `GET /livez`: is the process up and its event loop turning? Always 200 while it
 *   answers at all. A slow or lost database must not get every instance restarted, so nothing
 *   outside the process is asked here.
 * - readiness, `GET /readyz`: should this instance get requests now? 503 while the database does
 *   not answer, while this code's migrations are not applied, or once the instance is draining
 *   (SIGTERM: server/serve.ts), with what failed in the body.
 * `GET /healthz` is kept as readiness's old name (monitors and the scripts already ask it).
 *
 * The `disk` check (decision 042): `low` when the files' disk (FILES_DIR) is under its reserve
 * (UPLOAD_DISK_RESERVE): reported for the operator, the instance stays ready, since orders do not
 * need that disk (new uploads are refused meanwhile). `full` when the embedded PostgreSQL's own disk
 * (DATA_DIR/postgres) is under DATABASE_DISK_FLOOR_BYTES: orders would fail, the instance is unready.
 */

export type CheckState = 'ok' | 'down' | 'pending' | 'draining' | 'low' | 'full' | 'unknown';

/** Under this, the embedded database is about to fail its writes (WAL, new rows): the instance is unready. */
export const DATABASE_DISK_FLOOR_BYTES = 128 * 1024 ** 2;

/** States a check may report while the instance stays ready: said, not failed. */
const READY_ANYWAY: ReadonlySet<CheckState> = new Set(['ok', 'low', 'unknown']);

export interface Readiness {
  ready: boolean;
  checks: Record<string, CheckState>;
}

let draining = false;

/** From SIGTERM on, readiness answers 503: the balancer stops sending new requests here. */
export function startDraining(): void {
  draining = true;
}

export function isDraining(): boolean {
  return draining;
}

async function migrationsApplied(): Promise<boolean> {
  try {
    return await upToDate(pool());
  } catch {
    return false;
  }
}

/** The embedded database's disk under its floor (`full`), else the files' disk under its reserve (`low`). */
async function diskState(): Promise<CheckState> {
  try {
    const e = env();
    if (!e.DATABASE_URL) {
      const dataDir = path.resolve(e.DATA_DIR);
      const database = await measureDisk(path.join(dataDir, 'postgres')).catch(() => measureDisk(dataDir));
      if (database.freeBytes < DATABASE_DISK_FLOOR_BYTES) return 'full';
    }
    // In a bucket, the files take no room here.
    if (s3SettingsFromEnv()) return 'ok';
    return diskIsLow(await measureDisk(localFilesRoot()), diskReserveFromEnv()) ? 'low' : 'ok';
  } catch {
    // A folder that cannot be measured (removed under the shop): said, the database answers for itself.
    return 'unknown';
  }
}

export async function readiness(): Promise<Readiness> {
  const database = await databaseIsUp();
  const migrations = database ? await migrationsApplied() : false;
  const checks: Record<string, CheckState> = {
    database: database ? 'ok' : 'down',
    migrations: migrations ? 'ok' : database ? 'pending' : 'down',
    server: draining ? 'draining' : 'ok',
    disk: await diskState(),
  };
  return { ready: Object.values(checks).every((state) => READY_ANYWAY.has(state)), checks };
}

/** The endpoints, outside the pages (no session, no cache, no body). */
export function healthRoutes(app: Express): void {
  app.get('/livez', (_req, res) => {
    res.status(200).set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  const ready = async (_req: Request, res: Response) => {
    const { ready: isReady, checks } = await readiness();
    res
      .status(isReady ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({ status: isReady ? 'ok' : 'error', ...checks });
  };
  app.get('/readyz', ready);
  app.get('/healthz', ready);
}
