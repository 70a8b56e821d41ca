import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { endAllStreams } from '~/server/admin/notification-streams.server';
import { isDraining, startDraining } from '~/server/health.server';
import { log } from '~/server/log.server';

/*
 * A stopping instance loses no request (docs/operations.md, « Stopping and rolling restarts »):
 * on SIGTERM it
 *  1. answers readiness 503 (`server: draining`), so that a balancer that asks stops sending here;
 *  2. closes its listener: a new connection is refused, which nginx and Caddy retry on the other
 *     instance, even for a POST (nothing was sent);
 *  3. keeps answering the requests under way, a slow upload chunk included, for the grace period
 *     (SHUTDOWN_GRACE_SECONDS), each with `Connection: close`, and closes every connection as soon
 *     as it is idle, so that a client or proxy holding a kept-alive connection opens a new one,
 *     elsewhere, for its next request;
 *  4. ends the back office's notification streams at once with a hint to reconnect within a second
 *     (they would otherwise hold the connection until the grace period ends);
 *  5. past the grace period, cuts what is still open.
 * The workers and the database are stopped by the caller afterwards (server/serve.ts).
 */

export interface DrainableServer {
  /** Steps 1 to 5; resolves once every connection is closed. */
  drain(graceMs: number): Promise<void>;
}

/** Call right after `listen`: from then on every request is counted, and told to close once draining. */
export function drainable(server: Server): DrainableServer {
  const open = new Set<ServerResponse>();
  const closeIdleSoon = () => setImmediate(() => server.closeIdleConnections());

  // Before the app's own listener, so that the header is set before any middleware answers.
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    open.add(res);
    if (isDraining()) res.setHeader('Connection', 'close');
    res.once('close', () => {
      open.delete(res);
      // A response that asked to keep its connection (an event stream sets it itself) leaves it idle.
      if (isDraining()) closeIdleSoon();
    });
  });

  return {
    async drain(graceMs) {
      startDraining();
      // A connection the kernel has completed but Node has not accepted yet is reset when the
      // listener closes, and nginx does not retry a POST it has sent (a 502). The signal may be
      // handled before the listener's pending connections in the same turn of the event loop: let
      // that turn accept them first, then close. This narrows the window without closing it: the
      // operator takes an instance out of nginx before stopping it (decision 043).
      await new Promise((resolve) => setImmediate(resolve));
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      log.info({ inFlight: open.size, graceSeconds: graceMs / 1000 }, 'draining: listener closed, readiness 503');
      for (const res of open) if (!res.headersSent) res.setHeader('Connection', 'close');
      server.closeIdleConnections();
      const streams = endAllStreams();
      if (streams > 0) log.info({ streams }, 'draining: notification streams ended with a reconnect hint');

      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), graceMs);
      });
      const cut = await Promise.race([closed.then(() => false), timedOut]);
      clearTimeout(timer);
      if (cut) {
        log.warn({ inFlight: open.size }, 'draining: grace period over, cutting the requests still under way');
        server.closeAllConnections();
        await closed;
      } else {
        log.info('draining: every request answered');
      }
    },
  };
}
