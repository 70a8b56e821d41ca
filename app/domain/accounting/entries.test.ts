import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linesExcludingVat, splitVat } from '../invoices/vat';
import { type AccountingDocument, documentEntry, entryTotals, movementEntry, paymentAccount } from './entries';

function document(
  lines: Array<{ totalCents: number; category?: 'goods' | 'services' }>,
  extra: Partial<AccountingDocument> & { giftCardCents?: number } = {},
): AccountingDocument {
  const excluding = linesExcludingVat(lines.map((line) => line.totalCents));
  const total = lines.reduce((sum, line) => sum + line.totalCents, 0);
  const split = splitVat(total);
  return {
    kind: 'invoice',
    number: 'FA-2026-000001',
    day: '2026-11-14',
    customer: 'Marie Curie',
    giftCardSale: false,
    ...extra,
    snapshot: {
      lines: lines.map((line, i) => ({
        label: 'x',
        detail: '',
        quantity: 1,
        unitPriceCents: line.totalCents,
        totalCents: line.totalCents,
        totalExcludingVatCents: excluding[i] as number,
        ...(line.category ? { category: line.category } : {}),
      })),
      totalCents: split.totalCents,
      vatCents: split.vatCents,
      totalExcludingVatCents: split.totalExcludingVatCents,
      ...(extra.giftCardCents ? { giftCardCents: extra.giftCardCents } : {}),
    },
  };
}

const byAccount = (entry: ReturnType<typeof documentEntry>) =>
  Object.fromEntries(entry.lines.map((line) => [line.account, [line.debitCents, line.creditCents]]));

describe('the entry of an invoice', () => {
  it('debits the customer, credits services and goods excluding VAT and the VAT', () => {
    const entry = documentEntry(document([{ totalCents: 6000 }, { totalCents: 2400, category: 'goods' }]));
    expect(byAccount(entry)).toEqual({
      customers: [8400, 0],
      goods: [0, 2000],
      services: [0, 5000],
      vatCollected: [0, 1400],
    });
    expect(entry).toMatchObject({ journal: 'salesJournal', pieceRef: 'FA-2026-000001', date: '2026-11-14' });
  });

  it('debits a promotion code’s line to the discounts account', () => {
    const entry = documentEntry(document([{ totalCents: 6000 }, { totalCents: -1200 }]));
    expect(byAccount(entry)).toEqual({
      customers: [4800, 0],
      services: [0, 5000],
      discounts: [1000, 0],
      vatCollected: [0, 800],
    });
  });

  it('a credit note is the reverse', () => {
    const entry = documentEntry(document([{ totalCents: 6000 }], { kind: 'credit_note', number: 'AV-2026-000001' }));
    expect(byAccount(entry)).toEqual({ customers: [0, 6000], services: [5000, 0], vatCollected: [1000, 0] });
  });

  it('a gift card sold is a prepayment; the order it pays takes it back at its excluding-VAT share', () => {
    // Decision 037's example: a card of 50 € pays 35 € of an order of 80 €.
    const sale = documentEntry(document([{ totalCents: 5000 }], { giftCardSale: true }));
    expect(byAccount(sale)).toEqual({ customers: [5000, 0], giftCards: [0, 4167], vatCollected: [0, 833] });
    const spent = documentEntry(document([{ totalCents: 8000 }, { totalCents: -3500 }], { giftCardCents: 3500 }));
    expect(byAccount(spent)).toEqual({
      customers: [4500, 0],
      services: [0, 6667],
      giftCards: [2917, 0],
      vatCollected: [0, 750],
    });
    // What stays on the prepayment account is the 15 € left on the card, excluding VAT.
    expect(4167 - 2917).toBe(1250);
  });

  it('every entry balances to the cent, whatever the lines', () => {
    const line = fc.record({
      totalCents: fc.integer({ min: -50_000, max: 500_000 }),
      category: fc.constantFrom('goods' as const, 'services' as const, undefined),
    });
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 12 }),
        fc.constantFrom('invoice' as const, 'credit_note' as const),
        fc.boolean(),
        fc.integer({ min: 0, max: 30_000 }),
        fc.integer({ min: -3, max: 3 }),
        (lines, kind, giftCardSale, card, skew) => {
          const withCard = card > 0 ? [...lines, { totalCents: -card }] : lines;
          const doc = document(withCard, { kind, giftCardSale, giftCardCents: card > 0 ? card : undefined });
          // A document whose line shares are a few cents off its total still gives a balanced entry.
          const first = doc.snapshot.lines[0];
          if (first) first.totalExcludingVatCents += skew;
          const entry = documentEntry(doc);
          const totals = entryTotals(entry);
          expect(totals.debitCents).toBe(totals.creditCents);
          for (const l of entry.lines) {
            expect(l.debitCents >= 0 && l.creditCents >= 0 && (l.debitCents === 0) !== (l.creditCents === 0)).toBe(
              true,
            );
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('receipts and refunds', () => {
  it('a payment debits its account and credits the customer; a refund is the reverse', () => {
    const movement = {
      number: 'FA-2026-000001',
      day: '2026-11-14',
      pieceDay: '2026-11-14',
      customer: 'Marie Curie',
      amountCents: 4500,
      account: paymentAccount('card', 'stripe'),
    };
    const paid = movementEntry({ ...movement, kind: 'payment' });
    expect(paid?.lines).toEqual([
      { account: 'stripe', debitCents: 4500, creditCents: 0 },
      { account: 'customers', debitCents: 0, creditCents: 4500 },
    ]);
    expect(paid?.journal).toBe('receiptsJournal');
    const refunded = movementEntry({ ...movement, kind: 'refund' });
    expect(refunded?.lines).toEqual([
      { account: 'stripe', debitCents: 0, creditCents: 4500 },
      { account: 'customers', debitCents: 4500, creditCents: 0 },
    ]);
    expect(movementEntry({ ...movement, kind: 'payment', amountCents: 0 })).toBeNull();
  });

  it('sends each means of payment to its account', () => {
    expect(paymentAccount('transfer', null)).toBe('bank');
    expect(paymentAccount('cheque', null)).toBe('cheques');
    expect(paymentAccount('card', 'monetico')).toBe('monetico');
  });
});
