import { describe, expect, it } from 'vitest';
import { company } from '../company';
import type { OrderLine } from '../orders/order-line';
import { DEFAULT_PRICE_LIST } from '../pricing/default-price-list';
import { addressLines, documentHeading, sellerLegalLine } from './format';
import {
  buildDocumentLines,
  buildDocumentSnapshot,
  operationCategoryOf,
  parseDocumentSnapshot,
  partialCreditLines,
  type SnapshotOrder,
  sellerFromCompany,
} from './snapshot';
import { splitVat } from './vat';

const item = (overrides: Partial<OrderLine>): OrderLine => ({
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
});

const order: SnapshotOrder = {
  id: '6f1c2d3e-0000-4000-8000-000000000001',
  number: 'SV-2026-000042',
  createdAt: '2026-11-20T09:00:00Z',
  deliveryMethod: 'usb',
  deliveryCostCents: 1590,
  sendShippingCostCents: 990,
  returnShippingCostCents: 0,
  totalPriceCents: 3500 + 4400 + 10_587 + 1590 + 990,
  items: [
    item({}),
    item({
      type: 'vhs',
      quantity: 2,
      resolution: null,
      format: null,
      denoise: true,
      unitPriceCents: 1700,
      lineTotalCents: 4400,
    }),
    // Rounded once as a whole (docs/pricing.md): 100 x 0,75871 € = 75,87 €, not 100 x 0,76 €; 3 restored.
    item({
      quality: 'premium',
      resolution: '4800dpi',
      format: 'tif',
      restoration: 3,
      unitPriceCents: 76,
      lineTotalCents: 7587 + 3000,
    }),
  ],
};

const buyer = {
  name: 'Marie Curie',
  email: 'marie.curie@exemple.fr',
  phone: null,
  street: '11 rue Pierre et Marie Curie',
  postalCode: '75005',
  city: 'Paris',
  country: 'France',
};

describe('document lines', () => {
  const lines = buildDocumentLines(order, DEFAULT_PRICE_LIST);

  it('states every item, restoration, denoising and the extras, each line quantity x unit = total', () => {
    expect(lines.map((l) => [l.label, l.quantity, l.unitPriceCents, l.totalCents])).toEqual([
      ['Photos papier', 100, 35, 3500],
      ['Cassettes VHS', 2, 1700, 3400],
      ['Débruitage', 2, 500, 1000],
      ['Photos papier', 1, 7587, 7587],
      ['Restauration', 3, 1000, 3000],
      ['Livraison', 1, 1590, 1590],
      ['Étiquette d’envoi prépayée', 1, 990, 990],
    ]);
    for (const line of lines) expect(line.quantity * line.unitPriceCents).toBe(line.totalCents);
    expect(lines.reduce((sum, l) => sum + l.totalCents, 0)).toBe(order.totalPriceCents);
  });

  it('describes the options and states a line rounded as a whole as a lot', () => {
    expect(lines[0]?.detail).toBe('Qualité standard, 2400\u00A0dpi, JPEG');
    expect(lines[3]?.detail).toBe('Lot de 100\u00A0photos · Qualité premium, 4800\u00A0dpi, TIFF');
    expect(lines[2]?.detail).toBe('Cassettes VHS');
    expect(lines[5]?.detail).toBe('Clé USB');
  });

  it('adds an adjustment line when an order’s fields do not add up to its total', () => {
    const off = buildDocumentLines({ ...order, totalPriceCents: order.totalPriceCents + 7 }, DEFAULT_PRICE_LIST);
    expect(off.at(-1)).toMatchObject({ label: 'Ajustement', quantity: 1, totalCents: 7 });
    expect(off.reduce((sum, l) => sum + l.totalCents, 0)).toBe(order.totalPriceCents + 7);
  });

  it('states as one amount an item the price list cannot explain', () => {
    const odd = buildDocumentLines(
      {
        ...order,
        items: [item({ restoration: 5, lineTotalCents: 2000 })],
        deliveryCostCents: 0,
        sendShippingCostCents: 0,
        totalPriceCents: 2000,
      },
      DEFAULT_PRICE_LIST,
    );
    expect(odd).toEqual([
      {
        label: 'Photos papier',
        detail: 'Lot de 100\u00A0photos · Qualité standard, 2400\u00A0dpi, JPEG',
        quantity: 1,
        unitPriceCents: 2000,
        totalCents: 2000,
        category: 'services',
      },
    ]);
  });

  it('tells goods (a USB key delivered, extra copies) from services (everything else)', () => {
    expect(lines.map((l) => l.category)).toEqual([
      'services',
      'services',
      'services',
      'services',
      'services',
      'goods',
      'services',
    ]);
    const digital = buildDocumentLines(
      { ...order, deliveryMethod: 'digital', deliveryCostCents: 0 },
      DEFAULT_PRICE_LIST,
    );
    expect(operationCategoryOf({ lines: digital.map((l) => ({ ...l, totalExcludingVatCents: 0 })) })).toBe('services');
    expect(operationCategoryOf({ lines: lines.map((l) => ({ ...l, totalExcludingVatCents: 0 })) })).toBe('mixed');
    // A document issued before categories were recorded: its lines were services.
    expect(operationCategoryOf({ lines: [{ ...lines[0], category: undefined } as never] })).toBe('services');
  });
});

describe('invoice snapshot', () => {
  const snapshot = buildDocumentSnapshot({
    kind: 'invoice',
    number: 'FA-2026-000001',
    issuedAt: new Date('2026-11-21T10:15:00Z'),
    order,
    priceList: DEFAULT_PRICE_LIST,
    buyer,
    payment: { method: 'card', paidAt: new Date('2026-11-21T10:15:00Z'), provider: 'stripe' },
  });

  it('freezes the seller’s legal identity', () => {
    expect(snapshot.seller).toEqual(sellerFromCompany());
    expect(snapshot.seller).toMatchObject({
      name: company.legalName,
      siren: company.siren,
      rcs: 'RCS Paris',
      capital: company.capital,
      vatNumber: company.vatNumber,
      street: company.street,
      postalCode: company.postalCode,
      city: company.city,
    });
    expect(snapshot.seller.capital.replace(/\s/g, ' ')).toBe('15 000 €');
    expect(sellerLegalLine(snapshot)).toContain('SIREN');
    expect(sellerLegalLine(snapshot)).toContain('RCS Paris');
  });

  it('states buyer, dates, totals excluding VAT, VAT 20 % and total, all adding up', () => {
    expect(snapshot).toMatchObject({
      version: 1,
      kind: 'invoice',
      title: 'Facture',
      number: 'FA-2026-000001',
      orderNumber: 'SV-2026-000042',
      serviceDate: '2026-11-20',
      issuedAt: '2026-11-21T10:15:00.000Z',
      buyer,
      vatRatePercent: 20,
      totalCents: order.totalPriceCents,
      payment: { method: 'card', methodLabel: 'Carte bancaire', provider: 'stripe' },
    });
    expect(snapshot.totalExcludingVatCents + snapshot.vatCents).toBe(snapshot.totalCents);
    expect(snapshot.vatCents).toBe(snapshot.totalCents - Math.round(snapshot.totalCents / 1.2));
    expect(snapshot.lines.reduce((s, l) => s + l.totalExcludingVatCents, 0)).toBe(snapshot.totalExcludingVatCents);
    expect(snapshot.notes[0]).toBe('Facture acquittée le 21/11/2026 (carte bancaire).');
    expect(documentHeading(snapshot)).toBe('Facture FA-2026-000001');
    expect(addressLines(buyer)).toEqual(['11 rue Pierre et Marie Curie', '75005 Paris', 'France']);
  });

  it('survives a round trip through JSON (the jsonb column) and refuses other shapes', () => {
    expect(parseDocumentSnapshot(JSON.parse(JSON.stringify(snapshot)))).toEqual(snapshot);
    expect(parseDocumentSnapshot({ lines: [] })).toBeNull();
    expect(parseDocumentSnapshot(null)).toBeNull();
  });

  it('makes a credit note that names the invoice it cancels', () => {
    const credit = buildDocumentSnapshot({
      kind: 'credit_note',
      number: 'AV-2026-000001',
      issuedAt: new Date('2026-11-25T10:00:00Z'),
      order,
      buyer,
      invoiceNumber: 'FA-2026-000001',
      reason: 'Commande annulée',
    });
    expect(credit).toMatchObject({
      title: 'Avoir',
      invoiceNumber: 'FA-2026-000001',
      reason: 'Commande annulée',
      payment: null,
    });
    expect(credit.notes[0]).toBe('Avoir annulant la facture FA-2026-000001.');
    expect(parseDocumentSnapshot(credit)).toEqual(credit);
  });
});

describe('a partial credit note', () => {
  const goods = (cents: number) => ({ category: 'goods' as const, totalExcludingVatCents: cents });
  const services = (cents: number) => ({ category: 'services' as const, totalExcludingVatCents: cents });
  const sums = (lines: ReturnType<typeof partialCreditLines>) => ({
    total: lines.reduce((sum, line) => sum + line.totalCents, 0),
    excluding: lines.reduce((sum, line) => sum + line.totalExcludingVatCents, 0),
  });

  it('credits goods for an invoice of goods only: one line « marchandises »', () => {
    const lines = partialCreditLines('SV-2026-0042', 1_234, 'Clé abîmée', [goods(2_000), goods(500)]);
    expect(lines).toEqual([
      {
        label: 'Remboursement partiel — marchandises',
        detail: 'Commande SV-2026-0042 · Clé abîmée',
        quantity: 1,
        unitPriceCents: 1_234,
        totalCents: 1_234,
        totalExcludingVatCents: splitVat(1_234).totalExcludingVatCents,
        category: 'goods',
      },
    ]);
    expect(operationCategoryOf({ lines })).toBe('goods');
  });

  it('splits a mixed invoice pro rata of its amounts excluding VAT, adding up to the cent', () => {
    // Services 3 000, goods 1 000 (excluding VAT): a quarter of 20,00 € is goods.
    const lines = partialCreditLines('SV-2026-0042', 2_000, undefined, [services(3_000), goods(1_000)]);
    expect(lines.map((line) => [line.label, line.category, line.totalCents])).toEqual([
      ['Remboursement partiel — prestations', 'services', 1_500],
      ['Remboursement partiel — marchandises', 'goods', 500],
    ]);
    expect(lines[0]?.detail).toBe('Commande SV-2026-0042');
    expect(sums(lines)).toEqual({ total: 2_000, excluding: splitVat(2_000).totalExcludingVatCents });
    expect(operationCategoryOf({ lines })).toBe('mixed');
  });

  it('rounds each share to the cent so that the shares add up exactly to the amount', () => {
    // One third services, two thirds goods, of 1,00 €: 33 and 67 cents, not 33 and 66.
    const lines = partialCreditLines('SV-1', 100, undefined, [services(1_000), goods(2_000)]);
    expect(lines.map((line) => line.totalCents)).toEqual([33, 67]);
    expect(sums(lines)).toEqual({ total: 100, excluding: splitVat(100).totalExcludingVatCents });
    for (const cents of [1, 7, 99, 12_345]) {
      const split = partialCreditLines('SV-1', cents, undefined, [services(777), goods(1_333), services(-100)]);
      expect(sums(split)).toEqual({ total: cents, excluding: splitVat(cents).totalExcludingVatCents });
      for (const line of split) expect(line.quantity * line.unitPriceCents).toBe(line.totalCents);
    }
  });

  it('leaves out a category that nets to nothing (a discount), and without lines credits services', () => {
    expect(
      partialCreditLines('SV-1', 500, undefined, [goods(4_000), services(-300)]).map((line) => line.category),
    ).toEqual(['goods']);
    expect(partialCreditLines('SV-1', 500).map((line) => [line.category, line.totalCents])).toEqual([
      ['services', 500],
    ]);
  });
});
