import { z } from 'zod';
import '../zod-config';
import { countOf } from '../format';
import { type PriceListDocument, REEL_SIZES, type ReelSize, type SupportType } from '../pricing/default-price-list';
import { lineTitle } from '../pricing/labels';
import { type LineChoice, priceLine } from '../pricing/pricing';
import { hasNoForbiddenCharacter } from '../text-input';
import { type PromotionTerms, totalDiscountCents } from '../vouchers/promotions';

/*
 * The reception of the originals (« Colis reçu », docs/fulfilment.md): the staff count what arrived, line by
 * line (film: reels per size, a size that was not declared can be counted too), and the order is
 * re-priced with its OWN price list version, so the customer pays the prices they accepted. Only
 * the items change: delivery, shipping, express and insurance stay as ordered. The difference is a
 * supplement to approve and pay (positive), a partial refund (negative), or nothing (0).
 */

/** An order line as stored (order_items), with its position. */
export interface OrderedLine extends LineChoice {
  position: number;
}

/** One counted line: `line-<position>` for an ordered line, `reel-<size>` for an undeclared reel size. */
export interface RecountLine {
  key: string;
  label: string;
  type: SupportType;
  reelSize: ReelSize | null;
  /** The line's options, as ordered (the supplement's invoice states them). */
  quality: LineChoice['quality'];
  resolution: LineChoice['resolution'];
  format: LineChoice['format'];
  denoise: boolean;
  /** One item with its multipliers, rounded (the price tag). */
  unitPriceCents: number;
  ordered: number;
  counted: number;
  orderedCents: number;
  countedCents: number;
}

export interface Recount {
  lines: RecountLine[];
  orderedCents: number;
  countedCents: number;
  /**
   * What the order's promotion codes take off the lines as ordered and as counted (decision 038):
   * the order keeps the terms it was placed with, so a code in percent follows the count.
   */
  orderedDiscountCents: number;
  countedDiscountCents: number;
  /**
   * (counted - its discount) - (ordered - its discount): positive = supplement, negative =
   * reduction, 0 = nothing.
   */
  differenceCents: number;
}

export const MAX_COUNT = 100_000;
export const MAX_REMARK_LENGTH = 1_000;
export const MAX_RECEPTION_PHOTOS = 10;
export const MAX_RECEPTION_PHOTO_BYTES = 8 * 1024 * 1024;
export const RECEPTION_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const RECEPTION_MESSAGES = {
  count: 'Indiquez un nombre entier entre 0 et 100 000.',
  remarkTooLong: 'La remarque est trop longue (1 000 caractères au plus).',
  forbidden: 'Ce champ contient un caractère non autorisé.',
  date: 'Indiquez la date de réception (jj/mm/aaaa).',
  futureDate: 'La date de réception ne peut pas être dans le futur.',
  photoType: 'Les photos doivent être des images JPEG, PNG ou WebP.',
  photoTooBig: 'Chaque photo doit peser 8 Mo au plus.',
  tooManyPhotos: 'Ajoutez 10 photos au plus.',
} as const;

/** The key of an ordered line in the reception form and its stored counts. */
export const lineKey = (position: number) => `line-${position}`;
const reelKey = (size: ReelSize) => `reel-${size}`;

/** The reel sizes that can be counted without having been ordered (film orders only). */
export function undeclaredReelSizes(lines: readonly OrderedLine[]): ReelSize[] {
  const films = lines.filter((line) => line.type === 'film');
  if (films.length === 0) return [];
  return REEL_SIZES.filter((size) => !films.some((line) => line.reelSize === size));
}

/** The keys the reception form counts: every ordered line, then the undeclared reel sizes. */
export function countKeys(lines: readonly OrderedLine[]): string[] {
  return [...lines.map((line) => lineKey(line.position)), ...undeclaredReelSizes(lines).map(reelKey)];
}

/** The groups remarks are written for: the order's supports, each once. */
export function remarkGroups(lines: readonly OrderedLine[]): SupportType[] {
  return [...new Set(lines.map((line) => line.type))];
}

function options(list: PriceListDocument, line: LineChoice) {
  const unit = priceLine(list, { ...line, quantity: 1, restoration: 0 });
  const { quality, resolution, format, denoise } = line;
  return { quality, resolution, format, denoise, unitPriceCents: unit.unitPriceCents };
}

function amountOf(list: PriceListDocument, line: LineChoice, quantity: number): number {
  if (quantity === 0) return 0;
  // Items not received cannot be restored: restoration follows the count down, never up.
  return priceLine(list, { ...line, quantity, restoration: Math.min(line.restoration, quantity) }).lineTotalCents;
}

/**
 * Re-prices the order's lines with the counted quantities (missing counts: as ordered), with the
 * promotion codes it was placed with. Throws PricingError on lines the price list cannot price
 * (validation comes first).
 */
export function recount(
  list: PriceListDocument,
  lines: readonly OrderedLine[],
  counts: Readonly<Record<string, number>>,
  codes: readonly PromotionTerms[] = [],
): Recount {
  const recounted: RecountLine[] = lines.map((line) => {
    const counted = counts[lineKey(line.position)] ?? line.quantity;
    return {
      key: lineKey(line.position),
      label: lineTitle(list, line),
      type: line.type,
      reelSize: line.type === 'film' ? line.reelSize : null,
      ...options(list, line),
      ordered: line.quantity,
      counted,
      orderedCents: amountOf(list, line, line.quantity),
      countedCents: amountOf(list, line, counted),
    };
  });
  // An undeclared reel size takes the options of the first film line (quality, denoising).
  const film = lines.find((line) => line.type === 'film');
  for (const size of film ? undeclaredReelSizes(lines) : []) {
    const counted = counts[reelKey(size)] ?? 0;
    if (!film || counted === 0) continue;
    const line: LineChoice = { ...film, reelSize: size, restoration: 0 };
    recounted.push({
      key: reelKey(size),
      label: lineTitle(list, line),
      type: 'film',
      reelSize: size,
      ...options(list, line),
      ordered: 0,
      counted,
      orderedCents: 0,
      countedCents: amountOf(list, line, counted),
    });
  }
  const orderedCents = recounted.reduce((sum, line) => sum + line.orderedCents, 0);
  const countedCents = recounted.reduce((sum, line) => sum + line.countedCents, 0);
  const orderedDiscountCents = totalDiscountCents(
    codes,
    recounted.map((line) => ({ type: line.type, lineTotalCents: line.orderedCents })),
  );
  const countedDiscountCents = totalDiscountCents(
    codes,
    recounted.map((line) => ({ type: line.type, lineTotalCents: line.countedCents })),
  );
  return {
    lines: recounted,
    orderedCents,
    countedCents,
    orderedDiscountCents,
    countedDiscountCents,
    differenceCents: countedCents - countedDiscountCents - (orderedCents - orderedDiscountCents),
  };
}

/** What the e-mail and the back office show: `{ counts: [{label, ordered, counted}], remarks: [{group, text}] }`. */
export interface ReceptionSummary {
  counts: Array<{ label: string; ordered: number; counted: number }>;
  remarks: Array<{ group: string; text: string }>;
}

export function receptionSummary(
  list: PriceListDocument,
  result: Recount,
  remarks: ReadonlyArray<{ group: SupportType; text: string }>,
): ReceptionSummary {
  return {
    counts: result.lines.map(({ label, ordered, counted }) => ({ label, ordered, counted })),
    remarks: remarks.map(({ group, text }) => ({ group: list.supports[group]?.title ?? group, text })),
  };
}

const count = z.coerce
  .number({ error: RECEPTION_MESSAGES.count })
  .int(RECEPTION_MESSAGES.count)
  .min(0, RECEPTION_MESSAGES.count)
  .max(MAX_COUNT, RECEPTION_MESSAGES.count);

const remark = z
  .string()
  .trim()
  .max(MAX_REMARK_LENGTH, RECEPTION_MESSAGES.remarkTooLong)
  .refine(hasNoForbiddenCharacter, RECEPTION_MESSAGES.forbidden);

/** « 21/11/2026 » or « 2026-11-21 » (the date input) → the day at noon UTC (no time-zone edge). */
export function parseReceptionDate(value: string): Date | null {
  const fr = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value.trim());
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  const [y, m, d] = fr ? [fr[3], fr[2], fr[1]] : iso ? [iso[1], iso[2], iso[3]] : [];
  if (!y || !m || !d) return null;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d), 12));
  return date.getUTCDate() === Number(d) && date.getUTCMonth() === Number(m) - 1 ? date : null;
}

export type ReceptionForm = {
  receivedAt: Date;
  counts: Record<string, number>;
  remarks: Array<{ group: SupportType; text: string }>;
};

/**
 * The reception form of one order (fields `date`, `count-<key>`, `remark-<support>`), with its French
 * messages. `today` bounds the date (a parcel cannot arrive tomorrow).
 */
export function receptionFormSchema(lines: readonly OrderedLine[], today: Date) {
  const keys = countKeys(lines);
  const groups = remarkGroups(lines);
  const shape: Record<string, z.ZodType> = {
    date: z.string({ error: RECEPTION_MESSAGES.date }).transform((value, ctx) => {
      const date = parseReceptionDate(value);
      if (!date) {
        ctx.addIssue({ code: 'custom', message: RECEPTION_MESSAGES.date });
        return z.NEVER;
      }
      if (date.getTime() > today.getTime() + 36 * 3_600_000) {
        ctx.addIssue({ code: 'custom', message: RECEPTION_MESSAGES.futureDate });
        return z.NEVER;
      }
      return date;
    }),
  };
  for (const key of keys) shape[`count-${key}`] = key.startsWith('reel-') ? count.default(0) : count;
  for (const group of groups) shape[`remark-${group}`] = remark.default('');
  return z.object(shape).transform((form): ReceptionForm => {
    const values = form as Record<string, unknown>;
    return {
      receivedAt: values.date as Date,
      counts: Object.fromEntries(keys.map((key) => [key, Number(values[`count-${key}`] ?? 0)])),
      remarks: groups
        .map((group) => ({ group, text: String(values[`remark-${group}`] ?? '') }))
        .filter((remark) => remark.text !== ''),
    };
  });
}

export const SUPPLEMENT_REFUSALS = [
  { value: 'digitise_paid', label: 'Numériser seulement ce qui est payé' },
  { value: 'return_extra', label: 'Retourner les originaux en plus' },
] as const;

export const SUPPLEMENT_REFUSAL_MESSAGE = 'Choisissez ce que le client préfère.';

/** « Refus du client »: the staff record the customer's refusal of a supplement, with their choice. */
export const supplementRefusalSchema = z.object({
  adjustmentId: z.string({ error: 'Supplément introuvable' }),
  decision: z.enum(['digitise_paid', 'return_extra'], { error: SUPPLEMENT_REFUSAL_MESSAGE }),
});

export type SupplementRefusalInput = z.input<typeof supplementRefusalSchema>;

/** A photo's own checks (type and size), before anything is stored. */
export function photoProblem(photo: { type: string; size: number }): string | null {
  if (!(RECEPTION_PHOTO_TYPES as readonly string[]).includes(photo.type)) return RECEPTION_MESSAGES.photoType;
  if (photo.size > MAX_RECEPTION_PHOTO_BYTES) return RECEPTION_MESSAGES.photoTooBig;
  return null;
}

/** One support's count as the reception shows and e-mails it: « Photos : 1 reçu pour 2 commandés ». */
export function receivedCountText(line: { label: string; counted: number; ordered: number }): string {
  return `${line.label}\u00a0: ${countOf(line.counted, 'reçu')} pour ${countOf(line.ordered, 'commandé')}`;
}
