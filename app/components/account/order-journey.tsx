import { CheckIcon, DownloadIcon, ExternalLinkIcon } from 'lucide-react';
import { formatDateFr } from '~/domain/format';
import type { OrderJourneyView } from '~/domain/orders/journey-steps';

/**
 * The originals' journey as steps (Commande → … → Expédié), each with its date, the current one
 * marked for assistive technologies (aria-current="step"); then the prepaid label, the tracking
 * link and what the workshop counted. A vertical list on a phone, a row from the `md` breakpoint.
 */
export function OrderJourney({ journey }: { journey: OrderJourneyView }) {
  const { steps, counted, prepaidLabel, tracking } = journey;
  if (!steps) return null;
  return (
    <section
      aria-labelledby="order-journey-title"
      className="flex flex-col gap-4 rounded-lg border border-border bg-card p-5"
    >
      <h2 id="order-journey-title" className="font-semibold text-lg">
        Le voyage de vos souvenirs
      </h2>
      <ol className="flex flex-col gap-3 md:flex-row md:gap-2">
        {steps.map((step, index) => (
          <li
            key={step.id}
            aria-current={step.state === 'current' ? 'step' : undefined}
            data-state={step.state}
            className={`flex flex-1 items-center gap-3 rounded-md border p-3 md:flex-col md:items-start md:gap-1 ${
              step.state === 'current'
                ? 'border-primary bg-primary/10 font-semibold'
                : step.state === 'done'
                  ? 'border-border'
                  : 'border-dashed border-border text-muted-foreground'
            }`}
          >
            <span
              aria-hidden="true"
              className={`flex size-7 shrink-0 items-center justify-center rounded-full text-sm ${
                step.state === 'upcoming' ? 'border border-border' : 'bg-primary text-primary-foreground'
              }`}
            >
              {step.state === 'done' ? <CheckIcon className="size-4" /> : index + 1}
            </span>
            <span className="flex flex-col">
              <span>{step.label}</span>
              <span className="font-normal text-muted-foreground text-xs">
                {step.at ? (
                  <time dateTime={step.at}>{formatDateFr(step.at)}</time>
                ) : step.state === 'upcoming' ? (
                  'À venir'
                ) : (
                  'Fait'
                )}
              </span>
              {step.state === 'current' ? <span className="sr-only">(étape en cours)</span> : null}
            </span>
          </li>
        ))}
      </ol>
      {prepaidLabel ? (
        prepaidLabel.ready ? (
          <a
            href={prepaidLabel.url}
            className="inline-flex w-fit items-center gap-1.5 text-primary underline underline-offset-4"
          >
            <DownloadIcon className="size-4" aria-hidden="true" />
            Télécharger l’étiquette Colissimo prépayée
          </a>
        ) : (
          <p className="text-sm">Votre étiquette Colissimo prépayée est en préparation&nbsp;: elle apparaîtra ici.</p>
        )
      ) : null}
      {tracking ? (
        <p className="text-sm">
          Colis retour n°&nbsp;{tracking.parcelNumber}&nbsp;:{' '}
          <a
            href={tracking.url}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1 text-primary underline underline-offset-4"
          >
            suivre le colis sur le site de La Poste
            <ExternalLinkIcon className="size-3.5" aria-hidden="true" />
            <span className="sr-only">(nouvel onglet)</span>
          </a>
        </p>
      ) : null}
      {counted.length > 0 ? (
        <table className="w-full text-sm">
          <caption className="mb-2 text-left font-medium">Ce que nous avons compté à la réception</caption>
          <thead>
            <tr className="border-border border-b text-left">
              <th scope="col" className="py-1 font-medium">
                Support
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Commandé
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Compté
              </th>
            </tr>
          </thead>
          <tbody>
            {counted.map((line) => (
              <tr key={line.label} className="border-border border-b">
                <th scope="row" className="py-1 text-left font-normal">
                  {line.label}
                </th>
                <td className="py-1 text-right">{line.ordered}</td>
                <td className="py-1 text-right">{line.counted}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
