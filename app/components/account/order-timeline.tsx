import { customerTimeline, type OrderEventView } from '~/domain/account/order-details';
import { formatDateTimeFr } from '~/domain/format';

/** The order's history (status changes, payment, withdrawal) with dates, oldest first. */
export function OrderTimeline({
  events,
  title = 'Suivi de la commande',
}: {
  events: OrderEventView[];
  title?: string;
}) {
  const entries = customerTimeline(events);
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
