import { describe, expect, it } from 'vitest';
import {
  pageCount,
  parseCustomerListParams,
  parseDay,
  parseOrderListParams,
  parsePage,
  parseSearch,
  withParams,
} from './list-params';
import { COUNT_CAP_DEFAULT, countLabel, pageOf } from './paging';

describe('list parameters', () => {
  it.each([
    ['2026-11-21', '2026-11-21'],
    ['2026-02-30', null],
    ['21/11/2026', null],
    ['', null],
    [null, null],
  ])('reads the day %s as %s', (input, expected) => {
    expect(parseDay(input)).toBe(expected);
  });

  it.each([
    ['3', 3],
    ['0', 1],
    ['-2', 1],
    ['2.5', 1],
    ['abc', 1],
    ['99999999', 10_000],
  ])('reads the page %s as %s', (input, expected) => {
    expect(parsePage(input)).toBe(expected);
  });

  it('trims and bounds the search term', () => {
    expect(parseSearch('  Jeanne   Martin ')).toBe('Jeanne Martin');
    expect(parseSearch('x'.repeat(300))).toHaveLength(100);
    expect(parseSearch(null)).toBe('');
  });

  it('reads the orders list leniently, with defaults and a period read the right way round', () => {
    expect(parseOrderListParams(new URLSearchParams('status=shipped&payment=paid&sort=amount&dir=asc&page=2'))).toEqual(
      {
        q: '',
        page: 2,
        status: 'shipped',
        payment: 'paid',
        drafts: false,
        from: null,
        to: null,
        sort: 'amount',
        dir: 'asc',
        delivery: null,
        label: false,
        returnOriginals: false,
        stage: null,
        pageSize: 20,
      },
    );
    // More per page, to select them all for a bulk action; any other size is the default.
    expect(parseOrderListParams(new URLSearchParams('par_page=100'))).toMatchObject({ pageSize: 100 });
    expect(parseOrderListParams(new URLSearchParams('par_page=5000'))).toMatchObject({ pageSize: 20 });
    expect(
      parseOrderListParams(new URLSearchParams('livraison=usb&etiquette=oui&retour=oui&etape=received')),
    ).toMatchObject({ delivery: 'usb', label: true, returnOriginals: true, stage: 'received' });
    expect(
      parseOrderListParams(new URLSearchParams('status=lost&sort=evil&dir=up&from=2026-11-30&to=2026-11-01')),
    ).toMatchObject({ status: null, sort: 'date', dir: 'desc', from: '2026-11-01', to: '2026-11-30' });
    // Drafts are listed only when asked for.
    expect(parseOrderListParams(new URLSearchParams('vue=brouillons'))).toMatchObject({ drafts: true });
    expect(parseCustomerListParams(new URLSearchParams('sort=name'))).toMatchObject({ sort: 'name', dir: 'asc' });
    expect(parseCustomerListParams(new URLSearchParams(''))).toMatchObject({ sort: 'date', dir: 'desc' });
  });

  it('writes parameters back, dropping defaults and going back to page 1 on any other change', () => {
    const current = new URLSearchParams('q=martin&page=3&status=pending');
    expect(withParams(current, { status: 'shipped' })).toBe('?q=martin&status=shipped');
    expect(withParams(current, { page: 4 })).toBe('?q=martin&page=4&status=pending');
    expect(withParams(current, { page: 1 })).toBe('?q=martin&status=pending');
    expect(withParams(new URLSearchParams('q=a'), { q: null })).toBe('?');
  });

  it('counts at least one page', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(41)).toBe(3);
  });
});

describe('pages of a list', () => {
  it('caps the count and says so', () => {
    const capped = pageOf(Array.from({ length: 20 }), 1, COUNT_CAP_DEFAULT + 1);
    expect(capped).toMatchObject({ total: COUNT_CAP_DEFAULT, totalIsCapped: true, pageCount: 500 });
    const exact = pageOf(Array.from({ length: 5 }), 2, 25);
    expect(exact).toMatchObject({ total: 25, totalIsCapped: false, pageCount: 2 });
    // Beyond the capped count, the next page stays reachable while pages are full.
    expect(pageOf(Array.from({ length: 20 }), 600, COUNT_CAP_DEFAULT + 1).pageCount).toBe(601);
    const words = { one: 'commande', many: 'commandes', none: 'Aucune commande' };
    expect(countLabel(capped, words)).toBe('plus de 10\u202F000 commandes');
    expect(countLabel({ total: 1, totalIsCapped: false }, words)).toBe('1 commande');
    expect(countLabel({ total: 0, totalIsCapped: false }, words)).toBe('Aucune commande');
  });
});
