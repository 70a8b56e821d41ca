import { data } from 'react-router';
import { countZipDownload, filesAreServed, getFilesAccess } from '~/server/files/gallery.server';
import { zipResponse, zipSourcesOf } from '~/server/files/zip-stream.server';
import type { Route } from './+types/files-zip';

/*
 * /commande/{orderId}/fichiers.zip (?support=photos): « Tout télécharger », one ZIP streamed on the
 * fly with its exact length (app/server/files/zip-stream.server.ts). Same access as each file. A
 * customer's download counts once for each file it holds.
 */

export async function loader({ request, params }: Route.LoaderArgs) {
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
