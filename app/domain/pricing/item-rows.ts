import { itemOptions, type OrderPrices, supportLabel } from '../account/order-details';
import type { OrderLine, PricedRow } from '../orders/order-line';
import type { DeliveryMethod } from './default-price-list';
import { DEFAULT_PRICE_LIST, TAPE_OR_REEL_SUPPORTS } from './default-price-list';
import { DELIVERY_LABELS } from './labels';

/*
 * The rows a customer reads for an order's items, each with quantity × unit price = amount
 * (decision 015): « 3 × 25,00 € = 90,00 € » hid the denoising, « 100 × 0,58 € = 58,36 € » the
 * rounding of a line done once as a whole (docs/pricing.md). Display only: the amounts are the order's own.
 *
 * The restoration and denoising are rows of their own. Their unit prices come from the order's
 * price fields (every line of an order is priced with one list: the sum over the items divided by
 * the items restored or denoised); a digitisation whose amount is not quantity × unit price is
 * shown as one lot (« Lot de 100 photos »), as the invoice does.
 */

const supportUnits = DEFAULT_PRICE_LIST.supports as Record<string, { unit: string }>;

function isDenoised(item: OrderLine): boolean {
  return item.denoise && (TAPE_OR_REEL_SUPPORTS as readonly string[]).includes(item.type);
}

/** « Lot de 100 photos », « Lot de 3 bobines ». */
function lotWords(item: OrderLine): string {
  const unit = supportUnits[item.type]?.unit ?? 'article';
  return `Lot de ${item.quantity}\u00A0${unit}${item.quantity > 1 && !/[sx]$/.test(unit) ? 's' : ''}`;
}

/** A whole number of cents per unit, or null when the order's fields do not divide evenly. */
function perUnit(totalCents: number, units: number): number | null {
  if (units === 0) return 0;
  return Number.isInteger(totalCents / units) ? totalCents / units : null;
}

export function orderItemRows(
  items: readonly OrderLine[],
  prices: Pick<OrderPrices, 'restorationPriceCents' | 'denoisePriceCents'>,
): PricedRow[] {
  const restoredUnits = items.reduce((sum, item) => sum + Math.max(0, item.restoration), 0);
  const denoisedUnits = items.reduce((sum, item) => sum + (isDenoised(item) ? item.quantity : 0), 0);
  const restorationUnit = perUnit(prices.restorationPriceCents, restoredUnits);
  const denoiseUnit = perUnit(prices.denoisePriceCents, denoisedUnits);
  return items.flatMap((item) => itemRows(item, restorationUnit, denoiseUnit));
}

function itemRows(item: OrderLine, restorationUnit: number | null, denoiseUnit: number | null): PricedRow[] {
  const title = supportLabel(item.type);
  const restored = Math.max(0, item.restoration);
  const denoised = isDenoised(item) ? item.quantity : 0;
  const restorationCents = restored * (restorationUnit ?? 0);
  const denoiseCents = denoised * (denoiseUnit ?? 0);
  const digitisationCents = item.lineTotalCents - restorationCents - denoiseCents;
  const lot = (totalCents: number, detail: string): PricedRow => ({
    label: title,
    detail: `${lotWords(item)} · ${detail}`,
    quantity: 1,
    unitPriceCents: totalCents,
    totalCents,
  });
  // Fields that do not explain the line (a hand-edited order): one amount, never wrong figures.
  if (restorationUnit === null || denoiseUnit === null || digitisationCents < 0 || item.quantity <= 0) {
    return [lot(item.lineTotalCents, itemOptions(item))];
  }
  const options = itemOptions({ ...item, restoration: 0, denoise: false });
  const rows: PricedRow[] = [
    item.quantity * item.unitPriceCents === digitisationCents
      ? {
          label: title,
          detail: options,
          quantity: item.quantity,
          unitPriceCents: item.unitPriceCents,
          totalCents: digitisationCents,
        }
      : lot(digitisationCents, options),
  ];
  if (restorationCents > 0) {
    rows.push({
      label: 'Restauration',
      detail: title,
      quantity: restored,
      unitPriceCents: restorationUnit,
      totalCents: restorationCents,
    });
  }
  if (denoiseCents > 0) {
    rows.push({
      label: 'Débruitage',
      detail: title,
      quantity: denoised,
      unitPriceCents: denoiseUnit,
      totalCents: denoiseCents,
    });
  }
  return rows;
}

/**
 * The order's rows after its items (the back office's table left them out): delivery,
 * the prepaid label, the return of the originals, express and insurance, as the invoice lists
 * them, so that the table adds up to the order's total.
 */
export function orderChargeRows(
  prices: Pick<
    OrderPrices,
    | 'deliveryCostCents'
    | 'sendShippingCostCents'
    | 'returnShippingCostCents'
    | 'expressPriceCents'
    | 'insurancePriceCents'
    | 'discountCents'
  >,
  deliveryMethod: string,
): PricedRow[] {
  const charge = (label: string, detail: string, cents: number | undefined): PricedRow[] =>
    cents && cents > 0 ? [{ label, detail, quantity: 1, unitPriceCents: cents, totalCents: cents }] : [];
  return [
    ...charge(
      'Livraison',
      DELIVERY_LABELS[deliveryMethod as DeliveryMethod] ?? deliveryMethod,
      prices.deliveryCostCents,
    ),
    ...charge('Étiquette d’envoi prépayée', 'Envoi des originaux', prices.sendShippingCostCents),
    ...charge('Retour des originaux', 'Envoi suivi', prices.returnShippingCostCents),
    ...charge('Traitement express', 'Délai de traitement raccourci', prices.expressPriceCents),
    ...charge('Assurance du retour', 'Ad valorem', prices.insurancePriceCents),
    // Promotion codes (decision 038): a negative row, so that the rows add up to the total.
    ...(prices.discountCents && prices.discountCents > 0
      ? [
          {
            label: 'Remise code promo',
            detail: 'Codes promo appliqués à la commande',
            quantity: 1,
            unitPriceCents: -prices.discountCents,
            totalCents: -prices.discountCents,
          },
        ]
      : []),
  ];
}
