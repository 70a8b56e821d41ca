import { parisMidnight } from '~/domain/calendar';
import type { PromotionTerms } from '~/domain/vouchers/promotions';

/**
 * The shop's Christmas code for the unit tests: 20 % off paper photos from 1 December 2026
 * (midnight, Paris time), no end, no limit, not combinable; `overrides` changes what a test needs.
 */
export function noel20(overrides: Partial<PromotionTerms> = {}): PromotionTerms {
  return {
    code: 'NOEL20',
    label: 'Noël 2026',
    kind: 'percent',
    percent: 20,
    amountCents: null,
    supports: ['photos'],
    minimumOrderCents: 0,
    startsAt: parisMidnight({ year: 2026, month: 12, day: 1 }),
    endsAt: null,
    maxUses: null,
    maxUsesPerCustomer: null,
    firstOrderOnly: false,
    combinable: false,
    ...overrides,
  };
}
