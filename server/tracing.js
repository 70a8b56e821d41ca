// @ts-check
/*
 * OpenTelemetry traces (docs/operations.md « Observability », docs/decisions/040): loaded by
 * server/start.js only when OTEL_EXPORTER_OTLP_ENDPOINT is set, and before the server bundle,
 * because the instrumentations patch http, express and pg as they are first loaded. Spans go to
 * that endpoint over OTLP/HTTP (JSON, `/v1/traces` appended), batched; the SDK reads its other
 * standard variables itself (OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER, OTEL_BSP_SCHEDULE_DELAY…).
 * The bundle's stop sequence flushes them through the shutdown left under TRACING_SHUTDOWN.
 */
import { DiagLogLevel, diag } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK, tracing } from '@opentelemetry/sdk-node';
import pino from 'pino';

const TRACING_SHUTDOWN = Symbol.for('soovenirs.tracing.shutdown');

// The SDK's own complaints (an unreachable collector) as JSON lines like the app's, never raw text.
const logger = pino({ base: undefined, level: process.env.LOG_LEVEL ?? 'info' }).child({ source: 'opentelemetry' });
diag.setLogger(
  {
    error: (message, ...args) => logger.warn({ details: args.map(String) }, message),
    warn: (message, ...args) => logger.warn({ details: args.map(String) }, message),
    info: () => {},
    debug: () => {},
    verbose: () => {},
  },
  DiagLogLevel.WARN,
);

/** Where the bundle leaves the logger's text scrubber (app/server/observability/start.server.ts). */
const SCRUB_TEXT = Symbol.for('soovenirs.scrubText');

/**
 * What leaves for the collector is what the log may hold. A span records the errors it saw (a
 * failed query's message quotes its parameters: a session token, during a database outage) and
 * the addresses asked (a sign-in link's token): every text of a span goes through the logger's
 * scrubber once it ends, before the batch sends it; before the bundle has given it, nothing leaves.
 * @param {unknown} value
 */
function clean(value) {
  if (typeof value !== 'string') return value;
  const scrub = /** @type {Record<symbol, unknown>} */ (globalThis)[SCRUB_TEXT];
  return typeof scrub === 'function' ? scrub(value) : '[redacted]';
}

/** @param {Record<string, unknown> | undefined} attributes */
function cleanAttributes(attributes) {
  if (!attributes) return;
  for (const key of Object.keys(attributes)) attributes[key] = clean(attributes[key]);
}

/** @type {tracing.SpanProcessor} */
const scrubbing = {
  onStart: () => {},
  onEnd: (span) => {
    cleanAttributes(/** @type {Record<string, unknown>} */ (span.attributes));
    for (const event of span.events) cleanAttributes(/** @type {Record<string, unknown>} */ (event.attributes));
    if (span.status.message)
      /** @type {{ message?: string }} */ (span.status).message = String(clean(span.status.message));
  },
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};

const sdk = new NodeSDK({
  serviceName: process.env.OTEL_SERVICE_NAME ?? 'soovenirs',
  spanProcessors: [scrubbing, new tracing.BatchSpanProcessor(new OTLPTraceExporter())],
  instrumentations: [
    // Health probes every few seconds would drown the traces of the shop's work.
    new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => req.url === '/healthz' }),
    new ExpressInstrumentation(),
    // The query's text without its values (the instrumentation's default): no customer data leaves.
    new PgInstrumentation(),
  ],
});
sdk.start();

/** @type {Record<symbol, unknown>} */ (globalThis)[TRACING_SHUTDOWN] = () =>
  sdk.shutdown().catch((/** @type {unknown} */ error) => logger.warn({ err: error }, 'traces could not be flushed'));
