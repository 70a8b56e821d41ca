import { countryCodeOf } from '../../orders/address';
import { parisDay } from '../number';
import {
  type DocumentLine,
  type DocumentParty,
  type DocumentSnapshot,
  type OperationCategory,
  operationCategoryOf,
} from '../snapshot';
import { unitPriceExcludingVat } from '../vat';
import { el, type XmlChild, type XmlElement, xmlDocument } from './xml';

/*
 * The Factur-X XML of an invoice or a credit note: a Cross Industry Invoice (UN/CEFACT D16B) of
 * the Factur-X 1.09 EN 16931 profile, written from the document's frozen snapshot and nothing
 * else, so that the XML says what the PDF shows. Pure: the caller gives the one fact a snapshot
 * lacks (the issue date of the invoice a credit note cancels). docs/factur-x.md lists every
 * field and the rule that asks for it; the tests run the official XSD, the EN 16931 schematron
 * and the French BR-FR schematron on it.
 */

export const FACTUR_X_GUIDELINE = 'urn:cen.eu:en16931:2017';
/** The file name the Factur-X standard gives the attached XML. */
export const FACTUR_X_FILE_NAME = 'factur-x.xml';

const NS = {
  'xmlns:rsm': 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  'xmlns:qdt': 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  'xmlns:ram': 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  'xmlns:udt': 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

/** UNTDID 1001: commercial invoice, credit note. */
export const INVOICE_TYPE_CODE = '380';
export const CREDIT_NOTE_TYPE_CODE = '381';

export interface FacturXContext {
  /**
   * A credit note: when the invoice it cancels was issued (BT-26, which the French rules require
   * with its number). The snapshot names the invoice but not its date.
   */
  referencedInvoiceIssuedAt?: Date | string | null;
}

/** Cents as the CII writes an amount: "12.34", "-0.50". */
export function amount(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  const negative = cents < 0;
  const digits = Math.abs(cents).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** YYYYMMDD (format 102) of a French calendar day or an instant (its day in French time). */
function day102(value: Date | string): string {
  const isoDay = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : parisDay(new Date(value));
  return isoDay.replaceAll('-', '');
}

function dateTime(value: Date | string): XmlElement {
  return el('udt:DateTimeString', { format: '102' }, day102(value));
}

/** Digits only: SIREN and the like are printed with spaces. */
function digits(value: string): string {
  return value.replace(/\D/g, '');
}

/** A VAT number without its spaces ("FR45912345678"). */
function compact(value: string): string {
  return value.replace(/\s/g, '').toUpperCase();
}

/** BT-23, the French « cadre de facturation »: goods, services or both; 2 = already paid. */
export function billingFramework(category: OperationCategory, paid: boolean): string {
  const letter = category === 'goods' ? 'B' : category === 'services' ? 'S' : 'M';
  return `${letter}${paid ? '2' : '1'}`;
}

/**
 * BT-8 (UNTDID 2005 subset): when VAT becomes due. On debits (the shop's option) it is the
 * invoice's date (5); otherwise at delivery for goods (72) and at payment for services (29).
 */
export function vatPointCode(snapshot: DocumentSnapshot): string {
  if (snapshot.vatOnDebits) return '5';
  return operationCategoryOf(snapshot) === 'goods' ? '72' : '29';
}

function address(party: Pick<DocumentParty, 'street' | 'postalCode' | 'city' | 'country'>): XmlElement {
  return el(
    'ram:PostalTradeAddress',
    party.postalCode ? el('ram:PostcodeCode', party.postalCode) : null,
    party.street ? el('ram:LineOne', party.street) : null,
    party.city ? el('ram:CityName', party.city) : null,
    el('ram:CountryID', countryCodeOf(party.country) ?? 'FR'),
  );
}

function sellerParty(snapshot: DocumentSnapshot): XmlElement {
  const seller = snapshot.seller;
  const siren = digits(seller.siren);
  return el(
    'ram:SellerTradeParty',
    el('ram:Name', seller.name),
    el('ram:SpecifiedLegalOrganization', el('ram:ID', { schemeID: '0002' }, siren)),
    el(
      'ram:DefinedTradeContact',
      el('ram:TelephoneUniversalCommunication', el('ram:CompleteNumber', seller.phone)),
      el('ram:EmailURIUniversalCommunication', el('ram:URIID', seller.email)),
    ),
    address(seller),
    // BT-34: the seller's address on the e-invoicing network is its SIREN (scheme 0225, French directory).
    el('ram:URIUniversalCommunication', el('ram:URIID', { schemeID: '0225' }, siren)),
    el('ram:SpecifiedTaxRegistration', el('ram:ID', { schemeID: 'VA' }, compact(seller.vatNumber))),
  );
}

function buyerParty(snapshot: DocumentSnapshot): XmlElement {
  const buyer = snapshot.buyer;
  const business = snapshot.business;
  const name = business?.companyName ?? buyer?.name ?? 'Client';
  // BT-49: a business by its SIREN (BR-FR-21), a consumer by the e-mail address the documents go to.
  const email = buyer?.email ?? snapshot.seller.email;
  const endpoint = business
    ? el('ram:URIID', { schemeID: '0225' }, digits(business.siren))
    : el('ram:URIID', { schemeID: 'EM' }, email);
  return el(
    'ram:BuyerTradeParty',
    // BT-46: a public body's establishment, the SIRET Chorus Pro addresses (BR-FR-09: it starts with BT-47's SIREN).
    business?.siret ? el('ram:GlobalID', { schemeID: '0009' }, digits(business.siret)) : null,
    el('ram:Name', name),
    business ? el('ram:SpecifiedLegalOrganization', el('ram:ID', { schemeID: '0002' }, digits(business.siren))) : null,
    business && buyer?.name && buyer.name !== name
      ? el('ram:DefinedTradeContact', el('ram:PersonName', buyer.name))
      : null,
    address(buyer ?? { street: null, postalCode: null, city: null, country: 'FR' }),
    el('ram:URIUniversalCommunication', endpoint),
    business?.vatNumber
      ? el('ram:SpecifiedTaxRegistration', el('ram:ID', { schemeID: 'VA' }, compact(business.vatNumber)))
      : null,
  );
}

/** BT-21 / BT-22: the notes; the French rules want the penalty, indemnity and discount mentions coded. */
function notes(snapshot: DocumentSnapshot): XmlElement[] {
  const terms = snapshot.paymentTerms;
  const business = Boolean(snapshot.business);
  const coded: Array<[string, string]> = [
    // BAR: the kind of exchange (French e-invoicing: B2B goes through a plateforme agréée, B2C is e-reported).
    ['BAR', business ? 'B2B' : 'B2C'],
    ['AAB', 'Pas d’escompte pour paiement anticipé.'],
    [
      'PMD',
      terms
        ? `Pénalités de retard\u00A0: ${terms.latePenaltyRate}.`
        : `Pénalités de retard\u00A0: trois fois le taux d’intérêt légal${business ? '' : ' (clients professionnels)'}.`,
    ],
    [
      'PMT',
      `Indemnité forfaitaire pour frais de recouvrement de ${amount(terms?.recoveryIndemnityCents ?? 4000).replace('.', ',')}\u00A0€${
        business ? '' : ' (clients professionnels)'
      }.`,
    ],
  ];
  if (snapshot.vatOnDebits) coded.push(['TXD', 'Option pour le paiement de la taxe d’après les débits.']);
  return [
    ...snapshot.notes.map((content) => el('ram:IncludedNote', el('ram:Content', content))),
    ...coded.map(([code, content]) => el('ram:IncludedNote', el('ram:Content', content), el('ram:SubjectCode', code))),
  ];
}

const VAT_CATEGORY = 'S';

function lineTax(snapshot: DocumentSnapshot): XmlElement {
  return el(
    'ram:ApplicableTradeTax',
    el('ram:TypeCode', 'VAT'),
    el('ram:CategoryCode', VAT_CATEGORY),
    el('ram:RateApplicablePercent', String(snapshot.vatRatePercent)),
  );
}

/**
 * One line. A line that takes off (a promotion code, a gift card's part, an adjustment) keeps a
 * positive net price, which EN 16931 requires (BR-27), and a negative quantity, so that its net
 * amount is the negative amount the PDF shows.
 */
function line(snapshot: DocumentSnapshot, source: DocumentLine, index: number): XmlElement {
  const quantity = Math.max(1, source.quantity);
  const negative = source.totalExcludingVatCents < 0;
  const price = unitPriceExcludingVat(Math.abs(source.totalExcludingVatCents), quantity);
  return el(
    'ram:IncludedSupplyChainTradeLineItem',
    el('ram:AssociatedDocumentLineDocument', el('ram:LineID', String(index + 1))),
    el(
      'ram:SpecifiedTradeProduct',
      el('ram:Name', source.label),
      source.detail ? el('ram:Description', source.detail) : null,
    ),
    el('ram:SpecifiedLineTradeAgreement', el('ram:NetPriceProductTradePrice', el('ram:ChargeAmount', price))),
    el(
      'ram:SpecifiedLineTradeDelivery',
      el('ram:BilledQuantity', { unitCode: 'C62' }, String(negative ? -quantity : quantity)),
    ),
    el(
      'ram:SpecifiedLineTradeSettlement',
      lineTax(snapshot),
      el(
        'ram:SpecifiedTradeSettlementLineMonetarySummation',
        el('ram:LineTotalAmount', amount(source.totalExcludingVatCents)),
      ),
    ),
  );
}

function headerAgreement(snapshot: DocumentSnapshot): XmlElement {
  const business = snapshot.business;
  // Chorus Pro: the public body's service code is the buyer reference (BT-10), its engagement
  // number the purchase order (BT-13); a company's own purchase order reference otherwise.
  const serviceCode = business?.publicBody ? business.chorusServiceCode : null;
  const order = business?.publicBody
    ? (business.engagementNumber ?? business.purchaseOrderReference)
    : business?.purchaseOrderReference;
  return el(
    'ram:ApplicableHeaderTradeAgreement',
    serviceCode ? el('ram:BuyerReference', serviceCode) : null,
    sellerParty(snapshot),
    buyerParty(snapshot),
    order ? el('ram:BuyerOrderReferencedDocument', el('ram:IssuerAssignedID', order)) : null,
  );
}

function headerDelivery(snapshot: DocumentSnapshot): XmlElement {
  const delivery = snapshot.deliveryAddress;
  return el(
    'ram:ApplicableHeaderTradeDelivery',
    delivery ? el('ram:ShipToTradeParty', el('ram:Name', delivery.name), address(delivery)) : null,
    // BT-72: the date of the sale, as the PDF states it.
    el('ram:ActualDeliverySupplyChainEvent', el('ram:OccurrenceDateTime', dateTime(snapshot.serviceDate))),
  );
}

/** UNTDID 4461: 48 bank card, 42 payment to a bank account, 20 cheque, 1 otherwise (a gift card, instrument not defined). */
function paymentMeansCode(method: string): string {
  if (method === 'card') return '48';
  if (method === 'cheque') return '20';
  // 30 (credit transfer) asks for the account to pay to (BR-CO-27), which a paid invoice has no use for.
  if (method === 'transfer') return '42';
  return '1';
}

export interface FacturXTotals {
  lineTotalCents: number;
  taxBasisCents: number;
  vatCents: number;
  grandTotalCents: number;
  prepaidCents: number;
  duePayableCents: number;
}

/** The document's money as the XML states it: the lines' net amounts, the VAT of the snapshot. */
export function facturXTotals(snapshot: DocumentSnapshot): FacturXTotals {
  const lineTotalCents = snapshot.lines.reduce((sum, l) => sum + l.totalExcludingVatCents, 0);
  const grandTotalCents = lineTotalCents + snapshot.vatCents;
  const paid = isPaidInvoice(snapshot);
  return {
    lineTotalCents,
    taxBasisCents: lineTotalCents,
    vatCents: snapshot.vatCents,
    grandTotalCents,
    prepaidCents: paid ? grandTotalCents : 0,
    duePayableCents: paid ? 0 : grandTotalCents,
  };
}

/** An invoice issued with its payment recorded (the shop invoices on payment). */
function isPaidInvoice(snapshot: DocumentSnapshot): boolean {
  return snapshot.kind === 'invoice' && Boolean(snapshot.payment?.paidAt);
}

function headerSettlement(snapshot: DocumentSnapshot, context: FacturXContext): XmlElement {
  const totals = facturXTotals(snapshot);
  const paid = isPaidInvoice(snapshot);
  const payment = snapshot.payment;
  // BT-9: a paid invoice's due date is its payment's day (BR-FR-CO-09); a credit note is refunded at once.
  const dueDate = paid ? (payment?.paidAt as string) : (snapshot.paymentTerms?.dueDate ?? snapshot.issuedAt);
  const termsText =
    snapshot.kind === 'credit_note'
      ? 'Remboursement par le moyen de paiement utilisé pour la commande.'
      : paid
        ? `Facture acquittée${payment?.methodLabel ? ` (${payment.methodLabel.toLowerCase()})` : ''}.`
        : 'Paiement à réception.';
  const referenced =
    snapshot.kind === 'credit_note' && snapshot.invoiceNumber
      ? el(
          'ram:InvoiceReferencedDocument',
          el('ram:IssuerAssignedID', snapshot.invoiceNumber),
          context.referencedInvoiceIssuedAt
            ? el(
                'ram:FormattedIssueDateTime',
                el('qdt:DateTimeString', { format: '102' }, day102(context.referencedInvoiceIssuedAt)),
              )
            : null,
        )
      : null;
  return el(
    'ram:ApplicableHeaderTradeSettlement',
    el('ram:InvoiceCurrencyCode', snapshot.currency),
    payment
      ? el('ram:SpecifiedTradeSettlementPaymentMeans', el('ram:TypeCode', paymentMeansCode(payment.method)))
      : null,
    el(
      'ram:ApplicableTradeTax',
      el('ram:CalculatedAmount', amount(totals.vatCents)),
      el('ram:TypeCode', 'VAT'),
      el('ram:BasisAmount', amount(totals.taxBasisCents)),
      el('ram:CategoryCode', VAT_CATEGORY),
      el('ram:DueDateTypeCode', vatPointCode(snapshot)),
      el('ram:RateApplicablePercent', String(snapshot.vatRatePercent)),
    ),
    el(
      'ram:SpecifiedTradePaymentTerms',
      el('ram:Description', termsText),
      el('ram:DueDateDateTime', dateTime(dueDate)),
    ),
    el(
      'ram:SpecifiedTradeSettlementHeaderMonetarySummation',
      el('ram:LineTotalAmount', amount(totals.lineTotalCents)),
      el('ram:TaxBasisTotalAmount', amount(totals.taxBasisCents)),
      el('ram:TaxTotalAmount', { currencyID: snapshot.currency }, amount(totals.vatCents)),
      el('ram:GrandTotalAmount', amount(totals.grandTotalCents)),
      el('ram:TotalPrepaidAmount', amount(totals.prepaidCents)),
      el('ram:DuePayableAmount', amount(totals.duePayableCents)),
    ),
    referenced,
  );
}

/** The CII tree of a document. */
export function facturXTree(snapshot: DocumentSnapshot, context: FacturXContext = {}): XmlElement {
  const framework = billingFramework(operationCategoryOf(snapshot), isPaidInvoice(snapshot));
  const children: XmlChild[] = [
    el(
      'rsm:ExchangedDocumentContext',
      el('ram:BusinessProcessSpecifiedDocumentContextParameter', el('ram:ID', framework)),
      el('ram:GuidelineSpecifiedDocumentContextParameter', el('ram:ID', FACTUR_X_GUIDELINE)),
    ),
    el(
      'rsm:ExchangedDocument',
      el('ram:ID', snapshot.number),
      el('ram:TypeCode', snapshot.kind === 'credit_note' ? CREDIT_NOTE_TYPE_CODE : INVOICE_TYPE_CODE),
      el('ram:IssueDateTime', dateTime(snapshot.issuedAt)),
      notes(snapshot),
    ),
    el(
      'rsm:SupplyChainTradeTransaction',
      snapshot.lines.map((source, index) => line(snapshot, source, index)),
      headerAgreement(snapshot),
      headerDelivery(snapshot),
      headerSettlement(snapshot, context),
    ),
  ];
  return el('rsm:CrossIndustryInvoice', NS, ...children);
}

/** The Factur-X XML (factur-x.xml) of a document. */
export function buildFacturXml(snapshot: DocumentSnapshot, context: FacturXContext = {}): string {
  return xmlDocument(facturXTree(snapshot, context));
}
