import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICE_LIST } from '../pricing/default-price-list';
import { applyPriceForm, fieldValue, parseDecimal, priceTabs, sanitiseEntry } from './price-form';

describe('the Tarifs form', () => {
  it('has the specification’s sub-tabs and ours, covering every price of the list', () => {
    const tabs = priceTabs(DEFAULT_PRICE_LIST);
    expect(tabs.map((t) => t.label)).toEqual([
      'Supports',
      'Bobines',
      'Résolution',
      'Format',
      'Livraison',
      'Options et envois',
    ]);
    expect(tabs.flatMap((t) => t.fields)).toHaveLength(11 + 3 + 3 + 2 + 3 + 6);
  });

  it('shows euros with two decimals and coefficients as they are', () => {
    const [supports, , resolution] = priceTabs(DEFAULT_PRICE_LIST);
    expect(fieldValue(DEFAULT_PRICE_LIST, supports!.fields[0]!)).toBe('0.35');
    expect(fieldValue(DEFAULT_PRICE_LIST, resolution!.fields[2]!)).toBe('1.45');
  });

  it.each([
    ['12,5', 12.5],
    [' 12.50 ', 12.5],
    ['0', 0],
    ['abc', null],
    ['1e3', null],
    ['', null],
    ['12.5.1', null],
  ])('reads %j as %s', (text, value) => {
    expect(parseDecimal(text)).toBe(value);
  });

  it('applies the entries: euros to cents, non-numeric ignored, minimums enforced', () => {
    const result = applyPriceForm(DEFAULT_PRICE_LIST, {
      'supports.photos.basePrice': '0,42',
      'supports.vhs.basePrice': 'dix-sept',
      'filmReelPricing.large.price': '-1',
      'resolutionMultipliers.4800dpi': '1.5',
      'formatOptions.tif.multiplier': '0.9',
      'deliveryCosts.usb': '19.99',
      restorationPrice: '12',
    });
    expect(result.document.supports.photos.basePrice).toBe(42);
    expect(result.document.supports.vhs.basePrice).toBe(1700);
    expect(result.ignored).toEqual(['supports.vhs.basePrice']);
    expect(result.errors).toEqual({
      'filmReelPricing.large.price': 'Un montant ne peut pas être négatif',
      'formatOptions.tif.multiplier': 'Un coefficient vaut au moins 1',
    });
    expect(result.document.resolutionMultipliers['4800dpi']).toBe(1.5);
    expect(result.document.deliveryCosts.usb).toBe(1999);
    expect(result.document.restorationPrice).toBe(1200);
    // The current list is not changed.
    expect(DEFAULT_PRICE_LIST.supports.photos.basePrice).toBe(35);
  });

  it('keeps the previous value when a typed entry is not a number', () => {
    expect(sanitiseEntry('12', '12,5')).toBe('12,5');
    expect(sanitiseEntry('12', '12a')).toBe('12');
    expect(sanitiseEntry('12', '')).toBe('');
  });
});
