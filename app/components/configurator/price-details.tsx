import { formatEurosFromCents, NBSP } from '~/domain/format';
import type { DeliveryMethod, PriceListDocument, SendMethod } from '~/domain/pricing/default-price-list';
import { BREAKDOWN_LABELS, extraLines, lineOptions, lineTitle } from '~/domain/pricing/labels';
import { PRICE_BREAKDOWN_KEYS, type PricedOrder } from '~/domain/pricing/pricing';
import type { AnnouncedEstimate } from '~/domain/vouchers/announced-promotion';
import { cn } from '../ui/cn';

export interface PriceDetailsProps {
  list: PriceListDocument;
  quote: PricedOrder;
  choice: { deliveryMethod: DeliveryMethod; sendMethod: SendMethod; returnOriginals: boolean };
  /** Id of the total's element (tests and links point at it). */
  totalId?: string;
  totalLabel?: string;
  /** Announce the total to screen readers when it changes (the live estimate). */
  live?: boolean;
  /** What a promotion code announced by a link would take off (the configurator). */
  promotion?: AnnouncedEstimate | null;
  className?: string;
}

/** The lines of an estimate, its breakdown into the order's price fields, and its total. */
export function PriceDetails({
  list,
  quote,
  choice,
  totalId,
  totalLabel = 'Total TTC',
  live = false,
  promotion = null,
  className,
}: PriceDetailsProps) {
  const extras = extraLines(quote.price, choice);
  const breakdown = PRICE_BREAKDOWN_KEYS.filter((key) => quote.price[key] !== 0);
  return (
    <div className={cn('flex flex-col gap-4', className)}>
      <ul className="flex flex-col divide-y divide-border" aria-label="Lignes de l’estimation">
        {quote.lines.map((line) => (
          <li key={`${line.type}-${line.reelSize ?? ''}`} className="flex flex-col gap-1 py-2">
            <span className="flex items-start justify-between gap-4">
              <span className="min-w-0">
                <span className="block font-medium">
                  {line.quantity}
                  {NBSP}× {lineTitle(list, line)}
                </span>
                <span className="block text-muted-foreground text-sm">
                  {lineOptions(list, { ...line, restoration: 0, denoise: false }).join(' · ')}
                </span>
              </span>
              <span className="shrink-0 font-medium tabular-nums">{formatEurosFromCents(line.digitisationCents)}</span>
            </span>
            {/* The options priced per item on their own rows: the line's figures add up as read. */}
            {line.restorationPriceCents > 0 ? (
              <OptionRow
                label="Restauration"
                count={line.restoration}
                unitCents={list.restorationPrice}
                totalCents={line.restorationPriceCents}
              />
            ) : null}
            {line.denoisePriceCents > 0 ? (
              <OptionRow
                label="Débruitage"
                count={line.quantity}
                unitCents={list.denoisePrice}
                totalCents={line.denoisePriceCents}
              />
            ) : null}
          </li>
        ))}
        {extras.map((extra) => (
          <li key={extra.label} className="flex items-start justify-between gap-4 py-2">
            <span className="font-medium">{extra.label}</span>
            <span className="shrink-0 font-medium tabular-nums">
              {extra.totalCents === 0 ? 'Offert' : formatEurosFromCents(extra.totalCents)}
            </span>
          </li>
        ))}
      </ul>

      <div className="rounded-md bg-muted px-3 py-2">
        <h3 className="font-semibold text-sm">Détail du prix</h3>
        <dl className="mt-1 grid grid-cols-[1fr_auto] gap-x-4 gap-y-0.5 text-sm">
          {breakdown.map((key) => (
            <div key={key} className="contents">
              <dt className="text-muted-foreground">{BREAKDOWN_LABELS[key]}</dt>
              <dd className="text-right tabular-nums">{formatEurosFromCents(quote.price[key])}</dd>
            </div>
          ))}
        </dl>
      </div>

      <p
        id={totalId}
        className="flex items-baseline justify-between gap-4 border-border border-t pt-3"
        {...(live ? { 'aria-live': 'polite' as const, 'aria-atomic': true } : {})}
      >
        <span className="font-semibold">{totalLabel}</span>
        <span
          className="font-heading font-semibold text-2xl text-primary tabular-nums"
          data-total-cents={quote.price.totalPriceCents}
        >
          {formatEurosFromCents(quote.price.totalPriceCents)}
        </span>
      </p>
      {promotion ? <PromotionEstimate promotion={promotion} /> : null}
    </div>
  );
}

/**
 * The announced code on the estimate: its discount and the total after it, and for a percentage
 * each covered line's reduced unit price against its reference price (code de la consommation,
 * L112-1-1). The minimum and the uses per customer are checked at checkout, so it is an estimate.
 */
function PromotionEstimate({ promotion }: { promotion: AnnouncedEstimate }) {
  if (!promotion.applies) {
    return (
      <p id="promotion-estimate" className="rounded-md border border-border px-3 py-2 text-muted-foreground text-sm">
        {promotion.message}
      </p>
    );
  }
  return (
    <div id="promotion-estimate" className="flex flex-col gap-1 rounded-md border border-border px-3 py-2 text-sm">
      <p className="flex items-baseline justify-between gap-4">
        <span className="font-medium">
          Code {promotion.code} ({promotion.description})
        </span>
        <span className="shrink-0 tabular-nums">−{formatEurosFromCents(promotion.discountCents)}</span>
      </p>
      {promotion.references.map((row) => (
        <p key={`${row.code}-${row.label}`} className="text-muted-foreground">
          {row.label}
          {NBSP}: {formatEurosFromCents(row.discountedCents)} l’unité avec {row.code}, prix de référence{' '}
          {formatEurosFromCents(row.referenceCents)} (le plus bas des 30{NBSP}jours précédant la remise).
        </p>
      ))}
      <p className="flex items-baseline justify-between gap-4 font-semibold">
        <span>Total avec le code {promotion.code}</span>
        <span className="shrink-0 tabular-nums" data-promotion-total-cents={promotion.totalCents}>
          {formatEurosFromCents(promotion.totalCents)}
        </span>
      </p>
      <p className="text-muted-foreground text-xs">
        Le montant minimum et les utilisations par client sont vérifiés au paiement. La remise est confirmée à la
        commande.
      </p>
    </div>
  );
}

/** « Débruitage : 3 × 5,00 € » and its amount, under the line it belongs to. */
function OptionRow({
  label,
  count,
  unitCents,
  totalCents,
}: {
  label: string;
  count: number;
  unitCents: number;
  totalCents: number;
}) {
  return (
    <span className="flex items-start justify-between gap-4 text-sm">
      <span className="min-w-0 text-muted-foreground">
        {label}
        {NBSP}: {count}
        {NBSP}× {formatEurosFromCents(unitCents)}
      </span>
      <span className="shrink-0 tabular-nums">{formatEurosFromCents(totalCents)}</span>
    </span>
  );
}
