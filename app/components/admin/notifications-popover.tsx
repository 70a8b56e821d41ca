import { BellIcon, CheckCheckIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useFetcher } from 'react-router';
import { Button } from '~/components/ui/button';
import { cn } from '~/components/ui/cn';
import { Popover, PopoverContent, PopoverTrigger } from '~/components/ui/popover';
import { toast } from '~/components/ui/toaster';
import { NOTIFICATION_KIND_LABELS, type NotificationFeed, type NotificationView } from '~/domain/admin/notifications';
import { formatDateTimeFr } from '~/domain/format';

export const NOTIFICATIONS_STREAM_PATH = '/admin/api/notifications/flux';
export const NOTIFICATIONS_PATH = '/admin/api/notifications';

function merge(current: NotificationView[], fresh: NotificationView[]): NotificationView[] {
  const known = new Set(current.map((n) => n.id));
  return [...fresh.filter((n) => !known.has(n.id)).reverse(), ...current].slice(0, 50);
}

/**
 * The header's bell: the latest notifications with the administrator's unread count, kept up to
 * date by the server's event stream (a new notification also shows a toast), marked read when
 * opened.
 */
export function NotificationsPopover({ feed }: { feed: NotificationFeed }) {
  const [items, setItems] = useState(feed.notifications);
  const [unread, setUnread] = useState(feed.unread);
  const lastId = useRef(feed.lastId);
  const fetcher = useFetcher();

  // The loader's figures win whenever the page's data is reloaded.
  useEffect(() => {
    setItems((current) => merge(current, [...feed.notifications].reverse()));
    setUnread(feed.unread);
    lastId.current = Math.max(lastId.current, feed.lastId);
  }, [feed]);

  useEffect(() => {
    const source = new EventSource(`${NOTIFICATIONS_STREAM_PATH}?after=${lastId.current}`);
    const onNotification = (event: MessageEvent<string>) => {
      const notification = JSON.parse(event.data) as NotificationView;
      if (notification.id <= lastId.current) return;
      lastId.current = notification.id;
      setItems((current) => merge(current, [notification]));
      setUnread((n) => n + 1);
      toast.info(notification.title, { description: notification.body || undefined });
    };
    source.addEventListener('notification', onNotification as EventListener);
    return () => {
      source.removeEventListener('notification', onNotification as EventListener);
      source.close();
    };
  }, []);

  const markAllRead = () => {
    setItems((current) => current.map((n) => ({ ...n, read: true })));
    setUnread(0);
    fetcher.submit({ intent: 'read-all' }, { method: 'post', action: NOTIFICATIONS_PATH });
  };

  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="outline" size="icon" className="relative" aria-label={`Notifications (${unread} non lues)`}>
          <BellIcon aria-hidden="true" />
          {unread > 0 ? (
            <span
              aria-hidden="true"
              className="absolute -top-1.5 -right-1.5 min-w-5 rounded-full bg-destructive px-1 text-center font-semibold text-destructive-foreground text-xs leading-5"
            >
              {unread > 99 ? '99+' : unread}
            </span>
          ) : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-[min(24rem,calc(100vw-2rem))] p-0">
        <div className="flex items-center justify-between gap-2 border-border border-b px-4 py-3">
          <h2 className="font-semibold text-base">Notifications</h2>
          <Button variant="ghost" size="sm" onClick={markAllRead} disabled={unread === 0}>
            <CheckCheckIcon aria-hidden="true" />
            Tout marquer comme lu
          </Button>
        </div>
        {items.length === 0 ? (
          <p className="px-4 py-6 text-center text-muted-foreground text-sm">Aucune notification</p>
        ) : (
          <ul className="max-h-96 divide-y divide-border overflow-y-auto">
            {items.map((n) => (
              <li key={n.id} className={cn('px-4 py-3 text-sm', !n.read && 'bg-secondary/50')}>
                <p className="flex items-center gap-2">
                  {!n.read ? (
                    <span className="size-2 shrink-0 rounded-full bg-accent" aria-label="Non lue" role="img" />
                  ) : null}
                  <span className="font-medium text-muted-foreground text-xs uppercase">
                    {NOTIFICATION_KIND_LABELS[n.kind] ?? n.kind}
                  </span>
                  <time className="ml-auto text-muted-foreground text-xs" dateTime={n.createdAt}>
                    {formatDateTimeFr(n.createdAt)}
                  </time>
                </p>
                {n.orderId ? (
                  <Link to={`/admin?commande=${n.orderId}`} className="font-medium underline-offset-2 hover:underline">
                    {n.title}
                  </Link>
                ) : (
                  <p className="font-medium">{n.title}</p>
                )}
                {n.body ? <p className="text-muted-foreground">{n.body}</p> : null}
              </li>
            ))}
          </ul>
        )}
      </PopoverContent>
    </Popover>
  );
}
