import { describe, expect, it } from 'vitest';
import { itemOptions, itemsSummary, priceBreakdown, supportLabel } from './order-details';

const item = {
  type: 'photos',
  quantity: 120,
  quality: 'premium',
  resolution: '3600dpi',
  format: 'tif',
  restoration: 2,
  denoise: false,
  reelSize: null,
  unitPriceCents: 35,
  lineTotalCents: 4200,
};

describe('order wording', () => {
  it('names supports and summarises items', () => {
    expect(supportLabel('vhs')).toBe('Cassettes VHS');
    expect(supportLabel('inconnu')).toBe('inconnu');
    expect(itemsSummary([item, { type: 'vhs', quantity: 2 }])).toBe('120\u00A0× Photos papier, 2\u00A0× Cassettes VHS');
    expect(itemsSummary([])).toBe('—');
  });

  it('lists the options of a line', () => {
    expect(itemOptions(item)).toBe('Qualité premium, 3600\u00A0dpi, TIFF, 2\u00A0restaurations');
    expect(
      itemOptions({
        ...item,
        type: 'film',
        reelSize: 'medium',
        resolution: null,
        format: null,
        restoration: 0,
        denoise: true,
      }),
    ).toBe('Bobine moyenne (de 7 à 13 cm), Qualité premium, débruitage');
  });

  it('keeps the base price and the non-zero extras in the breakdown', () => {
    const lines = priceBreakdown({
      basePriceCents: 4200,
      qualityPriceCents: 1260,
      resolutionPriceCents: 0,
      formatPriceCents: 0,
      restorationPriceCents: 2000,
      denoisePriceCents: 0,
      deliveryCostCents: 1590,
      sendShippingCostCents: 0,
      returnShippingCostCents: 0,
      expressPriceCents: 2900,
      insurancePriceCents: 0,
      totalPriceCents: 11_950,
    });
    expect(lines.map((line) => line.cents)).toEqual([4200, 1260, 2000, 1590, 2900]);
    expect(lines.at(-1)?.label).toBe('Traitement express');
  });

  it('names the base price of an order of extra items by what it sold', () => {
    const prices = {
      basePriceCents: 5000,
      qualityPriceCents: 0,
      resolutionPriceCents: 0,
      formatPriceCents: 0,
      restorationPriceCents: 0,
      denoisePriceCents: 0,
      deliveryCostCents: 0,
      sendShippingCostCents: 0,
      returnShippingCostCents: 0,
      totalPriceCents: 5000,
    };
    const label = (type: string) => priceBreakdown(prices, [{ type }])[0]?.label;
    expect(label('gift-card')).toBe('Carte cadeau');
    expect(label('retention-extension')).toBe('Prolongation de la conservation');
    expect(label('copy-usb')).toBe('Copies');
    expect(label('photos')).toBe(priceBreakdown(prices)[0]?.label);
  });
});
