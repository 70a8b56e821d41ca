import type { Server } from 'node:http';
import type { Env } from '~/server/env.server';
import { log, scrub } from '~/server/log.server';
import { startErrorReporting, stopErrorReporting } from './errors.server';
import { startMetricsServer } from './metrics.server';

/*
 * What server/serve.ts starts and stops of observability, each part only when its variable is set
 * (decision 040). The traces are started earlier, by server/start.js before the bundle loads
 * (server/tracing.js): their instrumentations must patch http, express and pg before anything
 * imports them; this only flushes them at the end.
 */

let metricsServer: Server | undefined;

/** Where server/tracing.js leaves its shutdown, and finds the logger's scrubber (it is not part of the bundle). */
const TRACING_SHUTDOWN = Symbol.for('soovenirs.tracing.shutdown');
const SCRUB_TEXT = Symbol.for('soovenirs.scrubText');

export async function startObservability(env: Env): Promise<void> {
  // Node's own warnings (a library's deprecation, the AWS SDK's notice about the Node version) as
  // JSON lines with the request's id, instead of raw text on stderr: the default printer goes.
  process.removeAllListeners('warning');
  process.on('warning', (warning) => log.warn({ err: warning }, `Node.js warning: ${warning.name}`));
  // The spans' texts are scrubbed as the log's are (server/tracing.js).
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) (globalThis as Record<symbol, unknown>)[SCRUB_TEXT] = scrub;
  if (env.SENTRY_DSN) await startErrorReporting({ dsn: env.SENTRY_DSN, environment: env.SENTRY_ENVIRONMENT });
  if (env.METRICS_PORT) {
    metricsServer = await startMetricsServer({ port: env.METRICS_PORT, host: env.METRICS_HOST, dataDir: env.DATA_DIR });
  }
}

/** Last of the stop sequence: the metrics port closed, queued errors and spans sent (bounded). */
export async function stopObservability(): Promise<void> {
  const closing = metricsServer;
  metricsServer = undefined;
  if (closing) {
    closing.closeAllConnections();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
  }
  await stopErrorReporting();
  const stopTracing = (globalThis as Record<symbol, unknown>)[TRACING_SHUTDOWN];
  if (typeof stopTracing === 'function') await (stopTracing as () => Promise<void>)();
}
