import { data } from 'react-router';
import { previewResponse } from '~/server/files/downloads.server';
import { filesAreServed, findOrderFile, getFilesAccess } from '~/server/files/gallery.server';
import type { Route } from './+types/files-preview';

/*
 * /commande/{orderId}/fichiers/{fileId}/miniature.jpg and /apercu.jpg: the thumbnail of the gallery
 * and the viewer's web-size preview (made by the previews job). Same access as the original; 404
 * when the file has none (yet), and the page shows an icon instead.
 */

export async function loader({ request, params }: Route.LoaderArgs) {
  const access = await getFilesAccess(request, params.orderId);
  if (!access || !filesAreServed(access)) throw data('Aperçu introuvable', { status: 404 });
  const file = await findOrderFile(access.order.id, params.fileId);
  if (!file) throw data('Aperçu introuvable', { status: 404 });
  const variant = new URL(request.url).pathname.endsWith('/apercu.jpg') ? 'preview' : 'thumbnail';
  const key = variant === 'preview' ? file.previewKey : file.thumbnailKey;
  const response = await previewResponse(request, key, undefined, { reuseBuffers: true });
  if (!response) throw data('Aperçu introuvable', { status: 404 });
  return response;
}
