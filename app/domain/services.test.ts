import { describe, expect, it } from 'vitest';
import {
  CARD_SERVICE_IDS,
  resolveServiceId,
  SERVICE_CATALOGUE,
  SERVICE_CATEGORIES,
  STRUCTURED_DATA_SERVICE_IDS,
} from './services';
import { SERVICE_IDS } from './site-navigation';

describe('the service catalogue', () => {
  it('has one entry per service id of the catalogue, each in a known category', () => {
    expect(SERVICE_CATALOGUE.map((s) => s.id)).toEqual([...SERVICE_IDS]);
    const categories = SERVICE_CATEGORIES.map((c) => c.id);
    for (const service of SERVICE_CATALOGUE) expect(categories).toContain(service.category);
  });

  it('shows 12 cards, with photos, vhs and restauration marked popular', () => {
    expect(CARD_SERVICE_IDS).toHaveLength(12);
    const popular = SERVICE_CATALOGUE.filter((s) => s.popular).map((s) => s.id);
    expect(popular).toEqual(['photos', 'vhs', 'restauration']);
    expect(STRUCTURED_DATA_SERVICE_IDS).toHaveLength(7);
  });

  it('resolves the footer’s plaques-verre alias and nothing unknown', () => {
    expect(resolveServiceId('plaques-verre')).toBe('plaques-de-verre');
    expect(resolveServiceId('vhs-c')).toBe('vhs-c');
    expect(resolveServiceId('constructor')).toBeNull();
  });
});
