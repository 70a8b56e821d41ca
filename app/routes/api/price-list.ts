import { getActivePriceList } from '~/server/pricing/price-lists.server';

/*
 * GET /api/price-list: the active price list (public prices) and its version. Pages poll it to
 * learn of a new list (app/components/configurator/use-live-price-list.ts); the ETag is the
 * version, so an unchanged list answers 304 without a body.
 */
export async function loader({ request }: { request: Request }) {
  const list = await getActivePriceList();
  const etag = `"price-list-${list.version}"`;
  const headers = { ETag: etag, 'Cache-Control': 'no-cache' };
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  return Response.json(
    { id: list.id, version: list.version, lastUpdated: list.data.lastUpdated, data: list.data },
    { headers },
  );
}

/** Any other method: a French 405 (without an action, React Router would answer in English). */
export function action() {
  return Response.json({ error: 'Méthode non autorisée' }, { status: 405, headers: { Allow: 'GET, HEAD' } });
}
