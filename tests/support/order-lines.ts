import type { OrderLine } from '~/domain/orders/order-line';

/** An order line as the checkout stores it: 100 photos in 2400 dpi JPEG at 0,35 €, unless told otherwise. */
export function testOrderLine(overrides: Partial<OrderLine> = {}): OrderLine {
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
    ...overrides,
  };
}
