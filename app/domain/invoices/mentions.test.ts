import { describe, expect, it } from 'vitest';
import type { OrderLine } from '../orders/order-line';
import { DEFAULT_INVOICING_SETTINGS } from './invoicing-settings';
import { businessBuyerLines, documentMentions, formatUnitPrice, lineUnitPriceExcludingVat } from './mentions';
import { type BusinessBuyer, buildDocumentSnapshot, parseDocumentSnapshot, type SnapshotOrder } from './snapshot';

const photos: OrderLine = {
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
};

const digital: SnapshotOrder = {
  id: '6f1c2d3e-0000-4000-8000-000000000002',
  number: 'SV-2027-000007',
  createdAt: '2027-03-01T09:00:00Z',
  deliveryMethod: 'digital',
  deliveryCostCents: 0,
  sendShippingCostCents: 0,
  returnShippingCostCents: 0,
  totalPriceCents: 3500,
  items: [photos],
};

const archives: BusinessBuyer = {
  companyName: 'Archives de Lyon',
  siren: '552100554',
  vatNumber: 'FR96552100554',
  purchaseOrderReference: 'BC-12',
  publicBody: true,
  siret: '55210055400013',
  chorusServiceCode: 'SERVICE-ARCHIVES',
  engagementNumber: 'EJ-2027-001',
};

const buyer = {
  name: 'Marie Curie',
  email: 'marie@example.fr',
  phone: null,
  street: '12 rue des Lilas',
  postalCode: '69002',
  city: 'Lyon',
  country: 'France',
};

function invoice(extra: Partial<Parameters<typeof buildDocumentSnapshot>[0]> = {}) {
  return buildDocumentSnapshot({
    kind: 'invoice',
    number: 'FA-2027-000010',
    issuedAt: new Date('2027-03-01T23:30:00Z'),
    order: digital,
    buyer,
    payment: { method: 'card', paidAt: new Date('2027-03-01T23:30:00Z') },
    ...extra,
  });
}

describe('unit price excluding VAT', () => {
  it('reads with a comma and « € », four decimals only when the cents do not say it all', () => {
    expect(formatUnitPrice('29.1700')).toBe('29,17\u00a0€');
    expect(formatUnitPrice('0.2917')).toBe('0,2917\u00a0€');
    expect(formatUnitPrice('1250.0000')).toBe('1\u202f250,00\u00a0€');
    // 100 photos at 0,35 € TTC: 29,17 € HT, 0,2917 € each.
    expect(lineUnitPriceExcludingVat({ quantity: 100, totalExcludingVatCents: 2917 })).toBe('0,2917\u00a0€');
  });
});

describe('a business document’s mentions', () => {
  it('freezes VAT on debits and the payment terms, due so many days after the French day of issue', () => {
    const snapshot = invoice({
      business: archives,
      invoicing: { vatOnDebits: true, paymentDueDays: 30, latePenaltyRate: 'trois fois le taux d’intérêt légal' },
    });
    expect(snapshot.vatOnDebits).toBe(true);
    // 23:30 UTC on 1 March is 2 March in Paris: due 30 days later.
    expect(snapshot.paymentTerms).toEqual({
      dueDate: '2027-04-01',
      latePenaltyRate: 'trois fois le taux d’intérêt légal',
      recoveryIndemnityCents: 4000,
    });
    expect(parseDocumentSnapshot(JSON.parse(JSON.stringify(snapshot)))).toEqual(snapshot);
    expect(documentMentions(snapshot)).toEqual([
      'Catégorie de l’opération\u00a0: Prestation de services.',
      'Option pour le paiement de la taxe d’après les débits.',
      'Date d’échéance du paiement\u00a0: 01/04/2027.',
      'Pénalités de retard\u00a0: trois fois le taux d’intérêt légal, exigibles le jour suivant la date d’échéance.',
      'Indemnité forfaitaire pour frais de recouvrement en cas de retard de paiement\u00a0: 40,00\u00a0€ (article D441-5 du Code de commerce).',
    ]);
    expect(snapshot.notes[0]).toBe('Facture acquittée le 02/03/2027 (carte bancaire).');
    expect(businessBuyerLines(snapshot)).toEqual([
      'Archives de Lyon',
      'SIREN 552 100 554',
      'SIRET 552 100 554 00013',
      'TVA intracommunautaire FR96552100554',
      'Bon de commande BC-12',
      'Code service (Chorus Pro) SERVICE-ARCHIVES',
      'Numéro d’engagement EJ-2027-001',
    ]);
  });

  it('gives a consumer neither payment terms nor the penalty note', () => {
    const snapshot = invoice({ invoicing: DEFAULT_INVOICING_SETTINGS, payment: null });
    expect(snapshot.vatOnDebits).toBe(false);
    expect(snapshot.paymentTerms).toBeUndefined();
    expect(snapshot.notes.join(' ')).not.toContain('Pénalités');
    expect(documentMentions(snapshot)).toEqual(['Catégorie de l’opération\u00a0: Prestation de services.']);
    expect(businessBuyerLines(snapshot)).toEqual([]);
  });

  it('prints nothing an older document did not record', () => {
    const { operationCategory: _category, ...older } = invoice();
    expect(documentMentions(older)).toEqual([]);
  });
});
