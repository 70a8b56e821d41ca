import type { OrderLine } from '../orders/order-line';
import { DEFAULT_PRICE_LIST, type ReelSize, type SupportType } from '../pricing/default-price-list';
import { BREAKDOWN_LABELS, DELIVERY_LABELS as PRICING_DELIVERY_LABELS } from '../pricing/labels';
import {
  EXTRA_ITEM_DETAILS,
  EXTRA_ITEM_TITLES,
  isExtraItemType,
  PRICE_BREAKDOWN_KEYS,
  type PriceBreakdown,
} from '../pricing/pricing';

/*
 * What a customer reads about an order: the supports in words, the options of a line and the price
 * breakdown. The history's wording lives with every other event's in domain/orders/events.ts.
 */

const supports = DEFAULT_PRICE_LIST.supports as Record<string, (typeof DEFAULT_PRICE_LIST.supports)[SupportType]>;

/** "Photos papier" for `photos`; an unknown type is shown as it is. */
export function supportLabel(type: string): string {
  if (isExtraItemType(type)) return EXTRA_ITEM_TITLES[type];
  return Object.hasOwn(supports, type) ? (supports[type]?.title ?? type) : type;
}

/** "120 × Photos papier, 2 × Cassettes VHS" */
export function itemsSummary(items: ReadonlyArray<Pick<OrderLine, 'type' | 'quantity'>>): string {
  if (items.length === 0) return '—';
  return items.map((item) => `${item.quantity}\u00A0× ${supportLabel(item.type)}`).join(', ');
}

const QUALITY_LABELS: Record<string, string> = { standard: 'Qualité standard', premium: 'Qualité premium' };
const FORMAT_LABELS: Record<string, string> = { jpeg: 'JPEG', jpg: 'JPEG', tif: 'TIFF', tiff: 'TIFF' };

/** The options of a line, in words: "Qualité premium, 3600 dpi, TIFF, 5 restaurations, débruitage". */
export function itemOptions(item: OrderLine): string {
  if (isExtraItemType(item.type)) return EXTRA_ITEM_DETAILS[item.type];
  const options: string[] = [];
  if (item.reelSize) {
    const reel = DEFAULT_PRICE_LIST.filmReelPricing[item.reelSize as ReelSize];
    options.push(reel ? reel.description : item.reelSize);
  }
  options.push(QUALITY_LABELS[item.quality] ?? item.quality);
  if (item.resolution) options.push(item.resolution.replace(/dpi$/, '\u00A0dpi'));
  if (item.format) options.push(FORMAT_LABELS[item.format] ?? item.format);
  if (item.restoration > 0) {
    options.push(`${item.restoration}\u00A0restauration${item.restoration > 1 ? 's' : ''}`);
  }
  if (item.denoise) options.push('débruitage');
  return options.join(', ');
}

/** The configurator's wording (domain/pricing/labels.ts), for any stored value. */
export const DELIVERY_LABELS: Readonly<Record<string, string>> = PRICING_DELIVERY_LABELS;

export { PAYMENT_METHOD_LABELS } from '../order-status';

/**
 * The order's price fields; the express turnaround, the return's insurance and the codes' discount
 * absent: none, as on older orders.
 */
export type OrderPrices = Omit<PriceBreakdown, 'expressPriceCents' | 'insurancePriceCents' | 'discountCents'> &
  Partial<Pick<PriceBreakdown, 'expressPriceCents' | 'insurancePriceCents' | 'discountCents'>>;

/** The base price's name on an order of extra items only (its items say what it sold). */
function extraBaseLabel(items: ReadonlyArray<Pick<OrderLine, 'type'>>): string {
  if (items.every((item) => item.type === 'retention-extension')) return 'Prolongation de la conservation';
  if (items.every((item) => item.type === 'gift-card')) return 'Carte cadeau';
  return 'Copies';
}

/**
 * The non-zero lines of the price breakdown, in order, in the configurator's words; the base price
 * always. An order of extra copies, of a retention extension or of a gift card (its items say so)
 * names its own.
 */
export function priceBreakdown(
  prices: OrderPrices,
  items: ReadonlyArray<Pick<OrderLine, 'type'>> = [],
): Array<{ label: string; cents: number }> {
  const extra = items.length > 0 && items.every((item) => isExtraItemType(item.type));
  const labels: Record<keyof OrderPrices, string> = extra
    ? {
        ...BREAKDOWN_LABELS,
        basePriceCents: extraBaseLabel(items),
        deliveryCostCents: 'Envoi des copies',
      }
    : BREAKDOWN_LABELS;
  const rows = PRICE_BREAKDOWN_KEYS.filter((key) => key === 'basePriceCents' || (prices[key] ?? 0) !== 0).map(
    (key) => ({ label: labels[key], cents: prices[key] ?? 0 }),
  );
  // The codes' discount (decision 038): the total is net of it, so the rows add up to the total.
  const discount = prices.discountCents ?? 0;
  return discount > 0 ? [...rows, { label: labels.discountCents, cents: -discount }] : rows;
}
