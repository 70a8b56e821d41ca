import { data } from 'react-router';
import { isFullDownload, originalResponse } from '~/server/files/downloads.server';
import { countDownloads, filesAreServed, findOrderFile, getFilesAccess } from '~/server/files/gallery.server';
import type { Route } from './+types/files-original';

/*
 * /commande/{orderId}/fichiers/{fileId}: the original of a delivered file, as an attachment, resumable
 * (Range), HEAD included. For the order's owner, the guest with its token and the staff, once the
 * files are published and until they are deleted; anyone else: 404, as for a file that does not
 * exist. A customer's full download is counted (the back office shows it); the staff's are not.
 */

export async function loader({ request, params }: Route.LoaderArgs) {
  const access = await getFilesAccess(request, params.orderId);
  if (!access || !filesAreServed(access)) throw data('Fichier introuvable', { status: 404 });
  const file = await findOrderFile(access.order.id, params.fileId);
  if (!file) throw data('Fichier introuvable', { status: 404 });
  // React Router's Node adapter writes the body (downloads.server.ts says why the buffers are reused).
  const { response, range } = await originalResponse(request, file, undefined, { reuseBuffers: true });
  const served = response.status === 200 || response.status === 206 || response.status === 302;
  if (served && access.viewer !== 'admin' && isFullDownload(request, range)) {
    await countDownloads(access.order.id, [file.id]);
  }
  return response;
}
