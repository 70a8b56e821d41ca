import { describe, expect, it } from 'vitest';
import { priceFormDefaults } from '../admin/price-form';
import { buildDocumentLines } from '../invoices/snapshot';
import { parseExtraCopyForm } from '../orders/extra-copies';
import { decide, type OrderState } from '../orders/lifecycle';
import { DEFAULT_PRICE_LIST } from './default-price-list';
import { parsePriceListDocument } from './price-list-schema';
import { PricingError, priceExtraCopies, priceRetentionExtension } from './pricing';

/*
 * Extra copies and « Prolonger d’un an » (decision 029): priced by the pricing function
 * from the price list's new entries; older lists read with the defaults; the lifecycle knows the
 * two kinds of order.
 */

describe('pricing extra copies', () => {
  it('prices keys or DVDs per unit plus one parcel, the fields adding up to the total', () => {
    const usb = priceExtraCopies(DEFAULT_PRICE_LIST, { medium: 'usb', quantity: 2 });
    expect(usb.line).toEqual({ type: 'copy-usb', quantity: 2, unitPriceCents: 1590, lineTotalCents: 3180 });
    expect(usb.price).toMatchObject({ basePriceCents: 3180, deliveryCostCents: 690, totalPriceCents: 3870 });
    const disc = priceExtraCopies(DEFAULT_PRICE_LIST, { medium: 'disc', quantity: 3 });
    expect(disc.price.totalPriceCents).toBe(3 * 1290 + 690);
    const { totalPriceCents, ...parts } = disc.price;
    expect(Object.values(parts).reduce((sum, value) => sum + value, 0)).toBe(totalPriceCents);
  });

  it('follows the published list, and refuses what the form should have refused', () => {
    const list = { ...DEFAULT_PRICE_LIST, extraCopies: { usbPrice: 2000, discPrice: 1000, shippingPrice: 0 } };
    expect(priceExtraCopies(list, { medium: 'usb', quantity: 1 }).price.totalPriceCents).toBe(2000);
    expect(() => priceExtraCopies(list, { medium: 'usb', quantity: 0 })).toThrow(PricingError);
    expect(() => priceExtraCopies(list, { medium: 'usb', quantity: 21 })).toThrow(PricingError);
  });

  it('prices a year of retention from Tarifs, with nothing to ship', () => {
    expect(priceRetentionExtension(DEFAULT_PRICE_LIST).price).toMatchObject({
      basePriceCents: 1200,
      deliveryCostCents: 0,
      totalPriceCents: 1200,
    });
    const list = { ...DEFAULT_PRICE_LIST, retentionExtension: { yearPrice: 990 } };
    expect(priceRetentionExtension(list).price.totalPriceCents).toBe(990);
  });

  it('reads a list published before these entries with their defaults, and refuses a bad price', () => {
    const { extraCopies: _c, retentionExtension: _r, ...older } = DEFAULT_PRICE_LIST;
    const parsed = parsePriceListDocument(older);
    expect(parsed.ok && parsed.document.extraCopies).toEqual(DEFAULT_PRICE_LIST.extraCopies);
    const bad = parsePriceListDocument({ ...DEFAULT_PRICE_LIST, retentionExtension: { yearPrice: 12.5 } });
    expect(bad.ok).toBe(false);
  });

  it('has its fields in the Tarifs form, in euros', () => {
    const defaults = priceFormDefaults(DEFAULT_PRICE_LIST) as Record<string, Record<string, string>>;
    expect(defaults.extraCopies).toEqual({ usbPrice: '15,90', discPrice: '12,90', shippingPrice: '6,90' });
    expect(defaults.retentionExtension).toEqual({ yearPrice: '12,00' });
  });

  it('is invoiced as copies and their parcel', () => {
    const lines = buildDocumentLines({
      id: 'o',
      number: 'SV-2026-000001',
      createdAt: new Date(),
      deliveryMethod: 'usb',
      deliveryCostCents: 690,
      sendShippingCostCents: 0,
      returnShippingCostCents: 0,
      totalPriceCents: 3870,
      items: [
        {
          type: 'copy-usb',
          quantity: 2,
          quality: 'standard',
          resolution: null,
          format: null,
          restoration: 0,
          denoise: false,
          reelSize: null,
          unitPriceCents: 1590,
          lineTotalCents: 3180,
        },
      ],
    });
    expect(lines.map((line) => [line.label, line.quantity, line.unitPriceCents, line.totalCents])).toEqual([
      ['Copie sur clé USB', 2, 1590, 3180],
      ['Livraison', 1, 690, 690],
    ]);
  });
});

describe('the copies form', () => {
  const form = (entries: Array<[string, string]>) => {
    const data = new FormData();
    for (const [name, value] of entries) data.append(name, value);
    return data;
  };

  it('reads a gift of two keys of a selection', () => {
    const parsed = parseExtraCopyForm(
      form([
        ['medium', 'usb'],
        ['quantity', '2'],
        ['scope', 'selection'],
        ['fileId', 'a'],
        ['fileId', 'b'],
        ['forWhom', 'gift'],
        ['recipient.firstName', 'Louise'],
        ['recipient.lastName', 'Curie'],
        ['recipient.line1', '3 rue des Lilas'],
        ['recipient.postalCode', '69003'],
        ['recipient.city', 'Lyon'],
        ['recipient.country', 'FR'],
        ['recipient.phone', '06 11 22 33 44'],
        ['giftMessage', 'Bon anniversaire'],
      ]),
    );
    expect(parsed.ok && parsed.value).toMatchObject({
      medium: 'usb',
      quantity: 2,
      fileIds: ['a', 'b'],
      recipient: { city: 'Lyon', phone: '+33611223344' },
      giftMessage: 'Bon anniversaire',
    });
  });

  it('answers every mistake in French and keeps what was typed', () => {
    const parsed = parseExtraCopyForm(
      form([
        ['medium', 'vhs'],
        ['quantity', '0'],
        ['scope', 'selection'],
        ['forWhom', 'gift'],
        ['recipient.city', 'Lyon'],
        ['giftMessage', 'x'.repeat(501)],
      ]),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toMatchObject({
      medium: 'Choisissez une clé USB ou un DVD.',
      quantity: 'Indiquez un nombre de copies entre 1 et 20.',
      files: 'Sélectionnez au moins un fichier à copier.',
      giftMessage: expect.stringContaining('500'),
      recipient: { firstName: expect.any(String) },
    });
    expect(parsed.values.recipient.city).toBe('Lyon');
  });
});

describe('the lifecycle of these orders', () => {
  const base: OrderState = {
    status: 'pending',
    paymentStatus: 'pending',
    paymentMethod: 'card',
    placed: false,
    withdrawn: false,
    totalCents: 3870,
    paidCents: 0,
    refundedCents: 0,
    stage: 'awaiting_originals',
    physical: true,
    hasDeliveryAddress: true,
    supplement: null,
    workNotBefore: new Date('2099-01-01T00:00:00Z'),
  };

  it('puts extra copies at the workshop when placed, receives no parcel, and lets the copy start once paid', () => {
    const placed = decide({ ...base, kind: 'extra_copy' }, { type: 'place', method: 'card' });
    expect(placed.ok && placed.next.stage).toBe('received');
    if (!placed.ok) return;
    expect(decide(placed.next, { type: 'receive', dueAt: new Date().toISOString() })).toMatchObject({ ok: false });
    const paid = decide(placed.next, { type: 'settle_payment', amountCents: 3870, currency: 'EUR', method: 'card' });
    if (!paid.ok) throw new Error(paid.message);
    expect(decide(paid.next, { type: 'advance_stage', to: 'digitising' }).ok).toBe(true);
    // A digitisation in the same state still waits for the end of the withdrawal period.
    expect(decide({ ...paid.next, kind: 'digitisation' }, { type: 'advance_stage', to: 'digitising' }).ok).toBe(false);
  });

  it('performs a retention extension with its payment', () => {
    const state: OrderState = {
      ...base,
      kind: 'retention_extension',
      physical: false,
      hasDeliveryAddress: false,
      totalCents: 1200,
    };
    const placed = decide(state, { type: 'place', method: 'card' });
    if (!placed.ok) throw new Error(placed.message);
    const paid = decide(placed.next, { type: 'settle_payment', amountCents: 1200, currency: 'EUR', method: 'card' });
    if (!paid.ok) throw new Error(paid.message);
    expect(paid.next).toMatchObject({ status: 'completed', stage: 'ready', paymentStatus: 'paid' });
    expect(paid.effects.map((effect) => effect.kind)).toContain('extend_retention');
    expect(decide(paid.next, { type: 'withdraw', withinPeriod: true })).toMatchObject({ ok: false, code: 'performed' });
  });
});
