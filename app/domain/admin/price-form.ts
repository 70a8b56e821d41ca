import { z } from 'zod';
import '../zod-config';
import { formatEurosFromCents, NBSP, NNBSP } from '../format';
import {
  DELIVERY_METHODS,
  FORMATS,
  type PriceListDocument,
  QUALITIES,
  REEL_SIZES,
  RESOLUTIONS,
  SUPPORT_TYPES,
} from '../pricing/default-price-list';
import {
  GIFT_CARD_MAX_CENTS,
  GIFT_CARD_MAX_MONTHS,
  GIFT_CARD_MIN_CENTS,
  MAX_AMOUNT_CENTS,
  MAX_MULTIPLIER_VALUE,
  MAX_TURNAROUND_DAYS,
} from '../pricing/price-list-schema';

/*
 * The Tarifs tab's form: sub-tabs Supports, Bobines, Résolution,
 * Format, Livraison, plus ours for the entries added to the base list (quality, restoration, denoising,
 * shipping of the originals, …, and the gift cards' bounds and validity, decision 037). Amounts are typed in euros (min 0, to the cent), multipliers as
 * coefficients (min 1, four decimals at most), with a decimal comma or a point: « 0,39 » and
 * « 0.39 » are the same price. Anything else is refused with a French message on its field, and
 * nothing is published: a price typed wrong must never reach the site (« 0,39 » once became 39 €).
 * The price list stores cents; conversion happens here, both ways.
 *
 * Publishing goes through a summary of the changes and a confirmation, a second one when an entry
 * changes beyond ×3 or ÷3 (decidePriceUpdate): the browser shows them, the server checks them.
 */

/**
 * Euros (stored in cents), a coefficient, a turnaround in working days, a whole percentage, a
 * yes/no flag (stored as a boolean, shown as a « Oui / Non » choice), or a gift card's validity in
 * whole months.
 */
export type PriceFieldKind = 'euros' | 'multiplier' | 'days' | 'percent' | 'flag' | 'months';

export interface PriceField {
  /** The form field's name, also its path in the document (`supports.photos.basePrice`). */
  name: string;
  label: string;
  kind: PriceFieldKind;
  /** What one unit is, shown after the field ("par photo", "× prix"). */
  suffix: string;
}

export interface PriceTab {
  id:
    | 'supports'
    | 'bobines'
    | 'resolution'
    | 'format'
    | 'livraison'
    | 'options'
    | 'delais'
    | 'copies'
    | 'selection'
    | 'cartes-cadeaux';
  label: string;
  description: string;
  fields: PriceField[];
}

export const MIN_EUROS = 0;
export const MIN_MULTIPLIER = 1;

/** The sub-tabs and their fields, titled from the current document (support titles, reel descriptions). */
export function priceTabs(list: PriceListDocument): PriceTab[] {
  return [
    {
      id: 'supports',
      label: 'Supports',
      description: 'Prix unitaire de numérisation de chaque support (les films sont facturés à la bobine).',
      fields: SUPPORT_TYPES.map((type) => ({
        name: `supports.${type}.basePrice`,
        label: list.supports[type].title,
        kind: 'euros',
        suffix: `par ${list.supports[type].unit}`,
      })),
    },
    {
      id: 'bobines',
      label: 'Bobines',
      description: 'Prix des films Super 8 et 16 mm selon le diamètre de la bobine.',
      fields: REEL_SIZES.map((size) => ({
        name: `filmReelPricing.${size}.price`,
        label: list.filmReelPricing[size].description,
        kind: 'euros',
        suffix: 'par bobine',
      })),
    },
    {
      id: 'resolution',
      label: 'Résolution',
      description: 'Coefficient appliqué au prix des supports numérisés selon la résolution choisie.',
      fields: RESOLUTIONS.map((resolution) => ({
        name: `resolutionMultipliers.${resolution}`,
        label: resolution.replace('dpi', '\u00A0dpi'),
        kind: 'multiplier',
        suffix: '× prix',
      })),
    },
    {
      id: 'format',
      label: 'Format',
      description: 'Coefficient appliqué selon le format des fichiers livrés.',
      fields: FORMATS.map((format) => ({
        name: `formatOptions.${format}.multiplier`,
        label: list.formatOptions[format].label,
        kind: 'multiplier',
        suffix: '× prix',
      })),
    },
    {
      id: 'livraison',
      label: 'Livraison',
      description: 'Coût de chaque mode de livraison des fichiers numérisés.',
      fields: DELIVERY_METHODS.map((method) => ({
        name: `deliveryCosts.${method}`,
        label: { digital: 'Téléchargement sécurisé', usb: 'Clé USB', disc: 'DVD' }[method],
        kind: 'euros',
        suffix: 'par commande',
      })),
    },
    {
      id: 'options',
      label: 'Options et envois',
      description: 'Qualité, restauration, débruitage, envoi et retour des originaux.',
      fields: [
        ...QUALITIES.map(
          (quality): PriceField => ({
            name: `qualityOptions.${quality}.multiplier`,
            label: `Qualité ${list.qualityOptions[quality].label.toLowerCase()}`,
            kind: 'multiplier',
            suffix: '× prix',
          }),
        ),
        { name: 'restorationPrice', label: 'Restauration', kind: 'euros', suffix: 'par élément restauré' },
        { name: 'denoisePrice', label: 'Débruitage', kind: 'euros', suffix: 'par cassette ou bobine' },
        { name: 'sendingLabelPrice', label: 'Étiquette d’envoi prépayée', kind: 'euros', suffix: 'par commande' },
        { name: 'returnShippingPrice', label: 'Retour des originaux', kind: 'euros', suffix: 'par commande' },
      ],
    },
    {
      id: 'delais',
      label: 'Délais et assurance',
      description:
        'Délais promis après la réception des originaux (en jours ouvrés), prix du traitement express, assurance du colis retour.',
      fields: [
        { name: 'turnaround.standardDays', label: 'Délai standard', kind: 'days', suffix: 'jours ouvrés' },
        { name: 'turnaround.expressDays', label: 'Délai express', kind: 'days', suffix: 'jours ouvrés' },
        { name: 'turnaround.expressPrice', label: 'Traitement express', kind: 'euros', suffix: 'par commande' },
        {
          name: 'insurance.per100EurosPrice',
          label: 'Assurance du retour',
          kind: 'euros',
          suffix: 'par tranche de 100 € assurés',
        },
        { name: 'insurance.maxValue', label: 'Valeur assurable maximale', kind: 'euros', suffix: 'au plus' },
      ],
    },
    {
      id: 'copies',
      label: 'Copies et conservation',
      description:
        'Copies supplémentaires des fichiers livrés, commandées depuis la galerie, et prolongation payante de leur conservation.',
      fields: [
        { name: 'extraCopies.usbPrice', label: 'Copie sur clé USB', kind: 'euros', suffix: 'par clé' },
        { name: 'extraCopies.discPrice', label: 'Copie sur DVD', kind: 'euros', suffix: 'par DVD' },
        { name: 'extraCopies.shippingPrice', label: 'Envoi des copies', kind: 'euros', suffix: 'par commande' },
        {
          name: 'retentionExtension.yearPrice',
          label: 'Prolonger la conservation d’un an',
          kind: 'euros',
          suffix: 'par commande',
        },
      ],
    },
    {
      id: 'selection',
      label: 'Sélection client',
      description:
        'Supports dont le client choisit en ligne les fichiers qu’il garde avant la livraison (les éléments retirés lui sont remboursés), délai de sélection et part qu’il peut retirer.',
      fields: [
        ...SUPPORT_TYPES.map(
          (type): PriceField => ({
            name: `previewAndKeep.supports.${type}`,
            label: list.supports[type].title,
            kind: 'flag',
            suffix: 'sélection par le client',
          }),
        ),
        { name: 'previewAndKeep.reviewDays', label: 'Délai de sélection', kind: 'days', suffix: 'jours' },
        {
          name: 'previewAndKeep.maxDropPercent',
          label: 'Part retirable',
          kind: 'percent',
          suffix: '% des fichiers au plus',
        },
      ],
    },
    {
      id: 'cartes-cadeaux',
      label: 'Cartes cadeaux',
      description:
        'Montants entre lesquels le client choisit celui d’une carte cadeau (page « Offrir une carte cadeau »), et durée de validité d’une carte à partir de son émission.',
      fields: [
        { name: 'giftCards.minPrice', label: 'Montant minimal', kind: 'euros', suffix: 'par carte' },
        { name: 'giftCards.maxPrice', label: 'Montant maximal', kind: 'euros', suffix: 'par carte' },
        { name: 'giftCards.validityMonths', label: 'Validité', kind: 'months', suffix: 'mois après l’émission' },
      ],
    },
  ];
}

function getPath(document: unknown, path: string): unknown {
  let value: unknown = document;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function setPath(document: Record<string, unknown>, path: string, next: unknown): void {
  const keys = path.split('.');
  let target = document;
  for (const key of keys.slice(0, -1)) {
    target[key] ??= {};
    target = target[key] as Record<string, unknown>;
  }
  target[keys[keys.length - 1] as string] = next;
}

/** The field's value as the form shows it, the French way: euros with 2 decimals (`12,50`), a coefficient as it is (`1,45`). */
export function fieldValue(list: PriceListDocument, field: PriceField): string {
  if (field.kind === 'flag') return getPath(list, field.name) === true ? '1' : '0';
  const value = Number(getPath(list, field.name));
  if (!Number.isFinite(value)) return '';
  return (field.kind === 'euros' ? (value / 100).toFixed(2) : String(value)).replace('.', ',');
}

/** The form's entries, nested as their names say (`supports.photos.basePrice`). */
export type PriceFormEntries = { [key: string]: string | PriceFormEntries };

/** Every field's value as the form shows it (the form's default value). */
export function priceFormDefaults(list: PriceListDocument): PriceFormEntries {
  const values: PriceFormEntries = {};
  for (const field of priceTabs(list).flatMap((tab) => tab.fields))
    setPath(values, field.name, fieldValue(list, field));
  return values;
}

export const PRICE_FORM_MESSAGES = {
  eurosEmpty: 'Indiquez un montant',
  multiplierEmpty: 'Indiquez un coefficient',
  eurosNotANumber: 'Saisissez un montant en euros, par exemple 0,39',
  multiplierNotANumber: 'Saisissez un coefficient, par exemple 1,5',
  eurosMin: 'Un montant ne peut pas être négatif',
  multiplierMin: 'Un coefficient vaut au moins 1',
  eurosDecimals: 'Un montant a au plus deux décimales (les centimes)',
  multiplierDecimals: 'Un coefficient a au plus quatre décimales',
  eurosMax: `Un montant vaut au plus ${formatEurosFromCents(MAX_AMOUNT_CENTS)}`,
  multiplierMax: `Un coefficient vaut au plus ${MAX_MULTIPLIER_VALUE}`,
  daysNotANumber: 'Saisissez un nombre entier de jours, par exemple 10',
  daysRange: `Un délai compte de 1 à ${MAX_TURNAROUND_DAYS}${NBSP}jours ouvrés`,
  percentNotANumber: 'Saisissez un pourcentage entier, par exemple 20',
  percentRange: `Un pourcentage va de 0 à 100`,
  flag: 'Choisissez oui ou non',
  monthsNotANumber: 'Saisissez un nombre entier de mois, par exemple 12',
  monthsRange: `Une carte cadeau est valable de 1 à ${GIFT_CARD_MAX_MONTHS}${NBSP}mois`,
  giftCardMinTooLow: `Une carte cadeau vaut au moins ${formatEurosFromCents(GIFT_CARD_MIN_CENTS)}`,
  giftCardMaxTooHigh: `Une carte cadeau vaut au plus ${formatEurosFromCents(GIFT_CARD_MAX_CENTS)}`,
  giftCardMaxBelowMin: 'Le montant maximal doit être au moins égal au montant minimal',
  expressNotShorter: 'Le délai express doit être plus court que le délai standard',
  insuranceMaxTooLow: `La valeur assurable maximale est d’au moins ${formatEurosFromCents(10_000)}`,
  invalid: 'Veuillez corriger les prix signalés',
  unchanged: `Aucun changement${NBSP}: les tarifs saisis sont ceux en vigueur, il n’y a rien à publier.`,
  unconfirmed: `Publication non confirmée${NBSP}: vérifiez le récapitulatif des changements puis confirmez.`,
  largeUnconfirmed: `Changement important non confirmé${NBSP}: confirmez une seconde fois pour publier.`,
  resetUnconfirmed: `Réinitialisation non confirmée${NBSP}: confirmez pour revenir aux tarifs par défaut.`,
  stale: `Les tarifs ont été modifiés entre-temps${NBSP}: rechargez la page et vérifiez-les avant de publier.`,
} as const;

export type PriceEntry = { ok: true; value: number } | { ok: false; error: string };

/**
 * One typed price, read the French way or the English way: `"0,39"`, `"0.39"`, `" 1 234,50 €"`.
 * Spaces (also no-break ones, as in `1 234`) are ignored, and a euro sign after an amount. The
 * value is in the document's unit: cents for euros, the coefficient for a multiplier. Anything
 * else — letters, `1,2,3`, `1e3`, negative, empty, too many decimals, beyond the list's maximum —
 * is refused with the French message the field shows.
 */
export function parsePriceEntry(text: string, kind: PriceFieldKind): PriceEntry {
  if (kind === 'days') return parseDays(text);
  if (kind === 'months') return parseMonths(text);
  if (kind === 'percent') return parsePercent(text);
  if (kind === 'flag') return parseFlag(text);
  return kind === 'euros' ? parseEuros(text) : parseMultiplier(text);
}

/** A yes/no choice: the form's select sends `1` or `0`, nothing else. */
function parseFlag(text: string): PriceEntry {
  return text === '1' || text === '0'
    ? { ok: true, value: Number(text) }
    : { ok: false, error: PRICE_FORM_MESSAGES.flag };
}

/** A decimal number with `,` or `.` and an optional sign; its decimals kept as typed to count them. */
type DecimalText = { ok: true; value: number; decimals: string } | { ok: false; empty: boolean };

function readDecimal(normalised: string): DecimalText {
  if (normalised === '') return { ok: false, empty: true };
  const match = /^([+\-−]?)(\d*)(?:[.,](\d*))?$/.exec(normalised);
  const [, sign = '', whole = '', decimals = ''] = match ?? [];
  if (!match || (whole === '' && decimals === '')) return { ok: false, empty: false };
  const value = Number(`${sign === '-' || sign === '−' ? '-' : ''}${whole || '0'}.${decimals || '0'}`);
  return { ok: true, value, decimals };
}

/** An amount in euros (a trailing `€` allowed), stored in cents. */
function parseEuros(text: string): PriceEntry {
  const number = readDecimal(text.replace(/\s/g, '').replace(/€$/, ''));
  if (!number.ok)
    return { ok: false, error: number.empty ? PRICE_FORM_MESSAGES.eurosEmpty : PRICE_FORM_MESSAGES.eurosNotANumber };
  if (number.value < MIN_EUROS) return { ok: false, error: PRICE_FORM_MESSAGES.eurosMin };
  if (number.decimals.length > 2) return { ok: false, error: PRICE_FORM_MESSAGES.eurosDecimals };
  const cents = Math.round(number.value * 100);
  if (cents > MAX_AMOUNT_CENTS) return { ok: false, error: PRICE_FORM_MESSAGES.eurosMax };
  return { ok: true, value: cents };
}

/** A coefficient (`1,45`), kept to four decimals. */
function parseMultiplier(text: string): PriceEntry {
  const number = readDecimal(text.replace(/\s/g, ''));
  if (!number.ok)
    return {
      ok: false,
      error: number.empty ? PRICE_FORM_MESSAGES.multiplierEmpty : PRICE_FORM_MESSAGES.multiplierNotANumber,
    };
  if (number.value < MIN_MULTIPLIER) return { ok: false, error: PRICE_FORM_MESSAGES.multiplierMin };
  if (number.decimals.length > 4) return { ok: false, error: PRICE_FORM_MESSAGES.multiplierDecimals };
  if (number.value > MAX_MULTIPLIER_VALUE) return { ok: false, error: PRICE_FORM_MESSAGES.multiplierMax };
  return { ok: true, value: Math.round(number.value * 10_000) / 10_000 };
}

/** A turnaround: a whole number of working days, 1 to MAX_TURNAROUND_DAYS. */
function parseDays(text: string): PriceEntry {
  const normalised = text.replace(/\s/g, '').replace(/jours?$/i, '');
  if (!/^\d+$/.test(normalised)) return { ok: false, error: PRICE_FORM_MESSAGES.daysNotANumber };
  const value = Number(normalised);
  if (value < 1 || value > MAX_TURNAROUND_DAYS) return { ok: false, error: PRICE_FORM_MESSAGES.daysRange };
  return { ok: true, value };
}

/** A gift card's validity: a whole number of months, 1 to GIFT_CARD_MAX_MONTHS (« 12 », « 12 mois »). */
function parseMonths(text: string): PriceEntry {
  const normalised = text.replace(/\s/g, '').replace(/mois$/i, '');
  if (!/^\d+$/.test(normalised)) return { ok: false, error: PRICE_FORM_MESSAGES.monthsNotANumber };
  const value = Number(normalised);
  if (value < 1 || value > GIFT_CARD_MAX_MONTHS) return { ok: false, error: PRICE_FORM_MESSAGES.monthsRange };
  return { ok: true, value };
}

/** A whole percentage, 0 to 100 (« 20 », « 20 % »). */
function parsePercent(text: string): PriceEntry {
  const normalised = text.replace(/\s/g, '').replace(/%$/, '');
  if (!/^\d+$/.test(normalised)) return { ok: false, error: PRICE_FORM_MESSAGES.percentNotANumber };
  const value = Number(normalised);
  if (value > 100) return { ok: false, error: PRICE_FORM_MESSAGES.percentRange };
  return { ok: true, value };
}

export interface PriceFormResult {
  document: PriceListDocument;
  /** Fields whose entry was refused, with the French message; the document keeps their value. */
  errors: Record<string, string>;
}

/**
 * A copy of `current` with the form's entries (parsePriceEntry). A field the form does not send
 * keeps its value; a field sent empty or wrong is an error.
 */
export function applyPriceForm(current: PriceListDocument, entries: Record<string, string>): PriceFormResult {
  const document = structuredClone(current) as unknown as Record<string, unknown>;
  const errors: Record<string, string> = {};
  for (const field of priceTabs(current).flatMap((tab) => tab.fields)) {
    const raw = entries[field.name];
    if (raw === undefined) continue;
    const entry = parsePriceEntry(raw, field.kind);
    if (entry.ok) setPath(document, field.name, field.kind === 'flag' ? entry.value === 1 : entry.value);
    else errors[field.name] = entry.error;
  }
  // The rules between entries (price-list-schema.ts), on the field the person has to change.
  const result = document as unknown as PriceListDocument;
  if (!errors['turnaround.expressDays'] && result.turnaround.expressDays >= result.turnaround.standardDays) {
    errors['turnaround.expressDays'] = PRICE_FORM_MESSAGES.expressNotShorter;
  }
  if (!errors['insurance.maxValue'] && result.insurance.maxValue < 10_000) {
    errors['insurance.maxValue'] = PRICE_FORM_MESSAGES.insuranceMaxTooLow;
  }
  const gift = result.giftCards;
  if (!errors['giftCards.minPrice'] && gift.minPrice < GIFT_CARD_MIN_CENTS) {
    errors['giftCards.minPrice'] = PRICE_FORM_MESSAGES.giftCardMinTooLow;
  }
  if (!errors['giftCards.maxPrice'] && gift.maxPrice > GIFT_CARD_MAX_CENTS) {
    errors['giftCards.maxPrice'] = PRICE_FORM_MESSAGES.giftCardMaxTooHigh;
  }
  // Compared only when both amounts were read: a refused minimum says nothing about the maximum.
  if (!errors['giftCards.minPrice'] && !errors['giftCards.maxPrice'] && gift.maxPrice < gift.minPrice) {
    errors['giftCards.maxPrice'] = PRICE_FORM_MESSAGES.giftCardMaxBelowMin;
  }
  return { document: result, errors };
}

/** Beyond this factor, up or down, a change asks for a second confirmation (a typo, most likely). */
export const LARGE_CHANGE_FACTOR = 3;

export interface PriceChange {
  name: string;
  /** The sub-tab's label (`Supports`). */
  section: string;
  /** The entry's French label (`Photos papier`). */
  label: string;
  kind: PriceFieldKind;
  /** In the document's unit: cents, or the coefficient. */
  before: number;
  after: number;
  /** `0,35 €`, `1,45`. */
  beforeText: string;
  afterText: string;
  /** `+11,4 %`, `−50 %`; from or to zero: `auparavant gratuit`, `désormais gratuit`. */
  changeText: string;
  /** Beyond ×3 or ÷3 (or from or to zero): asks for a second confirmation. */
  large: boolean;
}

const frenchNumber = (maximumFractionDigits: number) =>
  new Intl.NumberFormat('fr-FR', { maximumFractionDigits, minimumFractionDigits: 0 });
const coefficientFormat = frenchNumber(4);
const percentFormat = frenchNumber(1);
const ratioFormat = { small: frenchNumber(1), large: frenchNumber(0) };

function valueText(kind: PriceFieldKind, value: number): string {
  if (kind === 'flag') return value ? 'oui' : 'non';
  if (kind === 'percent') return `${value}${NBSP}%`;
  if (kind === 'days') return `${value}${NBSP}jour${value > 1 ? 's' : ''}`;
  if (kind === 'months') return `${value}${NBSP}mois`;
  return kind === 'euros' ? formatEurosFromCents(value) : coefficientFormat.format(value);
}

/** `+11,4 %` (U+00A0 before %, a true minus sign U+2212 when it goes down). */
function percentText(before: number, after: number): string {
  if (before === 0) return 'auparavant gratuit';
  if (after === 0) return 'désormais gratuit';
  const percent = ((after - before) / before) * 100;
  return `${percent >= 0 ? '+' : '−'}${percentFormat.format(Math.abs(percent))}${NBSP}%`;
}

/** `×111`, `×3,4`, `÷5`. */
function ratioText(before: number, after: number): string {
  const ratio = after >= before ? after / before : before / after;
  return `${after >= before ? '×' : '÷'}${(ratio >= 10 ? ratioFormat.large : ratioFormat.small).format(ratio)}`;
}

/** Every form entry whose value differs between the two lists, in the form's order. */
export function priceChanges(current: PriceListDocument, next: PriceListDocument): PriceChange[] {
  const changes: PriceChange[] = [];
  for (const tab of priceTabs(current)) {
    for (const field of tab.fields) {
      const before = Number(getPath(current, field.name));
      const after = Number(getPath(next, field.name));
      if (before === after) continue;
      // A yes/no choice is never a typo of scale: no second confirmation.
      const large =
        field.kind === 'flag'
          ? false
          : before === 0 || after === 0
            ? true
            : after > before * LARGE_CHANGE_FACTOR || after * LARGE_CHANGE_FACTOR < before;
      changes.push({
        name: field.name,
        section: tab.label,
        label: field.label,
        kind: field.kind,
        before,
        after,
        beforeText: valueText(field.kind, before),
        afterText: valueText(field.kind, after),
        changeText: field.kind === 'flag' ? (after ? 'activé' : 'désactivé') : percentText(before, after),
        large,
      });
    }
  }
  return changes;
}

/** `Le prix « Photos papier » passe de 0,35 € à 39,00 € (×111).`: what the second confirmation names. */
export function largeChangeSentence(change: PriceChange): string {
  const what = {
    euros: 'Le prix',
    multiplier: 'Le coefficient',
    days: 'Le délai',
    percent: 'La part',
    flag: 'Le choix',
    months: 'La durée',
  }[change.kind];
  const factor = change.before === 0 || change.after === 0 ? change.changeText : ratioText(change.before, change.after);
  return `${what} «${NNBSP}${change.label}${NNBSP}» (${change.section}) passe de ${change.beforeText} à ${change.afterText} (${factor}).`;
}

/** The names of the form's confirmation fields, posted once the person confirmed in the dialog. */
export const CONFIRMATION_FIELDS = { confirmed: 'confirmed', confirmedLargeChange: 'confirmedLargeChange' } as const;

/** A valid Tarifs post: the list it describes, and what the person confirmed. */
export type PriceFormValue = {
  document: PriceListDocument;
  confirmed: boolean;
  confirmedLargeChange: boolean;
};

/**
 * The Tarifs form's schema, in the browser (before the summary) as on the server: the posted
 * entries (nested as their names say: `supports.photos.basePrice`) read over `current` by
 * applyPriceForm, each refusal on its field. Parse without Conform's coercion: an entry sent empty
 * is refused (« Indiquez un montant »), an entry not sent keeps its price.
 */
export function createPriceFormSchema(current: PriceListDocument) {
  const fields = priceTabs(current).flatMap((tab) => tab.fields);
  return z.record(z.string(), z.unknown()).transform((posted, context): PriceFormValue => {
    const entries: Record<string, string> = {};
    for (const field of fields) {
      const value = getPath(posted, field.name);
      if (typeof value === 'string') entries[field.name] = value;
    }
    const applied = applyPriceForm(current, entries);
    for (const [name, message] of Object.entries(applied.errors)) {
      context.addIssue({ code: 'custom', path: name.split('.'), message });
    }
    return {
      document: applied.document,
      confirmed: posted[CONFIRMATION_FIELDS.confirmed] === '1',
      confirmedLargeChange: posted[CONFIRMATION_FIELDS.confirmedLargeChange] === '1',
    };
  });
}

export type PriceUpdateDecision =
  | { kind: 'unchanged' }
  | { kind: 'unconfirmed'; changes: PriceChange[] }
  | { kind: 'large-unconfirmed'; changes: PriceChange[] }
  | { kind: 'publish'; document: PriceListDocument; changes: PriceChange[] };

/**
 * What a valid « Mettre à jour » post (createPriceFormSchema) leads to, on the server as in the
 * browser: no change publishes nothing, and a publication needs `confirmed=1` — plus
 * `confirmedLargeChange=1` when an entry changes beyond ×3 or ÷3. The browser shows the summary
 * before it sets them; the server checks them, so a forged or replayed post cannot skip them.
 */
export function decidePriceUpdate(current: PriceListDocument, form: PriceFormValue): PriceUpdateDecision {
  const changes = priceChanges(current, form.document);
  if (changes.length === 0) return { kind: 'unchanged' };
  if (!form.confirmed) return { kind: 'unconfirmed', changes };
  if (changes.some((c) => c.large) && !form.confirmedLargeChange) return { kind: 'large-unconfirmed', changes };
  return { kind: 'publish', document: form.document, changes };
}
