import { describe, expect, it } from 'vitest';
import { customerTimeline, itemOptions, itemsSummary, priceBreakdown, supportLabel } from './order-details';

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
      totalPriceCents: 9050,
    });
    expect(lines.map((line) => line.cents)).toEqual([4200, 1260, 2000, 1590]);
  });
});

describe('customerTimeline', () => {
  it('shows the status history in order and hides staff bookkeeping', () => {
    const entries = customerTimeline([
      { at: '2026-03-05T10:00:00Z', kind: 'status_changed', from: 'pending', to: 'processing' },
      { at: '2026-03-01T10:00:00Z', kind: 'created', from: null, to: 'pending' },
      { at: '2026-03-01T10:05:00Z', kind: 'payment_paid', from: 'pending', to: 'paid' },
      { at: '2026-03-01T10:06:00Z', kind: 'email_sent', from: null, to: null },
      { at: '2026-03-02T10:06:00Z', kind: 'note', from: null, to: null },
      { at: '2026-03-06T10:00:00Z', kind: 'withdrawal_requested', from: null, to: null },
    ]);
    expect(entries.map((entry) => entry.label)).toEqual([
      'Commande enregistrée',
      'Paiement reçu',
      'Statut : En traitement',
      'Rétractation demandée',
    ]);
  });
});
