import type { IncomingMessage, ServerResponse } from 'node:http';
import { UPLOADS_PATH } from '~/domain/files/uploads';
import { countRequest, countUpload, metricsEnabled } from './metrics.server';
import { requestContext, requestContextOf } from './request-context.server';
import { routePattern } from './routes.server';

/*
 * The Express middleware of observability (server/app.ts): the request's id and context for the
 * logs (request-context.server.ts), its route pattern, and, when metrics are on, its count and
 * duration once answered.
 */

/** The label of a request: a bounded set (the routes), whatever the address. */
function routeOf(pathname: string): string {
  if (pathname.startsWith('/assets/')) return '/assets/*';
  if (pathname === UPLOADS_PATH || pathname.startsWith(`${UPLOADS_PATH}/`)) return `${UPLOADS_PATH}/*`;
  return routePattern(pathname) ?? 'unmatched';
}

/** First of all the middlewares; again after the body is held, to enter the same context again. */
export function observeRequests(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  if (requestContextOf(req)) {
    requestContext(req, res, next);
    return;
  }
  requestContext(req, res, () => {
    const context = requestContextOf(req);
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    if (context) context.route = routeOf(pathname);
    if (metricsEnabled()) {
      const started = process.hrtime.bigint();
      res.once('finish', () => {
        // A route of Express's own (/healthz) names itself; the pages' catch-all gives way to the page's pattern.
        const express = (req as { route?: { path?: unknown } }).route?.path;
        const route = typeof express === 'string' && !express.includes('*') ? express : (context?.route ?? 'unmatched');
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        countRequest(req.method ?? 'GET', route, res.statusCode, seconds);
        if (route === `${UPLOADS_PATH}/*` && req.method === 'POST' && res.statusCode >= 400) countUpload('refused');
      });
    }
    next();
  });
}
