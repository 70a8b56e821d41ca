/*
 * The default price list: the base pricingData constants plus
 * the entries we added (quality, restoration, denoise, shipping of originals),
 * whose defaults are explained in docs/pricing.md. It is the document stored as version 1 of
 * `price_lists` on first start and by `npm run seed`; the back office then edits copies of it
 * (new versions), so code must read prices from the active price list, never from this constant.
 *
 * Every amount is an integer number of euro cents (money is in cents: docs/architecture.md); the base list's
 * field names are kept (basePrice, price, deliveryCosts) so that the document reads like its
 * pricingData, but their values are cents, not euros.
 */

export const SUPPORT_TYPES = [
  'photos',
  'slides',
  'ektachromes',
  'negatives',
  'plaques-de-verre',
  'vhs',
  'vhs-c',
  'minidv',
  'film',
  'documents',
  'journaux',
] as const;
export type SupportType = (typeof SUPPORT_TYPES)[number];

export const REEL_SIZES = ['small', 'medium', 'large'] as const;
export type ReelSize = (typeof REEL_SIZES)[number];

export const RESOLUTIONS = ['2400dpi', '3600dpi', '4800dpi'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

export const FORMATS = ['jpeg', 'tif'] as const;
export type Format = (typeof FORMATS)[number];

export const QUALITIES = ['standard', 'premium'] as const;
export type Quality = (typeof QUALITIES)[number];

export const DELIVERY_METHODS = ['digital', 'usb', 'disc'] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

/** Supports that are scanned: resolution and format apply to them only (docs/pricing.md). */
export const IMAGE_SUPPORTS: readonly SupportType[] = [
  'photos',
  'slides',
  'ektachromes',
  'negatives',
  'plaques-de-verre',
  'documents',
  'journaux',
];

/** Tapes and film reels: the supports that denoising applies to, priced per tape or reel. */
export const TAPE_OR_REEL_SUPPORTS: readonly SupportType[] = ['vhs', 'vhs-c', 'minidv', 'film'];

/** How the originals reach the workshop: sent by the customer, or with our prepaid label. */
export const SEND_METHODS = ['self', 'label'] as const;
export type SendMethod = (typeof SEND_METHODS)[number];

export interface SupportPricing {
  /** Price of one unit in cents (0 for film, priced by reel). */
  basePrice: number;
  title: string;
  /** What one unit is, in French: "photo", "cassette", "page"... */
  unit: string;
  /** A lucide-react icon name. */
  icon: string;
}

export interface ReelPricing {
  diameter: string;
  /** Price of one reel in cents. */
  price: number;
  description: string;
}

export interface MultiplierOption {
  label: string;
  multiplier: number;
}

export interface PriceListDocument {
  supports: Record<SupportType, SupportPricing>;
  filmReelPricing: Record<ReelSize, ReelPricing>;
  resolutionMultipliers: Record<Resolution, number>;
  formatOptions: Record<Format, MultiplierOption>;
  /** Cost of each delivery method of the digitised files, in cents. */
  deliveryCosts: Record<DeliveryMethod, number>;
  /** Ours: the quality field had no price. */
  qualityOptions: Record<Quality, MultiplierOption>;
  /** Ours: price of one restored item, in cents. */
  restorationPrice: number;
  /** Ours: price of denoising one tape or reel, in cents. */
  denoisePrice: number;
  /** Ours: prepaid label to send the originals to the workshop, in cents. */
  sendingLabelPrice: number;
  /** Ours: return of the originals to the customer, in cents. */
  returnShippingPrice: number;
  /**
   * Ours: the promised turnaround, counted in working days from the reception of the originals
   * (the due date of the workshop board), and the express option's price per order, in cents.
   */
  turnaround: { standardDays: number; expressDays: number; expressPrice: number };
  /**
   * Ours: the ad valorem insurance of the return parcel: a price per started 100 € of declared
   * value, in cents, up to a maximum declared value in cents (Colissimo's ceiling).
   */
  insurance: { per100EurosPrice: number; maxValue: number };
  /**
   * Ours (decision 029): extra copies of delivered files ordered from the gallery, in
   * cents: one USB key, one DVD, and the shipping of one parcel of copies (per order).
   */
  extraCopies: { usbPrice: number; discPrice: number; shippingPrice: number };
  /** Ours: « Prolonger d’un an » the retention of an order's delivered files, in cents. */
  retentionExtension: { yearPrice: number };
  /**
   * Ours (decision 030): for the supports flagged here the customer
   * reviews the scans online for `reviewDays` days after the files are published for review and
   * drops up to `maxDropPercent` % of them; the dropped items are not charged (refunded with a
   * credit note). Lists published before this entry existed are read with no support flagged.
   */
  previewAndKeep: PreviewAndKeep;
  /**
   * Ours (decision 037): the amounts a gift card may be bought for, in cents, and how many months
   * it stays valid from its issue (stated on the card, its e-mail and the terms of sale).
   */
  giftCards: { minPrice: number; maxPrice: number; validityMonths: number };
  /** ISO 8601 date of the last change. */
  lastUpdated: string;
}

/** What a price list stored before the turnaround and insurance entries existed is read with. */
export const DEFAULT_TURNAROUND: PriceListDocument['turnaround'] = {
  standardDays: 15,
  expressDays: 2,
  expressPrice: 2900,
};
export const DEFAULT_INSURANCE: PriceListDocument['insurance'] = { per100EurosPrice: 120, maxValue: 500_000 };
/** What a price list stored before the extra copies and the paid retention existed is read with. */
export const DEFAULT_EXTRA_COPIES: PriceListDocument['extraCopies'] = {
  usbPrice: 1590,
  discPrice: 1290,
  shippingPrice: 690,
};
export const DEFAULT_RETENTION_EXTENSION: PriceListDocument['retentionExtension'] = { yearPrice: 1200 };
/** What a price list stored before gift cards existed is read with. */
export const DEFAULT_GIFT_CARDS: PriceListDocument['giftCards'] = {
  minPrice: 2000,
  maxPrice: 50_000,
  validityMonths: 12,
};

export interface PreviewAndKeep {
  /** Whether each support's scans are reviewed by the customer before delivery. */
  supports: Record<SupportType, boolean>;
  /** Calendar days the customer has to choose, from the publication for review. */
  reviewDays: number;
  /** The most the customer may drop, in whole percent of the files under review. */
  maxDropPercent: number;
}

const noSupport = Object.fromEntries(SUPPORT_TYPES.map((type) => [type, false])) as Record<SupportType, boolean>;

/** What a price list stored before the preview-and-keep entry existed is read with: nothing reviewed. */
export const DEFAULT_PREVIEW_AND_KEEP_OFF: PreviewAndKeep = { supports: noSupport, reviewDays: 14, maxDropPercent: 20 };

/** The new lists' default: slides and negatives are reviewed, as ScanCafe does (docs/pricing.md). */
export const DEFAULT_PREVIEW_AND_KEEP: PreviewAndKeep = {
  supports: { ...noSupport, slides: true, negatives: true },
  reviewDays: 14,
  maxDropPercent: 20,
};

export const DEFAULT_PRICE_LIST: PriceListDocument = {
  supports: {
    photos: { basePrice: 35, title: 'Photos papier', unit: 'photo', icon: 'image' },
    slides: { basePrice: 45, title: 'Diapositives', unit: 'diapositive', icon: 'gallery-horizontal' },
    ektachromes: { basePrice: 50, title: 'Ektachromes', unit: 'ektachrome', icon: 'aperture' },
    negatives: { basePrice: 40, title: 'Négatifs', unit: 'négatif', icon: 'film' },
    'plaques-de-verre': { basePrice: 250, title: 'Plaques de verre', unit: 'plaque', icon: 'square' },
    vhs: { basePrice: 1700, title: 'Cassettes VHS', unit: 'cassette', icon: 'video' },
    'vhs-c': { basePrice: 1700, title: 'Cassettes VHS-C', unit: 'cassette', icon: 'video' },
    minidv: { basePrice: 1700, title: 'Cassettes MiniDV', unit: 'cassette', icon: 'cassette-tape' },
    film: { basePrice: 0, title: 'Films Super 8 et 16 mm', unit: 'bobine', icon: 'clapperboard' },
    documents: { basePrice: 20, title: 'Documents', unit: 'page', icon: 'file-text' },
    journaux: { basePrice: 37, title: 'Journaux', unit: 'page', icon: 'newspaper' },
  },
  filmReelPricing: {
    small: { diameter: '≤ 7 cm', price: 1500, description: 'Petite bobine (jusqu’à 7 cm)' },
    medium: { diameter: '7 à 13 cm', price: 2500, description: 'Bobine moyenne (de 7 à 13 cm)' },
    large: { diameter: '> 13 cm', price: 3500, description: 'Grande bobine (plus de 13 cm)' },
  },
  resolutionMultipliers: { '2400dpi': 1, '3600dpi': 1.2, '4800dpi': 1.45 },
  formatOptions: {
    jpeg: { label: 'JPEG', multiplier: 1 },
    tif: { label: 'TIFF', multiplier: 1.15 },
  },
  deliveryCosts: { digital: 0, usb: 1590, disc: 1290 },
  qualityOptions: {
    standard: { label: 'Standard', multiplier: 1 },
    premium: { label: 'Premium', multiplier: 1.3 },
  },
  restorationPrice: 1000,
  denoisePrice: 500,
  sendingLabelPrice: 990,
  returnShippingPrice: 1290,
  turnaround: DEFAULT_TURNAROUND,
  insurance: DEFAULT_INSURANCE,
  extraCopies: DEFAULT_EXTRA_COPIES,
  retentionExtension: DEFAULT_RETENTION_EXTENSION,
  previewAndKeep: DEFAULT_PREVIEW_AND_KEEP,
  giftCards: DEFAULT_GIFT_CARDS,
  lastUpdated: '2026-11-21T00:00:00.000Z',
};
