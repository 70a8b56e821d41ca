import { log, scrub } from '~/server/log.server';
import { currentRequest } from './request-context.server';
import { routePattern } from './routes.server';

/*
 * A loader or action that throws (app/entry.server.tsx's handleError): one JSON line through the
 * scrubbing logger, with the request's id, route pattern and method, instead of React Router's
 * default raw multi-line stack on stderr (which printed a live session token quoted by a failed
 * query). With SENTRY_DSN set, the error also goes to that Sentry-compatible endpoint, scrubbed
 * the same way and without the request's headers (decision 040).
 */

type SentryModule = typeof import('@sentry/node');
type SentryEvent = Parameters<NonNullable<Parameters<SentryModule['init']>[0]>['beforeSend'] & object>[0];

let sentry: SentryModule | undefined;

/** Loads @sentry/node only when a DSN is set (server/serve.ts): off costs nothing. */
export async function startErrorReporting(options: { dsn: string; environment?: string; release?: string }) {
  const loaded = await import('@sentry/node');
  loaded.initWithoutDefaultIntegrations({
    dsn: options.dsn,
    environment: options.environment,
    release: options.release,
    // Errors only: the shop's traces are OpenTelemetry's own (server/tracing.js), whose tracer
    // provider Sentry must not replace, and no module is transformed at load time.
    enableOpenTelemetrySetup: false,
    enableRuntimeChannelInjection: false,
    beforeSend: scrubEvent,
  });
  sentry = loaded;
}

/** Sends what is still queued (the stop sequence, server/serve.ts). */
export async function stopErrorReporting(): Promise<void> {
  await sentry?.close(2_000);
}

/**
 * What leaves the machine is what the log may hold: no request headers or cookies (a session),
 * no query string, texts scrubbed (a failed query's parameters).
 */
function scrubEvent(event: SentryEvent): SentryEvent {
  if (event.request) {
    delete event.request.headers;
    delete event.request.cookies;
    delete event.request.data;
    delete event.request.query_string;
  }
  for (const exception of event.exception?.values ?? []) {
    if (typeof exception.value === 'string') exception.value = scrub(exception.value) as string;
  }
  if (event.message) event.message = scrub(event.message) as string;
  if (event.extra) event.extra = scrub(event.extra) as Record<string, unknown>;
  return event;
}

/** A loader's or action's error: logged once, as one JSON object, and reported when configured. */
export function reportRequestError(error: unknown, request: Request): void {
  const context = currentRequest();
  const route = context?.route ?? routePattern(new URL(request.url).pathname);
  // The line's requestId comes from the context (log.server.ts), the route and method from here too.
  log.error({ err: error, method: request.method, route }, 'a loader or action failed');
  sentry?.captureException(error, {
    tags: { method: request.method, ...(route ? { route } : {}), ...(context ? { requestId: context.requestId } : {}) },
  });
}
