import { DownloadIcon, GiftIcon } from 'lucide-react';
import { Button } from '~/components/ui/button';
import { formatDateFr, NBSP } from '~/domain/format';
import {
  GIFT_CARD_MESSAGES,
  type GiftCardSaleChoice,
  type GiftCardState,
  giftCardSaleSummary,
  giftCardSentByEmail,
} from '~/domain/vouchers/gift-cards';

/*
 * A gift card's sale order (decision 037) at the checkout and on its confirmation: the card it
 * sells, for whom and how it goes, instead of a digitisation's delivery, files and originals. Once
 * paid, the card is issued: the confirmation says when and where it goes, or gives the card to
 * print.
 */

export interface GiftCardSaleProps extends GiftCardSaleChoice {
  recipientEmail: string;
  /** Months the card is valid from its issue (the order's price list). */
  validityMonths: number;
  card: {
    state: GiftCardState;
    expiresAt: Date | string;
    sendsAt: Date | string | null;
    /** Its e-mail is still to leave (the chosen morning has not come). */
    sendsLater: boolean;
    pdfHref: string | null;
  } | null;
}

const HEADING = 'flex items-center gap-2 font-heading font-semibold text-xl leading-tight';

/** How the card goes, in a sentence, before it is issued. */
function sendingPromise(sale: GiftCardSaleProps): string {
  return giftCardSentByEmail(sale)
    ? `Elle partira vers 8${NBSP}h à l’adresse ${sale.recipientEmail}${NBSP}; vous en recevrez une copie, le code masqué.`
    : `Elle vous sera envoyée par e-mail en PDF dès le paiement${NBSP}: imprimez-la et offrez-la.`;
}

/** The checkout's block: what is bought, how it goes, when it is issued, how long it is valid. */
export function GiftCardSaleBlock({ sale }: { sale: GiftCardSaleProps }) {
  return (
    <section aria-labelledby="gift-card-sale-title" className="flex flex-col gap-3">
      <h2 id="gift-card-sale-title" className={HEADING}>
        <GiftIcon className="size-5 text-primary" aria-hidden="true" />
        Carte cadeau
      </h2>
      <div className="flex flex-col gap-1.5 rounded-lg border border-border bg-card p-4 text-sm">
        <p className="font-medium" data-testid="gift-card-sale">
          {giftCardSaleSummary(sale)}
        </p>
        <p className="text-muted-foreground">{sendingPromise(sale)}</p>
        <p className="text-muted-foreground">
          La carte est émise dès réception de votre paiement et reste valable {sale.validityMonths}
          {NBSP}mois. Vous disposez de 14{NBSP}jours pour vous rétracter tant qu’elle n’a pas servi.
        </p>
      </div>
    </section>
  );
}

/** What became of the card once paid: where and when it goes, or the card to print. */
function Issued({ sale, card }: { sale: GiftCardSaleProps; card: NonNullable<GiftCardSaleProps['card']> }) {
  if (card.state === 'canceled') return <p>{GIFT_CARD_MESSAGES.canceled}</p>;
  const validity = `Elle est valable jusqu’au ${formatDateFr(card.expiresAt)}.`;
  if (card.sendsAt) {
    const to = `par e-mail à ${sale.recipientName} (${sale.recipientEmail}) le ${formatDateFr(card.sendsAt)}`;
    return (
      <p>
        {card.sendsLater
          ? `Votre carte cadeau est émise. Elle sera envoyée ${to} vers 8${NBSP}h${NBSP}; vous en recevrez une copie, le code masqué. ${validity}`
          : `Votre carte cadeau est émise. Elle est envoyée ${to}${NBSP}; une copie vous est envoyée, le code masqué. ${validity}`}
      </p>
    );
  }
  return (
    <>
      <p>{`Votre carte cadeau est émise. Téléchargez votre carte, imprimez-la et offrez-la à ${sale.recipientName}${NBSP}: elle vous a aussi été envoyée par e-mail en PDF. ${validity}`}</p>
      {card.pdfHref ? (
        <Button asChild className="w-fit">
          <a href={card.pdfHref} download>
            <DownloadIcon aria-hidden="true" />
            Télécharger votre carte (PDF)
          </a>
        </Button>
      ) : null}
    </>
  );
}

/** The confirmation's block: the card of the order, issued or waiting for the payment. */
export function GiftCardConfirmation({ sale }: { sale: GiftCardSaleProps }) {
  return (
    <section
      aria-labelledby="gift-card-title"
      className="flex flex-col items-start gap-3 rounded-lg border border-border bg-card p-5"
    >
      <h2 id="gift-card-title" className={HEADING}>
        <GiftIcon className="size-5 text-primary" aria-hidden="true" />
        Votre carte cadeau
      </h2>
      <p className="font-medium" data-testid="gift-card-sale">
        {giftCardSaleSummary(sale)}
      </p>
      {sale.card ? (
        <Issued sale={sale} card={sale.card} />
      ) : (
        <p className="text-muted-foreground">
          La carte sera émise dès réception de votre paiement. {sendingPromise(sale)}
        </p>
      )}
    </section>
  );
}
