import { describe, expect, it } from 'vitest';
import { representativeDocuments } from '../../../../tests/support/factur-x-documents';
import { unitPriceExcludingVat } from '../vat';
import { amount, billingFramework, buildFacturXml, facturXTotals, facturXTree, vatPointCode } from './cii';
import type { XmlElement } from './xml';

const documents = new Map(representativeDocuments().map((document) => [document.name, document]));

function documentNamed(name: string) {
  const document = documents.get(name);
  if (!document) throw new Error(`no representative document « ${name} »`);
  return document;
}

/** Every element at the end of `path` (local names with their prefix, e.g. ram:ID). */
function all(root: XmlElement, path: string): XmlElement[] {
  let current = [root];
  for (const step of path.split('/')) {
    current = current.flatMap((element) =>
      element.children.filter((child): child is XmlElement => typeof child !== 'string' && child.name === step),
    );
  }
  return current;
}

function text(element: XmlElement | undefined): string | undefined {
  return element?.children.filter((child) => typeof child === 'string').join('');
}

function value(root: XmlElement, path: string): string | undefined {
  return text(all(root, path)[0]);
}

const SETTLEMENT = 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement';
const AGREEMENT = 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement';
const SUMMATION = `${SETTLEMENT}/ram:SpecifiedTradeSettlementHeaderMonetarySummation`;
const LINES = 'rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem';

function cents(decimal: string | undefined): number {
  if (decimal === undefined) throw new Error('no amount');
  return Math.round(Number(decimal) * 100);
}

describe('the Factur-X XML of a document', () => {
  it('writes amounts with two decimals and their sign', () => {
    expect([amount(0), amount(5), amount(1234), amount(-50), amount(-123_456)]).toEqual([
      '0.00',
      '0.05',
      '12.34',
      '-0.50',
      '-1234.56',
    ]);
  });

  it('is an invoice (380) of the EN 16931 profile, its seller identified by SIREN and VAT number', () => {
    const { snapshot } = documentNamed('consumer, card');
    const tree = facturXTree(snapshot);
    expect(value(tree, 'rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID')).toBe(
      'urn:cen.eu:en16931:2017',
    );
    expect(value(tree, 'rsm:ExchangedDocument/ram:ID')).toBe('FA-2026-000101');
    expect(value(tree, 'rsm:ExchangedDocument/ram:TypeCode')).toBe('380');
    expect(value(tree, 'rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString')).toBe('20261120');
    const seller = `${AGREEMENT}/ram:SellerTradeParty`;
    expect(value(tree, `${seller}/ram:SpecifiedLegalOrganization/ram:ID`)).toBe('912345678');
    expect(all(tree, `${seller}/ram:SpecifiedLegalOrganization/ram:ID`)[0]?.attributes).toEqual({ schemeID: '0002' });
    expect(value(tree, `${seller}/ram:SpecifiedTaxRegistration/ram:ID`)).toBe('FR45912345678');
    // The buyer's name and address (BT-44, BG-8), the delivery address when it differs (BG-15).
    const buyer = `${AGREEMENT}/ram:BuyerTradeParty`;
    expect(value(tree, `${buyer}/ram:Name`)).toBe('Marie Curie');
    expect(value(tree, `${buyer}/ram:PostalTradeAddress/ram:LineOne`)).toBe('11 rue Pierre et Marie Curie');
    expect(value(tree, `${buyer}/ram:PostalTradeAddress/ram:CountryID`)).toBe('FR');
    const shipTo = 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeDelivery/ram:ShipToTradeParty';
    expect(value(tree, `${shipTo}/ram:Name`)).toBe('Pierre Curie');
    expect(value(tree, `${shipTo}/ram:PostalTradeAddress/ram:LineOne`)).toBe('3 place du Panthéon');
  });

  it('states a paid invoice as paid: prepaid is the total, nothing is due, the due date is the payment day', () => {
    const { snapshot } = documentNamed('consumer, card');
    const tree = facturXTree(snapshot);
    expect(cents(value(tree, `${SUMMATION}/ram:GrandTotalAmount`))).toBe(snapshot.totalCents);
    expect(cents(value(tree, `${SUMMATION}/ram:TotalPrepaidAmount`))).toBe(snapshot.totalCents);
    expect(cents(value(tree, `${SUMMATION}/ram:DuePayableAmount`))).toBe(0);
    expect(value(tree, `${SETTLEMENT}/ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString`)).toBe(
      '20261120',
    );
    expect(
      value(tree, 'rsm:ExchangedDocumentContext/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID'),
    ).toBe('M2');
    expect(value(tree, `${SETTLEMENT}/ram:SpecifiedTradeSettlementPaymentMeans/ram:TypeCode`)).toBe('48');
  });

  it('names a business buyer by its SIREN and VAT number, with its purchase order', () => {
    const { snapshot } = documentNamed('business with VAT number and purchase order');
    const tree = facturXTree(snapshot);
    const buyer = `${AGREEMENT}/ram:BuyerTradeParty`;
    expect(value(tree, `${buyer}/ram:Name`)).toBe('Atelier Lumière SARL');
    expect(value(tree, `${buyer}/ram:SpecifiedLegalOrganization/ram:ID`)).toBe('732829320');
    expect(value(tree, `${buyer}/ram:SpecifiedTaxRegistration/ram:ID`)).toBe('FR44732829320');
    expect(all(tree, `${buyer}/ram:GlobalID`)).toEqual([]);
    expect(value(tree, `${buyer}/ram:URIUniversalCommunication/ram:URIID`)).toBe('732829320');
    expect(all(tree, `${buyer}/ram:URIUniversalCommunication/ram:URIID`)[0]?.attributes).toEqual({ schemeID: '0225' });
    expect(value(tree, `${AGREEMENT}/ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID`)).toBe('BC-2026-118');
    expect(value(tree, `${AGREEMENT}/ram:BuyerReference`)).toBeUndefined();
    const notes = all(tree, 'rsm:ExchangedDocument/ram:IncludedNote');
    expect(notes.find((note) => value(note, 'ram:SubjectCode') === 'BAR')?.children).toContainEqual(
      expect.objectContaining({ children: ['B2B'] }),
    );
  });

  it('gives a public body its SIRET, its Chorus Pro service code as buyer reference and its engagement number as order', () => {
    const { snapshot } = documentNamed('public body (Chorus Pro)');
    const tree = facturXTree(snapshot);
    // BT-46: the establishment Chorus Pro addresses, first of the party (BR-FR-09: it starts with BT-47).
    const buyer = `${AGREEMENT}/ram:BuyerTradeParty`;
    expect(value(tree, `${buyer}/ram:GlobalID`)).toBe('21930048000015');
    expect(all(tree, `${buyer}/ram:GlobalID`)[0]?.attributes).toEqual({ schemeID: '0009' });
    expect(value(tree, `${buyer}/ram:SpecifiedLegalOrganization/ram:ID`)).toBe('219300480');
    expect(value(tree, `${AGREEMENT}/ram:BuyerReference`)).toBe('ARCHIVES');
    expect(value(tree, `${AGREEMENT}/ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID`)).toBe('EJ-2026-00451');
    expect(all(tree, `${AGREEMENT}/ram:BuyerTradeParty/ram:SpecifiedTaxRegistration`)).toEqual([]);
  });

  it('makes a credit note (381) that references its invoice and the day it was issued', () => {
    const { snapshot, context } = documentNamed('partial refund credit note');
    const tree = facturXTree(snapshot, context);
    expect(value(tree, 'rsm:ExchangedDocument/ram:TypeCode')).toBe('381');
    const referenced = `${SETTLEMENT}/ram:InvoiceReferencedDocument`;
    expect(value(tree, `${referenced}/ram:IssuerAssignedID`)).toBe('FA-2026-000101');
    expect(value(tree, `${referenced}/ram:FormattedIssueDateTime/qdt:DateTimeString`)).toBe('20261120');
    // A credit note is to be refunded: the whole of it is due, nothing was prepaid.
    expect(cents(value(tree, `${SUMMATION}/ram:GrandTotalAmount`))).toBe(1234);
    expect(cents(value(tree, `${SUMMATION}/ram:DuePayableAmount`))).toBe(1234);
    expect(cents(value(tree, `${SUMMATION}/ram:TotalPrepaidAmount`))).toBe(0);
  });

  it('states a line that takes off with a positive net price and a negative quantity (BR-27)', () => {
    for (const name of [
      'order with a promotion code',
      'order paid partly by gift card',
      'reception supplement invoice',
    ]) {
      const { snapshot } = documentNamed(name);
      const lines = all(facturXTree(snapshot), LINES);
      const negative = snapshot.lines.findIndex((line) => line.totalExcludingVatCents < 0);
      expect(negative, name).toBeGreaterThanOrEqual(0);
      const source = snapshot.lines[negative];
      const written = lines[negative] as XmlElement;
      const price = value(written, 'ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:ChargeAmount');
      expect(price, name).toBe(unitPriceExcludingVat(-(source?.totalExcludingVatCents ?? 0), 1));
      expect(value(written, 'ram:SpecifiedLineTradeDelivery/ram:BilledQuantity'), name).toBe('-1');
      expect(
        cents(
          value(
            written,
            'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount',
          ),
        ),
        name,
      ).toBe(source?.totalExcludingVatCents);
    }
  });

  it('adds up: lines to the net total, net total and VAT to the grand total, as the PDF shows them', () => {
    for (const { name, snapshot, context } of representativeDocuments()) {
      const tree = facturXTree(snapshot, context);
      const lineTotals = all(tree, LINES).map((line) =>
        cents(
          value(
            line,
            'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount',
          ),
        ),
      );
      const sum = lineTotals.reduce((a, b) => a + b, 0);
      expect(lineTotals, name).toEqual(snapshot.lines.map((line) => line.totalExcludingVatCents));
      expect(cents(value(tree, `${SUMMATION}/ram:LineTotalAmount`)), name).toBe(sum);
      expect(cents(value(tree, `${SUMMATION}/ram:TaxBasisTotalAmount`)), name).toBe(snapshot.totalExcludingVatCents);
      expect(cents(value(tree, `${SUMMATION}/ram:TaxTotalAmount`)), name).toBe(snapshot.vatCents);
      expect(cents(value(tree, `${SUMMATION}/ram:GrandTotalAmount`)), name).toBe(snapshot.totalCents);
      expect(cents(value(tree, `${SETTLEMENT}/ram:ApplicableTradeTax/ram:BasisAmount`)), name).toBe(
        snapshot.totalExcludingVatCents,
      );
      expect(facturXTotals(snapshot).grandTotalCents, name).toBe(snapshot.totalCents);
    }
  });

  it('carries the coded French mentions once each, and the document’s own notes', () => {
    const { snapshot } = documentNamed('consumer, card');
    const notes = all(facturXTree(snapshot), 'rsm:ExchangedDocument/ram:IncludedNote');
    const codes = notes.map((note) => value(note, 'ram:SubjectCode')).filter(Boolean);
    expect(codes.sort()).toEqual(['AAB', 'BAR', 'PMD', 'PMT']);
    for (const note of snapshot.notes) {
      expect(notes.map((n) => value(n, 'ram:Content'))).toContain(note);
    }
  });

  it('tells when VAT is due: on debits when the shop opted for it, else at payment for services', () => {
    const { snapshot } = documentNamed('consumer, transfer');
    expect(vatPointCode(snapshot)).toBe('29');
    expect(vatPointCode({ ...snapshot, vatOnDebits: true })).toBe('5');
    expect(vatPointCode({ ...snapshot, operationCategory: 'goods' })).toBe('72');
    expect(billingFramework('services', true)).toBe('S2');
    expect(billingFramework('goods', false)).toBe('B1');
  });

  it('escapes what XML would misread', () => {
    const { snapshot } = documentNamed('consumer, card');
    const xml = buildFacturXml({
      ...snapshot,
      buyer: snapshot.buyer && { ...snapshot.buyer, name: 'Dupont & Fils <SARL>' },
    });
    expect(xml).toContain('<ram:Name>Dupont &amp; Fils &lt;SARL&gt;</ram:Name>');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  });
});
