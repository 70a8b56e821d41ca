import { formatEurosFromCents, NBSP, NNBSP } from '../format';
import type { PriceListDocument, SupportType } from '../pricing/default-price-list';
import type { ServiceCatalogueEntry } from '../services';

/*
 * The price line of a service, read from the active price list (integer cents). The content
 * layer's fallback prices are used only when no price list could
 * be read at all; restoration and the memory box have their own wording.
 */

export const PRICE_ON_REQUEST = 'Prix sur demande';
export const CUSTOM_QUOTE = 'Devis sur mesure';

/** The content layer's fallback prices, in cents (docs/content.md, « Prices on the pages »). */
export const FALLBACK_PRICES_CENTS: Readonly<Partial<Record<SupportType, number>>> = {
  photos: 35,
  slides: 45,
  negatives: 40,
  vhs: 1800,
  'plaques-de-verre': 250,
  minidv: 1700,
  // A small film reel.
  film: 1500,
};
export const FALLBACK_RESTORATION_CENTS = 1000;

export interface ServicePrice {
  /** The amount the line is built on, in cents, or null when there is none. */
  cents: number | null;
  /** The whole line, e.g. "À partir de 0,35 € par photo". */
  label: string;
  /** The amount alone, e.g. "0,35 €". */
  amount: string | null;
  /** What one unit is: "photo", "cassette", "bobine"... */
  unit: string | null;
}

function validCents(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function line(cents: number, unit: string, from: boolean): ServicePrice {
  const amount = formatEurosFromCents(cents);
  return { cents, amount, unit, label: `${from ? 'À partir de ' : ''}${amount} par ${unit}` };
}

const onRequest: ServicePrice = { cents: null, amount: null, unit: null, label: PRICE_ON_REQUEST };

/** The lowest reel price of the list, in cents. */
export function lowestReelCents(priceList: PriceListDocument): number | null {
  const prices = Object.values(priceList.filmReelPricing ?? {})
    .map((reel) => reel?.price)
    .filter(validCents);
  return prices.length > 0 ? Math.min(...prices) : null;
}

export function servicePrice(
  service: Pick<ServiceCatalogueEntry, 'pricing' | 'support'>,
  priceList: PriceListDocument | null,
): ServicePrice {
  if (service.pricing === 'quote') return { cents: null, amount: null, unit: null, label: CUSTOM_QUOTE };

  if (service.pricing === 'restoration') {
    const cents = priceList ? priceList.restorationPrice : FALLBACK_RESTORATION_CENTS;
    return validCents(cents) ? line(cents, 'photo restaurée', true) : onRequest;
  }

  if (service.pricing === 'reel') {
    const cents = priceList ? lowestReelCents(priceList) : (FALLBACK_PRICES_CENTS.film ?? null);
    return cents === null ? onRequest : line(cents, 'bobine', true);
  }

  if (!service.support) return onRequest;
  if (!priceList) {
    const cents = FALLBACK_PRICES_CENTS[service.support];
    return cents === undefined ? onRequest : line(cents, unitOf(service.support, null), true);
  }
  const support = priceList.supports?.[service.support];
  if (!support || !validCents(support.basePrice) || support.basePrice === 0) return onRequest;
  // Image supports cost more in higher resolutions or TIFF: the base price is a starting price.
  const hasOptions = IMAGE_SUPPORTS_WITH_OPTIONS.has(service.support);
  return line(support.basePrice, unitOf(service.support, priceList), hasOptions);
}

const IMAGE_SUPPORTS_WITH_OPTIONS = new Set<SupportType>([
  'photos',
  'slides',
  'ektachromes',
  'negatives',
  'plaques-de-verre',
  'documents',
  'journaux',
  // Tapes: the base price is for one tape; denoising and premium quality come on top.
  'vhs',
  'vhs-c',
  'minidv',
]);

const DEFAULT_UNITS: Record<SupportType, string> = {
  photos: 'photo',
  slides: 'diapositive',
  ektachromes: 'ektachrome',
  negatives: 'négatif',
  'plaques-de-verre': 'plaque',
  vhs: 'cassette',
  'vhs-c': 'cassette',
  minidv: 'cassette',
  film: 'bobine',
  documents: 'page',
  journaux: 'page',
};

function unitOf(support: SupportType, priceList: PriceListDocument | null): string {
  const unit = priceList?.supports?.[support]?.unit;
  return typeof unit === 'string' && unit.trim() !== '' ? unit.trim() : DEFAULT_UNITS[support];
}

/** `1.2` -> `+20 %`; `1` -> `inclus`. */
export function multiplierLabel(multiplier: number): string {
  if (!Number.isFinite(multiplier) || multiplier <= 1) return 'inclus';
  return `+${Math.round((multiplier - 1) * 100)}${NNBSP}%`;
}

export interface PriceOption {
  label: string;
  value: string;
}

export interface PriceOptionGroup {
  title: string;
  options: PriceOption[];
}

const RESOLUTION_LABELS: Record<string, string> = {
  '2400dpi': `2400${NBSP}dpi`,
  '3600dpi': `3600${NBSP}dpi`,
  '4800dpi': `4800${NBSP}dpi`,
};

/** The options that change the price of a service, for the price box of its page. */
export function priceOptionGroups(
  service: Pick<ServiceCatalogueEntry, 'pricing' | 'support'>,
  priceList: PriceListDocument | null,
): PriceOptionGroup[] {
  if (!priceList) return [];
  const groups: PriceOptionGroup[] = [];
  if (service.pricing === 'reel') {
    groups.push({
      title: 'Prix par bobine',
      options: Object.values(priceList.filmReelPricing ?? {})
        .filter((reel) => reel && validCents(reel.price))
        .map((reel) => ({ label: reel.description, value: formatEurosFromCents(reel.price) })),
    });
  }
  const support = service.support;
  const isImage = support !== null && !['vhs', 'vhs-c', 'minidv', 'film'].includes(support);
  if (isImage && service.pricing === 'unit') {
    groups.push({
      title: 'Résolution',
      options: Object.entries(priceList.resolutionMultipliers ?? {}).map(([key, multiplier]) => ({
        label: RESOLUTION_LABELS[key] ?? key,
        value: multiplierLabel(multiplier),
      })),
    });
    groups.push({
      title: 'Format des fichiers',
      options: Object.values(priceList.formatOptions ?? {}).map((option) => ({
        label: option.label,
        value: multiplierLabel(option.multiplier),
      })),
    });
  }
  if (service.pricing === 'unit' || service.pricing === 'reel') {
    const premium = priceList.qualityOptions?.premium;
    if (premium) {
      groups.push({
        title: 'Qualité',
        options: [
          { label: priceList.qualityOptions.standard?.label ?? 'Standard', value: 'inclus' },
          { label: premium.label, value: multiplierLabel(premium.multiplier) },
        ],
      });
    }
  }
  if (support && ['vhs', 'vhs-c', 'minidv', 'film'].includes(support) && validCents(priceList.denoisePrice)) {
    groups.push({
      title: 'En option',
      options: [
        {
          label: support === 'film' ? 'Réduction du bruit, par bobine' : 'Réduction du bruit, par cassette',
          value: `+${formatEurosFromCents(priceList.denoisePrice)}`,
        },
      ],
    });
  }
  if (isImage && validCents(priceList.restorationPrice)) {
    groups.push({
      title: 'En option',
      options: [{ label: 'Restauration, par image', value: `+${formatEurosFromCents(priceList.restorationPrice)}` }],
    });
  }
  return mergeSameTitles(groups);
}

function mergeSameTitles(groups: PriceOptionGroup[]): PriceOptionGroup[] {
  const merged: PriceOptionGroup[] = [];
  for (const group of groups) {
    const existing = merged.find((g) => g.title === group.title);
    if (existing) existing.options.push(...group.options);
    else merged.push({ title: group.title, options: [...group.options] });
  }
  return merged.filter((g) => g.options.length > 0);
}

/** Price of the delivery methods of the files, for the pages that present them. */
export function deliveryPrices(priceList: PriceListDocument | null): { id: string; label: string; price: string }[] {
  const costs = priceList?.deliveryCosts;
  const value = (cents: unknown) =>
    validCents(cents) ? (cents === 0 ? 'Inclus' : formatEurosFromCents(cents)) : PRICE_ON_REQUEST;
  return [
    { id: 'digital', label: 'Téléchargement sécurisé', price: value(costs?.digital) },
    { id: 'usb', label: 'Clé USB', price: value(costs?.usb) },
    { id: 'disc', label: 'DVD', price: value(costs?.disc) },
  ];
}

/** Replaces `{{prix:photos}}`-style placeholders of a content body with live prices. */
export function fillPricePlaceholders(text: string, priceList: PriceListDocument | null): string {
  return text.replace(/\{\{\s*prix:([\w-]+)\s*\}\}/g, (_match, key: string) => {
    const cents = priceList ? placeholderCents(priceList, key) : undefined;
    return validCents(cents) ? formatEurosFromCents(cents) : PRICE_ON_REQUEST;
  });
}

const REEL_PLACEHOLDERS: Readonly<Record<string, 'small' | 'medium' | 'large'>> = {
  'bobine-petite': 'small',
  'bobine-moyenne': 'medium',
  'bobine-grande': 'large',
};

/** The price a placeholder names, as the list holds it (checked by the caller); a support's only when above 0. */
function placeholderCents(priceList: PriceListDocument, key: string): unknown {
  switch (key) {
    case 'restauration':
      return priceList.restorationPrice;
    case 'debruitage':
      return priceList.denoisePrice;
    case 'bobine-petite':
    case 'bobine-moyenne':
    case 'bobine-grande':
      return priceList.filmReelPricing?.[REEL_PLACEHOLDERS[key]!]?.price;
    case 'usb':
    case 'disc':
    case 'digital':
      return priceList.deliveryCosts?.[key];
    case 'envoi':
      return priceList.sendingLabelPrice;
    case 'retour':
      return priceList.returnShippingPrice;
    default: {
      const cents = priceList.supports?.[key as SupportType]?.basePrice;
      return validCents(cents) && cents > 0 ? cents : undefined;
    }
  }
}
