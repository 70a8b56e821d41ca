import { CopyIcon } from 'lucide-react';
import { Form, Link } from 'react-router';
import { Button } from '~/components/ui/button';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';

/*
 * The gallery's offer (decision 029): « Prolonger d’un an » of the retention, priced from
 * Tarifs, and the way to order extra copies on USB keys or DVDs. Both lead to
 * /commande/{orderId}/copies, then to the ordinary checkout. A plain form: no JavaScript needed.
 */

export interface ExtraCopiesOffer {
  extensionPriceCents: number;
  extension: { ok: true; expiresAt: Date | string } | { ok: false; message: string };
  usbPriceCents: number;
}

export function ExtraCopiesPanel({ orderId, offer }: { orderId: string; offer: ExtraCopiesOffer }) {
  const copiesPath = `/commande/${orderId}/copies`;
  return (
    <section
      aria-labelledby="extra-copies-title"
      className="flex flex-col gap-3 rounded-lg border border-border bg-card p-5"
    >
      <h2 id="extra-copies-title" className="font-semibold text-lg">
        Garder et partager vos souvenirs
      </h2>
      <div className="flex flex-wrap items-center gap-3">
        {offer.extension.ok ? (
          <Form method="post" action={copiesPath}>
            <input type="hidden" name="intent" value="extend" />
            <Button type="submit" variant="outline">
              Prolonger la conservation d’un an ({formatEurosFromCents(offer.extensionPriceCents)})
            </Button>
          </Form>
        ) : null}
        <Button asChild variant="outline">
          <Link to={copiesPath}>
            <CopyIcon aria-hidden="true" />
            Commander des copies sur clé USB ou DVD
          </Link>
        </Button>
      </div>
      <p className="text-muted-foreground text-sm">
        {offer.extension.ok
          ? `Une fois payée, la prolongation garde vos fichiers en ligne jusqu’au ${formatDateFr(offer.extension.expiresAt)}. `
          : `${offer.extension.message} `}
        Une copie sur clé USB coûte {formatEurosFromCents(offer.usbPriceCents)}, pour vous ou envoyée à un proche avec
        un message.
      </p>
    </section>
  );
}
