import { data } from 'react-router';
import { previewResponse } from '~/server/files/downloads.server';
import { getFilesAccess } from '~/server/files/gallery.server';
import { findReviewFile } from '~/server/orders/preview-keep.server';
import type { Route } from './+types/selection-thumbnail';

/*
 * /commande/{orderId}/selection/{fileId}/miniature.jpg: the thumbnail of a file under the
 * customer's review (« preview and keep », decision 030), made by the previews job. Same viewers
 * as the gallery (owner, guest with the order's token, staff), before the files are delivered:
 * only the live files of the reviewed supports; 404 otherwise.
 */

export async function loader({ request, params }: Route.LoaderArgs) {
  const access = await getFilesAccess(request, params.orderId);
  if (!access || access.order.filesDeletedAt) throw data('Aperçu introuvable', { status: 404 });
  const file = await findReviewFile(access.order.id, params.fileId);
  if (!file) throw data('Aperçu introuvable', { status: 404 });
  const response = await previewResponse(request, file.thumbnailKey, undefined, { reuseBuffers: true });
  if (!response) throw data('Aperçu introuvable', { status: 404 });
  return response;
}
