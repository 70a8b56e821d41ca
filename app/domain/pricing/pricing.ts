import type { OrderLine } from '../orders/order-line';
import {
  type DeliveryMethod,
  type Format,
  IMAGE_SUPPORTS,
  type PriceListDocument,
  type Quality,
  type ReelSize,
  type Resolution,
  type SendMethod,
  type SupportType,
  TAPE_OR_REEL_SUPPORTS,
} from './default-price-list';

/*
 * The shop's prices, computed from a price list document, in integer cents (docs/pricing.md).
 * Pure: the browser runs it for the live estimate, the server for the authoritative price, and the
 * two agree to the cent because they run the same code on the same integers.
 *
 * A line (one order item) is `quantity x unit x quality x resolution x format`, rounded once to the
 * cent (half up), plus restoration (per restored item) and denoising (per tape or reel). The
 * rounded amount is split into the order's price fields by rounding the running product after each
 * multiplier: base = quantity x unit, then each supplement is the difference between two rounded
 * running products, so the parts add up exactly to the rounded line. Multipliers are taken as
 * integer ten-thousandths and the products are BigInt: no floating-point error, no overflow.
 */

/** One order item as the customer chose it (film: one line per reel size). */
export interface LineChoice {
  type: SupportType;
  quantity: number;
  quality: Quality;
  /** Image supports only (null otherwise). */
  resolution: Resolution | null;
  /** Image supports only (null otherwise). */
  format: Format | null;
  /** Number of items to restore (restorable supports only). */
  restoration: number;
  /** Tapes and film only. */
  denoise: boolean;
  /** Film only. */
  reelSize: ReelSize | null;
}

/** The parts of a price that items contribute to, named like the `orders` columns. */
export interface LineParts {
  basePriceCents: number;
  qualityPriceCents: number;
  resolutionPriceCents: number;
  formatPriceCents: number;
  restorationPriceCents: number;
  denoisePriceCents: number;
}

export interface PricedLine extends LineChoice, LineParts {
  /** Price of one unit with its multipliers, rounded to the cent: what a price tag shows. */
  unitPriceCents: number;
  /** quantity x unit x multipliers, rounded once: base + quality + resolution + format. */
  digitisationCents: number;
  /** digitisation + restoration + denoise. */
  lineTotalCents: number;
}

export interface OrderChoice {
  lines: LineChoice[];
  deliveryMethod: DeliveryMethod;
  sendMethod: SendMethod;
  returnOriginals: boolean;
  /** The express turnaround (price list `turnaround.expressPrice`); standard when absent. */
  express?: boolean;
  /** Declared value of the return parcel for its insurance, in cents (0 or absent: not insured). */
  insuredValueCents?: number;
}

/** The order's price fields (`orders` columns), which add up exactly to the total. */
export interface PriceBreakdown extends LineParts {
  deliveryCostCents: number;
  sendShippingCostCents: number;
  returnShippingCostCents: number;
  expressPriceCents: number;
  insurancePriceCents: number;
  /**
   * What promotion codes took off (decision 038): 0 until the order is placed with a code. The
   * total is the other fields' sum less this.
   */
  discountCents: number;
  totalPriceCents: number;
}

export interface PricedOrder {
  lines: PricedLine[];
  price: PriceBreakdown;
}

const LINE_PART_KEYS = [
  'basePriceCents',
  'qualityPriceCents',
  'resolutionPriceCents',
  'formatPriceCents',
  'restorationPriceCents',
  'denoisePriceCents',
] as const satisfies readonly (keyof LineParts)[];

/** What an order pays once, beside its lines (the breakdown's fields that are not line parts). */
export const ORDER_EXTRA_KEYS = [
  'deliveryCostCents',
  'sendShippingCostCents',
  'returnShippingCostCents',
  'expressPriceCents',
  'insurancePriceCents',
] as const satisfies readonly (keyof PriceBreakdown)[];

export type OrderExtraKey = (typeof ORDER_EXTRA_KEYS)[number];

/** The fields that add up to the total, in the order a breakdown shows them. */
export const PRICE_BREAKDOWN_KEYS = [...LINE_PART_KEYS, ...ORDER_EXTRA_KEYS] as const;

/** The 13 price fields an order stores: the breakdown's, the codes' discount and the total. */
export const PRICE_FIELDS = [...PRICE_BREAKDOWN_KEYS, 'discountCents', 'totalPriceCents'] as const;
export type PriceField = (typeof PRICE_FIELDS)[number];

/*
 * Every field of PriceBreakdown is in PRICE_FIELDS and nothing else: a price field added to the
 * interface and forgotten in the lists fails the type check here, not silently at the cent.
 */
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _priceFieldsCoverTheBreakdown: Exactly<PriceField, keyof PriceBreakdown> = true;

/**
 * The price fields of a row that holds them under their own names (an `orders` row, a loaded
 * order), and nothing else of it; every field by default.
 */
export function pickPriceFields<K extends PriceField = PriceField>(
  row: Pick<PriceBreakdown, K>,
  fields: readonly K[] = PRICE_FIELDS as unknown as readonly K[],
): Pick<PriceBreakdown, K> {
  return priceFieldsFrom((field) => row[field], fields);
}

/** The price fields read one by one (a raw SQL row's columns); every field by default. */
export function priceFieldsFrom<K extends PriceField = PriceField>(
  read: (field: K) => number,
  fields: readonly K[] = PRICE_FIELDS as unknown as readonly K[],
): Pick<PriceBreakdown, K> {
  return Object.fromEntries(fields.map((field) => [field, read(field)])) as Pick<PriceBreakdown, K>;
}

/** Multipliers are exact to 1/10 000 (the price list schema refuses more decimals). */
export const MULTIPLIER_SCALE = 10_000;
const SCALE = BigInt(MULTIPLIER_SCALE);

export class PricingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PricingError';
  }
}

function ratio(multiplier: number, what: string): bigint {
  const scaled = Math.round(multiplier * MULTIPLIER_SCALE);
  if (!Number.isFinite(multiplier) || !Number.isSafeInteger(scaled) || scaled < 0) {
    throw new PricingError(`invalid multiplier for ${what}: ${multiplier}`);
  }
  return BigInt(scaled);
}

function centsOf(value: number, what: string): bigint {
  if (!Number.isSafeInteger(value) || value < 0) throw new PricingError(`invalid amount for ${what}: ${value}`);
  return BigInt(value);
}

function count(value: number, what: string): bigint {
  if (!Number.isSafeInteger(value) || value < 0) throw new PricingError(`invalid ${what}: ${value}`);
  return BigInt(value);
}

/** numerator / denominator, rounded to the nearest integer, halves up (both non-negative). */
function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

function toNumber(value: bigint): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new PricingError(`amount out of range: ${value}`);
  return n;
}

export function isImageSupport(type: SupportType): boolean {
  return IMAGE_SUPPORTS.includes(type);
}

export function isTapeOrReel(type: SupportType): boolean {
  return TAPE_OR_REEL_SUPPORTS.includes(type);
}

/** Supports whose items can be restored one by one (a restored photo, slide, page...): the scanned ones. */
export function isRestorable(type: SupportType): boolean {
  return isImageSupport(type);
}

/** Price of one unit before multipliers: the support's base price, or the reel's for film. */
export function baseUnitCents(list: PriceListDocument, type: SupportType, reelSize: ReelSize | null): number {
  if (type === 'film') {
    if (!reelSize) throw new PricingError('a film line needs a reel size');
    const reel = list.filmReelPricing[reelSize];
    if (!reel) throw new PricingError(`unknown reel size: ${reelSize}`);
    return reel.price;
  }
  const support = list.supports[type];
  if (!support) throw new PricingError(`unknown support: ${type}`);
  return support.basePrice;
}

/** Prices one line. Throws PricingError on a line that validation should have refused. */
export function priceLine(list: PriceListDocument, line: LineChoice): PricedLine {
  const quantity = count(line.quantity, 'quantity');
  if (quantity === 0n) throw new PricingError('quantity must be at least 1');
  const unit = centsOf(baseUnitCents(list, line.type, line.reelSize), `${line.type} unit`);
  const image = isImageSupport(line.type);

  const quality = list.qualityOptions[line.quality];
  if (!quality) throw new PricingError(`unknown quality: ${line.quality}`);
  const q = ratio(quality.multiplier, 'quality');
  let r = SCALE;
  let f = SCALE;
  if (image && line.resolution !== null) {
    const multiplier = list.resolutionMultipliers[line.resolution];
    if (multiplier === undefined) throw new PricingError(`unknown resolution: ${line.resolution}`);
    r = ratio(multiplier, 'resolution');
  }
  if (image && line.format !== null) {
    const option = list.formatOptions[line.format];
    if (!option) throw new PricingError(`unknown format: ${line.format}`);
    f = ratio(option.multiplier, 'format');
  }

  // Running products, each rounded from the exact value: the differences telescope to the last one.
  const base = quantity * unit;
  const withQuality = roundHalfUp(base * q, SCALE);
  const withResolution = roundHalfUp(base * q * r, SCALE * SCALE);
  const digitisation = roundHalfUp(base * q * r * f, SCALE * SCALE * SCALE);
  const unitPrice = roundHalfUp(unit * q * r * f, SCALE * SCALE * SCALE);

  const restored = isRestorable(line.type) ? count(line.restoration, 'restoration') : 0n;
  if (restored > quantity) throw new PricingError('more items to restore than items');
  const restoration = restored * centsOf(list.restorationPrice, 'restoration');
  const denoise = line.denoise && isTapeOrReel(line.type) ? quantity * centsOf(list.denoisePrice, 'denoise') : 0n;

  return {
    type: line.type,
    quantity: line.quantity,
    quality: line.quality,
    resolution: image ? line.resolution : null,
    format: image ? line.format : null,
    restoration: Number(restored),
    denoise: line.denoise && isTapeOrReel(line.type),
    reelSize: line.type === 'film' ? line.reelSize : null,
    unitPriceCents: toNumber(unitPrice),
    basePriceCents: toNumber(base),
    qualityPriceCents: toNumber(withQuality - base),
    resolutionPriceCents: toNumber(withResolution - withQuality),
    formatPriceCents: toNumber(digitisation - withResolution),
    restorationPriceCents: toNumber(restoration),
    denoisePriceCents: toNumber(denoise),
    digitisationCents: toNumber(digitisation),
    lineTotalCents: toNumber(digitisation + restoration + denoise),
  };
}

/** Delivery of the files and shipping of the originals: fixed amounts of the price list. */
export function orderExtrasCents(
  list: PriceListDocument,
  choice: Pick<OrderChoice, 'deliveryMethod' | 'sendMethod' | 'returnOriginals'>,
): Pick<PriceBreakdown, 'deliveryCostCents' | 'sendShippingCostCents' | 'returnShippingCostCents'> {
  const delivery = list.deliveryCosts[choice.deliveryMethod];
  if (delivery === undefined) throw new PricingError(`unknown delivery method: ${choice.deliveryMethod}`);
  return {
    deliveryCostCents: toNumber(centsOf(delivery, 'delivery')),
    sendShippingCostCents: choice.sendMethod === 'label' ? toNumber(centsOf(list.sendingLabelPrice, 'label')) : 0,
    returnShippingCostCents: choice.returnOriginals ? toNumber(centsOf(list.returnShippingPrice, 'return')) : 0,
  };
}

/**
 * The return parcel's ad valorem insurance: a price per started 100 € of declared value. Only a
 * parcel that travels back can be insured; a value above the list's maximum is a PricingError
 * (the checkout refuses it first with a French message).
 */
export function insurancePriceCents(list: PriceListDocument, insuredValueCents: number): number {
  const value = count(insuredValueCents, 'insured value');
  if (value === 0n) return 0;
  if (value > centsOf(list.insurance.maxValue, 'insurance ceiling')) throw new PricingError('insured value too high');
  const tranches = (value + 9_999n) / 10_000n;
  return toNumber(tranches * centsOf(list.insurance.per100EurosPrice, 'insurance'));
}

/**
 * An order's breakdown with another declared value for its return parcel (the checkout's
 * insurance): the insurance priced by the list, and the total the sum of every price field again,
 * so that the fields keep adding up to it.
 */
export function withInsuredValue(
  list: PriceListDocument,
  price: Pick<PriceBreakdown, (typeof PRICE_BREAKDOWN_KEYS)[number]> & { discountCents?: number },
  insuredValueCents: number,
): PriceBreakdown {
  const next = { ...price, insurancePriceCents: insurancePriceCents(list, insuredValueCents) };
  const totalPriceCents = PRICE_BREAKDOWN_KEYS.reduce((sum, key) => sum + next[key], 0) - (price.discountCents ?? 0);
  if (!Number.isSafeInteger(totalPriceCents)) throw new PricingError('total out of range');
  return { ...next, discountCents: price.discountCents ?? 0, totalPriceCents };
}

/** Prices every line and the order's extras; the breakdown's fields add up exactly to its total. */
export function priceOrder(list: PriceListDocument, order: OrderChoice): PricedOrder {
  const lines = order.lines.map((line) => priceLine(list, line));
  const parts = Object.fromEntries(
    LINE_PART_KEYS.map((key) => [key, lines.reduce((sum, line) => sum + line[key], 0)]),
  ) as unknown as LineParts;
  const extras = orderExtrasCents(list, order);
  const expressPriceCents = order.express ? toNumber(centsOf(list.turnaround.expressPrice, 'express')) : 0;
  // Insurance covers a parcel going back: the originals, a USB key or a DVD.
  const travelsBack = order.returnOriginals || order.deliveryMethod !== 'digital';
  const insured = travelsBack ? insurancePriceCents(list, order.insuredValueCents ?? 0) : 0;
  const totalPriceCents =
    lines.reduce((sum, line) => sum + line.lineTotalCents, 0) +
    extras.deliveryCostCents +
    extras.sendShippingCostCents +
    extras.returnShippingCostCents +
    expressPriceCents +
    insured;
  if (!Number.isSafeInteger(totalPriceCents)) throw new PricingError('total out of range');
  return {
    lines,
    price: { ...parts, ...extras, expressPriceCents, insurancePriceCents: insured, discountCents: 0, totalPriceCents },
  };
}

/** The VAT included in an amount at 20 %: amount - round(amount / 1.2), in cents. */
export function includedVatCents(amountCents: number): number {
  const amount = count(amountCents, 'amount');
  return toNumber(amount - roundHalfUp(amount * 5n, 6n));
}

/*
 * Extra copies and the paid retention (decision 029): orders of their own, linked to the
 * order whose files they copy or keep. Priced here from the price list's `extraCopies` and
 * `retentionExtension` entries like everything else: one line (the copies, or the year of
 * retention) in `basePriceCents`, the parcel of copies in `deliveryCostCents`, so that the order's
 * price fields still add up exactly to its total and invoices read them like any order's.
 */

/** What an extra copy is made on. */
export const COPY_MEDIA = ['usb', 'disc'] as const;
export type CopyMedium = (typeof COPY_MEDIA)[number];

/** The order item types of these orders (order_items.type), beside the supports. */
export const EXTRA_ITEM_TYPES = ['copy-usb', 'copy-disc', 'retention-extension', 'gift-card'] as const;
export type ExtraItemType = (typeof EXTRA_ITEM_TYPES)[number];

export const EXTRA_ITEM_TITLES: Readonly<Record<ExtraItemType, string>> = {
  'copy-usb': 'Copie sur clé USB',
  'copy-disc': 'Copie sur DVD',
  'retention-extension': 'Prolongation de la conservation (1\u00A0an)',
  'gift-card': 'Carte cadeau Soovenirs',
};

/** What such a line is, in words (invoices, order pages). */
export const EXTRA_ITEM_DETAILS: Readonly<Record<ExtraItemType, string>> = {
  'copy-usb': 'Copie de fichiers numérisés',
  'copy-disc': 'Copie de fichiers numérisés',
  'retention-extension': 'Fichiers numérisés conservés en ligne un an de plus',
  'gift-card': 'Bon à usage unique (TVA 20\u00A0% due à la vente), valable sur tous les services Soovenirs',
};

export function isExtraItemType(type: string): type is ExtraItemType {
  return (EXTRA_ITEM_TYPES as readonly string[]).includes(type);
}

export function copyItemType(medium: CopyMedium): ExtraItemType {
  return medium === 'usb' ? 'copy-usb' : 'copy-disc';
}

/** At most this many keys or DVDs in one order of copies (more: a quote). */
export const MAX_EXTRA_COPIES = 20;

/** How long « Prolonger d’un an » adds to the files' retention. */
export const RETENTION_EXTENSION_DAYS = 365;

/** The single line of an extra order, as order_items stores it. */
export type ExtraLine = Pick<OrderLine, 'quantity' | 'unitPriceCents' | 'lineTotalCents'> & { type: ExtraItemType };

export interface PricedExtraOrder {
  line: ExtraLine;
  price: PriceBreakdown;
}

function extraBreakdown(lineCents: number, deliveryCents: number): PriceBreakdown {
  const totalPriceCents = lineCents + deliveryCents;
  if (!Number.isSafeInteger(totalPriceCents)) throw new PricingError('total out of range');
  return {
    basePriceCents: lineCents,
    qualityPriceCents: 0,
    resolutionPriceCents: 0,
    formatPriceCents: 0,
    restorationPriceCents: 0,
    denoisePriceCents: 0,
    deliveryCostCents: deliveryCents,
    sendShippingCostCents: 0,
    returnShippingCostCents: 0,
    expressPriceCents: 0,
    discountCents: 0,
    insurancePriceCents: 0,
    totalPriceCents,
  };
}

/** `quantity` USB keys or DVDs of the chosen files, and the parcel that takes them. */
export function priceExtraCopies(
  list: PriceListDocument,
  choice: { medium: CopyMedium; quantity: number },
): PricedExtraOrder {
  const quantity = count(choice.quantity, 'quantity');
  if (quantity === 0n || quantity > BigInt(MAX_EXTRA_COPIES)) throw new PricingError('copies out of range');
  if (!COPY_MEDIA.includes(choice.medium)) throw new PricingError(`unknown medium: ${choice.medium}`);
  const unit = centsOf(
    choice.medium === 'usb' ? list.extraCopies.usbPrice : list.extraCopies.discPrice,
    `${choice.medium} copy`,
  );
  const line = toNumber(quantity * unit);
  const shipping = toNumber(centsOf(list.extraCopies.shippingPrice, 'copies shipping'));
  return {
    line: {
      type: copyItemType(choice.medium),
      quantity: choice.quantity,
      unitPriceCents: toNumber(unit),
      lineTotalCents: line,
    },
    price: extraBreakdown(line, shipping),
  };
}

/** One more year of retention of an order's delivered files (nothing travels). */
export function priceRetentionExtension(list: PriceListDocument): PricedExtraOrder {
  const price = toNumber(centsOf(list.retentionExtension.yearPrice, 'retention extension'));
  return {
    line: { type: 'retention-extension', quantity: 1, unitPriceCents: price, lineTotalCents: price },
    price: extraBreakdown(price, 0),
  };
}

/** A gift card of `amountCents` (decision 037), within the price list's bounds: its line is the amount. */
export function priceGiftCard(list: PriceListDocument, amountCents: number): PricedExtraOrder {
  const amount = toNumber(centsOf(amountCents, 'gift card'));
  if (amount < list.giftCards.minPrice || amount > list.giftCards.maxPrice) {
    throw new PricingError('gift card amount out of range');
  }
  return {
    line: { type: 'gift-card', quantity: 1, unitPriceCents: amount, lineTotalCents: amount },
    price: extraBreakdown(amount, 0),
  };
}

/** A ready-made present offered on « Offrir une carte cadeau »: so many of a support at today's base price. */
export interface GiftCardPreset {
  key: string;
  label: string;
  amountCents: number;
}

const GIFT_CARD_PRESETS: readonly { key: string; label: string; support: SupportType; quantity: number }[] = [
  { key: 'vhs-2', label: '2\u00A0cassettes VHS', support: 'vhs', quantity: 2 },
  { key: 'photos-200', label: '200\u00A0photos', support: 'photos', quantity: 200 },
];

/** The ready-made presents at the list's base prices, those within its gift card bounds. */
export function giftCardPresets(list: PriceListDocument): GiftCardPreset[] {
  return GIFT_CARD_PRESETS.map(({ key, label, support, quantity }) => ({
    key,
    label,
    amountCents: toNumber(BigInt(quantity) * BigInt(baseUnitCents(list, support, null))),
  })).filter(
    (preset) => preset.amountCents >= list.giftCards.minPrice && preset.amountCents <= list.giftCards.maxPrice,
  );
}
