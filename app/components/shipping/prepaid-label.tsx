import { DownloadIcon, TruckIcon } from 'lucide-react';
import { useLocation } from 'react-router';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import { LABEL_FAILED_PARAM, type PrepaidLabelView, prepaidLabelPath } from '~/domain/shipping/labels';
import { trackingUrl } from '~/domain/shipping/tracking';

export const DOWNLOAD_LABEL = 'Télécharger mon étiquette';
export const GENERATE_LABEL = 'Générer mon étiquette';

/**
 * The prepaid Colissimo label of the customer's originals: the download and the parcel's tracking
 * once made; before, when it failed, the button that asks for it again (a POST: making a label is a
 * change, never done by a GET).
 */
export function PrepaidLabel({ orderId, label }: { orderId: string; label: PrepaidLabelView }) {
  const location = useLocation();
  const failed = new URLSearchParams(location.search).has(LABEL_FAILED_PARAM);
  const back = `${location.pathname}${location.search}`.replace(new RegExp(`[?&]${LABEL_FAILED_PARAM}=[^&]*`), '');
  return (
    <section
      aria-labelledby="prepaid-label-title"
      className="flex flex-col gap-3 rounded-lg border border-border bg-card p-5"
    >
      <h2 id="prepaid-label-title" className="flex items-center gap-2 font-semibold text-lg">
        <TruckIcon className="size-5" aria-hidden="true" />
        Étiquette d’envoi prépayée
      </h2>
      {label.state === 'ready' ? (
        <>
          <p className="text-sm">
            Imprimez l’étiquette, collez-la sur votre colis et déposez-le dans un bureau de poste ou un point de retrait
            Colissimo.
          </p>
          <div className="flex flex-wrap items-center gap-3">
            <Button asChild className="w-fit">
              <a href={prepaidLabelPath(orderId)} download>
                <DownloadIcon aria-hidden="true" />
                {DOWNLOAD_LABEL}
              </a>
            </Button>
            <a
              href={trackingUrl(label.parcelNumber)}
              target="_blank"
              rel="noreferrer"
              className="text-primary text-sm underline underline-offset-4"
            >
              Suivre le colis {label.parcelNumber}
            </a>
          </div>
        </>
      ) : null}
      {label.state === 'unpaid' ? (
        <p className="text-muted-foreground text-sm">
          Votre étiquette sera disponible ici dès le paiement de la commande.
        </p>
      ) : null}
      {label.state === 'missing' ? (
        <>
          <p className="text-sm">Votre étiquette n’a pas encore pu être créée auprès de Colissimo.</p>
          {failed ? (
            <Alert variant="danger">
              La création de l’étiquette a échoué. Réessayez dans quelques minutes ou contactez-nous.
            </Alert>
          ) : null}
          <form method="post" action={prepaidLabelPath(orderId)}>
            <input type="hidden" name="back" value={back} />
            <Button type="submit" className="w-fit">
              {GENERATE_LABEL}
            </Button>
          </form>
        </>
      ) : null}
    </section>
  );
}
