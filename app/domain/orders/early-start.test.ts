import { describe, expect, it } from 'vitest';
import { EARLY_START_TEXT, workHeldBack, workNotBefore } from './early-start';

describe('the work start of a customer who keeps their withdrawal period', () => {
  it('is the first day after the 14 days, Paris midnight', () => {
    const notBefore = workNotBefore({ createdAt: new Date('2026-11-24T09:00:00Z'), earlyStartConsentAt: null });
    expect(notBefore?.toISOString()).toBe('2026-12-08T23:00:00.000Z');
    expect(EARLY_START_TEXT.startsAfterPeriod(notBefore as Date)).toBe(
      'Les travaux commenceront le 09/12/2026, à la fin de votre délai de rétractation.',
    );
  });

  it('moves past a period ending on a week-end or a public holiday', () => {
    // Ordered on Saturday 12/12/2026: the 14th day is Saturday 26/12, moved to Monday 28/12.
    const notBefore = workNotBefore({ createdAt: new Date('2026-12-12T10:00:00Z'), earlyStartConsentAt: null });
    expect(EARLY_START_TEXT.notBefore(notBefore as Date)).toBe('Ne pas commencer avant le 29/12/2026');
  });

  it('is none when the customer asked to start at once', () => {
    expect(workNotBefore({ createdAt: new Date(), earlyStartConsentAt: new Date() })).toBeNull();
  });

  it('holds the work back only before that instant', () => {
    const at = new Date('2026-12-08T23:00:00Z');
    expect(workHeldBack(at, new Date('2026-12-08T22:59:59Z'))).toBe(true);
    expect(workHeldBack(at, at)).toBe(false);
    expect(workHeldBack(null, new Date(0))).toBe(false);
  });
});

describe('the checkout’s words about the choice', () => {
  it('says the request is optional and when the work starts without it', () => {
    expect(EARLY_START_TEXT.optional(new Date('2026-12-08T23:00:00Z'))).toBe(
      'Cette demande est facultative\u00a0: sans elle, les travaux commenceront le 09/12/2026, à la fin de votre délai de rétractation.',
    );
  });
});
