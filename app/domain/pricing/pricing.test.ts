import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatEurosFromCents } from '../format';
import {
  DEFAULT_PRICE_LIST,
  DELIVERY_METHODS,
  FORMATS,
  type PriceListDocument,
  QUALITIES,
  REEL_SIZES,
  RESOLUTIONS,
  SUPPORT_TYPES,
  type SupportType,
} from './default-price-list';
import {
  includedVatCents,
  ORDER_EXTRA_KEYS,
  PRICE_BREAKDOWN_KEYS,
  PRICE_FIELDS,
  type PriceBreakdown,
  PricingError,
  pickPriceFields,
  priceFieldsFrom,
  priceLine,
  priceOrder,
  withInsuredValue,
} from './pricing';
import { computeQuote, defaultSupportChoice, type Selection, type SupportChoice } from './selection';

const list = DEFAULT_PRICE_LIST;

/** A selection from a few overrides: supports with their defaults, digital delivery, nothing else. */
function selection(
  supports: (Partial<SupportChoice> & { type: SupportType })[],
  rest: Partial<Omit<Selection, 'supports'>> = {},
): Selection {
  return {
    supports: supports.map((s) => {
      const choice = { ...defaultSupportChoice(s.type), ...s };
      if (s.type === 'film' && s.reels) choice.quantity = s.reels.small + s.reels.medium + s.reels.large;
      return choice;
    }),
    deliveryMethod: 'digital',
    sendMethod: 'self',
    returnOriginals: false,
    ...rest,
  };
}

const reels = (small: number, medium: number, large: number) => ({ small, medium, large });

interface Case {
  name: string;
  selection: Selection;
  /** Total in euros as the page shows it. */
  total: string;
  /** Fields of the breakdown that must have these values (the others are checked to add up). */
  parts?: Partial<PriceBreakdown>;
}

const nbsp = (s: string) => s.replace(/ €/, '\u00A0€');

// Every default price (docs/pricing.md) and each of our options, one case at least.
const cases: Case[] = [
  // The published examples (docs/pricing.md).
  {
    name: '100 photos at 2400 dpi JPEG',
    selection: selection([{ type: 'photos', quantity: 100 }]),
    total: '35,00 €',
    parts: { basePriceCents: 3500, resolutionPriceCents: 0, formatPriceCents: 0 },
  },
  {
    name: '100 photos at 4800 dpi TIFF (line rounded once: 5 836,25 -> 5 836)',
    selection: selection([{ type: 'photos', quantity: 100, resolution: '4800dpi', format: 'tif' }]),
    total: '58,36 €',
    parts: { basePriceCents: 3500, resolutionPriceCents: 1575, formatPriceCents: 761 },
  },
  {
    name: '2 medium reels',
    selection: selection([{ type: 'film', reels: reels(0, 2, 0) }]),
    total: '50,00 €',
    parts: { basePriceCents: 5000 },
  },
  {
    name: '2 medium reels + USB (+15,90 €)',
    selection: selection([{ type: 'film', reels: reels(0, 2, 0) }], { deliveryMethod: 'usb' }),
    total: '65,90 €',
    parts: { basePriceCents: 5000, deliveryCostCents: 1590 },
  },
  // Base unit prices.
  { name: 'slides 0,45 €', selection: selection([{ type: 'slides', quantity: 100 }]), total: '45,00 €' },
  { name: 'ektachromes 0,50 €', selection: selection([{ type: 'ektachromes', quantity: 100 }]), total: '50,00 €' },
  { name: 'negatives 0,40 €', selection: selection([{ type: 'negatives', quantity: 100 }]), total: '40,00 €' },
  { name: 'glass plates 2,50 €', selection: selection([{ type: 'plaques-de-verre', quantity: 10 }]), total: '25,00 €' },
  { name: 'VHS 17 €', selection: selection([{ type: 'vhs', quantity: 1 }]), total: '17,00 €' },
  { name: 'VHS-C 17 €', selection: selection([{ type: 'vhs-c', quantity: 3 }]), total: '51,00 €' },
  { name: 'MiniDV 17 € (our default)', selection: selection([{ type: 'minidv', quantity: 2 }]), total: '34,00 €' },
  { name: 'documents 0,20 € per page', selection: selection([{ type: 'documents', quantity: 100 }]), total: '20,00 €' },
  { name: 'newspapers 0,37 € per page', selection: selection([{ type: 'journaux', quantity: 100 }]), total: '37,00 €' },
  { name: 'one photo', selection: selection([{ type: 'photos', quantity: 1 }]), total: '0,35 €' },
  // Film reels.
  { name: 'small reel 15 €', selection: selection([{ type: 'film', reels: reels(1, 0, 0) }]), total: '15,00 €' },
  { name: 'large reel 35 €', selection: selection([{ type: 'film', reels: reels(0, 0, 1) }]), total: '35,00 €' },
  {
    name: 'reels of every size',
    selection: selection([{ type: 'film', reels: reels(3, 2, 1) }]),
    total: '130,00 €',
    parts: { basePriceCents: 13000 },
  },
  // Resolution multipliers.
  {
    name: '3600 dpi x1,2',
    selection: selection([{ type: 'photos', quantity: 100, resolution: '3600dpi' }]),
    total: '42,00 €',
    parts: { resolutionPriceCents: 700 },
  },
  {
    name: '4800 dpi x1,45',
    selection: selection([{ type: 'slides', quantity: 100, resolution: '4800dpi' }]),
    total: '65,25 €',
    parts: { resolutionPriceCents: 2025 },
  },
  // Formats.
  {
    name: 'TIFF x1,15',
    selection: selection([{ type: 'photos', quantity: 100, format: 'tif' }]),
    total: '40,25 €',
    parts: { formatPriceCents: 525 },
  },
  {
    name: '3600 dpi TIFF',
    selection: selection([{ type: 'negatives', quantity: 50, resolution: '3600dpi', format: 'tif' }]),
    total: '27,60 €',
    parts: { basePriceCents: 2000, resolutionPriceCents: 400, formatPriceCents: 360 },
  },
  // Quality (ours: standard x1, premium x1,3), rounding half up.
  {
    name: 'premium x1,3',
    selection: selection([{ type: 'vhs', quantity: 2, quality: 'premium' }]),
    total: '44,20 €',
    parts: { basePriceCents: 3400, qualityPriceCents: 1020 },
  },
  {
    name: 'one premium photo: 45,5 cents rounds up to 46',
    selection: selection([{ type: 'photos', quantity: 1, quality: 'premium' }]),
    total: '0,46 €',
    parts: { qualityPriceCents: 11 },
  },
  {
    name: 'three premium photos: 136,5 cents -> 137',
    selection: selection([{ type: 'photos', quantity: 3, quality: 'premium' }]),
    total: '1,37 €',
  },
  {
    name: 'premium, 4800 dpi, TIFF: every supplement',
    selection: selection([{ type: 'photos', quantity: 100, quality: 'premium', resolution: '4800dpi', format: 'tif' }]),
    total: '75,87 €',
    parts: { basePriceCents: 3500, qualityPriceCents: 1050, resolutionPriceCents: 2048, formatPriceCents: 989 },
  },
  {
    name: 'premium film reels',
    selection: selection([{ type: 'film', reels: reels(1, 1, 0), quality: 'premium' }]),
    total: '52,00 €',
    parts: { basePriceCents: 4000, qualityPriceCents: 1200 },
  },
  // Restoration (ours: 10 € per restored item) and denoise (ours: 5 € per tape or reel).
  {
    name: 'restoration of 3 photos',
    selection: selection([{ type: 'photos', quantity: 100, restoration: 3 }]),
    total: '65,00 €',
    parts: { restorationPriceCents: 3000 },
  },
  {
    name: 'restoration of glass plates',
    selection: selection([{ type: 'plaques-de-verre', quantity: 4, restoration: 4 }]),
    total: '50,00 €',
    parts: { restorationPriceCents: 4000 },
  },
  {
    name: 'denoise of 2 VHS',
    selection: selection([{ type: 'vhs', quantity: 2, denoise: true }]),
    total: '44,00 €',
    parts: { denoisePriceCents: 1000 },
  },
  {
    name: 'denoise of every reel',
    selection: selection([{ type: 'film', reels: reels(0, 2, 1), denoise: true }]),
    total: '100,00 €',
    parts: { denoisePriceCents: 1500 },
  },
  {
    name: 'denoise of a MiniDV',
    selection: selection([{ type: 'minidv', quantity: 1, denoise: true }]),
    total: '22,00 €',
  },
  // Options that do not apply are ignored, whatever they say.
  {
    name: 'resolution and format on a tape do nothing',
    selection: selection([{ type: 'vhs', quantity: 1, resolution: '4800dpi', format: 'tif' }]),
    total: '17,00 €',
    parts: { resolutionPriceCents: 0, formatPriceCents: 0 },
  },
  {
    name: 'restoration on a tape does nothing',
    selection: selection([{ type: 'vhs-c', quantity: 1, restoration: 1 }]),
    total: '17,00 €',
    parts: { restorationPriceCents: 0 },
  },
  {
    name: 'denoise on photos does nothing',
    selection: selection([{ type: 'photos', quantity: 100, denoise: true }]),
    total: '35,00 €',
    parts: { denoisePriceCents: 0 },
  },
  // Delivery of the files.
  {
    name: 'digital delivery is free',
    selection: selection([{ type: 'vhs', quantity: 1 }], { deliveryMethod: 'digital' }),
    total: '17,00 €',
    parts: { deliveryCostCents: 0 },
  },
  {
    name: 'USB 15,90 €',
    selection: selection([{ type: 'vhs', quantity: 1 }], { deliveryMethod: 'usb' }),
    total: '32,90 €',
    parts: { deliveryCostCents: 1590 },
  },
  {
    name: 'disc 12,90 €',
    selection: selection([{ type: 'vhs', quantity: 1 }], { deliveryMethod: 'disc' }),
    total: '29,90 €',
    parts: { deliveryCostCents: 1290 },
  },
  // The originals (ours: prepaid sending label 9,90 €, return 12,90 €).
  {
    name: 'prepaid sending label',
    selection: selection([{ type: 'photos', quantity: 100 }], { sendMethod: 'label' }),
    total: '44,90 €',
    parts: { sendShippingCostCents: 990 },
  },
  {
    name: 'return of the originals',
    selection: selection([{ type: 'photos', quantity: 100 }], { returnOriginals: true }),
    total: '47,90 €',
    parts: { returnShippingCostCents: 1290 },
  },
  {
    name: 'everything at once',
    selection: selection(
      [
        { type: 'photos', quantity: 100, resolution: '4800dpi', format: 'tif', restoration: 2 },
        { type: 'vhs', quantity: 3, quality: 'premium', denoise: true },
        { type: 'film', reels: reels(0, 2, 0) },
      ],
      { deliveryMethod: 'usb', sendMethod: 'label', returnOriginals: true },
    ),
    // 58,36 + 20 + 66,30 + 15 + 50 + 15,90 + 9,90 + 12,90
    total: '248,36 €',
  },
  {
    name: 'the largest quantity, every multiplier',
    selection: selection([
      { type: 'photos', quantity: 100_000, quality: 'premium', resolution: '4800dpi', format: 'tif' },
    ]),
    total: '75 871,25 €',
  },
];

describe('the price of a selection', () => {
  it('has at least 30 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(cases)('$name = $total', ({ selection: chosen, total, parts }) => {
    const { lines, price } = computeQuote(list, chosen);
    expect(formatEurosFromCents(price.totalPriceCents).replace(/\u202F/g, ' ')).toBe(nbsp(total));
    if (parts) expect(price).toMatchObject(parts);
    // The fields add up exactly to the total, and the lines to the item fields.
    expect(PRICE_BREAKDOWN_KEYS.reduce((sum, key) => sum + price[key], 0)).toBe(price.totalPriceCents);
    expect(lines.reduce((sum, line) => sum + line.lineTotalCents, 0)).toBe(
      price.totalPriceCents - price.deliveryCostCents - price.sendShippingCostCents - price.returnShippingCostCents,
    );
  });
});

describe('the default price list', () => {
  it('holds the default prices, in cents', () => {
    const bases = Object.fromEntries(SUPPORT_TYPES.map((type) => [type, list.supports[type].basePrice]));
    expect(bases).toEqual({
      photos: 35,
      slides: 45,
      ektachromes: 50,
      negatives: 40,
      'plaques-de-verre': 250,
      vhs: 1700,
      'vhs-c': 1700,
      minidv: 1700,
      film: 0,
      documents: 20,
      journaux: 37,
    });
    expect(REEL_SIZES.map((size) => list.filmReelPricing[size].price)).toEqual([1500, 2500, 3500]);
    expect(RESOLUTIONS.map((r) => list.resolutionMultipliers[r])).toEqual([1, 1.2, 1.45]);
    expect(FORMATS.map((f) => list.formatOptions[f].multiplier)).toEqual([1, 1.15]);
    expect(DELIVERY_METHODS.map((d) => list.deliveryCosts[d])).toEqual([0, 1590, 1290]);
    expect(QUALITIES.map((q) => list.qualityOptions[q].multiplier)).toEqual([1, 1.3]);
    expect([list.restorationPrice, list.denoisePrice, list.sendingLabelPrice, list.returnShippingPrice]).toEqual([
      1000, 500, 990, 1290,
    ]);
  });
});

describe('a line', () => {
  const photos = {
    type: 'photos' as const,
    quantity: 100,
    quality: 'standard' as const,
    resolution: '4800dpi' as const,
    format: 'tif' as const,
    restoration: 0,
    denoise: false,
    reelSize: null,
  };

  it('has a unit price (rounded) and a line total rounded once', () => {
    const line = priceLine(list, photos);
    expect(line.unitPriceCents).toBe(58); // 58,3625 cents
    expect(line.lineTotalCents).toBe(5836);
  });

  it('reads every price from the price list it is given, not from the defaults', () => {
    const edited: PriceListDocument = structuredClone(list);
    edited.supports.photos.basePrice = 40;
    edited.resolutionMultipliers['4800dpi'] = 1.5;
    edited.formatOptions.tif.multiplier = 1.25;
    edited.qualityOptions.premium.multiplier = 1.5;
    edited.restorationPrice = 1200;
    const line = priceLine(edited, { ...photos, quality: 'premium', restoration: 1 });
    // 100 x 40 x 1.5 x 1.5 x 1.25 = 11 250, + 12 € of restoration
    expect(line.lineTotalCents).toBe(11_250 + 1200);
  });

  it.each([
    ['a quantity of zero', { ...photos, quantity: 0 }],
    ['a fractional quantity', { ...photos, quantity: 1.5 }],
    ['more restorations than items', { ...photos, restoration: 101 }],
    ['film without a reel size', { ...photos, type: 'film' as const, resolution: null, format: null }],
    ['an unknown quality', { ...photos, quality: 'luxe' as 'premium' }],
  ])('refuses %s', (_name, line) => {
    expect(() => priceLine(list, line)).toThrow(PricingError);
  });
});

describe('rounding, on any selection', () => {
  const supportArb = fc.constantFrom(...SUPPORT_TYPES);
  const choiceArb = fc
    .record({
      type: supportArb,
      quantity: fc.integer({ min: 1, max: 100_000 }),
      quality: fc.constantFrom(...QUALITIES),
      resolution: fc.constantFrom(...RESOLUTIONS),
      format: fc.constantFrom(...FORMATS),
      restorationShare: fc.double({ min: 0, max: 1, noNaN: true }),
      denoise: fc.boolean(),
      reels: fc.record({
        small: fc.integer({ min: 0, max: 30_000 }),
        medium: fc.integer({ min: 0, max: 30_000 }),
        large: fc.integer({ min: 1, max: 30_000 }),
      }),
    })
    .map(({ restorationShare, ...c }) => ({ ...c, restoration: Math.floor(c.quantity * restorationShare) }));
  const selectionArb = fc.record({
    supports: fc.uniqueArray(choiceArb, { selector: (c) => c.type, maxLength: 5 }),
    deliveryMethod: fc.constantFrom(...DELIVERY_METHODS),
    sendMethod: fc.constantFrom('self' as const, 'label' as const),
    returnOriginals: fc.boolean(),
  });

  it('gives fields that add up to the total, and each line within half a cent of its exact price', () => {
    fc.assert(
      fc.property(selectionArb, ({ supports, ...rest }) => {
        const chosen = selection(supports, rest);
        const { lines, price } = computeQuote(list, chosen);
        expect(PRICE_BREAKDOWN_KEYS.reduce((sum, key) => sum + price[key], 0)).toBe(price.totalPriceCents);
        for (const line of lines) {
          const unit =
            line.type === 'film' ? list.filmReelPricing[line.reelSize!].price : list.supports[line.type].basePrice;
          const exact =
            line.quantity *
            unit *
            list.qualityOptions[line.quality].multiplier *
            (line.resolution ? list.resolutionMultipliers[line.resolution] : 1) *
            (line.format ? list.formatOptions[line.format].multiplier : 1);
          expect(Math.abs(line.digitisationCents - exact)).toBeLessThanOrEqual(0.5 + 1e-6 * exact);
          expect(line.basePriceCents + line.qualityPriceCents + line.resolutionPriceCents + line.formatPriceCents).toBe(
            line.digitisationCents,
          );
          expect(line.digitisationCents + line.restorationPriceCents + line.denoisePriceCents).toBe(
            line.lineTotalCents,
          );
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('included VAT', () => {
  it.each([
    [12_000, 2000],
    [3500, 583],
    [1, 0],
    [0, 0],
  ])('%i cents include %i of VAT at 20 %%', (amount, vat) => {
    expect(includedVatCents(amount)).toBe(vat);
  });
});

describe('the insured value chosen at checkout', () => {
  const order = priceOrder(list, {
    lines: [
      {
        type: 'photos',
        quantity: 100,
        quality: 'standard',
        resolution: '4800dpi',
        format: 'tif',
        restoration: 0,
        denoise: false,
        reelSize: null,
      },
    ],
    deliveryMethod: 'usb',
    sendMethod: 'self',
    returnOriginals: true,
  }).price;

  it('re-prices the insurance from the list and keeps the fields adding up to the total', () => {
    const insured = withInsuredValue(list, order, 25_000);
    // 250 € declared: three started hundreds at the list's price.
    expect(insured.insurancePriceCents).toBe(3 * list.insurance.per100EurosPrice);
    expect(insured.insurancePriceCents).toBeGreaterThan(0);
    expect(insured.totalPriceCents).toBe(order.totalPriceCents + insured.insurancePriceCents);
    expect(PRICE_BREAKDOWN_KEYS.reduce((sum, key) => sum + insured[key], 0)).toBe(insured.totalPriceCents);
    expect(withInsuredValue(list, insured, 0)).toEqual(order);
  });

  it('refuses a value above the list’s ceiling', () => {
    expect(() => withInsuredValue(list, order, list.insurance.maxValue + 1)).toThrow(PricingError);
  });
});

describe('the price fields, from one list', () => {
  const { price } = priceOrder(list, {
    lines: [
      {
        type: 'photos',
        quantity: 120,
        quality: 'premium',
        resolution: '4800dpi',
        format: 'tif',
        restoration: 3,
        denoise: false,
        reelSize: null,
      },
    ],
    deliveryMethod: 'usb',
    sendMethod: 'label',
    returnOriginals: true,
    express: true,
    insuredValueCents: 25_000,
  });

  it('are the 13 fields of the breakdown with the codes’ discount, no other', () => {
    expect([...PRICE_FIELDS].sort()).toEqual(Object.keys(price).sort());
    expect(PRICE_FIELDS).toHaveLength(13);
  });

  it('are copied from an order row to the cent, without its other columns', () => {
    const row = { ...price, id: 'o1', insuredValueCents: 25_000 };
    expect(pickPriceFields(row)).toEqual(price);
    expect(pickPriceFields(row, [...ORDER_EXTRA_KEYS, 'totalPriceCents'])).toEqual({
      deliveryCostCents: price.deliveryCostCents,
      sendShippingCostCents: price.sendShippingCostCents,
      returnShippingCostCents: price.returnShippingCostCents,
      expressPriceCents: price.expressPriceCents,
      insurancePriceCents: price.insurancePriceCents,
      totalPriceCents: price.totalPriceCents,
    });
  });

  it('are read one by one from columns named otherwise', () => {
    const columns = new Map(PRICE_FIELDS.map((field, i) => [`column_${i}`, price[field]]));
    expect(priceFieldsFrom((field) => columns.get(`column_${PRICE_FIELDS.indexOf(field)}`) ?? Number.NaN)).toEqual(
      price,
    );
  });
});
