import { describe, expect, it } from 'vitest';
import { parseEurosToCents, REFUND_FORM_MESSAGES, refundFormSchema } from './refund-form';

describe('parseEurosToCents', () => {
  it.each([
    ['12,50', 1250],
    ['12.5', 1250],
    ['0,39', 39],
    ['125', 12_500],
    ['1 234,00', 123_400],
    ['1\u202f234,56 €', 123_456],
    ['', null],
    ['-5', null],
    ['12,345', null],
    ['1,2,3', null],
    ['douze', null],
    ['1e3', null],
  ])('%j → %s', (input, expected) => {
    expect(parseEurosToCents(input)).toBe(expected);
  });
});

describe('refundFormSchema', () => {
  it('reads a French amount, the way and the reason', () => {
    expect(refundFormSchema.parse({ amount: '20,00', method: 'gateway', reason: '  Photos abîmées  ' })).toEqual({
      amount: 2000,
      method: 'gateway',
      reason: 'Photos abîmées',
    });
  });

  it('answers in French', () => {
    const result = refundFormSchema.safeParse({ amount: 'abc', method: 'bitcoin', reason: ' ' });
    expect(result.success).toBe(false);
    const messages = result.success ? [] : result.error.issues.map((i) => i.message);
    expect(messages).toEqual([
      REFUND_FORM_MESSAGES.amountInvalid,
      REFUND_FORM_MESSAGES.methodInvalid,
      REFUND_FORM_MESSAGES.reasonRequired,
    ]);
  });
});
