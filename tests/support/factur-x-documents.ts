import type { FacturXContext } from '~/domain/invoices/factur-x/cii';
import {
  type BuildSnapshotInput,
  type BusinessBuyer,
  buildDocumentSnapshot,
  type DocumentParty,
  type DocumentSnapshot,
  partialCreditLines,
  type SnapshotOrder,
} from '~/domain/invoices/snapshot';
import { splitVat } from '~/domain/invoices/vat';
import { testOrderLine } from './order-lines';

/*
 * One document of each kind the shop issues, built by the shop's own snapshot code from orders
 * like the real ones: the Factur-X tests map and validate each of them.
 */

const vhs = testOrderLine({
  type: 'vhs',
  quantity: 2,
  resolution: null,
  format: null,
  denoise: true,
  unitPriceCents: 1700,
  lineTotalCents: 4400,
});

const baseOrder: SnapshotOrder = {
  id: '6f1c2d3e-0000-4000-8000-000000000001',
  number: 'SV-2026-000042',
  createdAt: '2026-11-20T09:00:00Z',
  deliveryMethod: 'usb',
  deliveryCostCents: 1590,
  sendShippingCostCents: 990,
  returnShippingCostCents: 0,
  totalPriceCents: 3500 + 4400 + 1590 + 990,
  items: [testOrderLine(), vhs],
};

const marie: DocumentParty = {
  name: 'Marie Curie',
  email: 'marie.curie@example.fr',
  phone: '06 12 34 56 78',
  street: '11 rue Pierre et Marie Curie',
  postalCode: '75005',
  city: 'Paris',
  country: 'France',
};

const company: BusinessBuyer = {
  companyName: 'Atelier Lumière SARL',
  siren: '732829320',
  vatNumber: 'FR44732829320',
  purchaseOrderReference: 'BC-2026-118',
  publicBody: false,
  chorusServiceCode: null,
  engagementNumber: null,
};

const townHall: BusinessBuyer = {
  companyName: 'Commune de Montreuil',
  siren: '219300480',
  vatNumber: null,
  purchaseOrderReference: null,
  publicBody: true,
  siret: '21930048000015',
  chorusServiceCode: 'ARCHIVES',
  engagementNumber: 'EJ-2026-00451',
};

const paidByCard = { method: 'card', paidAt: new Date('2026-11-20T09:05:00Z'), provider: 'stripe' };
const issuedAt = new Date('2026-11-20T09:05:01Z');

function invoice(number: string, overrides: Partial<BuildSnapshotInput> = {}): DocumentSnapshot {
  return buildDocumentSnapshot({
    kind: 'invoice',
    number,
    issuedAt,
    order: baseOrder,
    buyer: marie,
    payment: paidByCard,
    ...overrides,
  });
}

export interface RepresentativeDocument {
  name: string;
  snapshot: DocumentSnapshot;
  context: FacturXContext;
}

const invoiceDate = { referencedInvoiceIssuedAt: issuedAt };

/** Every kind of document the shop issues. */
export function representativeDocuments(): RepresentativeDocument[] {
  const consumerCard = invoice('FA-2026-000101', {
    deliveryAddress: { ...marie, name: 'Pierre Curie', street: '3 place du Panthéon', postalCode: '75005' },
  });
  const consumerTransfer = invoice('FA-2026-000102', {
    order: { ...baseOrder, deliveryMethod: 'digital', deliveryCostCents: 0, totalPriceCents: 3500 + 4400 + 990 },
    payment: { method: 'transfer', paidAt: new Date('2026-11-22T10:00:00Z'), provider: null },
  });
  const business = invoice('FA-2026-000103', {
    buyer: { ...marie, name: 'Jeanne Martin', email: 'compta@atelier-lumiere.example' },
    business: company,
  });
  const publicBody = invoice('FA-2026-000104', {
    buyer: {
      ...marie,
      name: 'Service des archives',
      email: 'archives@montreuil.example',
      street: 'Place Jean Jaurès',
      postalCode: '93100',
      city: 'Montreuil',
    },
    business: townHall,
    payment: { method: 'transfer', paidAt: new Date('2026-11-25T08:00:00Z'), provider: null },
  });
  const partialBase = buildDocumentSnapshot({
    kind: 'credit_note',
    number: 'AV-2026-000011',
    issuedAt: new Date('2026-11-28T15:00:00Z'),
    order: baseOrder,
    buyer: marie,
    payment: null,
    invoiceNumber: consumerCard.number,
    reason: 'Geste commercial',
    partial: true,
  });
  const partialRefund = {
    ...partialBase,
    lines: partialCreditLines(baseOrder.number, 1234, 'Geste commercial'),
    ...splitVat(1234),
  };
  const cancellationBase = buildDocumentSnapshot({
    kind: 'credit_note',
    number: 'AV-2026-000012',
    issuedAt: new Date('2026-11-29T15:00:00Z'),
    order: baseOrder,
    buyer: marie,
    payment: null,
    invoiceNumber: consumerCard.number,
    reason: 'Commande annulée',
  });
  const cancellation = {
    ...cancellationBase,
    lines: consumerCard.lines,
    totalExcludingVatCents: consumerCard.totalExcludingVatCents,
    vatCents: consumerCard.vatCents,
    totalCents: consumerCard.totalCents,
  };
  // A reception supplement: the extra items only, the order's promotion code on them.
  const supplement = invoice('FA-2026-000105', {
    order: {
      ...baseOrder,
      items: [testOrderLine({ quantity: 40, lineTotalCents: 1400 })],
      discounts: [{ label: 'Remise BIENVENUE', detail: 'Sur les articles en plus', cents: 140 }],
      deliveryCostCents: 0,
      sendShippingCostCents: 0,
      totalPriceCents: 1260,
    },
  });
  const giftCardSale = invoice('FA-2026-000106', {
    order: {
      ...baseOrder,
      deliveryMethod: 'digital',
      items: [testOrderLine({ type: 'gift-card', quantity: 1, unitPriceCents: 5000, lineTotalCents: 5000 })],
      deliveryCostCents: 0,
      sendShippingCostCents: 0,
      totalPriceCents: 5000,
    },
  });
  const paidPartlyByGiftCard = invoice('FA-2026-000107', {
    giftCard: { cents: 2500, maskedCode: '•••• 7KQ2', saleInvoiceNumber: giftCardSale.number },
  });
  const promotion = invoice('FA-2026-000108', {
    order: {
      ...baseOrder,
      discounts: [{ label: 'Code NOEL10', detail: '10\u00A0% sur la numérisation', cents: 790 }],
      totalPriceCents: baseOrder.totalPriceCents - 790,
    },
  });
  return [
    { name: 'consumer, card', snapshot: consumerCard, context: {} },
    { name: 'consumer, transfer', snapshot: consumerTransfer, context: {} },
    { name: 'business with VAT number and purchase order', snapshot: business, context: {} },
    { name: 'public body (Chorus Pro)', snapshot: publicBody, context: {} },
    { name: 'partial refund credit note', snapshot: partialRefund, context: invoiceDate },
    { name: 'cancellation credit note', snapshot: cancellation, context: invoiceDate },
    { name: 'reception supplement invoice', snapshot: supplement, context: {} },
    { name: 'gift card sale', snapshot: giftCardSale, context: {} },
    { name: 'order paid partly by gift card', snapshot: paidPartlyByGiftCard, context: {} },
    { name: 'order with a promotion code', snapshot: promotion, context: {} },
  ];
}
