import { requireStaff } from '~/server/admin/access.server';
import { notificationsAfter, subscribeToNotifications } from '~/server/admin/notifications.server';
import type { Route } from './+types/notifications-stream';

/*
 * GET: server-sent events, one `notification` event per notification added after `?after=` (or the
 * browser's Last-Event-ID when it reconnects), as they are written. A comment every 25 s keeps
 * proxies from closing an idle connection. `no-transform` keeps the compression middleware from
 * buffering the stream.
 */

const HEARTBEAT_MS = 25_000;

function lastSeen(request: Request): number {
  const header = Number(request.headers.get('last-event-id'));
  if (Number.isSafeInteger(header) && header > 0) return header;
  const param = Number(new URL(request.url).searchParams.get('after'));
  return Number.isSafeInteger(param) && param > 0 ? param : 0;
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'dashboard');
  let after = lastSeen(request);
  const encoder = new TextEncoder();
  let cleanup = () => {};

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
      send('retry: 5000\n\n');
      // What was added between the page's load and this connection.
      if (after > 0) emit(await notificationsAfter(after));
      const unsubscribe = subscribeToNotifications(emit);
      const heartbeat = setInterval(() => send(': ping\n\n'), HEARTBEAT_MS);
      heartbeat.unref();
      cleanup = () => {
        clearInterval(heartbeat);
        unsubscribe();
        cleanup = () => {};
      };
      request.signal.addEventListener('abort', () => {
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed
        }
      });
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
