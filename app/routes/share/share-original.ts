import { originalResponse } from '~/server/files/downloads.server';
import { findOrderFile } from '~/server/files/gallery.server';
import { lookUpShare, shareRefusal, shareSelection } from '~/server/files/sharing.server';
import type { Route } from './+types/share-original';

/*
 * /partage/{token}/fichiers/{fileId}: the original of a shared file, for a share « avec
 * téléchargement », served by the owner's own code (downloads.server.ts: attachment, Range, HEAD,
 * ETag). A file outside the share's selection, another order's file, a view-only share: 404;
 * an ended share: 410.
 */

export async function loader({ request, params }: Route.LoaderArgs) {
  const lookup = await lookUpShare(request, params.token);
  if (lookup.kind !== 'open') return shareRefusal(lookup);
  const { share } = lookup;
  if (!share.allowDownloads) return shareRefusal({ kind: 'missing' });
  const file = await findOrderFile(share.orderId, params.fileId, undefined, shareSelection(share));
  if (!file) return shareRefusal({ kind: 'missing' });
  // React Router's Node adapter writes the body (downloads.server.ts says why the buffers are reused).
  const { response } = await originalResponse(request, file, undefined, { reuseBuffers: true });
  return response;
}
