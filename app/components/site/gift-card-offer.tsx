import { ArrowRightIcon } from 'lucide-react';
import { Link } from 'react-router';
import { frenchProse as fr } from '~/domain/content/typography';
import { NBSP } from '~/domain/format';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';

/** Where a gift card is bought (decision 037). */
export const GIFT_CARD_PATH = '/carte-cadeau';

/**
 * « valable 12 mois sur toutes nos prestations », its months from the active price list (Tarifs,
 * `giftCards.validityMonths`); without them when the list could not be read, rather than a number
 * that may be wrong.
 */
export function giftCardValidity(months: number | null | undefined): string {
  const known = typeof months === 'number' && Number.isInteger(months) && months > 0;
  return `valable ${known ? `${months}${NBSP}mois ` : ''}sur toutes nos prestations`;
}

/**
 * A small drawing of the card, tied with a ribbon, a photo on it: inline (no request), in the
 * site's colours, decorative (the text beside it says everything).
 */
function GiftCardDrawing({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 160 104"
      width="160"
      height="104"
      aria-hidden="true"
      focusable="false"
      className={cn('h-auto shrink-0 -rotate-3 drop-shadow-md', className)}
    >
      <rect x="2" y="2" width="156" height="100" rx="12" className="fill-primary" />
      <rect x="18" y="18" width="46" height="36" rx="3" className="fill-background" />
      <path d="M22 50l12-15 8 9 6-6 12 12z" className="fill-secondary" />
      <circle cx="53" cy="27" r="4" className="fill-accent" />
      <rect x="18" y="68" width="58" height="5" rx="2.5" className="fill-secondary" />
      <rect x="18" y="80" width="38" height="5" rx="2.5" className="fill-secondary" />
      <rect x="110" y="2" width="12" height="100" className="fill-accent" />
      <path d="M116 40c-6-16-26-20-24-8 2 9 14 9 24 8zm0 0c6-16 26-20 24-8-2 9-14 9-24 8z" className="fill-accent" />
      <circle cx="116" cy="40" r="5" className="fill-sepia" />
    </svg>
  );
}

/**
 * « Offrir une carte cadeau »: a short band of the home page and the services catalogue that leads
 * to /carte-cadeau, with the card's validity from the active price list.
 */
export function GiftCardOffer({
  id,
  validityMonths,
  className,
}: {
  /** The heading's id, which names the section. */
  id: string;
  validityMonths: number | null | undefined;
  className?: string;
}) {
  return (
    <section aria-labelledby={id} className={cn('scroll-mt-header', className)}>
      <div className="mx-auto flex max-w-7xl flex-col items-start gap-6 px-4 py-12 sm:px-6 md:flex-row md:items-center lg:px-8">
        <GiftCardDrawing className="w-32 sm:w-40" />
        <div className="flex flex-1 flex-col gap-2">
          <p className="font-semibold text-sepia text-sm uppercase tracking-wider">Carte cadeau</p>
          <h2 id={id} className="text-3xl">
            Offrez des souvenirs retrouvés
          </h2>
          <p className="max-w-2xl text-muted-foreground">
            {fr(
              `Une carte cadeau du montant de votre choix, ${giftCardValidity(validityMonths)} : envoyée par e-mail le jour choisi, ou à imprimer.`,
            )}
          </p>
        </div>
        <Button asChild size="lg">
          <Link to={GIFT_CARD_PATH}>
            Offrir une carte cadeau
            <ArrowRightIcon aria-hidden="true" />
          </Link>
        </Button>
      </div>
    </section>
  );
}
