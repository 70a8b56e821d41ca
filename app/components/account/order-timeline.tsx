import { formatDateTimeFr } from '~/domain/format';
import type { OrderHistoryEntry } from '~/domain/orders/events';

/**
 * The order's history as the customer reads it (confirmed, paid, status changes, refunds,
 * withdrawal), oldest first. The entries come ready from the server (orders/history.server.ts),
 * so that the staff's events never reach the customer's browser.
 */
export function OrderTimeline({
  entries,
  title = 'Suivi de la commande',
}: {
  entries: ReadonlyArray<Pick<OrderHistoryEntry, 'at' | 'label'>>;
  title?: string;
}) {
  return (
    <section aria-labelledby="order-timeline-title" className="flex flex-col gap-3">
      <h2 id="order-timeline-title" className="font-semibold text-lg">
        {title}
      </h2>
      {entries.length === 0 ? (
        <p className="text-muted-foreground text-sm">Aucun événement pour le moment.</p>
      ) : (
        <ol className="relative flex flex-col gap-4 border-border border-l-2 pl-5">
          {entries.map((entry, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed history, rendered in order
            <li key={index} className="relative">
              <span
                aria-hidden="true"
                className="absolute top-1.5 -left-[1.6rem] size-3 rounded-full border-2 border-card bg-primary"
              />
              <p className="font-medium text-sm">{entry.label}</p>
              <p className="text-muted-foreground text-xs">
                <time dateTime={new Date(entry.at).toISOString()}>{formatDateTimeFr(entry.at)}</time>
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
