import { describe, expect, it } from 'vitest';
import { noel20 } from '../../../tests/support/promotions';
import { DEFAULT_PRICE_LIST } from '../pricing/default-price-list';
import type { PromotionTerms } from '../vouchers/promotions';
import {
  countKeys,
  type OrderedLine,
  parseReceptionDate,
  photoProblem,
  RECEPTION_MESSAGES,
  receptionFormSchema,
  receptionSummary,
  recount,
  SUPPLEMENT_REFUSAL_MESSAGE,
  supplementRefusalSchema,
} from './reception';

const photos = (quantity: number, extra: Partial<OrderedLine> = {}): OrderedLine => ({
  position: 0,
  type: 'photos',
  quantity,
  quality: 'standard',
  resolution: '2400dpi',
  format: 'jpeg',
  restoration: 0,
  denoise: false,
  reelSize: null,
  ...extra,
});

const film = (position: number, reelSize: 'small' | 'medium' | 'large', quantity: number): OrderedLine => ({
  position,
  type: 'film',
  quantity,
  quality: 'standard',
  resolution: null,
  format: null,
  restoration: 0,
  denoise: true,
  reelSize,
});

const today = new Date('2026-11-24T10:00:00Z');

describe('recount', () => {
  it('250 photos ordered, 270 counted: a supplement of 20 × 0,35 € = 7,00 €', () => {
    const result = recount(DEFAULT_PRICE_LIST, [photos(250)], { 'line-0': 270 });
    expect(result).toMatchObject({ orderedCents: 8750, countedCents: 9450, differenceCents: 700 });
    expect(result.lines[0]).toMatchObject({ label: 'Photos papier', ordered: 250, counted: 270 });
  });

  it('re-prices with the order’s own multipliers (premium, 3600 dpi, TIFF)', () => {
    const line = photos(100, { quality: 'premium', resolution: '3600dpi', format: 'tif' });
    // 100 × 0,35 × 1,3 × 1,2 × 1,15 = 62,79 € ; 110 → 69,069 → 69,07 €
    expect(recount(DEFAULT_PRICE_LIST, [line], { 'line-0': 110 })).toMatchObject({
      orderedCents: 6279,
      countedCents: 6907,
      differenceCents: 628,
    });
  });

  it('fewer items: a negative difference, restoration never above what was counted', () => {
    const result = recount(DEFAULT_PRICE_LIST, [photos(250, { restoration: 10 })], { 'line-0': 5 });
    // ordered 87,50 + 10 × 10,00 ; counted 5 × 0,35 + 5 × 10,00
    expect(result).toMatchObject({ orderedCents: 18_750, countedCents: 5_175, differenceCents: -13_575 });
  });

  it('equal counts: no difference; a missing count means as ordered', () => {
    expect(recount(DEFAULT_PRICE_LIST, [photos(40)], {}).differenceCents).toBe(0);
  });

  it('counts a reel size that was not declared with the film line’s options', () => {
    const lines = [film(0, 'medium', 2)];
    expect(countKeys(lines)).toEqual(['line-0', 'reel-small', 'reel-large']);
    const result = recount(DEFAULT_PRICE_LIST, lines, { 'line-0': 2, 'reel-large': 2 });
    // 2 large reels × (35,00 + 5,00 denoising)
    expect(result.differenceCents).toBe(8_000);
    expect(result.lines[1]).toMatchObject({ key: 'reel-large', ordered: 0, counted: 2, countedCents: 8_000 });
    expect(result.lines[1]?.label).toContain('Grande bobine');
  });

  it('a line counted at zero costs nothing', () => {
    expect(recount(DEFAULT_PRICE_LIST, [photos(10)], { 'line-0': 0 })).toMatchObject({
      countedCents: 0,
      differenceCents: -350,
    });
  });

  it('summarises the counts and remarks for the e-mail', () => {
    const result = recount(DEFAULT_PRICE_LIST, [photos(250)], { 'line-0': 270 });
    expect(receptionSummary(DEFAULT_PRICE_LIST, result, [{ group: 'photos', text: 'moisissures' }])).toEqual({
      counts: [{ label: 'Photos papier', ordered: 250, counted: 270 }],
      remarks: [{ group: 'Photos papier', text: 'moisissures' }],
    });
  });
});

const NOEL20 = noel20({
  combinable: true,
});
const DIX: PromotionTerms = { ...NOEL20, code: 'DIX', kind: 'amount', percent: null, amountCents: 1000, supports: [] };
const vhs = (position: number, quantity: number): OrderedLine => ({
  ...photos(quantity),
  position,
  type: 'vhs',
  resolution: null,
  format: null,
});

describe('recount with the order’s promotion codes', () => {
  it('20 % off the photos, 80 photos for 100 ordered: the reduction is what was paid for 20 photos (−5,60 €)', () => {
    const result = recount(DEFAULT_PRICE_LIST, [photos(100), vhs(1, 2)], { 'line-0': 80 }, [NOEL20]);
    // Ordered: 35,00 € of photos, 7,00 € off; counted: 28,00 €, 5,60 € off. The VHS stay as ordered.
    expect(result).toMatchObject({
      orderedCents: 3500 + 3400,
      countedCents: 2800 + 3400,
      orderedDiscountCents: 700,
      countedDiscountCents: 560,
      differenceCents: -560,
    });
  });

  it('a supplement is charged net too: 120 photos for 100 with 20 % off is +5,60 €', () => {
    const result = recount(DEFAULT_PRICE_LIST, [photos(100)], { 'line-0': 120 }, [NOEL20]);
    expect(result).toMatchObject({ orderedDiscountCents: 700, countedDiscountCents: 840, differenceCents: 560 });
  });

  it('without codes: no discount, the gross difference as before', () => {
    const result = recount(DEFAULT_PRICE_LIST, [photos(100)], { 'line-0': 80 });
    expect(result).toMatchObject({ orderedDiscountCents: 0, countedDiscountCents: 0, differenceCents: -700 });
    expect(recount(DEFAULT_PRICE_LIST, [photos(100)], { 'line-0': 80 }, [])).toEqual(result);
  });

  it('an amount code keeps its whole amount while what it covers still exceeds it', () => {
    // 10,00 € off: 35,00 € ordered, 28,00 € counted → the customer gets back the 7,00 € of 20 photos.
    const result = recount(DEFAULT_PRICE_LIST, [photos(100)], { 'line-0': 80 }, [DIX]);
    expect(result).toMatchObject({ orderedDiscountCents: 1000, countedDiscountCents: 1000, differenceCents: -700 });
    // 20 photos counted (7,00 €): the code cannot take more than them, and the order is then free.
    const few = recount(DEFAULT_PRICE_LIST, [photos(100)], { 'line-0': 20 }, [DIX]);
    expect(few).toMatchObject({ countedCents: 700, countedDiscountCents: 700, differenceCents: -2500 });
  });
});

describe('reception form', () => {
  const schema = receptionFormSchema([photos(250), film(1, 'small', 1)], today);

  it('reads the date, counts and remarks', () => {
    const parsed = schema.parse({
      date: '2026-11-23',
      'count-line-0': '270',
      'count-line-1': '1',
      'count-reel-large': '2',
      'remark-photos': ' moisissures ',
      'remark-film': '',
    });
    expect(parsed.receivedAt.toISOString()).toBe('2026-11-23T12:00:00.000Z');
    expect(parsed.counts).toEqual({
      'line-0': 270,
      'line-1': 1,
      'reel-medium': 0,
      'reel-large': 2,
    });
    expect(parsed.remarks).toEqual([{ group: 'photos', text: 'moisissures' }]);
  });

  it.each(['-1', '2.5', 'douze', '100001'])('refuses the count %s in French', (value) => {
    const result = schema.safeParse({ date: '23/11/2026', 'count-line-0': value, 'count-line-1': '1' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(RECEPTION_MESSAGES.count);
  });

  it('refuses a remark over 1 000 characters, a bad or future date', () => {
    const base = { 'count-line-0': '1', 'count-line-1': '1' };
    const long = schema.safeParse({ ...base, date: '23/11/2026', 'remark-photos': 'x'.repeat(1001) });
    expect(long.error?.issues[0]?.message).toBe(RECEPTION_MESSAGES.remarkTooLong);
    expect(schema.safeParse({ ...base, date: '31/02/2026' }).error?.issues[0]?.message).toBe(RECEPTION_MESSAGES.date);
    expect(schema.safeParse({ ...base, date: '30/11/2026' }).error?.issues[0]?.message).toBe(
      RECEPTION_MESSAGES.futureDate,
    );
  });

  it('parses French and ISO dates', () => {
    expect(parseReceptionDate('21/11/2026')?.toISOString()).toBe('2026-11-21T12:00:00.000Z');
    expect(parseReceptionDate('2026-11-21')?.toISOString()).toBe('2026-11-21T12:00:00.000Z');
    expect(parseReceptionDate('hier')).toBeNull();
  });

  it('checks photos: type and size', () => {
    expect(photoProblem({ type: 'image/jpeg', size: 1000 })).toBeNull();
    expect(photoProblem({ type: 'image/gif', size: 1000 })).toBe(RECEPTION_MESSAGES.photoType);
    expect(photoProblem({ type: 'image/png', size: 9 * 1024 * 1024 })).toBe(RECEPTION_MESSAGES.photoTooBig);
  });

  it('reads the customer’s refusal of a supplement: one of the two choices, else a French message', () => {
    expect(supplementRefusalSchema.parse({ adjustmentId: 'a1', decision: 'return_extra' })).toEqual({
      adjustmentId: 'a1',
      decision: 'return_extra',
    });
    const refused = supplementRefusalSchema.safeParse({ adjustmentId: 'a1', decision: 'jeter' });
    expect(refused.error?.issues[0]?.message).toBe(SUPPLEMENT_REFUSAL_MESSAGE);
  });
});
