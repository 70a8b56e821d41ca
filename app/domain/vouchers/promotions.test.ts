import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { noel20 } from '../../../tests/support/promotions';
import { parisMidnight } from '../calendar';
import { NBSP } from '../format';
import { allocateCents } from '../invoices/vat';
import { DEFAULT_PRICE_LIST, type PriceListDocument, SUPPORT_TYPES } from '../pricing/default-price-list';
import type { LineChoice } from '../pricing/pricing';
import { PROMOTION_FORM_MESSAGES, type PromotionFormInput, promotionFormSchema } from './promotion-form';
import {
  combinationProblem,
  type DiscountableLine,
  MAX_CODES_PER_ORDER,
  normalisePromotionCode,
  type PriceListPeriod,
  type PromotionTerms,
  type PromotionUseFacts,
  promotionDescription,
  promotionDiscounts,
  promotionPeriodText,
  promotionProblem,
  promotionState,
  referencePriceRows,
  referenceUnitPriceCents,
  totalDiscountCents,
  typedPromotionCodes,
} from './promotions';

const DAY = 86_400_000;
// Intl writes « 50,00 € » with a narrow or plain non-breaking space: compare with plain spaces.
const plain = (text: string | null) => text?.replace(/[\u00A0\u202F]/g, ' ') ?? null;

const NOEL20 = noel20({
  // The code's last day is 31/12/2026: it ends at the midnight after it.
  endsAt: parisMidnight({ year: 2027, month: 1, day: 1 }),
});

const DIX: PromotionTerms = {
  ...NOEL20,
  code: 'DIX',
  label: 'Dix euros',
  kind: 'amount',
  percent: null,
  amountCents: 1000,
  supports: [],
  combinable: true,
};

const photos = (cents: number): DiscountableLine => ({ type: 'photos', lineTotalCents: cents });
const vhs = (cents: number): DiscountableLine => ({ type: 'vhs', lineTotalCents: cents });

describe('typing a promotion code', () => {
  it.each([
    ['noel20', 'NOEL20'],
    ['  Noel 20 ', 'NOEL20'],
    [`noel${NBSP}20`, 'NOEL20'],
    ['noël20', 'NOËL20'],
    ['', ''],
  ])('normalises %j to %j', (typed, code) => {
    expect(normalisePromotionCode(typed)).toBe(code);
  });

  it('reads several codes separated by commas, semicolons or spaces, each once', () => {
    expect(typedPromotionCodes('noel20, dix;Bienvenue ,NOEL20')).toEqual(['NOEL20', 'DIX', 'BIENVENUE']);
    // A code read aloud and typed with a space is still one code.
    expect(typedPromotionCodes(' noel 20 ')).toEqual(['NOEL20']);
    expect(typedPromotionCodes(' , ; ')).toEqual([]);
    expect(typedPromotionCodes('')).toEqual([]);
  });
});

describe('what a code takes off', () => {
  it('NOEL20 on 100 photos at 0,35 € and 2 VHS: 7,00 € off the photos only', () => {
    const [discount] = promotionDiscounts([NOEL20], [photos(3500), vhs(3400)]);
    expect(discount).toEqual({ code: 'NOEL20', cents: 700, perLine: [700, 0] });
  });

  it('rounds half up, once, on the eligible total', () => {
    // 3 photos: 1,05 € × 20 % = 0,21 €; 1 photo: 0,07 €; 0,25 € at 10 % = 2,5 c → 3 c.
    expect(totalDiscountCents([NOEL20], [photos(105)])).toBe(21);
    expect(totalDiscountCents([{ ...NOEL20, percent: 10 }], [photos(25)])).toBe(3);
    expect(totalDiscountCents([{ ...NOEL20, percent: 10 }], [photos(24)])).toBe(2);
    // Two lines of 0,25 € at 10 %: 5 c on the 0,50 € they make, not 3 + 3 rounded line by line.
    const [discount] = promotionDiscounts([{ ...NOEL20, percent: 10 }], [photos(25), photos(25)]);
    expect(discount?.cents).toBe(5);
    expect(discount?.perLine).toEqual([3, 2]);
  });

  it('shares a code among several eligible lines in proportion, adding up exactly', () => {
    const lines = [photos(1001), { type: 'slides', lineTotalCents: 2002 }, photos(3003), vhs(5000)];
    const everything = { ...NOEL20, percent: 15, supports: [] };
    const [discount] = promotionDiscounts([everything], lines);
    // 15 % of 110,06 € = 16,509 → 16,51 €.
    expect(discount?.cents).toBe(1651);
    expect(discount?.perLine).toEqual(allocateCents(1651, [1001, 2002, 3003, 5000]));
    expect(discount?.perLine.reduce((sum, cents) => sum + cents, 0)).toBe(1651);
  });

  it('caps an amount at what the code covers', () => {
    const [discount] = promotionDiscounts([{ ...DIX, supports: ['photos'] }], [photos(700), vhs(3400)]);
    expect(discount).toEqual({ code: 'DIX', cents: 700, perLine: [700, 0] });
    expect(totalDiscountCents([DIX], [photos(3500), vhs(3400)])).toBe(1000);
  });

  it('applies two codes one after the other, the second on what the first left', () => {
    const lines = [photos(3500), vhs(3400)];
    const [first, second] = promotionDiscounts([NOEL20, { ...DIX, amountCents: 6000 }], lines);
    expect(first).toEqual({ code: 'NOEL20', cents: 700, perLine: [700, 0] });
    // What is left: 28,00 € of photos and 34,00 € of VHS, 62,00 € for the 60,00 € code.
    expect(second?.cents).toBe(6000);
    expect(second?.perLine).toEqual(allocateCents(6000, [2800, 3400]));
    // The other way round, NOEL20 takes 20 % of the photos the amount code left.
    const [amount, percent] = promotionDiscounts([{ ...DIX, amountCents: 6000 }, NOEL20], lines);
    const photosLeft = 3500 - (amount?.perLine[0] ?? 0);
    expect(percent?.cents).toBe(Math.floor((photosLeft * 20) / 100 + 0.5));
  });

  it('never discounts an extra copy or a gift card, even with every support', () => {
    const lines = [
      { type: 'copy-usb', lineTotalCents: 1590 },
      { type: 'gift-card', lineTotalCents: 5000 },
      photos(3500),
    ];
    const everything = { ...NOEL20, supports: [] };
    expect(promotionDiscounts([everything], lines)[0]?.perLine).toEqual([0, 0, 700]);
    expect(promotionDiscounts([DIX], lines)[0]?.perLine).toEqual([0, 0, 1000]);
    expect(totalDiscountCents([everything], lines.slice(0, 2))).toBe(0);
  });

  it('no supports: every support line', () => {
    const lines = [photos(3500), vhs(3400), { type: 'film', lineTotalCents: 5000 }];
    const [discount] = promotionDiscounts([{ ...NOEL20, supports: [] }], lines);
    expect(discount).toEqual({ code: 'NOEL20', cents: 2380, perLine: [700, 680, 1000] });
  });

  it('a code that covers nothing takes nothing', () => {
    expect(promotionDiscounts([NOEL20], [vhs(3400)])).toEqual([{ code: 'NOEL20', cents: 0, perLine: [0] }]);
    expect(promotionDiscounts([NOEL20], [])).toEqual([{ code: 'NOEL20', cents: 0, perLine: [] }]);
  });
});

describe('what a code takes off, as a property', () => {
  // A fixed seed and a modest number of runs; PROMOTION_PROPERTY_SEED and PROMOTION_PROPERTY_RUNS change them.
  const SEED = Number(process.env.PROMOTION_PROPERTY_SEED ?? 20_261_201);
  const RUNS = Number(process.env.PROMOTION_PROPERTY_RUNS ?? 300);
  const TYPES = [...SUPPORT_TYPES, 'copy-usb', 'gift-card'];

  const line = fc.record({
    type: fc.constantFrom(...TYPES),
    lineTotalCents: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 500_000 })),
  });
  const code = fc
    .record({
      kind: fc.constantFrom('percent' as const, 'amount' as const),
      percent: fc.integer({ min: 1, max: 100 }),
      amountCents: fc.integer({ min: 1, max: 100_000 }),
      supports: fc.subarray([...SUPPORT_TYPES]),
    })
    .map(
      ({ kind, percent, amountCents, supports }): PromotionTerms => ({
        ...NOEL20,
        code: 'CODE',
        kind,
        percent: kind === 'percent' ? percent : null,
        amountCents: kind === 'amount' ? amountCents : null,
        supports,
      }),
    );

  it('keeps every share within what is left of its line, and the shares add up to the code', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 8 }),
        fc.array(code, { minLength: 1, maxLength: MAX_CODES_PER_ORDER }),
        (lines, codes) => {
          const discounts = promotionDiscounts(codes, lines);
          expect(discounts).toHaveLength(codes.length);
          const left = lines.map((l) => l.lineTotalCents);
          discounts.forEach((discount, c) => {
            const terms = codes[c] as PromotionTerms;
            expect(discount.perLine).toHaveLength(lines.length);
            const covered = lines.map((l) => terms.supports.length === 0 || terms.supports.includes(l.type as never));
            const isSupport = lines.map((l) => (SUPPORT_TYPES as readonly string[]).includes(l.type));
            const eligible = left.reduce((sum, cents, i) => sum + (covered[i] && isSupport[i] ? cents : 0), 0);
            discount.perLine.forEach((share, i) => {
              expect(share).toBeGreaterThanOrEqual(0);
              expect(share).toBeLessThanOrEqual(left[i] as number);
              if (!covered[i] || !isSupport[i]) expect(share).toBe(0);
            });
            expect(discount.perLine.reduce((sum, cents) => sum + cents, 0)).toBe(discount.cents);
            expect(discount.cents).toBeLessThanOrEqual(eligible);
            if (terms.kind === 'amount') expect(discount.cents).toBe(Math.min(terms.amountCents ?? 0, eligible));
            discount.perLine.forEach((share, i) => {
              left[i] = (left[i] as number) - share;
            });
          });
          // All codes together: never more than the support lines any code covers.
          const coveredByAny = lines.reduce(
            (sum, l) =>
              sum +
              (codes.some(
                (terms) =>
                  (SUPPORT_TYPES as readonly string[]).includes(l.type) &&
                  (terms.supports.length === 0 || terms.supports.includes(l.type as never)),
              )
                ? l.lineTotalCents
                : 0),
            0,
          );
          expect(totalDiscountCents(codes, lines)).toBeLessThanOrEqual(coveredByAny);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe('whether a code may be used', () => {
  const now = new Date('2026-12-10T10:00:00Z');
  const facts: PromotionUseFacts = {
    now,
    paused: false,
    uses: 0,
    usesByCustomer: 0,
    customerHasOrdered: false,
    itemsCents: 6900,
  };
  const lines = [photos(3500), vhs(3400)];
  const problem = (terms: Partial<PromotionTerms>, change: Partial<PromotionUseFacts> = {}, on = lines) =>
    plain(promotionProblem({ ...NOEL20, ...terms }, { ...facts, ...change }, on, DEFAULT_PRICE_LIST));

  it('null when all is well', () => {
    expect(problem({})).toBeNull();
    expect(problem({ maxUses: 10, maxUsesPerCustomer: 1, firstOrderOnly: true, minimumOrderCents: 6900 })).toBeNull();
  });

  it('paused', () => {
    expect(problem({}, { paused: true })).toBe('Le code promo NOEL20 est suspendu pour le moment.');
  });

  it('not yet valid: names its first day', () => {
    expect(problem({}, { now: new Date('2026-11-30T22:59:59Z') })).toBe(
      'Le code promo NOEL20 sera valable à partir du 01/12/2026.',
    );
    // Midnight in Paris is 23:00 UTC in winter: valid from then.
    expect(problem({}, { now: new Date('2026-11-30T23:00:00Z') })).toBeNull();
  });

  it('ended: names its last valid day, the day before its end', () => {
    expect(problem({}, { now: new Date('2026-12-31T22:59:59Z') })).toBeNull();
    expect(problem({}, { now: new Date('2026-12-31T23:00:00Z') })).toBe(
      'Le code promo NOEL20 n’est plus valable depuis le 31/12/2026.',
    );
  });

  it('used up, per customer, first order only', () => {
    expect(problem({ maxUses: 100 }, { uses: 100 })).toBe('Le code promo NOEL20 a atteint son nombre d’utilisations.');
    expect(problem({ maxUsesPerCustomer: 1 }, { usesByCustomer: 1 })).toBe(
      'Vous avez déjà utilisé le code promo NOEL20.',
    );
    expect(problem({ firstOrderOnly: true }, { customerHasOrdered: true })).toBe(
      'Le code promo NOEL20 est réservé à une première commande.',
    );
  });

  it('minimum', () => {
    expect(problem({ minimumOrderCents: 6901 })).toBe(
      'Le code promo NOEL20 demande au moins 69,01 € de numérisation (hors livraison et envois).',
    );
  });

  it('nothing eligible: names the supports', () => {
    expect(problem({ supports: ['photos', 'slides'] }, {}, [vhs(3400)])).toBe(
      'Le code promo NOEL20 ne porte sur aucun article de votre commande (il s’applique à : Photos papier, Diapositives).',
    );
    expect(problem({ supports: [] }, {}, [{ type: 'gift-card', lineTotalCents: 5000 }])).toBe(
      'Le code promo NOEL20 ne porte sur aucun article de votre commande (il s’applique à : toute la numérisation).',
    );
  });

  it('several codes: each combinable, at most three', () => {
    expect(combinationProblem([NOEL20])).toBeNull();
    expect(combinationProblem([DIX, { ...DIX, code: 'AUTRE' }])).toBeNull();
    expect(combinationProblem([DIX, NOEL20])).toBe('Le code promo NOEL20 ne se cumule pas avec un autre code.');
    const four = ['A', 'B', 'C', 'D'].map((code) => ({ ...DIX, code }));
    expect(combinationProblem(four)).toBe('Au plus 3 codes promo par commande.');
  });
});

describe('the back office’s form', () => {
  const valid: PromotionFormInput = {
    code: ' noel20 ',
    label: 'Noël 2026',
    kind: 'percent',
    percent: '20',
    amount: '',
    supports: 'photos',
    minimum: '',
    startsOn: '01/12/2026',
    endsOn: '31/12/2026',
    maxUses: '',
    maxUsesPerCustomer: '',
    firstOrderOnly: 'on',
    combinable: undefined,
  } as PromotionFormInput;
  const issues = (change: Record<string, unknown>) => {
    const parsed = promotionFormSchema.safeParse({ ...valid, ...change });
    return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message]));
  };

  it('reads a valid NOEL20: from midnight of the first day to the midnight after the last (Paris)', () => {
    const parsed = promotionFormSchema.parse(valid);
    expect(parsed).toEqual({
      code: 'NOEL20',
      label: 'Noël 2026',
      kind: 'percent',
      percent: 20,
      amountCents: null,
      supports: ['photos'],
      minimumOrderCents: 0,
      startsAt: new Date('2026-11-30T23:00:00Z'),
      endsAt: new Date('2026-12-31T23:00:00Z'),
      maxUses: null,
      maxUsesPerCustomer: null,
      firstOrderOnly: true,
      combinable: false,
    });
  });

  it('counts days in Paris across the change to summer time', () => {
    // 28/03/2027 starts at 00:00 CET (23:00 UTC the day before) and ends at 00:00 CEST (22:00 UTC).
    const parsed = promotionFormSchema.parse({ ...valid, startsOn: '28/03/2027', endsOn: '2027-03-28' });
    expect(parsed.startsAt).toEqual(new Date('2027-03-27T23:00:00Z'));
    expect(parsed.endsAt).toEqual(new Date('2027-03-28T22:00:00Z'));
    expect(promotionPeriodText(parsed)).toBe('du 28/03/2027 au 28/03/2027');
  });

  it('reads an amount code, its minimum and its limits', () => {
    const parsed = promotionFormSchema.parse({
      ...valid,
      kind: 'amount',
      percent: '20',
      amount: '12,50',
      minimum: '30',
      supports: ['photos', 'slides', 'photos'],
      endsOn: '',
      maxUses: '100',
      maxUsesPerCustomer: '1',
    });
    expect(parsed).toMatchObject({
      kind: 'amount',
      percent: null,
      amountCents: 1250,
      minimumOrderCents: 3000,
      supports: ['photos', 'slides'],
      endsAt: null,
      maxUses: 100,
      maxUsesPerCustomer: 1,
    });
  });

  it.each(['0', '101', '12,5', 'vingt'])('refuses the percentage %j in French', (percent) => {
    expect(issues({ percent })).toEqual({ percent: PROMOTION_FORM_MESSAGES.percent });
  });

  it('asks for the percentage or the amount of its kind', () => {
    expect(issues({ percent: '' })).toEqual({ percent: PROMOTION_FORM_MESSAGES.percent });
    expect(issues({ kind: 'amount', amount: '' })).toEqual({ amount: PROMOTION_FORM_MESSAGES.amount });
    expect(issues({ kind: 'amount', amount: '0' })).toEqual({ amount: PROMOTION_FORM_MESSAGES.amount });
    expect(issues({ kind: 'amount', amount: '10 euros' })).toEqual({ amount: PROMOTION_FORM_MESSAGES.amount });
  });

  it('refuses an end before the start, accepts a one-day code', () => {
    expect(issues({ endsOn: '30/11/2026' })).toEqual({ endsOn: PROMOTION_FORM_MESSAGES.endsOn });
    expect(issues({ endsOn: '01/12/2026' })).toEqual({});
    expect(issues({ startsOn: '' })).toEqual({ startsOn: PROMOTION_FORM_MESSAGES.startsOn });
    expect(issues({ startsOn: '31/11/2026' })).toEqual({ startsOn: PROMOTION_FORM_MESSAGES.startsOn });
  });

  it.each(['NO', 'NOEL_20', 'NOËL20', '-NOEL', 'A'.repeat(33)])('refuses the code %j', (code) => {
    expect(issues({ code })).toEqual({ code: PROMOTION_FORM_MESSAGES.code });
  });

  it('refuses an unknown support', () => {
    expect(issues({ supports: ['photos', 'cassettes-audio'] })).toEqual({
      'supports.1': PROMOTION_FORM_MESSAGES.supports,
    });
  });

  it('refuses a limit that is not a whole number from 1', () => {
    expect(issues({ maxUses: '0' })).toEqual({ maxUses: PROMOTION_FORM_MESSAGES.limit });
    expect(issues({ maxUsesPerCustomer: '1,5' })).toEqual({ maxUsesPerCustomer: PROMOTION_FORM_MESSAGES.limit });
  });
});

describe('a code in the back office', () => {
  it('its state', () => {
    const at = (iso: string) => new Date(iso);
    expect(promotionState(NOEL20, false, 0, at('2026-11-30T22:00:00Z'))).toBe('scheduled');
    expect(promotionState(NOEL20, false, 0, at('2026-12-10T10:00:00Z'))).toBe('active');
    expect(promotionState(NOEL20, true, 0, at('2026-12-10T10:00:00Z'))).toBe('paused');
    expect(promotionState({ ...NOEL20, maxUses: 5 }, true, 5, at('2026-12-10T10:00:00Z'))).toBe('used_up');
    expect(promotionState({ ...NOEL20, maxUses: 5 }, false, 5, at('2027-01-01T00:00:00Z'))).toBe('ended');
    expect(promotionState({ ...NOEL20, endsAt: null }, false, 0, at('2030-01-01T00:00:00Z'))).toBe('active');
  });

  it('its period names the first and the last day', () => {
    expect(promotionPeriodText(NOEL20)).toBe('du 01/12/2026 au 31/12/2026');
    expect(promotionPeriodText({ ...NOEL20, endsAt: null })).toBe('à partir du 01/12/2026');
  });

  it('its description', () => {
    expect(promotionDescription(NOEL20, DEFAULT_PRICE_LIST)).toBe(`20${NBSP}% sur Photos papier`);
    expect(plain(promotionDescription(DIX, DEFAULT_PRICE_LIST))).toBe('10,00 € sur toute la numérisation');
    expect(promotionDescription({ ...NOEL20, supports: ['photos', 'slides'] }, DEFAULT_PRICE_LIST)).toBe(
      `20${NBSP}% sur Photos papier, Diapositives`,
    );
  });
});

describe('the reference price (the lowest of the 30 days before the reduction)', () => {
  const withPhotosAt = (cents: number): PriceListDocument => {
    const list = structuredClone(DEFAULT_PRICE_LIST);
    list.supports.photos.basePrice = cents;
    return list;
  };
  const start = NOEL20.startsAt;
  const photoLine: LineChoice = {
    type: 'photos',
    quantity: 100,
    quality: 'standard',
    resolution: '2400dpi',
    format: 'jpeg',
    restoration: 2,
    denoise: false,
    reelSize: null,
  };
  // A cheaper list (0,30 €) still in force 20 days before the start, then today's dearer one (0,35 €).
  const cheaperThenDearer: PriceListPeriod[] = [
    { list: withPhotosAt(30), from: new Date(start.getTime() - 90 * DAY), until: new Date(start.getTime() - 20 * DAY) },
    { list: DEFAULT_PRICE_LIST, from: new Date(start.getTime() - 20 * DAY), until: null },
  ];

  it('is the lowest unit price of the window, whatever the quantity or the restoration', () => {
    expect(referenceUnitPriceCents(cheaperThenDearer, photoLine, start)).toBe(30);
  });

  it('a list that ended before the window does not count', () => {
    const older: PriceListPeriod[] = [
      {
        list: withPhotosAt(30),
        from: new Date(start.getTime() - 90 * DAY),
        until: new Date(start.getTime() - 31 * DAY),
      },
      { list: DEFAULT_PRICE_LIST, from: new Date(start.getTime() - 31 * DAY), until: null },
    ];
    expect(referenceUnitPriceCents(older, photoLine, start)).toBe(35);
  });

  it('a list that came after the start does not count', () => {
    const later: PriceListPeriod[] = [
      { list: DEFAULT_PRICE_LIST, from: new Date(start.getTime() - 90 * DAY), until: new Date(start.getTime() + DAY) },
      { list: withPhotosAt(30), from: new Date(start.getTime() + DAY), until: null },
    ];
    expect(referenceUnitPriceCents(later, photoLine, start)).toBe(35);
    expect(referenceUnitPriceCents([], photoLine, start)).toBeNull();
  });

  it('a percentage code states the reference and the reduced unit price; an amount code states none', () => {
    const lines = [
      { ...photoLine, unitPriceCents: 35 },
      {
        ...photoLine,
        type: 'vhs' as const,
        resolution: null,
        format: null,
        restoration: 0,
        quantity: 2,
        unitPriceCents: 1700,
      },
    ];
    expect(referencePriceRows([NOEL20, DIX], lines, cheaperThenDearer, DEFAULT_PRICE_LIST)).toEqual([
      // 0,35 € − 20 % = 0,28 €, against the 0,30 € of 20 days before.
      { label: 'Photos papier', code: 'NOEL20', referenceCents: 30, discountedCents: 28 },
    ]);
    expect(referencePriceRows([DIX], lines, cheaperThenDearer, DEFAULT_PRICE_LIST)).toEqual([]);
  });
});
