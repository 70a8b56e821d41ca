import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateCents,
  excludingVatCents,
  includedVatCents,
  linesExcludingVat,
  splitVat,
  unitPriceExcludingVat,
} from './vat';

describe('VAT at 20 % included in a price', () => {
  it.each([
    // TTC, HT, VAT: HT = round(TTC / 1.2), half up; VAT = TTC - HT
    [12000, 10000, 2000],
    [9490, 7908, 1582], // 7908.33
    [100, 83, 17], // 83.33
    [3, 3, 0], // 2.5 -> 3
    [1, 1, 0], // 0.83 -> 1
    [6, 5, 1],
    [0, 0, 0],
    [1299, 1083, 216], // 1082.5 -> 1083
  ])('%i cents TTC = %i HT + %i VAT', (ttc, ht, vat) => {
    expect(excludingVatCents(ttc)).toBe(ht);
    expect(includedVatCents(ttc)).toBe(vat);
    expect(splitVat(ttc)).toEqual({ totalExcludingVatCents: ht, vatCents: vat, totalCents: ttc });
  });

  it('matches the database’s own formula (amount - round(amount / 1.2)) and always adds up', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), (ttc) => {
        const split = splitVat(ttc);
        expect(split.totalExcludingVatCents + split.vatCents).toBe(ttc);
        // PostgreSQL's round(numeric) rounds halves away from zero, as here.
        expect(split.vatCents).toBe(ttc - Math.round(ttc / 1.2 + 1e-9));
      }),
    );
  });

  it('splits a credit (negative amount) symmetrically', () => {
    expect(splitVat(-9490)).toEqual({ totalExcludingVatCents: -7908, vatCents: -1582, totalCents: -9490 });
  });

  it('refuses fractions of a cent', () => {
    expect(() => excludingVatCents(10.5)).toThrow(RangeError);
  });
});

describe('sharing an amount among lines', () => {
  it('gives the leftover cents to the largest remainders', () => {
    expect(allocateCents(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocateCents(10, [3, 3, 4])).toEqual([3, 3, 4]);
    // 2916.54, 3666.41, 1324.93: floors add up to 7906; the 2 cents left go to .93 and .54
    expect(allocateCents(7908, [3500, 4400, 1590])).toEqual([2917, 3666, 1325]);
    expect(allocateCents(5, [0, 0])).toEqual([5, 0]);
    expect(allocateCents(5, [])).toEqual([]);
  });

  it('always adds up, each share within a cent of its exact value', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 30 }),
        (total, weights) => {
          const shares = allocateCents(total, weights);
          expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
          const sum = weights.reduce((a, b) => a + b, 0);
          if (sum > 0) {
            shares.forEach((share, i) => {
              expect(Math.abs(share - (total * (weights[i] as number)) / sum)).toBeLessThan(1);
            });
          }
        },
      ),
    );
  });

  it('states the lines excluding VAT so that they add up to the total excluding VAT', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 500_000 }), { minLength: 1, maxLength: 20 }), (lines) => {
        const total = lines.reduce((a, b) => a + b, 0);
        expect(linesExcludingVat(lines).reduce((a, b) => a + b, 0)).toBe(excludingVatCents(total));
      }),
    );
    const withAdjustment = [5000, 2000, -120];
    expect(linesExcludingVat(withAdjustment).reduce((a, b) => a + b, 0)).toBe(excludingVatCents(6880));
    expect(linesExcludingVat(withAdjustment)[2]).toBe(-100);
  });

  it('states a unit price excluding VAT to four decimals of a euro', () => {
    // 100 photos at 0,455 € TTC: 45,50 € TTC, 37,92 € HT, 0,3792 € HT each.
    expect(unitPriceExcludingVat(3792, 100)).toBe('0.3792');
    expect(unitPriceExcludingVat(2500, 1)).toBe('25.0000');
    expect(unitPriceExcludingVat(1000, 3)).toBe('3.3333');
    expect(unitPriceExcludingVat(-100, 1)).toBe('-1.0000');
    expect(() => unitPriceExcludingVat(100, 0)).toThrow(RangeError);
  });
});
