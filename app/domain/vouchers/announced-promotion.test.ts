import { describe, expect, it } from 'vitest';
import { parisMidnight } from '../calendar';
import { DEFAULT_PRICE_LIST, type PriceListDocument } from '../pricing/default-price-list';
import { type LineChoice, priceOrder } from '../pricing/pricing';
import { announcedEstimate, announcedTerms, announcePromotion } from './announced-promotion';
import { type PriceListPeriod, type PromotionTerms, promotionTimingProblem } from './promotions';

const DAY = 86_400_000;
const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');

const PRINTEMPS20: PromotionTerms = {
  code: 'PRINTEMPS20',
  label: 'Printemps',
  kind: 'percent',
  percent: 20,
  amountCents: null,
  supports: ['photos'],
  minimumOrderCents: 5000,
  startsAt: parisMidnight({ year: 2026, month: 12, day: 1 }),
  endsAt: parisMidnight({ year: 2027, month: 1, day: 1 }),
  maxUses: null,
  maxUsesPerCustomer: 1,
  firstOrderOnly: false,
  combinable: false,
};
const start = PRINTEMPS20.startsAt;

function withPhotosAt(cents: number): PriceListDocument {
  const list = structuredClone(DEFAULT_PRICE_LIST);
  list.supports.photos.basePrice = cents;
  return list;
}

const photos: LineChoice = {
  type: 'photos',
  quantity: 100,
  quality: 'standard',
  resolution: '2400dpi',
  format: 'jpeg',
  restoration: 0,
  denoise: false,
  reelSize: null,
};
const vhs: LineChoice = { ...photos, type: 'vhs', quantity: 1, resolution: null, format: null };

const quoteOf = (lines: LineChoice[]) =>
  priceOrder(DEFAULT_PRICE_LIST, { lines, deliveryMethod: 'digital', sendMethod: 'self', returnOriginals: false });

// A list of long ago, one 20 days before the start (0,30 €), today's (0,35 €) and one to come.
const periods: PriceListPeriod[] = [
  { list: withPhotosAt(10), from: new Date(start.getTime() - 200 * DAY), until: new Date(start.getTime() - 90 * DAY) },
  { list: withPhotosAt(30), from: new Date(start.getTime() - 90 * DAY), until: new Date(start.getTime() - 20 * DAY) },
  { list: DEFAULT_PRICE_LIST, from: new Date(start.getTime() - 20 * DAY), until: null },
];

describe('a promotion code announced by a link', () => {
  it('travels as JSON with only the price lists of the 30 days before its start, and comes back the same', () => {
    const announced = announcePromotion(PRINTEMPS20, periods);
    expect(announced.terms.startsAt).toBe(start.toISOString());
    expect(announced.periods.map((period) => period.from)).toEqual([
      periods[1]?.from.toISOString(),
      periods[2]?.from.toISOString(),
    ]);
    const back = JSON.parse(JSON.stringify(announced));
    expect(announcedTerms(back)).toEqual({ terms: PRINTEMPS20, periods: periods.slice(1) });
  });

  it('takes its percentage off the estimate, with the reference price of the 30 days before', () => {
    const quote = quoteOf([photos, vhs]);
    const estimate = announcedEstimate(announcePromotion(PRINTEMPS20, periods), quote, DEFAULT_PRICE_LIST);
    expect(estimate).toEqual({
      applies: true,
      code: 'PRINTEMPS20',
      description: expect.stringContaining('sur Photos papier'),
      // 20 % of 35,00 € of photos; the cassette is not covered.
      discountCents: 700,
      totalCents: quote.price.totalPriceCents - 700,
      references: [{ label: 'Photos papier', code: 'PRINTEMPS20', referenceCents: 30, discountedCents: 28 }],
    });
  });

  it('says what it applies to when nothing of the estimate is covered', () => {
    const estimate = announcedEstimate(announcePromotion(PRINTEMPS20, periods), quoteOf([vhs]), DEFAULT_PRICE_LIST);
    expect(estimate.applies).toBe(false);
    expect(estimate.applies ? '' : plain(estimate.message)).toBe(
      'Le code promo PRINTEMPS20 ne porte sur aucun article de votre commande (il s’applique à : Photos papier).',
    );
  });

  it('an amount off states no reference price', () => {
    const dix = {
      ...PRINTEMPS20,
      code: 'DIX',
      kind: 'amount' as const,
      percent: null,
      amountCents: 1000,
      supports: [],
    };
    const estimate = announcedEstimate(announcePromotion(dix, periods), quoteOf([photos]), DEFAULT_PRICE_LIST);
    expect(estimate).toMatchObject({ applies: true, discountCents: 1000, references: [] });
  });
});

describe('whether a link may announce a code', () => {
  it('only while it is not paused and within its dates, whatever the order', () => {
    const during = new Date(start.getTime() + DAY);
    expect(promotionTimingProblem(PRINTEMPS20, { now: during, paused: false })).toBeNull();
    expect(promotionTimingProblem(PRINTEMPS20, { now: during, paused: true })).toBe(
      'Le code promo PRINTEMPS20 est suspendu pour le moment.',
    );
    expect(promotionTimingProblem(PRINTEMPS20, { now: new Date(start.getTime() - DAY), paused: false })).toBe(
      'Le code promo PRINTEMPS20 sera valable à partir du 01/12/2026.',
    );
    // Its end is the midnight after its last day, which the message names.
    expect(promotionTimingProblem(PRINTEMPS20, { now: PRINTEMPS20.endsAt as Date, paused: false })).toBe(
      'Le code promo PRINTEMPS20 n’est plus valable depuis le 31/12/2026.',
    );
  });
});
