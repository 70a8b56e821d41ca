import { company } from '../company';
import type { PaymentTotal, TransactionTotal } from './assembly';
import type { ReportKind, ReportPeriod } from './cadence';

/*
 * The file of one transmission (docs/e-reporting.md « The file »): an XML document shaped after the
 * DGFiP's e-reporting flow (flux 10, « Report »): a ReportDocument header, then a TransactionsReport
 * (flux 10.3: daily totals per category TLB1 / TPS1 and VAT rate) or a PaymentsReport (flux 10.4:
 * daily amounts received per VAT rate). The element names follow the business terms of the external
 * specifications as published by platforms that implement them; the official XSD could not be
 * obtained here, so the file is not validated against it: the plateforme agréée that receives it
 * (or the operator depositing it) is the check. Pure: the caller gives the time and the identifier.
 */

/** The syntax a plateforme agréée is told the file is in (its `flowSyntax`). */
export const REPORT_SYNTAX = 'FRR';

/** Flux 10.3's categories of operation: goods and services subject to VAT. */
export const TRANSACTION_CATEGORY_CODES = { goods: 'TLB1', services: 'TPS1' } as const;

export interface ReportFileInput {
  /** Unique per transmission (TT-1). */
  id: string;
  kind: ReportKind;
  period: Pick<ReportPeriod, 'start' | 'end'>;
  createdAt: Date;
  transactions?: readonly TransactionTotal[];
  payments?: readonly PaymentTotal[];
  /** The declarant's SIREN, digits only; the shop's by default. */
  siren?: string;
  name?: string;
}

function escapeXml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/** `-12.34` from -1234 cents: exact, never through floating point. */
export function decimalFromCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

const compactDay = (day: string) => day.replaceAll('-', '');

/** `20270911093000`: the UTC date and time (format 204). */
function compactDateTime(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

const percent = (rate: number) => rate.toFixed(2);

/** The transmission's file name: `EREPORTING_TRANSACTIONS_20270901_20270910.xml`. */
export function reportFileName(kind: ReportKind, period: Pick<ReportPeriod, 'start' | 'end'>): string {
  return `EREPORTING_${kind.toUpperCase()}_${compactDay(period.start)}_${compactDay(period.end)}.xml`;
}

function transactionsXml(totals: readonly TransactionTotal[]): string[] {
  return totals.flatMap((total) => [
    '    <Transactions>',
    `      <Date>${compactDay(total.day)}</Date>`,
    '      <CurrencyCode>EUR</CurrencyCode>',
    `      <CategoryCode>${TRANSACTION_CATEGORY_CODES[total.category]}</CategoryCode>`,
    `      <TaxExclusiveAmount>${decimalFromCents(total.excludingVatCents)}</TaxExclusiveAmount>`,
    `      <TaxTotal>${decimalFromCents(total.vatCents)}</TaxTotal>`,
    '      <TaxSubtotals>',
    `        <TaxableAmount>${decimalFromCents(total.excludingVatCents)}</TaxableAmount>`,
    `        <TaxTotal>${decimalFromCents(total.vatCents)}</TaxTotal>`,
    `        <TaxPercent>${percent(total.vatRatePercent)}</TaxPercent>`,
    '      </TaxSubtotals>',
    `      <TransactionsCount>${total.documents}</TransactionsCount>`,
    '    </Transactions>',
  ]);
}

function paymentsXml(totals: readonly PaymentTotal[]): string[] {
  const byDay = new Map<string, PaymentTotal[]>();
  for (const total of totals) byDay.set(total.day, [...(byDay.get(total.day) ?? []), total]);
  return [...byDay].flatMap(([day, rates]) => [
    '    <Transactions>',
    '      <Payment>',
    `        <Date>${compactDay(day)}</Date>`,
    ...rates.flatMap((rate) => [
      '        <SubTotals>',
      `          <TaxPercent>${percent(rate.vatRatePercent)}</TaxPercent>`,
      '          <CurrencyCode>EUR</CurrencyCode>',
      `          <Amount>${decimalFromCents(rate.amountCents)}</Amount>`,
      '        </SubTotals>',
    ]),
    '      </Payment>',
    '    </Transactions>',
  ]);
}

/** The XML of a transmission (UTF-8). */
export function buildReportFile(input: ReportFileInput): string {
  const siren = (input.siren ?? company.siren).replace(/\D/g, '');
  const name = input.name ?? company.legalName;
  const report = input.kind === 'transactions' ? 'TransactionsReport' : 'PaymentsReport';
  const body =
    input.kind === 'transactions' ? transactionsXml(input.transactions ?? []) : paymentsXml(input.payments ?? []);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Report>',
    '  <ReportDocument>',
    `    <Id>${escapeXml(input.id)}</Id>`,
    `    <Name>${escapeXml(reportFileName(input.kind, input.period))}</Name>`,
    `    <IssueDateTime><DateTimeString format="204">${compactDateTime(input.createdAt)}</DateTimeString></IssueDateTime>`,
    '    <TypeCode>IN</TypeCode>',
    '    <Issuer>',
    `      <Id schemeId="0002">${escapeXml(siren)}</Id>`,
    `      <Name>${escapeXml(name)}</Name>`,
    '      <RoleCode>SE</RoleCode>',
    '    </Issuer>',
    '  </ReportDocument>',
    `  <${report}>`,
    '    <ReportPeriod>',
    `      <StartDate>${compactDay(input.period.start)}</StartDate>`,
    `      <EndDate>${compactDay(input.period.end)}</EndDate>`,
    '    </ReportPeriod>',
    ...body,
    `  </${report}>`,
    '</Report>',
    '',
  ].join('\n');
}
