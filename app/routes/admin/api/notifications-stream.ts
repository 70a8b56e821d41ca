import { data } from 'react-router';
import { requireStaff } from '~/server/admin/access.server';
import { openStreamSlot, type StreamEnd } from '~/server/admin/notification-streams.server';
import { notificationsAfter, subscribeToNotifications } from '~/server/admin/notifications.server';
import { getSessionId } from '~/server/auth/session.server';
import { isDraining } from '~/server/health.server';
import type { Route } from './+types/notifications-stream';

/*
 * GET: server-sent events, one `notification` event per notification added after `?after=` (or the
 * browser's Last-Event-ID when it reconnects), as they are written. A comment every 25 s keeps
 * proxies from closing an idle connection. `no-transform` keeps the compression middleware from
 * buffering the stream.
 *
 * The stream ends when its access does (admin/notification-streams.server.ts): the member
 * deactivated or without `dashboard` any more, the session signed out or revoked, checked at once
 * on such a change and every minute; at most three streams per session (429 beyond). It also ends
 * when this instance stops (SIGTERM, server/drain.ts), with a hint to reconnect within a second.
 */

export const TOO_MANY_STREAMS_MESSAGE =
  'Trop de fenêtres du back-office sont ouvertes avec cette session : fermez-en une pour recevoir les notifications ici.';

const HEARTBEAT_MS = 25_000;
/** The last words of a stream whose instance stops: reconnect in 1 s rather than 5 (EventSource's `retry`). */
export const RECONNECT_SOON = 'retry: 1000\n: server restarting, reconnect\n\n';

function lastSeen(request: Request): number {
  const header = Number(request.headers.get('last-event-id'));
  if (Number.isSafeInteger(header) && header > 0) return header;
  const param = Number(new URL(request.url).searchParams.get('after'));
  return Number.isSafeInteger(param) && param > 0 ? param : 0;
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'dashboard');
  const sessionId = await getSessionId(request);
  let after = lastSeen(request);
  const encoder = new TextEncoder();
  let cleanup = () => {};
  let end = (_why?: StreamEnd) => {};
  // `end` is bound once the stream has started, which the ReadableStream does right away.
  const release = sessionId ? openStreamSlot(sessionId, (why) => end(why)) : null;
  if (!release) {
    throw data(
      { message: TOO_MANY_STREAMS_MESSAGE },
      { status: 429, headers: { 'Cache-Control': 'no-store', 'Retry-After': '60' } },
    );
  }

  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const emit = (notifications: Array<{ id: number }>) => {
        for (const notification of notifications) {
          if (notification.id <= after) continue;
          after = notification.id;
          send(`id: ${notification.id}\nevent: notification\ndata: ${JSON.stringify(notification)}\n\n`);
        }
      };
      let unsubscribe = () => {};
      let heartbeat: NodeJS.Timeout | undefined;
      let ended = false;
      cleanup = () => {
        ended = true;
        clearInterval(heartbeat);
        unsubscribe();
        release();
        cleanup = () => {};
      };
      end = (why) => {
        // A stopping instance (SIGTERM) tells the browser to come back within a second: behind the
        // proxy, the reconnection reaches an instance still running, and gets what it missed by
        // Last-Event-ID.
        if (why === 'draining') send(RECONNECT_SOON);
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      request.signal.addEventListener('abort', () => end());
      send('retry: 5000\n\n');
      // Opened while this instance stops: back at once to reconnect elsewhere.
      if (isDraining()) return end('draining');
      // What was added between the page's load and this connection.
      if (after > 0) emit(await notificationsAfter(after));
      // Ended while reading (access gone, tab closed): nothing more to deliver.
      if (ended) return;
      unsubscribe = subscribeToNotifications(emit);
      heartbeat = setInterval(() => send(': ping\n\n'), HEARTBEAT_MS);
      heartbeat.unref();
    },
    cancel() {
      cleanup();
    },
  });

  return new Response(body, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    },
  });
}
