import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { documentYear } from '~/domain/invoices/number';
import { lineCategory, parseDocumentSnapshot } from '~/domain/invoices/snapshot';
import { allocateCents } from '~/domain/invoices/vat';
import { DEFAULT_ORDER_TOTAL_CENTS, insertTestOrder, type TestOrder } from '../../../tests/support/orders';
import { isPdf, pdfText as pdfPageText } from '../../../tests/support/pdf';
import { db } from '../db/client.server';
import { invoices } from '../db/schema';
import { log } from '../log.server';
import { applyPaymentNotification } from '../payments/notifications.server';
import type { PaymentNotification } from '../payments/types';
import { getOrderDocuments, InvoiceError, issueCreditNote, takeDocumentNumber } from './invoices.server';
import { documentFileName, renderDocumentPdf } from './pdf.server';

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';

const YEAR = documentYear(new Date());
const databaseUrl = () => process.env.DATABASE_URL as string;

/** A gateway's notification that `order` is paid: real money (Monetico) unless the sandbox is named. */
function paidNotification(
  order: TestOrder,
  provider: PaymentNotification['provider'] = 'monetico',
  ref = `${provider}_${order.id}`,
): PaymentNotification {
  return {
    provider,
    eventId: `evt_${ref}_succeeded`,
    providerRef: ref,
    orderId: order.id,
    outcome: 'paid',
    amountCents: order.totalCents,
    currency: 'EUR',
    method: 'card',
    raw: { test: true },
  };
}

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return (await db().execute(query)).rows as T[];
}

describe('invoice numbering', () => {
  it('gives 50 orders paid at the same time the numbers 1 to 50 of the year, no gap, no duplicate', async () => {
    const orders = await Promise.all(
      Array.from({ length: 50 }, (_, i) => insertTestOrder(databaseUrl(), { extraCents: i })),
    );
    const results = await Promise.all(orders.map((order) => applyPaymentNotification(paidNotification(order))));
    expect(results.every((r) => r.status === 'applied' && r.orderPaid)).toBe(true);

    const invoices = await rows<{ number: string; order_id: string; issued_at: Date; amount: number; vat: number }>(
      sql`select number, order_id, issued_at, amount, vat from invoices order by number`,
    );
    expect(invoices.map((i) => i.number)).toEqual(
      Array.from({ length: 50 }, (_, i) => `FA-${YEAR}-${String(i + 1).padStart(6, '0')}`),
    );
    expect(new Set(invoices.map((i) => i.order_id)).size).toBe(50);
    // Dates follow numbers: each number was taken after the previous one was committed.
    const dates = invoices.map((i) => new Date(i.issued_at).getTime());
    expect([...dates].sort((a, b) => a - b)).toEqual(dates);
    for (const invoice of invoices) {
      const order = orders.find((o) => o.id === invoice.order_id) as TestOrder;
      expect(invoice.amount).toBe(order.totalCents);
      expect(invoice.vat).toBe(invoice.amount - Math.round(invoice.amount / 1.2));
    }
    const [counter] = await rows<{ last: number }>(
      sql`select last from invoice_counters where kind = 'invoice' and year = ${YEAR}`,
    );
    expect(counter?.last).toBe(50);
    // Every paying transaction also wrote its history, back-office notification and e-mail.
    const [effects] = await rows<{ paid: number; events: number; notes: number; mails: number }>(sql`
      select (select count(*)::int from orders where payment_status = 'paid' and paid_at is not null) as paid,
             (select count(*)::int from order_events where kind in ('payment_paid', 'invoice_issued')) as events,
             (select count(*)::int from notifications where kind = 'payment') as notes,
             (select count(*)::int from email_outbox where template = 'payment-received') as mails`);
    expect(effects).toEqual({ paid: 50, events: 100, notes: 50, mails: 50 });
  });

  it('gives back the number of a transaction that rolls back', async () => {
    const [before] = await rows<{ last: number }>(
      sql`select last from invoice_counters where kind = 'invoice' and year = ${YEAR}`,
    );
    await expect(
      db().transaction(async (tx) => {
        const taken = await takeDocumentNumber(tx, 'invoice');
        expect(taken.number).toBe(`FA-${YEAR}-${String((before?.last ?? 0) + 1).padStart(6, '0')}`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const order = await insertTestOrder(databaseUrl());
    const result = await applyPaymentNotification(paidNotification(order));
    expect(result).toMatchObject({
      invoiceNumber: `FA-${YEAR}-${String((before?.last ?? 0) + 1).padStart(6, '0')}`,
    });
  });
});

describe('demonstration documents', () => {
  it('number what the sandbox took in the TEST- series, apart from the real one, and say they are worth nothing', async () => {
    const [before] = await rows<{ last: number }>(
      sql`select last from invoice_counters where kind = 'invoice' and year = ${YEAR}`,
    );
    const demoOrder = await insertTestOrder(databaseUrl());
    const demo = await applyPaymentNotification(paidNotification(demoOrder, 'sandbox'));
    expect(demo).toMatchObject({ invoiceNumber: expect.stringMatching(new RegExp(`^TEST-FA-${YEAR}-\\d{6}$`)) });
    const realOrder = await insertTestOrder(databaseUrl());
    const real = await applyPaymentNotification(paidNotification(realOrder));
    // The real series goes on where it was: the demonstration invoice took no number from it.
    expect(real).toMatchObject({
      invoiceNumber: `FA-${YEAR}-${String((before?.last ?? 0) + 1).padStart(6, '0')}`,
    });

    const { invoice } = await getOrderDocuments(demoOrder.id);
    expect(invoice).toMatchObject({ isDemo: true, snapshot: { demo: true } });
    const pdf = await renderDocumentPdf(invoice?.snapshot as NonNullable<typeof invoice>['snapshot']);
    expect(pdfPageText(pdf)).toContain('Document de démonstration — sans valeur');
    expect((await getOrderDocuments(realOrder.id)).invoice).toMatchObject({ isDemo: false });

    const note = await db().transaction((tx) =>
      issueCreditNote(tx, { orderId: demoOrder.id, actor: 'admin', reason: 'Commande annulée', amountCents: 500 }),
    );
    expect(note).toMatchObject({ isDemo: true, number: expect.stringMatching(new RegExp(`^TEST-AV-${YEAR}-\\d{6}$`)) });
    const [{ count } = { count: -1 }] = await rows<{ count: number }>(
      sql`select count(*)::int as count from credit_notes where is_demo = false`,
    );
    expect(count).toBe(0);
  });
});

describe('an invoice', () => {
  it('is a frozen snapshot: later changes to the order or customer do not alter it', async () => {
    const order = await insertTestOrder(databaseUrl(), { guestFirstName: 'Irène', guestLastName: 'Joliot' });
    await applyPaymentNotification(paidNotification(order));
    const before = await getOrderDocuments(order.id);
    expect(before.invoice?.snapshot.buyer?.name).toBe('Irène Joliot');
    expect(before.invoice?.snapshot.totalCents).toBe(DEFAULT_ORDER_TOTAL_CENTS);

    await db().execute(
      sql`update orders set guest_first_name = 'Autre', total_price = total_price + 100 where id = ${order.id}`,
    );
    const after = await getOrderDocuments(order.id);
    expect(after.invoice).toEqual(before.invoice);
  });

  it('cannot be deleted with its order', async () => {
    const order = await insertTestOrder(databaseUrl());
    await applyPaymentNotification(paidNotification(order));
    await expect(db().execute(sql`delete from orders where id = ${order.id}`)).rejects.toThrow();
  });

  it('renders as a PDF with the same content', async () => {
    const order = await insertTestOrder(databaseUrl(), { guestFirstName: 'Łucja', guestLastName: 'Dąbrowska' });
    await applyPaymentNotification(paidNotification(order));
    const { invoice } = await getOrderDocuments(order.id);
    if (!invoice) throw new Error('no invoice');
    const pdf = await renderDocumentPdf(invoice.snapshot);
    expect(isPdf(pdf)).toBe(true);
    expect(pdf.toString('latin1')).toContain(`(Facture ${invoice.number})`);
    const text = pdfPageText(pdf);
    expect(text).toContain(`Facture ${invoice.number}`);
    expect(text).toContain(`Commande : ${order.number}`);
    expect(text).toContain('SIREN 912\u00A0345\u00A0678');
    expect(text).toContain('RCS Paris');
    expect(text).toContain('Capital social : 15\u00A0000\u00A0€');
    expect(text).toContain('TVA 20 %');
    expect(text).toContain('Total TTC');
    expect(text).toContain('94,90\u00A0€');
    expect(text).toContain('Lucja Dabrowska');
    expect(documentFileName(invoice.snapshot)).toBe(`facture-${invoice.number}.pdf`);
  });
});

describe('credit notes', () => {
  it('cancel a paid order’s invoice once, numbered AV-YYYY-NNNNNN', async () => {
    const order = await insertTestOrder(databaseUrl());
    await applyPaymentNotification(paidNotification(order));
    const first = await db().transaction((tx) =>
      issueCreditNote(tx, { orderId: order.id, actor: 'admin', reason: 'Commande annulée' }),
    );
    expect(first).toMatchObject({ number: `AV-${YEAR}-000001`, created: true, amountCents: order.totalCents });
    const { invoice, creditNotes } = await getOrderDocuments(order.id);
    expect(creditNotes).toHaveLength(1);
    expect(creditNotes[0]?.snapshot).toMatchObject({
      kind: 'credit_note',
      title: 'Avoir',
      invoiceNumber: invoice?.number,
      reason: 'Commande annulée',
      lines: invoice?.snapshot.lines,
      totalCents: invoice?.snapshot.totalCents,
    });
    const again = await db().transaction((tx) =>
      issueCreditNote(tx, { orderId: order.id, actor: 'admin', reason: 'Commande annulée' }),
    );
    expect(again).toMatchObject({ number: first?.number, created: false });
    await expect(
      db().transaction((tx) => issueCreditNote(tx, { orderId: order.id, actor: 'admin', reason: 'x', amountCents: 1 })),
    ).rejects.toBeInstanceOf(InvoiceError);

    const pdf = await renderDocumentPdf(creditNotes[0]?.snapshot as NonNullable<typeof invoice>['snapshot']);
    expect(pdfPageText(pdf)).toContain(`Avoir AV-${YEAR}-000001`);
  });

  it('credit any part of an invoice, several times, never more than it, each with its own number', async () => {
    const order = await insertTestOrder(databaseUrl());
    await applyPaymentNotification(paidNotification(order));
    const partial = await db().transaction((tx) =>
      issueCreditNote(tx, { orderId: order.id, actor: 'admin', reason: 'Geste commercial', amountCents: 1250 }),
    );
    expect(partial).toMatchObject({ created: true, amountCents: 1250, vatCents: 208 });
    // The test order sells digitisation (services) and its USB key (goods): the credit note's
    // amount takes the invoice's categories, pro rata of their amounts excluding VAT.
    const [invoiceRow] = await db().select().from(invoices).where(eq(invoices.orderId, order.id));
    const invoiceLines = parseDocumentSnapshot(invoiceRow?.snapshot)?.lines ?? [];
    const excludingOf = (category: string) =>
      invoiceLines
        .filter((line) => lineCategory(line) === category)
        .reduce((sum, l) => sum + l.totalExcludingVatCents, 0);
    const [servicesCents, goodsCents] = allocateCents(1250, [excludingOf('services'), excludingOf('goods')]);
    expect(goodsCents).toBeGreaterThan(0);
    expect(partial?.snapshot).toMatchObject({
      lines: [
        {
          label: 'Remboursement partiel — prestations',
          detail: `Commande ${order.number} · Geste commercial`,
          totalCents: servicesCents,
          category: 'services',
        },
        {
          label: 'Remboursement partiel — marchandises',
          detail: `Commande ${order.number} · Geste commercial`,
          totalCents: goodsCents,
          category: 'goods',
        },
      ],
      operationCategory: 'mixed',
      totalExcludingVatCents: 1042,
      vatCents: 208,
      totalCents: 1250,
    });
    const lines = partial?.snapshot.lines ?? [];
    expect(lines.reduce((sum, line) => sum + line.totalExcludingVatCents, 0)).toBe(1042);
    expect(partial?.snapshot.notes[0]).toMatch(/^Avoir partiel sur la facture FA-/);
    const pdf = await renderDocumentPdf(partial?.snapshot as NonNullable<typeof partial>['snapshot']);
    const text = pdfPageText(pdf);
    // One line per category (the PDF may hyphenate a long label).
    expect(text.replace(/\s+/g, ' ')).toContain('Remboursement partiel — prestations');
    expect(text.replace(/\s+/g, ' ')).toContain('Remboursement partiel — marchan');
    expect(text).toContain('Total TTC à rembourser\n12,50\u00A0€');

    // More than what remains is refused, and nothing is issued.
    await expect(
      db().transaction((tx) =>
        issueCreditNote(tx, { orderId: order.id, actor: 'admin', reason: 'x', amountCents: order.totalCents }),
      ),
    ).rejects.toBeInstanceOf(InvoiceError);
    // By default: what remains.
    const rest = await db().transaction((tx) =>
      issueCreditNote(tx, { orderId: order.id, actor: 'admin', reason: 'Commande annulée' }),
    );
    expect(rest).toMatchObject({ created: true, amountCents: order.totalCents - 1250 });
    expect(rest?.number).not.toBe(partial?.number);
    const { creditNotes } = await getOrderDocuments(order.id);
    expect(creditNotes.map((n) => n.amountCents).reduce((a, b) => a + b, 0)).toBe(order.totalCents);
    const numbers = creditNotes.map((n) => Number(n.number.slice(-6))).sort((a, b) => a - b);
    expect(numbers[1]).toBe((numbers[0] as number) + 1);
  });

  it('are issued one after the other for one order: concurrent refunds never credit more than the invoice', async () => {
    const order = await insertTestOrder(databaseUrl());
    await applyPaymentNotification(paidNotification(order));
    const half = Math.ceil(order.totalCents / 2) + 1;
    const results = await Promise.allSettled(
      [1, 2, 3].map(() =>
        db().transaction((tx) =>
          issueCreditNote(tx, { orderId: order.id, actor: 'admin', reason: 'x', amountCents: half }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await getOrderDocuments(order.id)).creditNotes).toHaveLength(1);
  });

  it('are not issued for an order without invoice', async () => {
    const order = await insertTestOrder(databaseUrl());
    const none = await db().transaction((tx) =>
      issueCreditNote(tx, { orderId: order.id, actor: 'admin', reason: 'x' }),
    );
    expect(none).toBeNull();
  });
});
