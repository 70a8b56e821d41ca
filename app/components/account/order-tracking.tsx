import { CheckIcon, ExternalLinkIcon, PackageIcon } from 'lucide-react';
import { formatDateTimeFr } from '~/domain/format';
import type { ItemStage, OrderTrackingView } from '~/domain/orders/item-stages';

/*
 * « Suivi de vos colis » and « Où en sont vos souvenirs » on the customer's order page:
 * each Colissimo parcel with the carrier's events (newest first), then, once the originals are
 * received, each counted support's stage and its tapes and reels one by one. Lists, not tables, so
 * that a phone reads them without scrolling sideways.
 */

const PARCEL_TITLES = {
  inbound: 'Envoi de vos originaux à l’atelier',
  outbound: 'Retour de votre commande',
} as const;

function StageBadge({ stage, label }: { stage: ItemStage; label: string }) {
  return (
    <span
      data-stage={stage}
      className={`inline-flex w-fit items-center gap-1 rounded-full px-2 py-0.5 text-xs ${
        stage === 'done' ? 'bg-success/15 text-foreground' : 'border border-border text-foreground'
      }`}
    >
      {stage === 'done' ? <CheckIcon className="size-3.5" aria-hidden="true" /> : null}
      {label}
    </span>
  );
}

export function OrderTracking({ tracking }: { tracking: OrderTrackingView }) {
  const { parcels, supports } = tracking;
  if (parcels.length === 0 && supports.length === 0) return null;
  return (
    <>
      {parcels.length > 0 ? (
        <section
          aria-labelledby="parcel-tracking-title"
          className="flex flex-col gap-4 rounded-lg border border-border bg-card p-5"
        >
          <h2 id="parcel-tracking-title" className="font-semibold text-lg">
            Suivi de vos colis
          </h2>
          {parcels.map((parcel) => (
            <section
              key={parcel.parcelNumber}
              aria-labelledby={`parcel-${parcel.parcelNumber}`}
              className="flex flex-col gap-2"
            >
              <h3 id={`parcel-${parcel.parcelNumber}`} className="flex items-center gap-2 font-medium">
                <PackageIcon className="size-4 shrink-0" aria-hidden="true" />
                {PARCEL_TITLES[parcel.direction]}
              </h3>
              <p className="text-sm">
                Colissimo n°&nbsp;<span className="break-all">{parcel.parcelNumber}</span> ·{' '}
                <a
                  href={parcel.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex items-center gap-1 text-primary underline underline-offset-4"
                >
                  voir sur le site de La Poste
                  <ExternalLinkIcon className="size-3.5" aria-hidden="true" />
                  <span className="sr-only">(nouvel onglet)</span>
                </a>
              </p>
              {parcel.events.length > 0 ? (
                <ol className="flex flex-col gap-2 border-border border-l-2 pl-4" aria-label="Étapes du colis">
                  {parcel.events.map((event, index) => (
                    <li
                      key={`${event.code}-${event.at}`}
                      data-code={event.code}
                      className={index === 0 ? 'font-semibold' : undefined}
                    >
                      <span className="block text-sm">{event.label}</span>
                      <time dateTime={event.at} className="block font-normal text-muted-foreground text-xs">
                        {formatDateTimeFr(event.at)}
                      </time>
                    </li>
                  ))}
                </ol>
              ) : (
                <p className="text-muted-foreground text-sm">
                  La Poste n’a encore rien indiqué pour ce colis&nbsp;: ses étapes s’afficheront ici dès son dépôt.
                </p>
              )}
            </section>
          ))}
        </section>
      ) : null}
      {supports.length > 0 ? (
        <section
          aria-labelledby="item-stages-title"
          className="flex flex-col gap-3 rounded-lg border border-border bg-card p-5"
        >
          <h2 id="item-stages-title" className="font-semibold text-lg">
            Où en sont vos souvenirs
          </h2>
          <ul className="flex flex-col gap-3">
            {supports.map((support) => (
              <li key={support.label} className="flex flex-col gap-2 rounded-md border border-border p-3">
                <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:justify-between">
                  <span className="font-medium">
                    {support.label}
                    <span className="font-normal text-muted-foreground text-sm">
                      {' '}
                      · {support.counted}&nbsp;à l’atelier
                    </span>
                  </span>
                  <StageBadge stage={support.stage} label={support.stageLabel} />
                </div>
                {support.items ? (
                  <ul className="flex flex-col gap-1.5" aria-label={`${support.label}, un par un`}>
                    {support.items.map((item, index) => (
                      <li
                        // biome-ignore lint/suspicious/noArrayIndexKey: items are numbered, labels may repeat
                        key={index}
                        className="flex flex-col gap-1 border-border border-t pt-1.5 text-sm sm:flex-row sm:items-center sm:justify-between"
                      >
                        <span className="break-words">{item.label}</span>
                        <StageBadge stage={item.stage} label={item.stageLabel} />
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
