import {
  DELIVERY_METHODS,
  FORMATS,
  type PriceListDocument,
  QUALITIES,
  REEL_SIZES,
  RESOLUTIONS,
  SUPPORT_TYPES,
} from '../pricing/default-price-list';

/*
 * The Tarifs tab's form (specification 001, section 2): sub-tabs Supports, Bobines, Résolution,
 * Format, Livraison, plus ours for the entries DESIGN.md adds (quality, restoration, denoising,
 * shipping of the originals). Amounts are typed in euros (min 0, step 0.01), multipliers as
 * coefficients (min 1, step 0.01). A non-numeric entry is ignored: the field keeps its value.
 * The price list stores cents; conversion happens here, both ways.
 */

export type PriceFieldKind = 'euros' | 'multiplier';

export interface PriceField {
  /** The form field's name, also its path in the document (`supports.photos.basePrice`). */
  name: string;
  label: string;
  kind: PriceFieldKind;
  /** What one unit is, shown after the field ("par photo", "× prix"). */
  suffix: string;
}

export interface PriceTab {
  id: 'supports' | 'bobines' | 'resolution' | 'format' | 'livraison' | 'options';
  label: string;
  description: string;
  fields: PriceField[];
}

export const MIN_EUROS = 0;
export const MIN_MULTIPLIER = 1;
export const PRICE_STEP = 0.01;

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

function setPath(document: Record<string, unknown>, path: string, next: number): void {
  const keys = path.split('.');
  let target = document;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[keys[keys.length - 1] as string] = next;
}

/** `"12,50"`, `"12.5"`, `" 12 "` -> 12.5; anything else (empty, letters, `1e3`, `Infinity`) -> null. */
export function parseDecimal(text: string): number | null {
  const normalised = text.trim().replace(/\s/g, '').replace(',', '.');
  if (!/^-?\d+(\.\d+)?$|^-?\.\d+$/.test(normalised)) return null;
  const value = Number(normalised);
  return Number.isFinite(value) ? value : null;
}

/** The field's value as the form shows it: euros with 2 decimals (`12.50`), a coefficient as it is. */
export function fieldValue(list: PriceListDocument, field: PriceField): string {
  const value = Number(getPath(list, field.name));
  if (!Number.isFinite(value)) return '';
  return field.kind === 'euros' ? (value / 100).toFixed(2) : String(value);
}

export interface PriceFormResult {
  document: PriceListDocument;
  /** Fields whose entry was not a number: they kept their value. */
  ignored: string[];
  /** Fields below their minimum, with the message. */
  errors: Record<string, string>;
}

export const PRICE_FORM_MESSAGES = {
  eurosMin: 'Un montant ne peut pas être négatif',
  multiplierMin: 'Un coefficient vaut au moins 1',
} as const;

/**
 * A copy of `current` with the form's values: euros to cents (rounded to the cent), coefficients
 * to 4 decimals; non-numeric entries ignored; values below the minimum reported.
 */
export function applyPriceForm(current: PriceListDocument, entries: Record<string, string>): PriceFormResult {
  const document = structuredClone(current) as unknown as Record<string, unknown>;
  const ignored: string[] = [];
  const errors: Record<string, string> = {};
  for (const tab of priceTabs(current)) {
    for (const field of tab.fields) {
      const raw = entries[field.name];
      if (raw === undefined) continue;
      const value = parseDecimal(raw);
      if (value === null) {
        if (raw.trim() !== '') ignored.push(field.name);
        continue;
      }
      if (field.kind === 'euros') {
        if (value < MIN_EUROS) {
          errors[field.name] = PRICE_FORM_MESSAGES.eurosMin;
          continue;
        }
        setPath(document, field.name, Math.round(value * 100));
      } else {
        if (value < MIN_MULTIPLIER) {
          errors[field.name] = PRICE_FORM_MESSAGES.multiplierMin;
          continue;
        }
        setPath(document, field.name, Math.round(value * 10_000) / 10_000);
      }
    }
  }
  return { document: document as unknown as PriceListDocument, ignored, errors };
}

/** What the browser keeps of a typed entry: digits and one decimal separator; anything else is ignored. */
export function sanitiseEntry(previous: string, next: string): string {
  if (next === '') return next;
  return /^\d*([.,]\d{0,4})?$/.test(next) ? next : previous;
}
