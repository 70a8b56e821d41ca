import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router';

/*
 * The pattern of the page a request asked for (`/commandes/:orderId`), never its address: metrics
 * and logs group requests by it, and their number stays that of the routes (an address per order
 * would make one series per order). Read from the pages' own route table (app/routes.ts).
 */

let table: RouteObject[] | undefined;

/** Learns the pages' routes from the server bundle (server/app.ts, once). */
export function knowRoutes(build: ServerBuild): void {
  const byParent = new Map<string | undefined, RouteObject[]>();
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const node: RouteObject = route.index
      ? { id: route.id, path: route.path, index: true }
      : { id: route.id, path: route.path, children: [] };
    const siblings = byParent.get(route.parentId) ?? [];
    siblings.push(node);
    byParent.set(route.parentId, siblings);
  }
  const attach = (nodes: RouteObject[]): RouteObject[] => {
    for (const node of nodes) if (!node.index) node.children = attach(byParent.get(node.id) ?? []);
    return nodes;
  };
  table = attach(byParent.get(undefined) ?? []);
}

/** `/services/:serviceId` for /services/vhs; undefined before knowRoutes or when nothing matches. */
export function routePattern(pathname: string): string | undefined {
  if (!table) return undefined;
  const matches = matchRoutes(table, pathname);
  if (!matches) return undefined;
  const parts = matches.map((match) => match.route.path?.replace(/^\/|\/$/g, '')).filter(Boolean);
  return `/${parts.join('/')}`;
}
