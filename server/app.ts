import path from 'node:path';
import { createRequestHandler } from '@react-router/express';
import compression from 'compression';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { ServerBuild } from 'react-router';
import type { ViteDevServer } from 'vite';
import { PostgresRateLimitStore } from '~/server/db/rate-limit.server';
import { baseUrl } from '~/server/env.server';
import { uploadsMiddleware } from '~/server/files/uploads.server';
import { healthRoutes } from '~/server/health.server';
import { log } from '~/server/log.server';
import { observeRequests } from '~/server/observability/http.server';
import { knowRoutes } from '~/server/observability/routes.server';
import { precompressedAssets } from '~/server/rendering/precompressed-assets.server';
import { announcesBody, holdBodies, lingerBeforeClosing, whenBodyHeld } from './body-limits';
import { door } from './door';
import { htmlCache } from './html-cache';
import { cspNonce, sameOriginOnly, securityHeaders } from './security';

export const CLIENT_IP_HEADER = 'x-soovenirs-client-ip';

interface AppOptions {
  mode: 'production' | 'development';
  /** Production: the built server bundle. Development: Vite serves and reloads the app. */
  build?: ServerBuild;
  vite?: ViteDevServer;
  clientDir?: string;
}

export function createApp({ mode, build, vite, clientDir = path.resolve('build/client') }: AppOptions): Express {
  const app = express();
  const production = mode === 'production';
  app.disable('x-powered-by');
  // Behind a reverse proxy set TRUST_PROXY (e.g. 1) so that rate limits see the client's address.
  app.set('trust proxy', process.env.TRUST_PROXY ?? 'loopback');

  const getBuild = vite
    ? () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>
    : (build as ServerBuild);

  // Observability (app/server/observability): the request's id (X-Request-Id) on every log line
  // written for it, its route pattern, its metrics. Entered again once the body is held: what runs
  // after a body's stream events would otherwise lose the request's context.
  if (build) knowRoutes(build);
  app.use(observeRequests);

  // First of all, the door (server/door.ts): who asks, from the headers, before anything reads the
  // body. The limits (server/body-limits.ts) hold JSON and chunked bodies from their first byte (a
  // small one arrives with the request, while the door awaits the session) and refuse one over its
  // limit at once; whenBodyHeld lets a request on only once its body is complete within them.
  app.use(holdBodies());
  app.use(door(typeof getBuild === 'function' ? getBuild : () => getBuild));
  app.use(whenBodyHeld);
  app.use(observeRequests);
  app.use(closeWhenBodyUnread);

  // Liveness and readiness (app/server/health.server.ts), before any page work.
  healthRoutes(app);

  app.use(cspNonce);
  app.use(securityHeaders({ production, dev: Boolean(vite) }));
  // The back office's resumable uploads (tus) need the raw request: before compression, the HTML
  // cache, the posts' rate limit (one POST per file) and React Router. The door let in only staff
  // holding the uploads' capability; the middleware asks it again for the member's id.
  app.use(uploadsMiddleware());
  // Anonymous public pages from memory (server/html-cache.ts), served before any other work, even
  // compression (a hit carries its own gzip copy); not in development, where the code changes
  // under the cache. HTML_CACHE_MAX_ENTRIES=0 turns it off.
  const cacheEntries = Number(process.env.HTML_CACHE_MAX_ENTRIES ?? 500);
  const pageCache = !vite && cacheEntries > 0 ? htmlCache({ maxEntries: cacheEntries }) : null;
  if (pageCache) app.use(pageCache.serveFromCache);
  app.use(compression());
  app.use(sameOriginOnly(() => [new URL(baseUrl()).origin]));

  // A wide net against floods of form posts; tighter limits sit on sign-in, contact and checkout.
  // Counted in PostgreSQL so that it holds across instances; an unreachable database lets the
  // posts through (they meet the outage themselves), never blocks the site.
  app.use(
    rateLimit({
      windowMs: 60_000,
      limit: Number(process.env.POST_RATE_LIMIT ?? 300),
      skip: (req) => req.method === 'GET' || req.method === 'HEAD' || req.path.startsWith('/api/webhooks/'),
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      message: { error: 'Trop de requêtes. Veuillez patienter une minute avant de réessayer.' },
      store: new PostgresRateLimitStore('post'),
      passOnStoreError: true,
      logger: {
        error: (error: unknown, message?: string) => log.warn({ err: error }, message ?? 'express-rate-limit'),
        warn: (error: unknown, message?: string) => log.warn({ err: error }, message ?? 'express-rate-limit'),
      },
    }),
  );

  // The client address as this server sees it, for Better Auth's rate limits; a client cannot forge it.
  app.use((req, _res, next) => {
    req.headers[CLIENT_IP_HEADER] = req.ip ?? '';
    next();
  });

  if (vite) {
    app.use(vite.middlewares);
  } else {
    // Hashed file names never change content: cache them for a year.
    app.use('/assets', precompressedAssets(path.join(clientDir, 'assets')));
    app.use(
      '/assets',
      express.static(path.join(clientDir, 'assets'), {
        immutable: true,
        maxAge: '1y',
        index: false,
        fallthrough: false,
      }),
    );
    app.use(express.static(clientDir, { maxAge: '1h', index: false }));
  }

  if (pageCache) app.use(pageCache.storeInCache);

  app.all(
    '/{*splat}',
    createRequestHandler({
      build: getBuild,
      mode,
      getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce as string }),
    }),
  );
  app.use(answerErrorsInFrench);
  return app;
}

/*
 * An answer sent before the request's body has arrived (a 404, a refusal, a rate limit) closes the
 * connection: otherwise Node keeps it to read the rest of a large body, and the client waits
 * seconds for an answer it already has before the connection is reset. Only when a body was
 * announced: a GET's empty body is never read, so `req.complete` stays false for it, and testing
 * that alone closed the connection after every cached page.
 */
function closeWhenBodyUnread(req: Request, res: Response, next: NextFunction): void {
  if (!announcesBody(req)) {
    next();
    return;
  }
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: Parameters<typeof writeHead>) {
    if (!req.complete) {
      this.setHeader('Connection', 'close');
      lingerBeforeClosing(req.socket);
    }
    return writeHead.apply(this, args);
  } as typeof writeHead;
  next();
}

/**
 * Errors raised before any page runs (an address whose escapes do not decode, a missing asset):
 * a short French text instead of Express's English page.
 */
function answerErrorsInFrench(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  if (res.headersSent) {
    next(error);
    return;
  }
  const declared = (error as { status?: unknown } | null)?.status;
  const status = typeof declared === 'number' && declared >= 400 && declared < 600 ? declared : 500;
  if (status >= 500) log.error({ err: error }, 'request failed before reaching the app');
  const message =
    status === 404
      ? 'Fichier introuvable.'
      : status < 500
        ? 'Requête invalide : son adresse n’a pas pu être lue.'
        : 'Une erreur est survenue. Veuillez réessayer.';
  res.status(status).set('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send(message);
}
