import type { Express, Request, Response } from 'express';
import { databaseIsUp, pool } from './db/client.server';
import { upToDate } from './db/migrate.server';

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
 */

export type CheckState = 'ok' | 'down' | 'pending' | 'draining';

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

export async function readiness(): Promise<Readiness> {
  const database = await databaseIsUp();
  const migrations = database ? await migrationsApplied() : false;
  const checks: Record<string, CheckState> = {
    database: database ? 'ok' : 'down',
    migrations: migrations ? 'ok' : database ? 'pending' : 'down',
    server: draining ? 'draining' : 'ok',
  };
  return { ready: Object.values(checks).every((state) => state === 'ok'), checks };
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
