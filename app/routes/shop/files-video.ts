import { data } from 'react-router';
import { chaptersVtt } from '~/domain/files/playback';
import { filesAreServed, findOrderFile, getFilesAccess } from '~/server/files/gallery.server';
import { loadChapters, playbackResponse } from '~/server/files/playback.server';
import type { Route } from './+types/files-video';

/*
 * /commande/{orderId}/fichiers/{fileId}/video.mp4: what the gallery's `<video>` plays,
 * the master when browsers play it, else its rendition; inline, with Range (206 / 416), HEAD,
 * streamed by the shop from the folder or the bucket (app/server/files/playback.server.ts).
 * /chapitres.vtt: its chapters as a WebVTT track. Same access as the original; 404 when the video
 * has nothing to play (yet) or no chapters. Watching is not a download: nothing is counted.
 */

export async function loader({ request, params }: Route.LoaderArgs) {
  const access = await getFilesAccess(request, params.orderId);
  if (!access || !filesAreServed(access)) throw data('Vidéo introuvable', { status: 404 });
  const file = await findOrderFile(access.order.id, params.fileId);
  if (file?.kind !== 'video') throw data('Vidéo introuvable', { status: 404 });
  if (new URL(request.url).pathname.endsWith('/chapitres.vtt')) {
    const chapters = await loadChapters(file.id);
    if (!chapters) throw data('Chapitres introuvables', { status: 404 });
    return new Response(chaptersVtt(chapters), {
      headers: {
        'Content-Type': 'text/vtt; charset=utf-8',
        'Cache-Control': 'private, max-age=0, must-revalidate',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  }
  // React Router's Node adapter writes the body (downloads.server.ts says why the buffers are reused).
  const served = await playbackResponse(request, file, { body: { reuseBuffers: true } });
  if (!served) throw data('Vidéo introuvable', { status: 404 });
  return served.response;
}
