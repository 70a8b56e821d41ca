import { env } from '../env.server';
import { log } from '../log.server';
import { drainPaFlows, pollPaStatuses } from './pa-deposits.server';

/*
 * The plateforme agréée's worker, in every app process (docs/plateforme-agreee.md): every few
 * seconds it deposits what is due (a cheap indexed query when nothing is), and every
 * PA_STATUS_POLL_SECONDS it reads the statuses back. Claims and landed statuses are guarded in the
 * database, so several processes may run it at once: nothing is deposited or recorded twice.
 */

const DEPOSIT_PASS_MS = 5_000;

let timer: NodeJS.Timeout | undefined;
let running: Promise<void> | undefined;
let lastPoll = 0;
let stopping = false;

async function pass(): Promise<void> {
  try {
    await drainPaFlows(() => !stopping);
  } catch (error) {
    log.warn({ err: error }, 'PA worker: deposit pass failed; it runs again shortly');
  }
  if (Date.now() - lastPoll < env().PA_STATUS_POLL_SECONDS * 1000) return;
  lastPoll = Date.now();
  try {
    const { received } = await pollPaStatuses();
    if (received > 0) log.info({ received }, 'PA worker: statuses received');
    // A status may have queued « Encaissée »: deposited in the same pass.
    if (received > 0) await drainPaFlows(() => !stopping);
  } catch (error) {
    log.warn({ err: error }, 'PA worker: status reading failed; it runs again later');
  }
}

function run(): void {
  if (running) return;
  running = pass().finally(() => {
    running = undefined;
  });
}

/** Starts the worker of this process (once). */
export function startPaWorker(intervalMs = DEPOSIT_PASS_MS): void {
  if (timer) return;
  stopping = false;
  run();
  timer = setInterval(run, intervalMs);
  timer.unref();
}

/** No further pass; resolves once the one under way (if any) is over. */
export async function stopPaWorker(): Promise<void> {
  stopping = true;
  if (timer) clearInterval(timer);
  timer = undefined;
  await running;
}
