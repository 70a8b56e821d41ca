import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router';
import { describe, expect, it } from 'vitest';
import { knowRoutes, routePattern } from './routes.server';

/*
 * The route patterns of the metrics and logs are those React Router itself matches: compared here
 * with its own matchRoutes on a table like the shop's (static before dynamic before splat, nested
 * layouts, index routes, accents).
 */

const manifest: ServerBuild['routes'] = {
  root: { id: 'root', path: '', module: {} as never },
  'routes/site/home': { id: 'routes/site/home', parentId: 'root', index: true, module: {} as never },
  'routes/site/services': { id: 'routes/site/services', parentId: 'root', path: 'services', module: {} as never },
  'routes/site/service': {
    id: 'routes/site/service',
    parentId: 'root',
    path: 'services/:serviceId',
    module: {} as never,
  },
  'routes/site/boutique': { id: 'routes/site/boutique', parentId: 'root', path: 'boutique', module: {} as never },
  'routes/admin/layout': { id: 'routes/admin/layout', parentId: 'root', path: 'admin', module: {} as never },
  'routes/admin/index': { id: 'routes/admin/index', parentId: 'routes/admin/layout', index: true, module: {} as never },
  'routes/admin/orders': {
    id: 'routes/admin/orders',
    parentId: 'routes/admin/layout',
    path: 'commandes',
    module: {} as never,
  },
  'routes/admin/order': {
    id: 'routes/admin/order',
    parentId: 'routes/admin/layout',
    path: 'commandes/:orderId',
    module: {} as never,
  },
  'routes/admin/new-order': {
    id: 'routes/admin/new-order',
    parentId: 'routes/admin/layout',
    path: 'commandes/nouvelle',
    module: {} as never,
  },
  'routes/site/essai': {
    id: 'routes/site/essai',
    parentId: 'root',
    path: 'numérisation-essai-gratuit',
    module: {} as never,
  },
  'routes/site/not-found': { id: 'routes/site/not-found', parentId: 'root', path: '*', module: {} as never },
};

/** React Router's own answer, its matched routes' paths joined. */
function reactRouterPattern(pathname: string): string | undefined {
  const byParent = new Map<string | undefined, RouteObject[]>();
  for (const route of Object.values(manifest)) {
    if (!route) continue;
    const node: RouteObject = route.index
      ? { id: route.id, path: route.path, index: true }
      : { id: route.id, path: route.path, children: [] };
    byParent.set(route.parentId, [...(byParent.get(route.parentId) ?? []), node]);
  }
  const attach = (nodes: RouteObject[]): RouteObject[] => {
    for (const node of nodes) if (!node.index) node.children = attach(byParent.get(node.id) ?? []);
    return nodes;
  };
  const matches = matchRoutes(attach(byParent.get(undefined) ?? []), pathname);
  if (!matches) return undefined;
  return `/${matches
    .map((match) => match.route.path)
    .filter(Boolean)
    .join('/')}`;
}

describe('route patterns', () => {
  it('are the ones React Router matches, whatever the address', () => {
    knowRoutes({ routes: manifest } as ServerBuild);
    const addresses = [
      '/',
      '/services',
      '/services/',
      '/SERVICES/vhs',
      '/services/vhs',
      '/services/vhs/plus',
      '/admin',
      '/admin/commandes',
      '/admin/commandes/nouvelle',
      '/admin/commandes/3f1c2a9e-77aa-4b1e-9d2c-0f6e5b4a3c21',
      '/num%C3%A9risation-essai-gratuit',
      '/nulle-part/du-tout',
      '/boutique',
    ];
    for (const address of addresses)
      expect([address, routePattern(address)]).toEqual([address, reactRouterPattern(address)]);
    expect(routePattern('/admin/commandes/3f1c2a9e-77aa-4b1e-9d2c-0f6e5b4a3c21')).toBe('/admin/commandes/:orderId');
  });
});
