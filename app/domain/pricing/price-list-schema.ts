import { z } from 'zod';
import '../zod-config';
import { formatEurosFromCents } from '../format';
import { GIFT_CARD_MAX_VALIDITY_MONTHS } from '../vouchers/gift-card-office';
import {
  DEFAULT_EXTRA_COPIES,
  DEFAULT_GIFT_CARDS,
  DEFAULT_INSURANCE,
  DEFAULT_PREVIEW_AND_KEEP_OFF,
  DEFAULT_RETENTION_EXTENSION,
  DEFAULT_TURNAROUND,
  DELIVERY_METHODS,
  FORMATS,
  type PriceListDocument,
  QUALITIES,
  REEL_SIZES,
  RESOLUTIONS,
  SUPPORT_TYPES,
} from './default-price-list';
import { MULTIPLIER_SCALE } from './pricing';

/*
 * What a price list document must be before it is stored or used to price anything: every entry
 * present, amounts in whole cents, multipliers exact to 1/10 000. The back office publishes through
 * this schema (publishPriceList), so the pricing function never meets a missing or odd price.
 */

export const MAX_AMOUNT_CENTS = 10_000_000; // 100 000 € for one unit, reel, delivery or shipping.

const cents = z
  .number({ error: 'Indiquez un montant.' })
  .int({ error: 'Un montant s’exprime en centimes entiers.' })
  .min(0, { error: 'Un montant ne peut pas être négatif.' })
  .max(MAX_AMOUNT_CENTS, { error: 'Montant trop élevé.' });

export const MAX_MULTIPLIER_VALUE = 10;

export const MAX_TURNAROUND_DAYS = 120;

/** The longest review period of « preview and keep », in calendar days. */
export const MAX_REVIEW_DAYS = 60;

const days = z
  .number({ error: 'Indiquez un nombre de jours.' })
  .int({ error: 'Un délai s’exprime en jours entiers.' })
  .min(1, { error: 'Un délai est d’au moins 1 jour.' })
  .max(MAX_TURNAROUND_DAYS, { error: `Un délai est d’au plus ${MAX_TURNAROUND_DAYS} jours.` });

const multiplier = (min: number) =>
  z
    .number({ error: 'Indiquez un coefficient.' })
    .min(min, { error: `Un coefficient vaut au moins ${String(min).replace('.', ',')}.` })
    .max(MAX_MULTIPLIER_VALUE, { error: 'Un coefficient vaut au plus 10.' })
    .refine((value) => Math.abs(value * MULTIPLIER_SCALE - Math.round(value * MULTIPLIER_SCALE)) < 1e-6, {
      error: 'Un coefficient a au plus quatre décimales.',
    });

/** The least a gift card may be bought for (Tarifs, `giftCards.minPrice` at least this). */
export const GIFT_CARD_MIN_CENTS = 100;
/** The most a gift card may be bought for (Tarifs, `giftCards.maxPrice` at most this): 5 000 €. */
export const GIFT_CARD_MAX_CENTS = 500_000;
/*
 * A card must state its validity (decision 037: without a date it would never expire), so at least
 * one month. And at most GIFT_CARD_MAX_VALIDITY_MONTHS (24): the back office's « Prolonger » keeps a
 * card valid at most that long after its issue, extensions included (gift-card-office.ts). A longer
 * validity at the sale would make a card the back office can never extend and whose end breaks that
 * rule; the two limits are the same constant so that they cannot drift apart.
 */
export const GIFT_CARD_MAX_MONTHS = GIFT_CARD_MAX_VALIDITY_MONTHS;

const GIFT_CARD_SCHEMA_MESSAGES = {
  minTooLow: `Une carte cadeau vaut au moins ${formatEurosFromCents(GIFT_CARD_MIN_CENTS)}.`,
  maxTooHigh: `Une carte cadeau vaut au plus ${formatEurosFromCents(GIFT_CARD_MAX_CENTS)}.`,
  maxBelowMin: 'Le montant maximal d’une carte cadeau est au moins son montant minimal.',
  monthsRange: `Une carte cadeau est valable de 1 à ${GIFT_CARD_MAX_MONTHS}\u00A0mois.`,
} as const;

const text = z.string().trim().min(1, { error: 'Texte obligatoire.' }).max(200);

const byKey = <K extends string, T extends z.ZodType>(keys: readonly K[], value: T) =>
  z.object(Object.fromEntries(keys.map((key) => [key, value])) as Record<K, T>);

export const priceListDocumentSchema = z.object({
  supports: byKey(
    SUPPORT_TYPES,
    z.object({ basePrice: cents, title: text, unit: text, icon: z.string().trim().max(60) }),
  ),
  filmReelPricing: byKey(REEL_SIZES, z.object({ diameter: text, price: cents, description: text })),
  // Resolution and format multipliers are at least 1.
  resolutionMultipliers: byKey(RESOLUTIONS, multiplier(1)),
  formatOptions: byKey(FORMATS, z.object({ label: text, multiplier: multiplier(1) })),
  deliveryCosts: byKey(DELIVERY_METHODS, cents),
  qualityOptions: byKey(QUALITIES, z.object({ label: text, multiplier: multiplier(1) })),
  restorationPrice: cents,
  denoisePrice: cents,
  sendingLabelPrice: cents,
  returnShippingPrice: cents,
  // Lists published before these entries existed are read with the defaults (docs/pricing.md).
  turnaround: z
    .object({
      standardDays: days,
      expressDays: days,
      expressPrice: cents,
    })
    .refine((t) => t.expressDays < t.standardDays, {
      error: 'Le délai express doit être plus court que le délai standard.',
      path: ['expressDays'],
    })
    .default(DEFAULT_TURNAROUND),
  insurance: z
    .object({
      per100EurosPrice: cents,
      maxValue: cents.min(10_000, { error: 'Valeur assurable d’au moins 100,00 €.' }),
    })
    .default(DEFAULT_INSURANCE),
  // Extra copies and the paid retention (decision 029): read with the defaults on older lists.
  extraCopies: z.object({ usbPrice: cents, discPrice: cents, shippingPrice: cents }).default(DEFAULT_EXTRA_COPIES),
  retentionExtension: z.object({ yearPrice: cents }).default(DEFAULT_RETENTION_EXTENSION),
  previewAndKeep: z
    .object({
      supports: byKey(SUPPORT_TYPES, z.boolean({ error: 'Indiquez oui ou non.' })),
      reviewDays: z
        .number({ error: 'Indiquez un nombre de jours.' })
        .int({ error: 'Un délai s’exprime en jours entiers.' })
        .min(1, { error: 'Un délai est d’au moins 1 jour.' })
        .max(MAX_REVIEW_DAYS, { error: `Un délai est d’au plus ${MAX_REVIEW_DAYS} jours.` }),
      maxDropPercent: z
        .number({ error: 'Indiquez un pourcentage.' })
        .int({ error: 'Un pourcentage s’exprime en entier.' })
        .min(0, { error: 'Un pourcentage ne peut pas être négatif.' })
        .max(100, { error: 'Un pourcentage vaut au plus 100.' }),
    })
    .default(DEFAULT_PREVIEW_AND_KEEP_OFF),
  // Gift cards (decision 037): read with the defaults on older lists.
  giftCards: z
    .object({
      minPrice: cents.min(GIFT_CARD_MIN_CENTS, { error: GIFT_CARD_SCHEMA_MESSAGES.minTooLow }),
      maxPrice: cents.max(GIFT_CARD_MAX_CENTS, { error: GIFT_CARD_SCHEMA_MESSAGES.maxTooHigh }),
      validityMonths: z
        .number({ error: 'Indiquez un nombre de mois.' })
        .int({ error: 'Une validité s’exprime en mois entiers.' })
        .min(1, { error: GIFT_CARD_SCHEMA_MESSAGES.monthsRange })
        .max(GIFT_CARD_MAX_MONTHS, { error: GIFT_CARD_SCHEMA_MESSAGES.monthsRange }),
    })
    .refine((g) => g.maxPrice >= g.minPrice, {
      error: GIFT_CARD_SCHEMA_MESSAGES.maxBelowMin,
      path: ['maxPrice'],
    })
    .default(DEFAULT_GIFT_CARDS),
  lastUpdated: z.iso.datetime({ offset: true, error: 'Date de mise à jour invalide.' }),
});

// The schema and the TypeScript type describe the same document.
type Parsed = z.infer<typeof priceListDocumentSchema>;
const _sameShape: (p: Parsed) => PriceListDocument = (p) => p;
void _sameShape;

export type PriceListIssue = { path: string; message: string };

export type PriceListParseResult = { ok: true; document: PriceListDocument } | { ok: false; issues: PriceListIssue[] };

export function parsePriceListDocument(value: unknown): PriceListParseResult {
  const result = priceListDocumentSchema.safeParse(value);
  if (result.success) return { ok: true, document: result.data };
  return {
    ok: false,
    issues: result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  };
}
