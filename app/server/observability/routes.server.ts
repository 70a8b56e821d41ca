import type { ServerBuild } from 'react-router';

/*
 * The pattern of the page a request asked for (`/services/:serviceId`), never its address: metrics
 * and logs group requests by it, and their number stays that of the routes (an address per order
 * would make one series per order). Read from the pages' own route table (app/routes.ts).
 *
 * Not React Router's `matchRoutes`: it flattens and ranks the whole table again at each call
 * (6 ms a request on a loaded CI machine, for 112 routes). The table is flattened and ranked once
 * here, the way React Router ranks it (static segments before dynamic ones before a splat), into
 * one regular expression per route.
 */

interface Branch {
  pattern: string;
  regex: RegExp;
  score: number;
  order: number;
}

let branches: Branch[] = [];

const PARAM = /^:[\w-]+$/;

/** React Router's score of a path (flattenRoutes' computeScore). */
function score(pattern: string, index: boolean): number {
  const segments = pattern.split('/');
  let total = segments.length + (segments.includes('*') ? -2 : 0) + (index ? 2 : 0);
  for (const segment of segments) {
    if (segment === '*') continue;
    total += PARAM.test(segment) ? 3 : segment === '' ? 1 : 10;
  }
  return total;
}

function regexOf(pattern: string): RegExp {
  const body = pattern
    .split('/')
    .filter(Boolean)
    .map((segment) =>
      segment === '*'
        ? '(?:/.*)?'
        : PARAM.test(segment)
          ? '/[^/]+'
          : `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
    )
    .join('');
  // A splat also matches nothing at all (`/*` matches `/`); React Router ignores case and a final slash.
  return new RegExp(`^${body}/?$`, 'i');
}

/** Learns the pages' routes from the server bundle (server/app.ts, once). */
export function knowRoutes(build: ServerBuild): void {
  const routes = Object.values(build.routes).filter((route) => route !== undefined);
  const byId = new Map(routes.map((route) => [route.id, route]));
  const found = new Map<string, Branch>();
  routes.forEach((route, order) => {
    if (route.path === undefined && !route.index) return;
    const parts: string[] = [];
    for (let at: typeof route | undefined = route; at; at = at.parentId ? byId.get(at.parentId) : undefined) {
      if (at.path) parts.unshift(at.path.replace(/^\/|\/$/g, ''));
    }
    const pattern = `/${parts.filter(Boolean).join('/')}`;
    const branch = { pattern, regex: regexOf(pattern), score: score(pattern, Boolean(route.index)), order };
    const known = found.get(pattern);
    if (!known || known.score < branch.score) found.set(pattern, branch);
  });
  branches = [...found.values()].sort((a, b) => b.score - a.score || a.order - b.order);
}

/** `/services/:serviceId` for /services/vhs; undefined before knowRoutes or when nothing matches. */
export function routePattern(pathname: string): string | undefined {
  let path = pathname;
  try {
    path = decodeURI(pathname);
  } catch {
    // An address whose escapes do not decode is matched as it came.
  }
  return branches.find((branch) => branch.regex.test(path))?.pattern;
}
