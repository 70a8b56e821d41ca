import { shareZipName } from '~/domain/files/sharing';
import { lookUpShare, shareRefusal, shareSelection } from '~/server/files/sharing.server';
import { zipResponse, zipSourcesOf } from '~/server/files/zip-stream.server';
import type { Route } from './+types/share-zip';

/*
 * /partage/{token}/fichiers.zip: « Tout télécharger » for the relatives of a share « avec
 * téléchargement », the same streamed ZIP as the owner's (zip-stream.server.ts) holding only the
 * share's files, named after whose memories they are (never the order's number).
 */

export async function loader({ request, params }: Route.LoaderArgs) {
  const lookup = await lookUpShare(request, params.token);
  if (lookup.kind !== 'open') return shareRefusal(lookup);
  const { share } = lookup;
  if (!share.allowDownloads) return shareRefusal({ kind: 'missing' });
  const sources = await zipSourcesOf(share.orderId, null, undefined, shareSelection(share));
  if (sources.length === 0) return shareRefusal({ kind: 'missing' });
  // React Router's Node adapter writes the body (downloads.server.ts says why the buffers are reused).
  return zipResponse(
    request,
    { orderNumber: '', support: null, sources, fileName: shareZipName(share.sharerName) },
    undefined,
    { reuseBuffers: true },
  );
}
