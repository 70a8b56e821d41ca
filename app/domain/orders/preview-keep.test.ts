import { describe, expect, it } from 'vitest';
import { noel20 } from '../../../tests/support/promotions';
import { NBSP } from '../format';
import { DEFAULT_PRICE_LIST, type PriceListDocument } from '../pricing/default-price-list';
import { parsePriceListDocument } from '../pricing/price-list-schema';
import { priceLine } from '../pricing/pricing';
import {
  decideSelection,
  dropSummary,
  dropsBySupport,
  maxDrops,
  orderNeedsReview,
  priceDrops,
  reviewedSupports,
} from './preview-keep';
import type { OrderedLine } from './reception';

const slides = (quantity: number, position = 0): OrderedLine => ({
  position,
  type: 'slides',
  quantity,
  quality: 'standard',
  resolution: '3600dpi',
  format: 'tif',
  restoration: 0,
  denoise: false,
  reelSize: null,
});

const files = (count: number, support = 'slides') =>
  Array.from({ length: count }, (_, i) => ({ id: `${support}-${i}`, name: `Diapo ${i}.jpg`, support }));

describe('preview and keep: the limit', () => {
  it('is the share of the files under review, rounded down', () => {
    expect(maxDrops(60, 20)).toBe(12);
    expect(maxDrops(9, 20)).toBe(1);
    expect(maxDrops(4, 20)).toBe(0);
    expect(maxDrops(60, 0)).toBe(0);
    expect(maxDrops(0, 20)).toBe(0);
  });

  it('refuses a selection above it in French, and accepts it at the limit', () => {
    const all = files(50);
    const base = {
      list: DEFAULT_PRICE_LIST,
      lines: [slides(50)],
      counted: {},
      files: all,
      maxDropPercent: 20,
      fileCount: 50,
    };
    const keep = (dropped: number) => new Set(all.slice(dropped).map((file) => file.id));
    const refused = decideSelection({ ...base, kept: keep(11) });
    expect(refused).toEqual({
      ok: false,
      message: `Vous retirez 11${NBSP}fichiers${NBSP}: au plus 10 (20${NBSP}% des fichiers) peuvent être retirés. Rien n’a été modifié${NBSP}; cochez davantage de fichiers à garder.`,
    });
    const accepted = decideSelection({ ...base, kept: keep(10) });
    expect(accepted.ok && accepted.dropped.size).toBe(10);
  });
});

describe('preview and keep: the repricing', () => {
  it('prices the dropped items with the pricing function and the order’s list', () => {
    const pricing = priceDrops(DEFAULT_PRICE_LIST, [slides(50)], {}, new Map([['slides', 10]]));
    const expected =
      priceLine(DEFAULT_PRICE_LIST, slides(50)).lineTotalCents -
      priceLine(DEFAULT_PRICE_LIST, slides(40)).lineTotalCents;
    // 0,45 € × 1,2 × 1,15 per slide: 10 of 50 slides are 6,21 €.
    expect(pricing.refundCents).toBe(expected);
    expect(pricing.refundCents).toBe(621);
    expect(pricing.kept).toEqual({ 'line-0': 40 });
  });

  it('starts from the reception’s counts, and takes from the last line of the support first', () => {
    const lines = [slides(30, 0), { ...slides(20, 1), resolution: '2400dpi' as const, format: 'jpeg' as const }];
    const pricing = priceDrops(DEFAULT_PRICE_LIST, lines, { 'line-1': 25 }, new Map([['slides', 27]]));
    expect(pricing.kept).toEqual({ 'line-0': 28, 'line-1': 0 });
    const before = priceLine(DEFAULT_PRICE_LIST, slides(30)).lineTotalCents + 25 * 45;
    expect(pricing.beforeCents).toBe(before);
    expect(pricing.afterCents).toBe(priceLine(DEFAULT_PRICE_LIST, slides(28)).lineTotalCents);
  });

  it('uses the list it is given: the order’s, not today’s', () => {
    const dearer: PriceListDocument = structuredClone(DEFAULT_PRICE_LIST);
    dearer.supports.slides.basePrice = 100;
    const drops = new Map([['slides', 10]] as const);
    expect(priceDrops(dearer, [slides(50)], {}, drops).refundCents).toBe(
      priceLine(dearer, slides(50)).lineTotalCents - priceLine(dearer, slides(40)).lineTotalCents,
    );
  });

  it('says what is dropped and its amount', () => {
    const drops = dropsBySupport(
      [...files(3), ...files(2, 'negatives')],
      new Set(['slides-0', 'slides-1', 'negatives-0']),
    );
    expect(dropSummary(DEFAULT_PRICE_LIST, drops, 600)).toBe(
      `Vous retirez 2${NBSP}diapositives et 1${NBSP}négatif${NBSP}: −6,00${NBSP}€`,
    );
    expect(dropSummary(DEFAULT_PRICE_LIST, new Map(), 0)).toBe('Vous gardez tous vos fichiers.');
  });
});

describe('preview and keep: the Tarifs entry', () => {
  it('flags slides and negatives in a new list, nothing in a list published before it existed', () => {
    expect(reviewedSupports(DEFAULT_PRICE_LIST)).toEqual(['slides', 'negatives']);
    expect(orderNeedsReview(DEFAULT_PRICE_LIST, [slides(1)])).toBe(true);
    expect(orderNeedsReview(DEFAULT_PRICE_LIST, [{ ...slides(1), type: 'photos' }])).toBe(false);
    const { previewAndKeep: _dropped, ...older } = DEFAULT_PRICE_LIST;
    const parsed = parsePriceListDocument(older);
    expect(parsed.ok && reviewedSupports(parsed.document)).toEqual([]);
  });

  it('refuses a share above 100 % and a review period of 0 days', () => {
    const parsed = parsePriceListDocument({
      ...DEFAULT_PRICE_LIST,
      previewAndKeep: { ...DEFAULT_PRICE_LIST.previewAndKeep, maxDropPercent: 120, reviewDays: 0 },
    });
    expect(parsed.ok).toBe(false);
  });
});

describe('preview and keep with the order’s promotion codes', () => {
  const photos = (quantity: number): OrderedLine => ({
    ...slides(quantity),
    type: 'photos',
    resolution: '2400dpi',
    format: 'jpeg',
  });
  const NOEL20 = noel20();

  it('a dropped photo with 20 % off refunds 80 % of its price (0,28 €, not 0,35 €)', () => {
    const pricing = priceDrops(DEFAULT_PRICE_LIST, [photos(100)], {}, new Map([['photos', 1]]), [NOEL20]);
    expect(pricing).toMatchObject({ beforeCents: 2800, afterCents: 2772, refundCents: 28, kept: { 'line-0': 99 } });
  });

  it('a code on other supports changes nothing of a dropped slide', () => {
    const drops = new Map([['slides', 10]] as const);
    expect(priceDrops(DEFAULT_PRICE_LIST, [slides(50)], {}, drops, [NOEL20]).refundCents).toBe(621);
  });
});
