import { formatEurosFromCents, NBSP } from '../format';
import { type PriceListDocument, SUPPORT_TYPES, type SupportType } from '../pricing/default-price-list';
import type { PromotionTerms } from '../vouchers/promotions';
import { lineKey, type OrderedLine, recount } from './reception';

/*
 * « Preview and keep » (decision 030), the pure rules. For the supports the
 * order's price list flags (`previewAndKeep.supports`), the customer reviews the scans online and
 * drops up to `maxDropPercent` % of the files under review. The dropped items are not charged: the
 * order's lines are priced again by the pricing function (`recount`, i.e. `priceLine`) with the
 * order's OWN price list, at the counted quantities (the reception's, else as ordered) and at
 * those quantities minus the dropped items; the difference is what goes back.
 *
 * One file is one item. Dropped items of a support come off its lines from the last one (the
 * order's positions) upwards: an order has one line per support and options almost always.
 */

export interface ReviewFile {
  id: string;
  name: string;
  support: string;
}

/** The supports whose scans the order's price list sends to the customer's review. */
export function reviewedSupports(list: PriceListDocument): SupportType[] {
  return SUPPORT_TYPES.filter((type) => list.previewAndKeep.supports[type] === true);
}

/** The order has at least one line of a reviewed support. */
export function orderNeedsReview(list: PriceListDocument, lines: readonly Pick<OrderedLine, 'type'>[]): boolean {
  const reviewed = reviewedSupports(list);
  return lines.some((line) => reviewed.includes(line.type));
}

/** How many files may be dropped: `percent` % of the files under review, rounded down. */
export function maxDrops(fileCount: number, percent: number): number {
  if (!Number.isInteger(fileCount) || fileCount <= 0) return 0;
  if (!Number.isInteger(percent) || percent <= 0) return 0;
  return Math.floor((fileCount * Math.min(percent, 100)) / 100);
}

/** Dropped files counted by support. */
export function dropsBySupport(files: readonly ReviewFile[], dropped: ReadonlySet<string>): Map<SupportType, number> {
  const counts = new Map<SupportType, number>();
  for (const file of files) {
    if (!dropped.has(file.id)) continue;
    const type = file.support as SupportType;
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  return counts;
}

export interface KeepPricing {
  /** The items' price at the counted quantities (what the customer paid for them). */
  beforeCents: number;
  /** The same lines without the dropped items. */
  afterCents: number;
  /** before − after: refunded with a credit note. */
  refundCents: number;
  /** Per line key (`line-<position>`): the quantity kept. */
  kept: Record<string, number>;
}

/**
 * Prices the drops. `counted`: the reception's counts by line key (missing: as ordered). A support
 * dropping more items than its lines hold only empties them (the caller's limit comes first).
 */
export function priceDrops(
  list: PriceListDocument,
  lines: readonly OrderedLine[],
  counted: Readonly<Record<string, number>>,
  drops: ReadonlyMap<SupportType, number>,
  /** The promotion codes the order was placed with: a file given back refunds what it was paid. */
  codes: readonly PromotionTerms[] = [],
): KeepPricing {
  const base: Record<string, number> = {};
  for (const line of lines) base[lineKey(line.position)] = counted[lineKey(line.position)] ?? line.quantity;
  const kept = { ...base };
  for (const [type, count] of drops) {
    let left = count;
    const ofType = lines.filter((line) => line.type === type).sort((a, b) => b.position - a.position);
    for (const line of ofType) {
      if (left <= 0) break;
      const key = lineKey(line.position);
      const taken = Math.min(left, kept[key] ?? 0);
      kept[key] = (kept[key] ?? 0) - taken;
      left -= taken;
    }
  }
  // The pricing function prices both (restoration follows a count down: reception.ts).
  const net = (counts: Record<string, number>) => {
    const priced = recount(list, lines, counts, codes);
    return priced.countedCents - priced.countedDiscountCents;
  };
  const beforeCents = net(base);
  const afterCents = net(kept);
  return { beforeCents, afterCents, refundCents: beforeCents - afterCents, kept };
}

export const REVIEW_MESSAGES = {
  tooMany: (dropped: number, max: number, percent: number) =>
    `Vous retirez ${dropped}${NBSP}fichier${dropped > 1 ? 's' : ''}${NBSP}: au plus ${max} (${percent}${NBSP}% des fichiers) peuvent être retirés. Rien n’a été modifié${NBSP}; cochez davantage de fichiers à garder.`,
  closed: `Cette sélection est terminée${NBSP}: vos fichiers vous sont livrés.`,
  notOpen: 'Aucune sélection n’est ouverte pour cette commande.',
} as const;

/** « 10 diapositives et 3 négatifs » (the price list's unit names). */
export function dropsText(list: PriceListDocument, drops: ReadonlyMap<SupportType, number>): string {
  const parts = SUPPORT_TYPES.flatMap((type) => {
    const count = drops.get(type) ?? 0;
    if (count === 0) return [];
    const unit = list.supports[type]?.unit ?? 'fichier';
    return [`${count}${NBSP}${count > 1 ? plural(unit) : unit}`];
  });
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} et ${parts[parts.length - 1]}`;
}

function plural(unit: string): string {
  return /[sxz]$/.test(unit) ? unit : `${unit}s`;
}

/** « Vous retirez 10 diapositives : −6,00 € », or what is kept when nothing is dropped. */
export function dropSummary(list: PriceListDocument, drops: ReadonlyMap<SupportType, number>, refundCents: number) {
  const what = dropsText(list, drops);
  if (what === '') return 'Vous gardez tous vos fichiers.';
  return `Vous retirez ${what}${NBSP}: −${formatEurosFromCents(refundCents)}`;
}

/** « Vous pouvez retirer au plus 20 % des fichiers, soit 12 sur 60. » */
export function limitText(fileCount: number, percent: number): string {
  const max = maxDrops(fileCount, percent);
  return `Vous pouvez retirer au plus ${percent}${NBSP}% des fichiers, soit ${max} sur ${fileCount}.`;
}

export type SelectionDecision =
  | { ok: true; dropped: Set<string>; drops: Map<SupportType, number>; pricing: KeepPricing }
  | { ok: false; message: string };

/**
 * The customer's selection: `kept` are the ids of the ticked files (the form's `garder` values);
 * every file under review not ticked is dropped. Unknown ids are ignored. Refused above the limit.
 */
export function decideSelection(input: {
  list: PriceListDocument;
  lines: readonly OrderedLine[];
  counted: Readonly<Record<string, number>>;
  files: readonly ReviewFile[];
  kept: ReadonlySet<string>;
  maxDropPercent: number;
  /** The files under review when it opened (the limit's base). */
  fileCount: number;
  /** The promotion codes the order was placed with. */
  codes?: readonly PromotionTerms[];
}): SelectionDecision {
  const dropped = new Set(input.files.filter((file) => !input.kept.has(file.id)).map((file) => file.id));
  const max = maxDrops(input.fileCount, input.maxDropPercent);
  if (dropped.size > max) {
    return { ok: false, message: REVIEW_MESSAGES.tooMany(dropped.size, max, input.maxDropPercent) };
  }
  const drops = dropsBySupport(input.files, dropped);
  return { ok: true, dropped, drops, pricing: priceDrops(input.list, input.lines, input.counted, drops, input.codes) };
}

/** The end of the review: `days` calendar days after it opened. */
export function reviewEnd(openedAt: Date, days: number): Date {
  return new Date(openedAt.getTime() + days * 86_400_000);
}

/** The reminder goes this many days before the end (or at once for a shorter period). */
export const REVIEW_REMINDER_DAYS_BEFORE = 3;
