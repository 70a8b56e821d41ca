import { formatDateFr, formatEurosFromCents, NBSP } from '../format';
import { allocateCents } from '../invoices/vat';
import { type PriceListDocument, SUPPORT_TYPES, type SupportType } from '../pricing/default-price-list';
import { lineTitle } from '../pricing/labels';
import { type LineChoice, priceLine } from '../pricing/pricing';

/*
 * Promotion codes (« codes promo », decision 038). Pure: the server finds the code, counts its
 * uses and writes them; everything that decides lives here, so that the checkout's preview, the
 * placing, the reception's recount and a refund compute the same cents.
 *
 * A code takes off a percentage, or an amount, of the order's digitisation items (all of them, or
 * those of chosen supports); delivery, shipping, the express turnaround and the insurance are
 * never discounted. A percentage is rounded once, half up, on the eligible total, then shared among
 * the eligible lines in proportion to their amounts (largest remainders), so that the lines' parts
 * add up to it and a line's part is what a refund of that line gives back (pro rata). Several
 * codes on one order apply one after the other, each on what the previous ones left.
 */

export const PROMOTION_KINDS = ['percent', 'amount'] as const;
export type PromotionKind = (typeof PROMOTION_KINDS)[number];

/** What a code promises: fixed at its creation (only its pause changes afterwards). */
export interface PromotionTerms {
  code: string;
  label: string;
  kind: PromotionKind;
  /** `percent`: 1 to 100. */
  percent: number | null;
  /** `amount`: cents. */
  amountCents: number | null;
  /** Empty: every digitisation item. */
  supports: readonly SupportType[];
  minimumOrderCents: number;
  startsAt: Date;
  endsAt: Date | null;
  maxUses: number | null;
  maxUsesPerCustomer: number | null;
  firstOrderOnly: boolean;
  combinable: boolean;
}

/** How many codes one order may carry (each must be combinable when there are several). */
export const MAX_CODES_PER_ORDER = 3;
export const MAX_PROMOTION_CODE_LENGTH = 32;

/** « noël 20 » → « NOËL20 »: codes are read without case and without spaces. */
export function normalisePromotionCode(typed: string): string {
  return typed
    .normalize('NFC')
    .replace(/[\s\u00a0\u202f]+/g, '')
    .toUpperCase();
}

/**
 * The codes typed in the checkout's field, separated by commas or semicolons, each once. Spaces
 * inside a code are dropped like its case (« noel 20 » is NOEL20), as people type codes read aloud.
 */
export function typedPromotionCodes(typed: string): string[] {
  const codes = typed
    .split(/[,;]+/)
    .map(normalisePromotionCode)
    .filter((code) => code !== '');
  return [...new Set(codes)];
}

// ---------------------------------------------------------------------------------------------
// The discount
// ---------------------------------------------------------------------------------------------

/** An order line as a code sees it: its support and its amount (including VAT). */
export interface DiscountableLine {
  type: string;
  lineTotalCents: number;
}

export interface PromotionDiscount {
  code: string;
  /** What the code takes off, in cents (0 when nothing of the order is eligible). */
  cents: number;
  /** Its share on each line, in the lines' order: what a refund of that line gives back. */
  perLine: number[];
}

function isSupport(type: string): type is SupportType {
  return (SUPPORT_TYPES as readonly string[]).includes(type);
}

/** Whether the code applies to a line of this support (extra copies, gift cards: never). */
export function promotionCovers(terms: Pick<PromotionTerms, 'supports'>, type: string): boolean {
  if (!isSupport(type)) return false;
  return terms.supports.length === 0 || terms.supports.includes(type);
}

/** numerator / denominator rounded half up (positive integers). */
function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

/** One code on what is left of each line: its cents and their share. */
function discountOn(terms: PromotionTerms, left: readonly number[], types: readonly string[]): PromotionDiscount {
  const weights = left.map((cents, i) => (promotionCovers(terms, types[i] as string) ? Math.max(cents, 0) : 0));
  const eligible = weights.reduce((sum, cents) => sum + cents, 0);
  let cents = 0;
  if (eligible > 0 && terms.kind === 'percent') {
    cents = Number(roundHalfUp(BigInt(eligible) * BigInt(terms.percent ?? 0), 100n));
  } else if (eligible > 0) {
    cents = Math.min(terms.amountCents ?? 0, eligible);
  }
  cents = Math.min(cents, eligible);
  const perLine = eligible > 0 ? allocateCents(cents, weights) : weights.map(() => 0);
  return { code: terms.code, cents, perLine };
}

/**
 * What the codes take off the lines, in the order given: each applies to what the previous ones
 * left of each line. No line ever goes below 0.
 */
export function promotionDiscounts(
  codes: readonly PromotionTerms[],
  lines: readonly DiscountableLine[],
): PromotionDiscount[] {
  const types = lines.map((line) => line.type);
  const left = lines.map((line) => line.lineTotalCents);
  return codes.map((terms) => {
    const discount = discountOn(terms, left, types);
    discount.perLine.forEach((share, i) => {
      left[i] = (left[i] as number) - share;
    });
    return discount;
  });
}

/** The codes' whole discount on these lines. */
export function totalDiscountCents(codes: readonly PromotionTerms[], lines: readonly DiscountableLine[]): number {
  return promotionDiscounts(codes, lines).reduce((sum, discount) => sum + discount.cents, 0);
}

// ---------------------------------------------------------------------------------------------
// Whether a code may be used
// ---------------------------------------------------------------------------------------------

export const PROMOTION_MESSAGES = {
  unknown: (code: string) => `Le code promo «${NBSP}${code}${NBSP}» n’existe pas. Vérifiez son orthographe.`,
  paused: (code: string) => `Le code promo ${code} est suspendu pour le moment.`,
  notYet: (code: string, startsAt: Date) => `Le code promo ${code} sera valable à partir du ${formatDateFr(startsAt)}.`,
  ended: (code: string, endsAt: Date) => `Le code promo ${code} n’est plus valable depuis le ${formatDateFr(endsAt)}.`,
  minimum: (code: string, minimumCents: number) =>
    `Le code promo ${code} demande au moins ${formatEurosFromCents(minimumCents)} de numérisation (hors livraison et envois).`,
  nothingEligible: (code: string, supports: string) =>
    `Le code promo ${code} ne porte sur aucun article de votre commande (il s’applique à${NBSP}: ${supports}).`,
  usedUp: (code: string) => `Le code promo ${code} a atteint son nombre d’utilisations.`,
  perCustomer: (code: string) => `Vous avez déjà utilisé le code promo ${code}.`,
  firstOrder: (code: string) => `Le code promo ${code} est réservé à une première commande.`,
  notCombinable: (code: string) => `Le code promo ${code} ne se cumule pas avec un autre code.`,
  tooMany: `Au plus ${MAX_CODES_PER_ORDER} codes promo par commande.`,
  giftCardSale: 'Un code promo ne s’applique pas à l’achat d’une carte cadeau.',
  alreadyPlaced: 'Les codes promo se saisissent avant de confirmer la commande.',
  tooLong: 'Ce code promo est trop long.',
} as const;

/** What the server knows of a code's use when the customer types it. */
export interface PromotionUseFacts {
  now: Date;
  paused: boolean;
  /** Uses not released (orders placed with it and not cancelled before payment). */
  uses: number;
  usesByCustomer: number;
  /** Whether the customer placed an order before (any, but this one). */
  customerHasOrdered: boolean;
  /** The order's items' total, before any code (shipping and delivery apart). */
  itemsCents: number;
}

/** The supports of a code, in French: « Photos papier, Diapositives » or « toute la numérisation ». */
export function promotionSupportsText(terms: Pick<PromotionTerms, 'supports'>, list: PriceListDocument): string {
  if (terms.supports.length === 0) return 'toute la numérisation';
  return terms.supports.map((type) => list.supports[type]?.title ?? type).join(', ');
}

/**
 * Why the code cannot be used on this order now, in French; null when it can. The other codes
 * typed with it are checked by `combinationProblem`.
 */
export function promotionProblem(
  terms: PromotionTerms,
  facts: PromotionUseFacts,
  lines: readonly DiscountableLine[],
  list: PriceListDocument,
): string | null {
  const { code } = terms;
  const timing = promotionTimingProblem(terms, facts);
  if (timing) return timing;
  if (terms.maxUses !== null && facts.uses >= terms.maxUses) return PROMOTION_MESSAGES.usedUp(code);
  if (terms.maxUsesPerCustomer !== null && facts.usesByCustomer >= terms.maxUsesPerCustomer) {
    return PROMOTION_MESSAGES.perCustomer(code);
  }
  if (terms.firstOrderOnly && facts.customerHasOrdered) return PROMOTION_MESSAGES.firstOrder(code);
  if (facts.itemsCents < terms.minimumOrderCents) return PROMOTION_MESSAGES.minimum(code, terms.minimumOrderCents);
  if (!lines.some((line) => promotionCovers(terms, line.type) && line.lineTotalCents > 0)) {
    return PROMOTION_MESSAGES.nothingEligible(code, promotionSupportsText(terms, list));
  }
  return null;
}

/**
 * Whether the code may be used at all now (not paused, within its dates), whatever the order: what
 * a link announcing it (the configurator's `?code=`) checks.
 */
export function promotionTimingProblem(
  terms: Pick<PromotionTerms, 'code' | 'startsAt' | 'endsAt'>,
  facts: Pick<PromotionUseFacts, 'now' | 'paused'>,
): string | null {
  const { code } = terms;
  if (facts.paused) return PROMOTION_MESSAGES.paused(code);
  if (facts.now < terms.startsAt) return PROMOTION_MESSAGES.notYet(code, terms.startsAt);
  if (terms.endsAt && facts.now >= terms.endsAt) return PROMOTION_MESSAGES.ended(code, lastValidDay(terms.endsAt));
  return null;
}

/** Several codes together: each must be marked combinable. */
export function combinationProblem(codes: readonly PromotionTerms[]): string | null {
  if (codes.length > MAX_CODES_PER_ORDER) return PROMOTION_MESSAGES.tooMany;
  if (codes.length < 2) return null;
  const lone = codes.find((terms) => !terms.combinable);
  return lone ? PROMOTION_MESSAGES.notCombinable(lone.code) : null;
}

/** The last day a code is valid (its end is the midnight after it). */
function lastValidDay(endsAt: Date): Date {
  return new Date(endsAt.getTime() - 1);
}

/** « 20 % sur Photos papier », « 10,00 € sur toute la numérisation ». */
export function promotionDescription(terms: PromotionTerms, list: PriceListDocument): string {
  const value =
    terms.kind === 'percent' ? `${terms.percent ?? 0}${NBSP}%` : formatEurosFromCents(terms.amountCents ?? 0);
  return `${value} sur ${promotionSupportsText(terms, list)}`;
}

/** What the code's dates say: « du 01/12/2026 au 31/12/2026 », « à partir du 01/12/2026 ». */
export function promotionPeriodText(terms: Pick<PromotionTerms, 'startsAt' | 'endsAt'>): string {
  const from = formatDateFr(terms.startsAt);
  return terms.endsAt ? `du ${from} au ${formatDateFr(lastValidDay(terms.endsAt))}` : `à partir du ${from}`;
}

// ---------------------------------------------------------------------------------------------
// The reference price (code de la consommation, L112-1-1)
// ---------------------------------------------------------------------------------------------

/** How far back the reference price looks. */
export const REFERENCE_PRICE_DAYS = 30;

/** A price list version and when it was the shop's. */
export interface PriceListPeriod {
  list: PriceListDocument;
  from: Date;
  /** Null: still the shop's prices. */
  until: Date | null;
}

/**
 * The lowest unit price of this line over the 30 days before `at` (the reduction's start, or now
 * when it started earlier): what a reduction must be announced against. Null when no price list
 * of that window can price it.
 */
export function referenceUnitPriceCents(
  periods: readonly PriceListPeriod[],
  line: LineChoice,
  at: Date,
): number | null {
  const windowStart = at.getTime() - REFERENCE_PRICE_DAYS * 86_400_000;
  let lowest: number | null = null;
  for (const period of periods) {
    if (period.from.getTime() > at.getTime()) continue;
    if (period.until && period.until.getTime() < windowStart) continue;
    try {
      const unit = priceLine(period.list, { ...line, quantity: 1, restoration: 0, denoise: false }).unitPriceCents;
      if (unit > 0 && (lowest === null || unit < lowest)) lowest = unit;
    } catch {
      // This version did not sell the support: it sets no reference.
    }
  }
  return lowest;
}

export interface ReferencePriceRow {
  /** « Photos papier ». */
  label: string;
  code: string;
  /** The lowest unit price of the 30 days before the reduction. */
  referenceCents: number;
  /** One unit with the code's percentage taken off today's price. */
  discountedCents: number;
}

/**
 * What a percentage code announces on each line it covers: the unit price with the reduction,
 * against the reference price the law asks for. An amount off the order is no unit price: it
 * states no reference.
 */
export function referencePriceRows(
  codes: readonly PromotionTerms[],
  lines: ReadonlyArray<LineChoice & { unitPriceCents: number }>,
  periods: readonly PriceListPeriod[],
  list: PriceListDocument,
): ReferencePriceRow[] {
  return codes.flatMap((terms) =>
    terms.kind !== 'percent'
      ? []
      : lines
          .filter((line) => promotionCovers(terms, line.type))
          .map((line) => ({
            label: lineTitle(list, line),
            code: terms.code,
            referenceCents: referenceUnitPriceCents(periods, line, terms.startsAt) ?? line.unitPriceCents,
            discountedCents: Number(
              roundHalfUp(BigInt(line.unitPriceCents) * BigInt(100 - (terms.percent ?? 0)), 100n),
            ),
          })),
  );
}

/** A code's state in the back office. */
export type PromotionState = 'scheduled' | 'active' | 'paused' | 'ended' | 'used_up';

export const PROMOTION_STATE_LABELS: Readonly<Record<PromotionState, string>> = {
  scheduled: 'Programmé',
  active: 'Actif',
  paused: 'Suspendu',
  ended: 'Terminé',
  used_up: 'Épuisé',
};

export function promotionState(
  terms: Pick<PromotionTerms, 'startsAt' | 'endsAt' | 'maxUses'>,
  paused: boolean,
  uses: number,
  now: Date,
): PromotionState {
  if (terms.endsAt && now >= terms.endsAt) return 'ended';
  if (terms.maxUses !== null && uses >= terms.maxUses) return 'used_up';
  if (paused) return 'paused';
  return now < terms.startsAt ? 'scheduled' : 'active';
}
