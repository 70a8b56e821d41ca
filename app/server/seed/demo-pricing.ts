import {
  type DeliveryMethod,
  type Format,
  IMAGE_SUPPORTS,
  type PriceListDocument,
  type Quality,
  type ReelSize,
  type Resolution,
  type SupportType,
  TAPE_OR_REEL_SUPPORTS,
} from '../../domain/pricing/default-price-list';

/*
 * Prices of demo orders, from a price list document, in integer cents.
 *
 * A line is quantity x unit x quality x resolution x format (DESIGN.md, pricing). The unit price is
 * rounded to the cent once (unit x quality x resolution x format), as an invoice shows it, and the
 * line is quantity x that unit price, so that quantity x unit price = the line for every line. The
 * unit price is decomposed step by step (rounded after each multiplier, from the exact product) into
 * base, quality, resolution and format parts that add up to it exactly; restoration (per restored
 * item) and denoise (per tape or reel) are added to the line. The order's price fields are the sums
 * of the lines' parts plus delivery and shipping, and add up exactly to its total.
 *
 * When the domain's pricing function lands (app/domain/pricing), the seed should call it instead.
 */

export interface ItemChoice {
  type: SupportType;
  quantity: number;
  quality: Quality;
  /** Image supports only. */
  resolution: Resolution | null;
  /** Image supports only. */
  format: Format | null;
  /** Number of items to restore. */
  restoration: number;
  /** Tapes and reels only. */
  denoise: boolean;
  /** Film only. */
  reelSize: ReelSize | null;
}

export interface LineParts {
  baseCents: number;
  qualityCents: number;
  resolutionCents: number;
  formatCents: number;
  restorationCents: number;
  denoiseCents: number;
}

export interface PricedItem extends ItemChoice, LineParts {
  unitPriceCents: number;
  lineTotalCents: number;
}

export interface OrderChoice {
  items: ItemChoice[];
  deliveryMethod: DeliveryMethod;
  /** 'label' when the customer buys the prepaid sending label, 'self' otherwise. */
  sendMethod: 'self' | 'label';
  returnOriginals: boolean;
}

export interface OrderPrice extends LineParts {
  deliveryCostCents: number;
  sendShippingCostCents: number;
  returnShippingCostCents: number;
  totalPriceCents: number;
}

/** Multipliers as integer thousandths, so that the arithmetic below stays exact. */
const milli = (multiplier: number) => Math.round(multiplier * 1000);

/** numerator / denominator rounded half up; both non-negative integers below 2^52. */
function roundDiv(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

export function priceItem(list: PriceListDocument, item: ItemChoice): PricedItem {
  const isImage = IMAGE_SUPPORTS.includes(item.type);
  const unit =
    item.type === 'film' ? list.filmReelPricing[item.reelSize ?? 'small'].price : list.supports[item.type].basePrice;
  const q = milli(list.qualityOptions[item.quality].multiplier);
  const r = isImage && item.resolution ? milli(list.resolutionMultipliers[item.resolution]) : 1000;
  const f = isImage && item.format ? milli(list.formatOptions[item.format].multiplier) : 1000;

  const withQuality = roundDiv(unit * q, 1000);
  const withResolution = roundDiv(unit * q * r, 1_000_000);
  const unitPriceCents = roundDiv(unit * q * r * f, 1_000_000_000);

  const n = item.quantity;
  const restorationCents = item.restoration * list.restorationPrice;
  const denoiseCents = item.denoise && TAPE_OR_REEL_SUPPORTS.includes(item.type) ? n * list.denoisePrice : 0;
  // Spelled out rather than spread: object spread is slow in Node 20, and the seed prices 10^5 lines.
  return {
    type: item.type,
    quantity: n,
    quality: item.quality,
    resolution: item.resolution,
    format: item.format,
    restoration: item.restoration,
    denoise: item.denoise,
    reelSize: item.reelSize,
    baseCents: n * unit,
    qualityCents: n * (withQuality - unit),
    resolutionCents: n * (withResolution - withQuality),
    formatCents: n * (unitPriceCents - withResolution),
    restorationCents,
    denoiseCents,
    unitPriceCents,
    lineTotalCents: n * unitPriceCents + restorationCents + denoiseCents,
  };
}

export function priceOrder(list: PriceListDocument, order: OrderChoice): { items: PricedItem[]; price: OrderPrice } {
  const items = order.items.map((item) => priceItem(list, item));
  const sum = (key: keyof LineParts) => items.reduce((total, item) => total + item[key], 0);
  const deliveryCostCents = list.deliveryCosts[order.deliveryMethod];
  const sendShippingCostCents = order.sendMethod === 'label' ? list.sendingLabelPrice : 0;
  const returnShippingCostCents = order.returnOriginals ? list.returnShippingPrice : 0;
  const totalPriceCents =
    items.reduce((total, item) => total + item.lineTotalCents, 0) +
    deliveryCostCents +
    sendShippingCostCents +
    returnShippingCostCents;
  return {
    items,
    price: {
      baseCents: sum('baseCents'),
      qualityCents: sum('qualityCents'),
      resolutionCents: sum('resolutionCents'),
      formatCents: sum('formatCents'),
      restorationCents: sum('restorationCents'),
      denoiseCents: sum('denoiseCents'),
      deliveryCostCents,
      sendShippingCostCents,
      returnShippingCostCents,
      totalPriceCents,
    },
  };
}

/** The VAT included in an amount at 20 %: amount - round(amount / 1.2). */
export function includedVatCents(amountCents: number): number {
  return amountCents - roundDiv(amountCents * 5, 6);
}
