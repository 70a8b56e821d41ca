import { describe, expect, it } from 'vitest';
import { isDocumentRoute, moduleIsSitePage, type RouteEntry, routeIdOf } from '~/domain/document-routes';
import routes from '../../app/routes';

/*
 * Every route of app/routes.ts held to the one rule of the pages sent as documents
 * (docs/decisions/018): a page whose module is in app/routes/site is sent without the router's
 * JavaScript, any other page hydrates. A route added later is in this list without editing the
 * test; a site route given an id without the folder's prefix fails here.
 */

function flatten(entries: RouteEntry[]): RouteEntry[] {
  return entries.flatMap((entry) => [entry, ...flatten(entry.children ?? [])]);
}

const all = flatten(routes as RouteEntry[]);

describe('the pages sent as documents', () => {
  it('are exactly the routes whose module is in app/routes/site, for every route of app/routes.ts', () => {
    expect(all.length).toBeGreaterThan(80);
    const disagreeing = all
      .filter((entry) => isDocumentRoute(routeIdOf(entry)) !== moduleIsSitePage(entry))
      .map((entry) => `${routeIdOf(entry)} (${entry.file})`);
    expect(disagreeing).toEqual([]);
  });

  it('include the ten Markdown pages and the free trial, and not the configurator, the checkout or the account', () => {
    const documents = all.filter((entry) => isDocumentRoute(routeIdOf(entry))).map((entry) => routeIdOf(entry));
    expect(documents).toEqual(
      expect.arrayContaining([
        'routes/site/home',
        'routes/site/page-cgv',
        'routes/site/page-mentions-legales',
        'routes/site/essai-gratuit',
        'routes/site/essai-gratuit-sans-accent',
      ]),
    );
    expect(all.filter((entry) => entry.file === 'routes/site/content-page.tsx')).toHaveLength(10);
    for (const id of [
      'routes/shop/configurator',
      'routes/shop/checkout',
      'routes/account/profile',
      'routes/auth/login',
    ])
      expect(isDocumentRoute(id), id).toBe(false);
  });
});
