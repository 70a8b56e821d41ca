import { data, redirect } from 'react-router';
import { cookieHeaders } from '~/server/account/auth-calls.server';
import { countZipDownload, filesAreServed, getFilesAccess } from '~/server/files/gallery.server';
import { zipResponse, zipSourcesOf } from '~/server/files/zip-stream.server';
import { accessFromLink } from '~/server/orders/access.server';
import type { Route } from './+types/files-zip';

/*
 * /commande/{orderId}/fichiers.zip (?support=photos): « Tout télécharger », one ZIP streamed on the
 * fly with its exact length (app/server/files/zip-stream.server.ts). Same access as each file. A
 * customer's download counts once for each file it holds.
 */

export async function loader({ request, params }: Route.LoaderArgs) {
  // The retention reminder's one-click ZIP: a guest's link carries the delivery token,
  // which becomes the order's cookie, as for the gallery; the clean address then sends the archive.
  const fromLink = await accessFromLink(request, params.orderId);
  if (fromLink) throw redirect(fromLink.cleanUrl, { headers: cookieHeaders(fromLink.setCookie || null) });
  const access = await getFilesAccess(request, params.orderId);
  if (!access || !filesAreServed(access)) throw data('Fichiers introuvables', { status: 404 });
  const support = new URL(request.url).searchParams.get('support') || null;
  const sources = await zipSourcesOf(access.order.id, support);
  if (sources.length === 0) throw data('Fichiers introuvables', { status: 404 });
  // React Router's Node adapter writes the body (downloads.server.ts says why the buffers are reused).
  const response = zipResponse(request, { orderNumber: access.order.number, support, sources }, undefined, {
    reuseBuffers: true,
  });
  if (request.method === 'GET' && access.viewer !== 'admin') await countZipDownload(access.order.id, support);
  return response;
}
