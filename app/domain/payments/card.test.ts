import { describe, expect, it } from 'vitest';
import {
  CARD_MESSAGES,
  cardBrand,
  cardLast4,
  createCardFormSchema,
  formatCardNumber,
  formatExpiryInput,
  isExpired,
  luhnValid,
  normaliseExpiry,
  parseExpiry,
} from './card';

const NOW = new Date('2026-11-21T10:00:00Z');
const schema = createCardFormSchema({ now: () => NOW });

const valid = { cardHolder: 'Marie Curie', cardNumber: '4242 4242 4242 4242', expiryDate: '12/28', cvv: '123' };

function errors(input: Record<string, unknown>) {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const out: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0]);
    out[field] = [...(out[field] ?? []), issue.message];
  }
  return out;
}

describe('Luhn check', () => {
  it.each([
    ['4242424242424242', true],
    ['4242 4242 4242 4242', true],
    ['4242-4242-4242-4242', true],
    ['4000000000000002', true],
    ['4000000000009995', true],
    ['5555555555554444', true],
    ['378282246310005', true],
    ['4242424242424241', false],
    ['4242424242424243', false],
    ['1234567812345678', false],
    ['42424242424', false],
    ['42424242424242424242', false],
    ['4242a24242424242', false],
    ['', false],
  ])('%s -> %s', (number, expected) => {
    expect(luhnValid(number)).toBe(expected);
  });
});

describe('card number helpers', () => {
  it('groups digits by four, ignoring what is not a digit', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242-4242 42')).toBe('4242 4242 42');
  });
  it('keeps only the last four digits for display', () => {
    expect(cardLast4('4242 4242 4242 4242')).toBe('4242');
  });
  it.each([
    ['4242424242424242', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['378282246310005', 'amex'],
    ['6011111111111117', 'unknown'],
  ])('brand of %s is %s', (number, brand) => {
    expect(cardBrand(number)).toBe(brand);
  });
});

describe('expiry MM/AA', () => {
  it.each([
    ['12/28', { month: 12, year: 2028 }],
    ['1/27', { month: 1, year: 2027 }],
    ['01 / 27', { month: 1, year: 2027 }],
    ['03/2029', { month: 3, year: 2029 }],
    ['13/27', null],
    ['00/27', null],
    ['1227', { month: 12, year: 2027 }], // a phone's numeric keypad has no slash
    ['122029', { month: 12, year: 2029 }],
    ['12 / 29', { month: 12, year: 2029 }],
    ['12-29', { month: 12, year: 2029 }],
    [' 1229 ', { month: 12, year: 2029 }],
    ['1329', null],
    ['0029', null],
    ['129', null],
    ['12/7', null],
    ['', null],
  ])('%j -> %j', (value, expected) => {
    expect(parseExpiry(value)).toEqual(expected);
  });

  it.each([
    [{ month: 11, year: 2026 }, false], // valid until the end of its month
    [{ month: 12, year: 2026 }, false],
    [{ month: 10, year: 2026 }, true],
    [{ month: 12, year: 2025 }, true],
    [{ month: 1, year: 2027 }, false],
  ])('%j expired on 21/11/2026: %s', (expiry, expected) => {
    expect(isExpired(expiry, NOW)).toBe(expected);
  });

  it('reads the month in French time: 1 December 00:30 in Paris is still November in UTC', () => {
    expect(isExpired({ month: 11, year: 2026 }, new Date('2026-11-30T23:30:00Z'))).toBe(true);
  });
});

describe('expiry as one types it', () => {
  it.each([
    ['', ''],
    ['1', '1'],
    ['12', '12'],
    ['122', '12/2'],
    ['1229', '12/29'],
    ['12/29', '12/29'],
    ['12 / 29', '12/29'],
    ['12/2', '12/2'],
    ['122029', '12/20'],
  ])('%j shows %j', (typed, shown) => {
    expect(formatExpiryInput(typed)).toBe(shown);
  });

  it.each([
    ['1229', '12/29'],
    ['1/29', '01/29'],
    ['12 / 2029', '12/29'],
    ['nonsense', 'nonsense'],
  ])('%j is kept as %j', (typed, kept) => {
    expect(normaliseExpiry(typed)).toBe(kept);
  });
});

describe('card form schema', () => {
  it('accepts a complete form and normalises the number', () => {
    const result = schema.parse(valid);
    expect(result.cardNumber).toBe('4242424242424242');
  });

  it('accepts what a phone types: no slash in the expiry, spaces in the number and the CVV', () => {
    const result = schema.parse({ ...valid, cardNumber: '4242424242424242', expiryDate: '1229', cvv: '1 2 3' });
    expect(result).toEqual({ ...valid, cardNumber: '4242424242424242', expiryDate: '12/29', cvv: '123' });
  });

  it('requires every field, with the French messages', () => {
    expect(errors({})).toEqual({
      cardHolder: [CARD_MESSAGES.cardHolderRequired],
      cardNumber: [CARD_MESSAGES.cardNumberRequired],
      expiryDate: [CARD_MESSAGES.expiryRequired],
      cvv: [CARD_MESSAGES.cvvRequired],
    });
    expect(errors({ cardHolder: '  ', cardNumber: '', expiryDate: ' ', cvv: '' })).toEqual({
      cardHolder: [CARD_MESSAGES.cardHolderRequired],
      cardNumber: [CARD_MESSAGES.cardNumberRequired],
      expiryDate: [CARD_MESSAGES.expiryRequired],
      cvv: [CARD_MESSAGES.cvvRequired],
    });
  });

  it.each([
    [{ cardNumber: '4242 4242 4242 4241' }, 'cardNumber', CARD_MESSAGES.cardNumberInvalid],
    [{ expiryDate: '12285' }, 'expiryDate', CARD_MESSAGES.expiryFormat],
    [{ expiryDate: '13/28' }, 'expiryDate', CARD_MESSAGES.expiryFormat],
    [{ expiryDate: '10/26' }, 'expiryDate', CARD_MESSAGES.expiryPast],
    [{ cvv: '12' }, 'cvv', CARD_MESSAGES.cvvInvalid],
    [{ cvv: '12345' }, 'cvv', CARD_MESSAGES.cvvInvalid],
    [{ cvv: '12a' }, 'cvv', CARD_MESSAGES.cvvInvalid],
  ])('%j is refused', (change, field, message) => {
    expect(errors({ ...valid, ...change })[field]).toContain(message);
  });

  it('accepts a CVV of 4 digits (American Express)', () => {
    expect(schema.safeParse({ ...valid, cvv: '1234' }).success).toBe(true);
  });
});
