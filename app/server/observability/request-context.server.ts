import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/*
 * The request a line of log belongs to. Every request gets an id (the front proxy's X-Request-Id
 * when it sent a usable one, so that its access log and ours name the same request; else a new
 * one), sent back in the answer's X-Request-Id, and carried with AsyncLocalStorage to whatever
 * runs for that request: the logger adds it to every line (log.server.ts), however deep the module
 * that writes it, without passing it along.
 */

export const REQUEST_ID_HEADER = 'x-request-id';

export interface RequestContext {
  requestId: string;
  method: string;
  /** The route's pattern (`/commandes/:id`), once known (observability/routes.server.ts). */
  route?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();
const contextOf = new WeakMap<IncomingMessage, RequestContext>();

/** A proxy's id is kept only when it cannot carry anything but an id (it is logged and echoed). */
const USABLE_ID = /^[\w.:@-]{8,128}$/;

export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

export function requestContextOf(req: IncomingMessage): RequestContext | undefined {
  return contextOf.get(req);
}

/**
 * Express middleware, first of all: the request's context, and the answer's X-Request-Id. Used a
 * second time after the body is held (server/app.ts): a middleware called back from the body's
 * stream events runs outside the context, and entering the same one again puts it back.
 */
export function requestContext(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  let context = contextOf.get(req);
  if (!context) {
    const incoming = req.headers[REQUEST_ID_HEADER];
    const requestId = typeof incoming === 'string' && USABLE_ID.test(incoming) ? incoming : randomUUID();
    context = { requestId, method: req.method ?? 'GET' };
    contextOf.set(req, context);
    res.setHeader('X-Request-Id', requestId);
  }
  storage.run(context, next);
}
