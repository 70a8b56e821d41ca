import { PrinterIcon } from 'lucide-react';
import type { OrderJourneyView } from '~/domain/orders/journey-steps';
import { GENERAL_PACKING_ADVICE, WORKSHOP_ADDRESS_LINES } from '~/domain/orders/sending-instructions';
import { Button } from '../ui/button';

/**
 * How to send the originals, while the workshop waits for them: the address, the slip to print and
 * put in the parcel, and how to pack each kind of support ordered.
 */
export function SendingInstructions({
  sending,
  prepaidLabel,
}: {
  sending: NonNullable<OrderJourneyView['sending']>;
  prepaidLabel: OrderJourneyView['prepaidLabel'];
}) {
  return (
    <section
      aria-labelledby="sending-title"
      className="flex flex-col gap-4 rounded-lg border border-border bg-card p-5"
    >
      <h2 id="sending-title" className="font-semibold text-lg">
        Envoyez-nous vos originaux
      </h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-2">
          <p className="text-sm">
            {prepaidLabel
              ? 'Collez l’étiquette Colissimo prépayée sur le colis et déposez-le dans un bureau de poste ou un point de retrait. Le colis est adressé à\u00a0:'
              : 'Envoyez votre colis, de préférence en suivi (Colissimo ou lettre suivie), à\u00a0:'}
          </p>
          <address className="rounded-md bg-muted p-3 font-medium not-italic">
            {WORKSHOP_ADDRESS_LINES.map((line) => (
              <span key={line} className="block">
                {line}
              </span>
            ))}
          </address>
        </div>
        <div className="flex flex-col gap-2">
          <p className="text-sm">
            Imprimez le bordereau de votre commande et glissez-le dans le colis&nbsp;: nous reconnaîtrons vos souvenirs
            dès leur arrivée.
          </p>
          <Button asChild variant="outline" className="w-fit">
            <a href={sending.slipUrl}>
              <PrinterIcon aria-hidden="true" />
              Imprimer le bordereau
            </a>
          </Button>
        </div>
      </div>
      <h3 className="font-medium">Bien emballer vos souvenirs</h3>
      <ul className="flex list-disc flex-col gap-2 pl-5 text-sm">
        {sending.packing.map((item) => (
          <li key={item.title}>
            <span className="font-medium">{item.title}&nbsp;: </span>
            {item.advice}
          </li>
        ))}
        {GENERAL_PACKING_ADVICE.map((advice) => (
          <li key={advice}>{advice}</li>
        ))}
      </ul>
    </section>
  );
}
