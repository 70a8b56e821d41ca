import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BusinessBuyer, buildDocumentSnapshot, partialCreditLines } from '../invoices/snapshot';
import { splitVat } from '../invoices/vat';
import { paymentTotals, type ReportedDocument, sumPayments, sumTransactions, transactionTotals } from './assembly';
import { finishedPeriods, periodContaining } from './cadence';
import { buildReportFile, decimalFromCents, reportFileName } from './report-file';

const line = (lineTotalCents: number, type = 'photos') => ({
  type,
  quantity: 1,
  quality: 'standard',
  resolution: null,
  format: null,
  restoration: 0,
  denoise: false,
  reelSize: null,
  unitPriceCents: lineTotalCents,
  lineTotalCents,
});

const BUSINESS: BusinessBuyer = {
  companyName: 'Mairie de Gien',
  siren: '214501519',
  vatNumber: null,
  purchaseOrderReference: null,
  publicBody: true,
  chorusServiceCode: null,
  engagementNumber: null,
};

/** An invoice for `servicesCents` of digitisation and `goodsCents` of extra USB keys, paid when issued. */
function invoice(
  issuedAt: string,
  servicesCents: number,
  goodsCents = 0,
  extra: { business?: boolean; demo?: boolean; paidAt?: string; vatOnDebits?: boolean } = {},
): ReportedDocument {
  const items = [line(servicesCents)];
  if (goodsCents !== 0) items.push(line(goodsCents, 'copy-usb'));
  const snapshot = buildDocumentSnapshot({
    kind: 'invoice',
    number: `FA-${issuedAt}-${servicesCents}-${goodsCents}`,
    issuedAt: new Date(issuedAt),
    order: {
      id: 'order',
      number: 'SV-1',
      createdAt: issuedAt,
      deliveryMethod: 'digital',
      deliveryCostCents: 0,
      sendShippingCostCents: 0,
      returnShippingCostCents: 0,
      totalPriceCents: servicesCents + goodsCents,
      items,
    },
    buyer: null,
    payment: { method: 'card', paidAt: new Date(extra.paidAt ?? issuedAt) },
    business: extra.business ? BUSINESS : null,
    demo: extra.demo,
  });
  if (extra.vatOnDebits) snapshot.vatOnDebits = true;
  return { kind: 'invoice', number: snapshot.number, issuedAt: new Date(issuedAt), snapshot };
}

/** A partial credit note of `cents`, in the categories of the invoice it credits. */
function creditNote(issuedAt: string, of: ReportedDocument, cents: number): ReportedDocument {
  const split = splitVat(cents);
  const snapshot = {
    ...of.snapshot,
    kind: 'credit_note' as const,
    number: `AV-${issuedAt}`,
    issuedAt,
    lines: partialCreditLines(of.snapshot.orderNumber, cents, undefined, of.snapshot.lines),
    ...split,
  };
  return { kind: 'credit_note', number: snapshot.number, issuedAt: new Date(issuedAt), snapshot };
}

const SEPTEMBER_FIRST_DECADE = { start: '2027-09-01', end: '2027-09-10' };

describe('the cadence of the VAT regime', () => {
  it('réel normal mensuel: transactions per decade, payments per month due the 10th of the next', () => {
    expect(periodContaining('normal-monthly', 'transactions', '2027-09-05')).toEqual({
      kind: 'transactions',
      start: '2027-09-01',
      end: '2027-09-10',
      deadline: '2027-09-20',
    });
    expect(periodContaining('normal-monthly', 'transactions', '2027-09-11').deadline).toBe('2027-09-30');
    expect(periodContaining('normal-monthly', 'transactions', '2028-02-29')).toEqual({
      kind: 'transactions',
      start: '2028-02-21',
      end: '2028-02-29',
      deadline: '2028-03-10',
    });
    expect(periodContaining('normal-monthly', 'payments', '2027-12-31')).toEqual({
      kind: 'payments',
      start: '2027-12-01',
      end: '2027-12-31',
      deadline: '2028-01-10',
    });
  });

  it('trimestriel monthly by the 10th, simplifié monthly by the 25th, franchise every two months', () => {
    expect(periodContaining('normal-quarterly', 'transactions', '2027-10-15')).toMatchObject({
      start: '2027-10-01',
      end: '2027-10-31',
      deadline: '2027-11-10',
    });
    expect(periodContaining('simplified', 'payments', '2027-11-30')).toMatchObject({
      start: '2027-11-01',
      end: '2027-11-30',
      deadline: '2027-12-25',
    });
    expect(periodContaining('franchise', 'transactions', '2027-12-02')).toMatchObject({
      start: '2027-11-01',
      end: '2027-12-31',
      deadline: '2028-01-25',
    });
    expect(periodContaining('franchise', 'payments', '2027-09-30')).toMatchObject({
      start: '2027-09-01',
      end: '2027-10-31',
    });
  });

  it('lists only the periods over by today, from the first day to report', () => {
    const periods = finishedPeriods('normal-monthly', 'transactions', '2027-09-01', '2027-10-01');
    expect(periods.map((p) => `${p.start}/${p.end}`)).toEqual([
      '2027-09-01/2027-09-10',
      '2027-09-11/2027-09-20',
      '2027-09-21/2027-09-30',
    ]);
    // The day a period ends it is not over yet.
    expect(finishedPeriods('normal-monthly', 'payments', '2027-09-01', '2027-09-30')).toEqual([]);
    // Started mid-period: reported from that day.
    expect(finishedPeriods('simplified', 'payments', '2027-09-15', '2027-10-02')[0]).toMatchObject({
      start: '2027-09-15',
      end: '2027-09-30',
    });
  });
});

describe('the daily totals of consumer sales (flux 10.3)', () => {
  it('splits a mixed invoice into goods and services, subtracts a credit note, leaves business and demo out', () => {
    const mixed = invoice('2027-09-02T10:00:00Z', 9490, 1200);
    const documents = [
      mixed,
      invoice('2027-09-02T21:30:00Z', 3000), // 23:30 in France: still the 2nd
      invoice('2027-09-02T22:30:00Z', 1000), // 00:30 the 3rd in France
      creditNote('2027-09-03T08:00:00Z', mixed, 2400),
      invoice('2027-09-02T11:00:00Z', 50_000, 0, { business: true }),
      invoice('2027-09-02T12:00:00Z', 70_000, 0, { demo: true }),
      invoice('2027-09-11T08:00:00Z', 700), // next decade
    ];
    const totals = transactionTotals(documents, SEPTEMBER_FIRST_DECADE);
    // 1200 TTC of goods is 1000 HT; 9490 + 3000 TTC of services is 10408 HT (the invoice's HT less the goods').
    expect(totals).toEqual([
      {
        day: '2027-09-02',
        category: 'goods',
        vatRatePercent: 20,
        excludingVatCents: 1000,
        vatCents: 200,
        documents: 1,
      },
      {
        day: '2027-09-02',
        category: 'services',
        vatRatePercent: 20,
        excludingVatCents: 7908 + 2500,
        vatCents: 1582 + 500,
        documents: 2,
      },
      // The credit note of 24,00 € takes the invoice's categories pro rata (7908 : 1000 HT): 21,31 €
      // of services (17,76 € HT), 2,69 € of goods (2,24 € HT).
      {
        day: '2027-09-03',
        category: 'goods',
        vatRatePercent: 20,
        excludingVatCents: -224,
        vatCents: -45,
        documents: 1,
      },
      {
        day: '2027-09-03',
        category: 'services',
        vatRatePercent: 20,
        excludingVatCents: 833 - 1776,
        vatCents: 167 - 355,
        documents: 2,
      },
    ]);
    expect(sumTransactions(totals)).toEqual({
      excludingVatCents: 8908 + 2500 + 833 - 2000,
      vatCents: 1782 + 500 + 167 - 400,
      totalCents: 10_690 + 3000 + 1000 - 2400,
      entries: 4,
    });
  });

  it('reports a partial credit note of an invoice of goods as goods', () => {
    const keys = invoice('2027-09-02T10:00:00Z', 0, 3600);
    const totals = transactionTotals([keys, creditNote('2027-09-04T08:00:00Z', keys, 1200)], SEPTEMBER_FIRST_DECADE);
    const stated = totals.filter((total) => total.excludingVatCents !== 0);
    expect(stated.map((total) => [total.day, total.category, total.excludingVatCents, total.vatCents])).toEqual([
      ['2027-09-02', 'goods', 3000, 600],
      ['2027-09-04', 'goods', -1000, -200],
    ]);
    expect(paymentTotals([keys, creditNote('2027-09-04T08:00:00Z', keys, 1200)], SEPTEMBER_FIRST_DECADE)).toEqual([]);
  });

  it('adds up to the documents’ own totals, whatever the amounts (property)', () => {
    const documentArb = fc.record({
      hour: fc.integer({ min: 0, max: 24 * 10 - 1 }),
      services: fc.integer({ min: 0, max: 500_000 }),
      goods: fc.integer({ min: 0, max: 100_000 }),
      credit: fc.option(fc.integer({ min: 1, max: 100 }), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(documentArb, { maxLength: 12 }), (drafts) => {
        const documents: ReportedDocument[] = [];
        let expectedHt = 0;
        let expectedVat = 0;
        for (const draft of drafts) {
          const at = new Date(Date.UTC(2027, 8, 1) - 2 * 3_600_000 + draft.hour * 3_600_000).toISOString();
          const issued = invoice(at, draft.services, draft.goods);
          documents.push(issued);
          expectedHt += issued.snapshot.totalExcludingVatCents;
          expectedVat += issued.snapshot.vatCents;
          if (draft.credit !== null && issued.snapshot.totalCents > 0) {
            const cents = Math.max(1, Math.floor((issued.snapshot.totalCents * draft.credit) / 100));
            const note = creditNote(at, issued, cents);
            documents.push(note);
            expectedHt -= note.snapshot.totalExcludingVatCents;
            expectedVat -= note.snapshot.vatCents;
          }
        }
        const sum = sumTransactions(transactionTotals(documents, SEPTEMBER_FIRST_DECADE));
        expect(sum.excludingVatCents).toBe(expectedHt);
        expect(sum.vatCents).toBe(expectedVat);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the daily payments for services (flux 10.4)', () => {
  it('reports the services’ share on the day paid, less what a credit note gave back; goods, debits and business left out', () => {
    const mixed = invoice('2027-09-02T10:00:00Z', 9490, 1200, { paidAt: '2027-09-01T09:00:00Z' });
    const documents = [
      mixed,
      creditNote('2027-09-20T08:00:00Z', mixed, 2400),
      invoice('2027-09-05T10:00:00Z', 6000, 0, { vatOnDebits: true }),
      invoice('2027-09-05T10:00:00Z', 50_000, 0, { business: true }),
      invoice('2027-09-05T10:00:00Z', 0, 5000),
    ];
    const totals = paymentTotals(documents, { start: '2027-09-01', end: '2027-09-30' });
    expect(totals).toEqual([
      { day: '2027-09-01', vatRatePercent: 20, amountCents: 9490, excludingVatCents: 7908, vatCents: 1582 },
      // Only the services' part of the credit note (its goods' 2,69 € are not a payment for services).
      { day: '2027-09-20', vatRatePercent: 20, amountCents: -2131, excludingVatCents: -1776, vatCents: -355 },
    ]);
    expect(sumPayments(totals).totalCents).toBe(9490 - 2131);
  });
});

describe('the file of a transmission', () => {
  it('states each daily total in euros with two decimals, its category code and the period', () => {
    const totals = transactionTotals([invoice('2027-09-02T10:00:00Z', 9490, 1200)], SEPTEMBER_FIRST_DECADE);
    const xml = buildReportFile({
      id: 'e7c1',
      kind: 'transactions',
      period: SEPTEMBER_FIRST_DECADE,
      createdAt: new Date('2027-09-11T01:00:00Z'),
      transactions: totals,
    });
    expect(xml).toContain('<Id schemeId="0002">912345678</Id>');
    expect(xml).toContain('<StartDate>20270901</StartDate>');
    expect(xml).toContain('<CategoryCode>TLB1</CategoryCode>\n      <TaxExclusiveAmount>10.00</TaxExclusiveAmount>');
    expect(xml).toContain('<CategoryCode>TPS1</CategoryCode>\n      <TaxExclusiveAmount>79.08</TaxExclusiveAmount>');
    expect(xml).toContain('<TaxPercent>20.00</TaxPercent>');
    expect(reportFileName('transactions', SEPTEMBER_FIRST_DECADE)).toBe(
      'EREPORTING_TRANSACTIONS_20270901_20270910.xml',
    );
    expect([decimalFromCents(-1167), decimalFromCents(5), decimalFromCents(0)]).toEqual(['-11.67', '0.05', '0.00']);
  });

  it('groups a payments report by day', () => {
    const payments = paymentTotals([invoice('2027-09-02T10:00:00Z', 9490)], { start: '2027-09-01', end: '2027-09-30' });
    const xml = buildReportFile({
      id: 'p1',
      kind: 'payments',
      period: { start: '2027-09-01', end: '2027-09-30' },
      createdAt: new Date('2027-10-01T01:00:00Z'),
      payments,
    });
    expect(xml).toContain('<PaymentsReport>');
    expect(xml).toContain('<Date>20270902</Date>');
    expect(xml).toContain('<Amount>94.90</Amount>');
  });
});
