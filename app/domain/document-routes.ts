/*
 * Which pages are sent as documents, without the router's JavaScript (docs/decisions/018): THE
 * rule, read by app/root.tsx on the server. A page is sent as a document when its route module
 * lives in app/routes/site (the public site: its HTML and CSS do all it shows, its links and forms
 * work natively). The server only knows a route's id, which React Router takes from the module's
 * file (`routes/site/faq`) unless app/routes.ts gives one: a site route given its own id keeps the
 * folder as prefix (`routes/site/page-cgv`), so that the id alone tells. tests/integration/
 * document-routes.test.ts holds every route of app/routes.ts to this rule, by its file.
 */

/** The route id prefix of the modules in app/routes/site. */
export const DOCUMENT_ROUTE_PREFIX = 'routes/site/';

/** Is the page of this route (the deepest match) sent as a document? */
export function isDocumentRoute(routeId: string | undefined): boolean {
  return routeId?.startsWith(DOCUMENT_ROUTE_PREFIX) ?? false;
}

/** A route entry of app/routes.ts: its module's file and its id when it is given one. */
export interface RouteEntry {
  id?: string;
  file: string;
  children?: RouteEntry[];
}

/** The id React Router gives a route: its `id`, else its file without the extension. */
export function routeIdOf(entry: RouteEntry): string {
  return entry.id ?? entry.file.replace(/\.[jt]sx?$/, '');
}

/** Should this route be sent as a document, by its module's folder (what the id must tell)? */
export function moduleIsSitePage(entry: RouteEntry): boolean {
  return entry.file.startsWith(DOCUMENT_ROUTE_PREFIX);
}
