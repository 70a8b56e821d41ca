import type { NextFunction, Request, Response } from 'express';
import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router';
import { UPLOADS_PATH } from '~/domain/files/uploads';
import {
  accessOfRoute,
  decideRequest,
  type PathAccess,
  type RefusalAnswer,
  refusalAnswer,
  ruleOf,
  SessionUncheckable,
} from '~/server/access/door.server';
import { ALLOWED_METHODS, announcesBody, lingerBeforeClosing } from './body-limits';

/*
 * The door at the Express layer (docs/decisions/019-one-authorization-door.md), first of all
 * middleware: it finds the route React Router will run (from the build's route manifest) or the tus
 * endpoint, reads that line of domain/staff/access-rules.ts and decides from the headers alone
 * (the session cookie), before body-limits.ts or anything else reads a byte of the body. A refused
 * request's body is never read: the answer closes the connection.
 *
 * Pages (route modules with a component) are let on: their loaders and actions ask the same door
 * (admin/access.server.ts) and render the back office's access states (a toast, the sign-in page
 * remembering the page, « Accès non autorisé » in the frame). Their bodies stay under the default
 * limit. Everything else (resource routes, documents, Better Auth's endpoints, tus, event
 * streams) is decided here, and asked again where the route needs the signed-in user.
 */

interface RouteNode {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: RouteNode[];
}

interface Manifest {
  tree: RouteNode[];
  /** Route ids whose module renders a page. */
  pages: ReadonlySet<string>;
  /**
   * The route of each path already asked. `matchRoutes` flattens and ranks the whole tree at every
   * call (React Router precomputes that only for its own handler): once per asset of every page
   * load, it was an eighth of the server's CPU in the e2e suite. Bounded: emptied when full.
   */
  routeIds: Map<string, string | null>;
}

const REMEMBERED_PATHS = 10_000;

function manifestOf(routes: ServerBuild['routes']): Manifest {
  const nodes = new Map<string, RouteNode>();
  const pages = new Set<string>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    nodes.set(route.id, { id: route.id, path: route.path, index: route.index, caseSensitive: route.caseSensitive });
    if (typeof (route.module as { default?: unknown }).default === 'function') pages.add(route.id);
  }
  const tree: RouteNode[] = [];
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const node = nodes.get(route.id) as RouteNode;
    const parent = route.parentId ? nodes.get(route.parentId) : undefined;
    if (!parent) tree.push(node);
    else if (parent.children) parent.children.push(node);
    else parent.children = [node];
  }
  return { tree, pages, routeIds: new Map() };
}

/** The route React Router will run for `pathname` (its client navigations' `.data` included). */
function routeIdOf(manifest: Manifest, pathname: string): string | null {
  const known = manifest.routeIds.get(pathname);
  if (known !== undefined) return known;
  const path = pathname === '/_root.data' ? '/' : pathname.replace(/\.data$/, '');
  const routeId = matchRoutes(manifest.tree as RouteObject[], path)?.at(-1)?.route.id ?? null;
  if (manifest.routeIds.size >= REMEMBERED_PATHS) manifest.routeIds.clear();
  manifest.routeIds.set(pathname, routeId);
  return routeId;
}

/**
 * Pages are let on (see the header): their loaders and actions ask the same door and render the
 * access states. Not Better Auth's endpoints nor tus, which have no page to render them.
 */
function leftToThePage(manifest: Manifest, routeId: string | null, access: PathAccess, pathname: string): boolean {
  const upload = pathname === UPLOADS_PATH || pathname.startsWith(`${UPLOADS_PATH}/`);
  return !!routeId && manifest.pages.has(routeId) && access.authEndpoint === null && !upload;
}

/** Where a refused visitor signs in: back to the page asked, or to the back office's home. */
function loginPathOf(pathname: string): string {
  return `/login?${new URLSearchParams({ redirectTo: pathname.startsWith('/admin') ? '/admin' : pathname })}`;
}

/** The session cookie alone: the door decides from the headers, never from the body. */
function cookieHeaders(req: Request): Headers {
  const headers = new Headers();
  if (req.headers.cookie) headers.set('cookie', req.headers.cookie);
  return headers;
}

function answer(req: Request, res: Response, { status, body }: RefusalAnswer): void {
  // The body's limits may have answered while the session was being read.
  if (res.headersSent) return;
  res.status(status).set('Cache-Control', 'no-store');
  if (announcesBody(req)) {
    // The body stays unread: closing after the answer, lingering so that the client gets it.
    res.set('Connection', 'close');
    lingerBeforeClosing(req.socket);
  }
  res.json(body);
}

export function door(getBuild: () => ServerBuild | Promise<ServerBuild>) {
  const served = new Set<string>(ALLOWED_METHODS);
  let cached: { build: ServerBuild; manifest: Manifest } | undefined;

  return async function atTheDoor(req: Request, res: Response, next: NextFunction): Promise<void> {
    // Methods the app does not serve: body-limits.ts answers 405 without reading anything.
    if (!served.has(req.method)) return next();
    let pathname: string;
    try {
      pathname = decodeURI(req.path);
    } catch {
      // React Router could not match it either: the error handler answers 400.
      return next();
    }
    try {
      const build = await getBuild();
      if (cached?.build !== build) cached = { build, manifest: manifestOf(build.routes) };
      const routeId = routeIdOf(cached.manifest, pathname);
      const access = accessOfRoute(routeId ?? '', pathname);
      // No line for a route React Router would run: refused until the table says who may use it.
      if (!access) return answer(req, res, refusalAnswer('closed', '/'));
      const rule = ruleOf(access, req.method);
      if (rule.kind === 'public') return next();
      if (leftToThePage(cached.manifest, routeId, access, pathname)) return next();
      const { decision } = await decideRequest(cookieHeaders(req), rule, {
        whileHeldForTwoFactor: access.access.whileHeldForTwoFactor,
      });
      if (decision.allow) return next();
      const authEndpoint = access.authEndpoint !== null;
      answer(req, res, refusalAnswer(decision.refusal, loginPathOf(pathname), { authEndpoint }));
    } catch (error) {
      if (error instanceof SessionUncheckable) return answer(req, res, refusalAnswer('error', '/'));
      next(error);
    }
  };
}
