import { parisDay } from '../invoices/number';
import { type DocumentSnapshot, type LineCategory, lineCategory } from '../invoices/snapshot';
import type { ReportPeriod } from './cadence';

/*
 * The figures of an e-reporting transmission (docs/e-reporting.md), from the documents the shop
 * issued. Pure: the caller reads the documents of the period.
 *
 * Who is reported: a document without `business` (a consumer's), never a demonstration one. A
 * business buyer's invoice goes through the plateforme agréée as an e-invoice, not here.
 *
 * Transactions (flux 10.3): per day of issue (in France), per category of operation (goods: TLB1,
 * services: TPS1) and per VAT rate, the amount excluding VAT, the VAT and the number of documents;
 * a credit note subtracts on the day it is issued. Each category's amounts are its lines': the
 * lines' excluding-VAT amounts add up to the document's (vat.ts), so the categories add up exactly
 * to the document's total, excluding VAT and VAT alike.
 *
 * Payments (flux 10.4): money received for services, when the VAT on them falls due on receipt (the
 * shop did not opt for VAT on debits, `vatOnDebits` on the document). Per day of payment (the
 * invoice's `payment.paidAt`) and per VAT rate, the services' share of the invoice including VAT;
 * a credit note gives money back, subtracted on its day of issue. What a gift card paid is left
 * out: the card is a single-purpose voucher, whose sale was the payment, reported then (decision 037).
 */

export interface ReportedDocument {
  kind: 'invoice' | 'credit_note';
  number: string;
  issuedAt: Date;
  snapshot: DocumentSnapshot;
}

export interface TransactionTotal {
  day: string;
  category: LineCategory;
  vatRatePercent: number;
  excludingVatCents: number;
  vatCents: number;
  documents: number;
}

export interface PaymentTotal {
  day: string;
  vatRatePercent: number;
  amountCents: number;
  excludingVatCents: number;
  vatCents: number;
}

export interface ReportTotals {
  excludingVatCents: number;
  vatCents: number;
  /** Including VAT. */
  totalCents: number;
  /** How many daily totals the report holds. */
  entries: number;
}

/** A consumer's document that counts: not a business buyer's, not a demonstration. */
export function isReportable(snapshot: Pick<DocumentSnapshot, 'business' | 'demo'>): boolean {
  return !snapshot.business && !snapshot.demo;
}

const signOf = (document: ReportedDocument) => (document.kind === 'credit_note' ? -1 : 1);

/** Each category's share of a document: including VAT and excluding VAT, from its lines. */
function categoryShares(
  snapshot: DocumentSnapshot,
): Map<LineCategory, { totalCents: number; excludingVatCents: number }> {
  const shares = new Map<LineCategory, { totalCents: number; excludingVatCents: number }>();
  for (const line of snapshot.lines) {
    const category = lineCategory(line);
    const share = shares.get(category) ?? { totalCents: 0, excludingVatCents: 0 };
    share.totalCents += line.totalCents;
    share.excludingVatCents += line.totalExcludingVatCents;
    shares.set(category, share);
  }
  return shares;
}

const inPeriod = (day: string, period: Pick<ReportPeriod, 'start' | 'end'>) => day >= period.start && day <= period.end;

/** Daily totals per category and VAT rate of the consumer documents issued in `period`. */
export function transactionTotals(
  documents: readonly ReportedDocument[],
  period: Pick<ReportPeriod, 'start' | 'end'>,
): TransactionTotal[] {
  const totals = new Map<string, TransactionTotal>();
  for (const document of documents) {
    if (!isReportable(document.snapshot)) continue;
    const day = parisDay(document.issuedAt);
    if (!inPeriod(day, period)) continue;
    const sign = signOf(document);
    const rate = document.snapshot.vatRatePercent;
    for (const [category, share] of categoryShares(document.snapshot)) {
      const key = `${day}|${category}|${rate}`;
      const total = totals.get(key) ?? {
        day,
        category,
        vatRatePercent: rate,
        excludingVatCents: 0,
        vatCents: 0,
        documents: 0,
      };
      total.excludingVatCents += sign * share.excludingVatCents;
      total.vatCents += sign * (share.totalCents - share.excludingVatCents);
      total.documents += 1;
      totals.set(key, total);
    }
  }
  return [...totals.values()].sort(
    (a, b) => a.day.localeCompare(b.day) || a.category.localeCompare(b.category) || a.vatRatePercent - b.vatRatePercent,
  );
}

/** The day money moved for a document: an invoice's payment, a credit note's issue. */
function paymentDay(document: ReportedDocument): string | null {
  if (document.kind === 'credit_note') return parisDay(document.issuedAt);
  const paidAt = document.snapshot.payment?.paidAt;
  return paidAt ? parisDay(new Date(paidAt)) : null;
}

/** Daily totals per VAT rate of the money received (less given back) for consumers' services in `period`. */
export function paymentTotals(
  documents: readonly ReportedDocument[],
  period: Pick<ReportPeriod, 'start' | 'end'>,
): PaymentTotal[] {
  const totals = new Map<string, PaymentTotal>();
  for (const document of documents) {
    if (!isReportable(document.snapshot) || document.snapshot.vatOnDebits) continue;
    const day = paymentDay(document);
    if (!day || !inPeriod(day, period)) continue;
    const services = categoryShares(document.snapshot).get('services');
    if (!services || services.totalCents === 0) continue;
    const sign = signOf(document);
    const rate = document.snapshot.vatRatePercent;
    const key = `${day}|${rate}`;
    const total = totals.get(key) ?? { day, vatRatePercent: rate, amountCents: 0, excludingVatCents: 0, vatCents: 0 };
    total.amountCents += sign * services.totalCents;
    total.excludingVatCents += sign * services.excludingVatCents;
    total.vatCents += sign * (services.totalCents - services.excludingVatCents);
    totals.set(key, total);
  }
  return [...totals.values()].sort((a, b) => a.day.localeCompare(b.day) || a.vatRatePercent - b.vatRatePercent);
}

export function sumTransactions(totals: readonly TransactionTotal[]): ReportTotals {
  const excludingVatCents = totals.reduce((sum, t) => sum + t.excludingVatCents, 0);
  const vatCents = totals.reduce((sum, t) => sum + t.vatCents, 0);
  return {
    excludingVatCents,
    vatCents,
    totalCents: excludingVatCents + vatCents,
    entries: totals.length,
  };
}

export function sumPayments(totals: readonly PaymentTotal[]): ReportTotals {
  const excludingVatCents = totals.reduce((sum, t) => sum + t.excludingVatCents, 0);
  const vatCents = totals.reduce((sum, t) => sum + t.vatCents, 0);
  return { excludingVatCents, vatCents, totalCents: excludingVatCents + vatCents, entries: totals.length };
}
