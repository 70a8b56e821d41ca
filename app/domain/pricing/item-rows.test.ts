import { describe, expect, it } from 'vitest';
import type { OrderLine } from '../orders/order-line';
import { orderChargeRows, orderItemRows } from './item-rows';

const NBSP = '\u00A0';

function item(change: Partial<OrderLine>): OrderLine {
  return {
    type: 'photos',
    quantity: 100,
    quality: 'standard',
    resolution: '2400dpi',
    format: 'jpeg',
    restoration: 0,
    denoise: false,
    reelSize: null,
    unitPriceCents: 35,
    lineTotalCents: 3500,
    ...change,
  };
}

const none = { restorationPriceCents: 0, denoisePriceCents: 0 };

describe('orderItemRows: every row is quantity × unit price = amount', () => {
  it('keeps a line that multiplies exactly as it is', () => {
    expect(orderItemRows([item({})], none)).toEqual([
      {
        label: 'Photos papier',
        detail: `Qualité standard, 2400${NBSP}dpi, JPEG`,
        quantity: 100,
        unitPriceCents: 35,
        totalCents: 3500,
      },
    ]);
  });

  it('shows 3 medium reels with denoising as 3 × 25,00 € and 3 × 5,00 €, not 3 × 25,00 € = 90,00 €', () => {
    const reels = item({
      type: 'film',
      quantity: 3,
      resolution: null,
      format: null,
      reelSize: 'medium',
      denoise: true,
      unitPriceCents: 2500,
      lineTotalCents: 9000,
    });
    const rows = orderItemRows([reels], { restorationPriceCents: 0, denoisePriceCents: 1500 });
    expect(rows.map((r) => [r.label, r.quantity, r.unitPriceCents, r.totalCents])).toEqual([
      ['Films Super 8 et 16 mm', 3, 2500, 7500],
      ['Débruitage', 3, 500, 1500],
    ]);
  });

  it('shows 100 photos at 4800 dpi TIFF (58,36 €, 0,58 € a photo rounded) as one lot', () => {
    const rows = orderItemRows(
      [item({ resolution: '4800dpi', format: 'tif', unitPriceCents: 58, lineTotalCents: 5836 })],
      none,
    );
    expect(rows).toEqual([
      {
        label: 'Photos papier',
        detail: `Lot de 100${NBSP}photos · Qualité standard, 4800${NBSP}dpi, TIFF`,
        quantity: 1,
        unitPriceCents: 5836,
        totalCents: 5836,
      },
    ]);
  });

  it('takes the restoration price from the order’s fields, over several lines', () => {
    const rows = orderItemRows(
      [
        item({ restoration: 4, resolution: '4800dpi', format: 'tif', unitPriceCents: 58, lineTotalCents: 5836 + 4000 }),
        item({ type: 'slides', quantity: 10, restoration: 1, unitPriceCents: 45, lineTotalCents: 450 + 1000 }),
      ],
      { restorationPriceCents: 5000, denoisePriceCents: 0 },
    );
    expect(rows.map((r) => [r.label, r.quantity, r.unitPriceCents, r.totalCents])).toEqual([
      ['Photos papier', 1, 5836, 5836],
      ['Restauration', 4, 1000, 4000],
      ['Diapositives', 10, 45, 450],
      ['Restauration', 1, 1000, 1000],
    ]);
  });

  it('adds up to the lines’ totals, and states fields that do not explain a line as one amount', () => {
    const odd = item({ restoration: 3, lineTotalCents: 3500 + 3001 });
    const rows = orderItemRows([odd], { restorationPriceCents: 3001, denoisePriceCents: 0 });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ quantity: 1, unitPriceCents: 6501, totalCents: 6501 });
    for (const row of rows) expect(row.quantity * row.unitPriceCents).toBe(row.totalCents);
  });

  it('lists delivery, the prepaid label, the return, express and insurance after the items', () => {
    const rows = orderChargeRows(
      {
        deliveryCostCents: 1500,
        sendShippingCostCents: 990,
        returnShippingCostCents: 1290,
        expressPriceCents: 0,
        insurancePriceCents: 450,
      },
      'usb',
    );
    expect(rows.map((r) => [r.label, r.detail, r.quantity, r.totalCents])).toEqual([
      ['Livraison', 'Clé USB', 1, 1500],
      ['Étiquette d’envoi prépayée', 'Envoi des originaux', 1, 990],
      ['Retour des originaux', 'Envoi suivi', 1, 1290],
      ['Assurance du retour', 'Ad valorem', 1, 450],
    ]);
    expect(
      orderChargeRows({ deliveryCostCents: 0, sendShippingCostCents: 0, returnShippingCostCents: 0 }, 'digital'),
    ).toEqual([]);
  });
});
