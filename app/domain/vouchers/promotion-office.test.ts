import { describe, expect, it } from 'vitest';
import { noel20 } from '../../../tests/support/promotions';
import { parisMidnight } from '../calendar';
import { DEFAULT_PRICE_LIST, SUPPORT_TYPES } from '../pricing/default-price-list';
import { PROMOTION_INTENTS, routeAccess } from '../staff/access-rules';
import { can } from '../staff/permissions';
import {
  PROMOTION_OFFICE_MESSAGES,
  promotionLimitsText,
  promotionOfficeRow,
  promotionSupportOptions,
} from './promotion-office';

const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');

const NOEL20 = noel20({
  maxUsesPerCustomer: 1,
});

describe('« Codes promo »: a code’s row', () => {
  it('says the terms, the state and the figures in French', () => {
    const row = promotionOfficeRow(
      { id: 'p1', terms: NOEL20, paused: false, uses: 3, discountCents: 2100, revenueCents: 14_000 },
      DEFAULT_PRICE_LIST,
      new Date('2026-12-02T10:00:00Z'),
    );
    expect(row).toMatchObject({
      id: 'p1',
      code: 'NOEL20',
      label: 'Noël 2026',
      state: 'active',
      uses: 3,
      paused: false,
    });
    expect(row.discount).toBe('20\u00A0% sur Photos papier');
    expect(row.period).toBe('à partir du 01/12/2026');
    expect(row.limits).toBe('1\u00A0par client');
    expect(row.stateLabel).toBe('Actif');
    expect(plain(row.discountGiven)).toBe('21,00 €');
    expect(plain(row.revenue)).toBe('140,00 €');
  });

  it('follows the domain’s state: scheduled before its first day, paused, ended after its last', () => {
    const figures = { id: 'p1', terms: NOEL20, paused: false, uses: 0, discountCents: 0, revenueCents: 0 };
    expect(promotionOfficeRow(figures, DEFAULT_PRICE_LIST, new Date('2026-11-30T12:00:00Z')).stateLabel).toBe(
      'Programmé',
    );
    expect(
      promotionOfficeRow({ ...figures, paused: true }, DEFAULT_PRICE_LIST, new Date('2026-12-02T12:00:00Z')).stateLabel,
    ).toBe('Suspendu');
    const ended = { ...NOEL20, endsAt: parisMidnight({ year: 2026, month: 12, day: 25 }) };
    const row = promotionOfficeRow({ ...figures, terms: ended }, DEFAULT_PRICE_LIST, new Date('2026-12-26T12:00:00Z'));
    expect(row.stateLabel).toBe('Terminé');
    expect(row.period).toBe('du 01/12/2026 au 24/12/2026');
  });
});

describe('« Codes promo »: the limits', () => {
  it('lists each limit set, in the form’s words, or says there is none', () => {
    expect(
      promotionLimitsText({
        maxUses: null,
        maxUsesPerCustomer: null,
        minimumOrderCents: 0,
        firstOrderOnly: false,
        combinable: false,
      }),
    ).toBe('Aucune');
    expect(
      plain(
        promotionLimitsText({
          maxUses: 100,
          maxUsesPerCustomer: 1,
          minimumOrderCents: 3000,
          firstOrderOnly: true,
          combinable: true,
        }),
      ),
    ).toBe('100 utilisations au total, 1 par client, dès 30,00 € de numérisation, première commande, cumulable');
    expect(
      promotionLimitsText({
        maxUses: 1,
        maxUsesPerCustomer: null,
        minimumOrderCents: 0,
        firstOrderOnly: true,
        combinable: false,
      }),
    ).toBe('1\u00A0utilisation au total, première commande');
  });
});

describe('« Codes promo »: the form’s supports and answers', () => {
  it('offers every support of the price list, with its title, in the shop’s order', () => {
    const options = promotionSupportOptions(DEFAULT_PRICE_LIST);
    expect(options.map((option) => option.value)).toEqual([...SUPPORT_TYPES]);
    expect(options[0]).toEqual({ value: 'photos', label: 'Photos papier' });
  });

  it('puts a no-break space before a colon', () => {
    expect(PROMOTION_OFFICE_MESSAGES.checkForm).toContain('\u00A0:');
    expect(PROMOTION_OFFICE_MESSAGES.paused('NOEL20')).toMatch(/^Code promo NOEL20 suspendu\u00A0: /);
  });
});

describe('« Codes promo »: who may', () => {
  it('is the door’s table: the page and its three intents need `promotions`', () => {
    const access = routeAccess('routes/admin/promotions');
    expect(access?.read).toEqual({ kind: 'staff', capability: 'promotions' });
    expect(access?.write).toEqual({ kind: 'staff-intents', intents: PROMOTION_INTENTS });
    expect(Object.keys(PROMOTION_INTENTS).sort()).toEqual(['create', 'pause', 'resume']);
    expect(new Set(Object.values(PROMOTION_INTENTS))).toEqual(new Set(['promotions']));
  });

  it('is held by the administrator and the accountant, not by the workshop', () => {
    expect(can('admin', 'promotions')).toBe(true);
    expect(can('comptabilite', 'promotions')).toBe(true);
    expect(can('atelier', 'promotions')).toBe(false);
    expect(can('customer', 'promotions')).toBe(false);
  });
});
