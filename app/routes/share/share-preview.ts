import { previewResponse } from '~/server/files/downloads.server';
import { findOrderFile } from '~/server/files/gallery.server';
import { lookUpShare, shareRefusal, shareSelection } from '~/server/files/sharing.server';
import type { Route } from './+types/share-preview';

/*
 * /partage/{token}/fichiers/{fileId}/miniature.jpg and /apercu.jpg: a shared file's thumbnail and
 * web-size preview (view-only shares too), served like the owner's (downloads.server.ts). Outside
 * the selection: 404; an ended share: 410.
 */

export async function loader({ request, params }: Route.LoaderArgs) {
  const lookup = await lookUpShare(request, params.token);
  if (lookup.kind !== 'open') return shareRefusal(lookup);
  const file = await findOrderFile(lookup.share.orderId, params.fileId, undefined, shareSelection(lookup.share));
  if (!file) return shareRefusal({ kind: 'missing' });
  const variant = new URL(request.url).pathname.endsWith('/apercu.jpg') ? 'preview' : 'thumbnail';
  const key = variant === 'preview' ? file.previewKey : file.thumbnailKey;
  const response = await previewResponse(request, key, undefined, { reuseBuffers: true });
  return response ?? shareRefusal({ kind: 'missing' });
}
