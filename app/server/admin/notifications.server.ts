import { sql } from 'drizzle-orm';
import type { NotificationFeed, NotificationKind, NotificationView } from '~/domain/admin/notifications';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { isoTimestamp } from './search-sql.server';

/*
 * The header's notifications (new orders, payments, contact messages, withdrawals), written by the
 * modules that cause them (table notifications), read per administrator (notification_reads).
 *
 * Unread counts look at the latest NOTIFICATION_WINDOW notifications only: an administrator who
 * read everything would otherwise make every count read the whole history.
 *
 * Live updates: one poller per process (while at least one administrator listens) reads the rows
 * added since the last one it saw, every POLL_MS, and hands them to every open event stream. A
 * query on the primary key every two seconds costs nothing; several app instances each poll.
 */

export const NOTIFICATION_WINDOW = 500;
export const NOTIFICATIONS_SHOWN = 20;
export const POLL_MS = 2_000;

function toView(row: Record<string, unknown>): NotificationView {
  return {
    id: Number(row.id),
    createdAt: isoTimestamp(row.created_at),
    kind: row.kind as NotificationKind,
    orderId: (row.order_id as string | null) ?? null,
    status: (row.status as string | null) ?? null,
    title: String(row.title),
    body: String(row.body ?? ''),
    read: Boolean(row.read),
  };
}

export async function getNotificationFeed(userId: string, limit = NOTIFICATIONS_SHOWN): Promise<NotificationFeed> {
  const [list, unread] = await Promise.all([
    db().execute(sql`
      select n.id, n.created_at, n.kind, n.order_id, n.status, n.title, n.body,
        exists (select 1 from notification_reads r where r.notification_id = n.id and r.user_id = ${userId}) as read
      from notifications n order by n.id desc limit ${limit}`),
    db().execute<{ n: number }>(sql`
      select count(*)::int as n from (select id from notifications order by id desc limit ${NOTIFICATION_WINDOW}) n
      where not exists (select 1 from notification_reads r where r.notification_id = n.id and r.user_id = ${userId})`),
  ]);
  const notifications = list.rows.map(toView);
  return { notifications, unread: Number(unread.rows[0]?.n ?? 0), lastId: notifications[0]?.id ?? 0 };
}

/** Marks notifications read for this administrator: the given ids, or all of the recent window. */
export async function markNotificationsRead(userId: string, ids: number[] | 'all'): Promise<number> {
  if (ids !== 'all' && ids.length === 0) return 0;
  const selected =
    ids === 'all'
      ? sql`select id from notifications order by id desc limit ${NOTIFICATION_WINDOW}`
      : sql`select id from notifications where id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`;
  const result = await db().execute(sql`
    insert into notification_reads (notification_id, user_id)
    select s.id, ${userId} from (${selected}) s
    on conflict do nothing`);
  return result.rowCount ?? 0;
}

/** Notifications added after `afterId`, oldest first (what the stream sends). */
export async function notificationsAfter(afterId: number, limit = 50): Promise<NotificationView[]> {
  const result = await db().execute(sql`
    select id, created_at, kind, order_id, status, title, body, false as read
    from notifications where id > ${afterId} order by id limit ${limit}`);
  return result.rows.map(toView);
}

// --- live fan-out ---------------------------------------------------------------------------

type Listener = (notifications: NotificationView[]) => void;

interface Hub {
  listeners: Set<Listener>;
  lastId: number | null;
  timer: NodeJS.Timeout | null;
  polling: boolean;
}

const theHub: Hub = { listeners: new Set(), lastId: null, timer: null, polling: false };

function hub(): Hub {
  return theHub;
}

async function poll(): Promise<void> {
  const h = hub();
  if (h.polling) return;
  h.polling = true;
  try {
    if (h.lastId === null) {
      const result = await db().execute<{ id: number | null }>(sql`select max(id) as id from notifications`);
      h.lastId = Number(result.rows[0]?.id ?? 0);
      return;
    }
    const fresh = await notificationsAfter(h.lastId);
    if (fresh.length === 0) return;
    h.lastId = fresh[fresh.length - 1]?.id ?? h.lastId;
    for (const listener of h.listeners) listener(fresh);
  } catch (error) {
    log.warn({ err: error }, 'notifications poll failed');
  } finally {
    h.polling = false;
  }
}

/** Calls `listener` with every notification added from now on; returns the unsubscribe function. */
export function subscribeToNotifications(listener: Listener, pollMs = POLL_MS): () => void {
  const h = hub();
  h.listeners.add(listener);
  if (!h.timer) {
    void poll();
    h.timer = setInterval(() => void poll(), pollMs);
    h.timer.unref();
  }
  return () => {
    h.listeners.delete(listener);
    if (h.listeners.size === 0 && h.timer) {
      clearInterval(h.timer);
      h.timer = null;
      h.lastId = null;
    }
  };
}
