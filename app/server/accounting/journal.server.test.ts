import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNTING_SETTINGS } from '~/domain/accounting/accounts';
import { unwritableDocumentMessage } from '~/domain/accounting/export-request';
import { FEC_COLUMNS } from '~/domain/accounting/fec';
import { payByCard } from '../../../tests/support/card-payment';
import { fecBalances, readFec } from '../../../tests/support/fec';
import { insertTestOrder } from '../../../tests/support/orders';
import { CLIENT_IP_HEADER } from '../auth/auth.server';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { applyTransition } from '../orders/lifecycle.server';
import { receiveParcel } from '../orders/reception.server';
import { refundOrder } from '../orders/refunds.server';
import { confirmCheckout } from '../payments/offline.server';
import { seedDemo } from '../seed/demo.server';
import { ensureDefaultPriceList } from '../seed/price-list.server';
import { createPromotion } from '../vouchers/promotions.server';
import { insertBuyer, paidGiftCard } from '../vouchers/testing/gift-cards';
import { readAccountingSettings, saveAccountingSettings } from './accounting-settings.server';
import { accountingEntries, accountingExport } from './journal.server';

/*
 * The FEC of a day of real documents, made through the shop's own paths: card and transfer
 * payments, a partial refund's credit note, a gift card sold then spent, a reception supplement, a
 * promotion code, and a sandbox (demonstration) payment. What the accountant and the tax auditor
 * check: the exact header, 18 fields on every line, each entry balanced and the file too, the
 * demonstration documents absent.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';
const databaseUrl = () => process.env.DATABASE_URL as string;
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
const fromClient = () =>
  new Request('https://www.soovenirs.test/checkout', {
    headers: { [CLIENT_IP_HEADER]: `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` },
  });

interface FecFile {
  header: string;
  rows: string[][];
}

async function fecOf(from: string, to: string): Promise<FecFile & { fileName: string }> {
  const exported = await accountingExport({ from, to }, await readAccountingSettings(), 'fec');
  if (!exported.ok) throw new Error(exported.error);
  const { file } = exported;
  const { header, rows } = readFec(new Uint8Array(await new Response(file.body).arrayBuffer()));
  return { fileName: file.fileName, header, rows };
}

const column = (name: (typeof FEC_COLUMNS)[number]) => FEC_COLUMNS.indexOf(name);

/** 18 fields everywhere; each entry (EcritureNum) balanced, numbered 1, 2, 3… without gaps; the file balanced. */
function expectBalanced(fec: FecFile) {
  expect(fec.header).toBe(FEC_COLUMNS.join('\t'));
  for (const row of fec.rows) {
    expect(row).toHaveLength(18);
    expect(row[column('Debit')]).toMatch(/^\d+,\d{2}$/);
    expect(row[column('Credit')]).toMatch(/^\d+,\d{2}$/);
    expect(row[column('EcritureDate')]).toMatch(/^\d{8}$/);
    expect(row[column('PieceDate')]).toMatch(/^\d{8}$/);
    expect(row[column('CompteNum')]).toMatch(/^\d+$/);
  }
  const { perEntry, debits, credits } = fecBalances(fec.rows);
  for (const [number, balance] of perEntry) expect(balance, `entry ${number}`).toBe(0);
  expect([...perEntry.keys()]).toEqual([...perEntry.keys()].map((_, i) => String(i + 1)));
  expect(debits).toBe(credits);
  return { entries: perEntry.size, debit: debits };
}

beforeAll(async () => {
  await ensureDefaultPriceList();
});

describe('the FEC of real documents', () => {
  it('balances every entry and the file, with the accounts of each kind of money, and leaves demonstration documents out', async () => {
    const staff = await insertBuyer('Paule', 'Compta', 'admin');
    // A card order (Stripe) refunded in part by transfer: an invoice, its receipt, a credit note, a refund.
    const card = await insertTestOrder(databaseUrl());
    await payByCard(card.id, card.totalCents, null, 'stripe');
    expect(
      await refundOrder({ orderId: card.id, amountCents: 1000, method: 'transfer', reason: 'Geste', actor: staff.id }),
    ).toMatchObject({ ok: true });
    // A transfer validated by the staff.
    const transfer = await insertTestOrder(databaseUrl(), { extraCents: 1 });
    expect(
      await applyTransition(
        transfer.id,
        { type: 'settle_payment', amountCents: transfer.totalCents, currency: 'EUR', method: 'transfer' },
        'system',
      ),
    ).toMatchObject({ ok: true });
    // A gift card sold (a prepayment), then spent on an order whose rest is paid by card.
    const buyer = await insertBuyer();
    const giftCard = await paidGiftCard(buyer, { amountCents: 5000, provider: 'stripe' });
    const spending = await insertTestOrder(databaseUrl(), { extraCents: 2 });
    await confirmCheckout({
      orderId: spending.id,
      method: 'card',
      actor: 'customer',
      accessToken: null,
      giftCard: { typed: giftCard.code, request: fromClient(), userId: null },
    });
    await payByCard(spending.id, spending.totalCents - 5000, null, 'stripe');
    // A reception supplement paid by card: its own invoice.
    const supplemented = await insertTestOrder(databaseUrl(), { extraCents: 3 });
    await payByCard(supplemented.id, supplemented.totalCents, null, 'stripe');
    const received = await receiveParcel({
      orderId: supplemented.id,
      staff: { id: 'system', name: 'Camille Atelier' },
      canRefund: true,
      fields: { date: today(), 'count-line-0': '120', 'count-line-1': '2' },
      photos: [],
    });
    expect(received).toMatchObject({ ok: true, outcome: 'supplement' });
    const { rows: adjustments } = await db().execute<{ id: string; amount: number }>(
      sql`select id, amount from order_adjustments where order_id = ${supplemented.id} and kind = 'supplement'`,
    );
    await payByCard(supplemented.id, Number(adjustments[0]?.amount), adjustments[0]?.id ?? null, 'stripe');
    // A promotion code: 20 % off the photos.
    const code = `FEC${randomUUID().slice(0, 6).toUpperCase()}`;
    const created = await createPromotion(
      {
        code,
        label: 'Remise comptable',
        kind: 'percent',
        percent: 20,
        amountCents: null,
        supports: ['photos'],
        minimumOrderCents: 0,
        startsAt: new Date(Date.now() - 86_400_000),
        endsAt: null,
        maxUses: null,
        maxUsesPerCustomer: null,
        firstOrderOnly: false,
        combinable: false,
      },
      staff.id,
    );
    expect(created.ok).toBe(true);
    const promoted = await insertTestOrder(databaseUrl(), { guestEmail: `${randomUUID()}@example.fr` });
    await db().execute(sql`update orders set placed_at = null where id = ${promoted.id}`);
    await confirmCheckout({
      orderId: promoted.id,
      method: 'card',
      actor: 'customer',
      accessToken: null,
      promotion: { typed: code, request: fromClient(), userId: null },
    });
    const { rows: promotedRows } = await db().execute<{ total_price: number }>(
      sql`select total_price from orders where id = ${promoted.id}`,
    );
    await payByCard(promoted.id, Number(promotedRows[0]?.total_price), null, 'stripe');
    // Money through the sandbox: TEST-FA-…, never in the books.
    const demo = await insertTestOrder(databaseUrl(), { extraCents: 4 });
    await payByCard(demo.id, demo.totalCents, null, 'sandbox');

    const fec = await fecOf(today(), today());
    expect(fec.fileName).toBe(`912345678FEC${today().replaceAll('-', '')}.txt`);
    const { entries } = expectBalanced(fec);
    const { rows: counts } = await db().execute<{ invoices: number; notes: number; refunds: number }>(sql`
      select (select count(*) from invoices where not is_demo)::int as invoices,
        (select count(*) from credit_notes where not is_demo)::int as notes,
        (select count(*) from refunds r join credit_notes c on c.id = r.credit_note_id
          where not c.is_demo and r.status = 'succeeded' and r.method <> 'gift_card')::int as refunds`);
    const count = counts[0] as { invoices: number; notes: number; refunds: number };
    // Each invoice and its receipt, each credit note, each refund made.
    // The card, the transfer, the card's sale, its spending, the supplemented order and its supplement, the promotion.
    expect(count.invoices).toBe(7);
    expect(entries).toBe(count.invoices * 2 + count.notes + count.refunds);
    expect(fec.rows.some((row) => row.join('\t').includes('TEST-'))).toBe(false);

    const accounts = (piece: string) =>
      fec.rows.filter((row) => row[column('PieceRef')] === piece).map((row) => row[column('CompteNum')]);
    const invoiceNumber = async (orderId: string) =>
      String(
        (
          await db().execute<{ number: string }>(
            sql`select number from invoices where order_id = ${orderId} and adjustment_id is null`,
          )
        ).rows[0]?.number,
      );
    const d = DEFAULT_ACCOUNTING_SETTINGS;
    expect(accounts(await invoiceNumber(card.id))).toEqual(
      expect.arrayContaining([d.customers, d.services, d.vatCollected, d.stripe]),
    );
    expect(accounts(await invoiceNumber(transfer.id))).toContain(d.bank);
    // The card's sale credits the prepayments; the order it paid debits them.
    const sale = await invoiceNumber(giftCard.orderId);
    const saleCredit = fec.rows.find(
      (row) => row[column('PieceRef')] === sale && row[column('CompteNum')] === d.giftCards,
    );
    expect(saleCredit?.[column('Credit')]).toBe('41,67');
    const spendingInvoice = await invoiceNumber(spending.id);
    const spentLine = fec.rows.find(
      (row) => row[column('PieceRef')] === spendingInvoice && row[column('CompteNum')] === d.giftCards,
    );
    expect(spentLine?.[column('Debit')]).toBe('41,67');
    expect(accounts(await invoiceNumber(promoted.id))).toContain(d.discounts);
    // The supplement's own invoice is in the file too.
    const { rows: supplementInvoices } = await db().execute<{ number: string }>(
      sql`select number from invoices where order_id = ${supplemented.id} and adjustment_id is not null`,
    );
    expect(accounts(String(supplementInvoices[0]?.number)).length).toBeGreaterThan(0);
    // The refund by transfer leaves the bank.
    const { rows: notes } = await db().execute<{ number: string }>(
      sql`select number from credit_notes where order_id = ${card.id}`,
    );
    const refundLines = fec.rows.filter(
      (row) => row[column('PieceRef')] === notes[0]?.number && row[column('JournalCode')] === 'BQ',
    );
    expect(refundLines.map((row) => [row[column('CompteNum')], row[column('Credit')]])).toEqual([
      [d.bank, '10,00'],
      [d.customers, '0,00'],
    ]);
  }, 60_000);

  it('writes the accounts saved in « Exports comptables », and a journal in entries as CSV', async () => {
    const staff = await insertBuyer('Paule', 'Réglages', 'admin');
    const saved = await saveAccountingSettings(
      { ...DEFAULT_ACCOUNTING_SETTINGS, customers: '411 100', salesJournal: 'vt' },
      staff.id,
    );
    expect(saved.ok).toBe(true);
    const fec = await fecOf(today(), today());
    expect(fec.rows.some((row) => row[column('CompteNum')] === '411100')).toBe(true);
    expect(fec.rows.some((row) => row[column('JournalCode')] === 'VT')).toBe(true);
    const csv = await accountingExport({ from: today(), to: today() }, await readAccountingSettings(), 'csv');
    if (!csv.ok) throw new Error(csv.error);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await new Response(csv.file.body).arrayBuffer());
    expect(text.startsWith('\uFEFFJournal;Libellé du journal;N° écriture;Date;Compte')).toBe(true);
    expect(text.trim().split('\r\n').length - 1).toBe(fec.rows.length);
    await saveAccountingSettings(DEFAULT_ACCOUNTING_SETTINGS, staff.id);
  });
});

describe('a document the file cannot hold', () => {
  it('is named before anything is written, and the rest of the period is not touched', async () => {
    const order = await insertTestOrder(databaseUrl());
    const number = `FA-ILLISIBLE-${randomUUID().slice(0, 8)}`;
    await db().execute(sql`
      insert into invoices (number, order_id, issued_at, amount, vat, snapshot, is_paid)
      values (${number}, ${order.id}, '2021-06-16T10:00:00+02:00', 4200, 700, '{"lignes": []}', true)`);
    const settings = await readAccountingSettings();
    for (const format of ['fec', 'csv'] as const) {
      const exported = await accountingExport({ from: '2021-06-01', to: '2021-06-30' }, settings, format);
      expect(exported).toEqual({ ok: false, error: unwritableDocumentMessage(number) });
      expect(unwritableDocumentMessage(number)).toContain(`Le document ${number} ne peut pas être écrit`);
    }
    // The day before it still exports.
    const before = await fecOf('2021-06-15', '2021-06-15');
    expect(before.rows).toEqual([]);
  });
});

describe('the FEC of the demo data', () => {
  // The Done-when: a FEC for a month of `npm run seed -- --demo` (its domain function, seedDemo):
  // 18 columns, tab-separated, one line per accounting line, debits equal credits per entry and in total.
  it('a month of the demo shop: 18 tab-separated fields per line, every entry and the file balanced', async () => {
    const seeded = await seedDemo({ orders: 120, seed: 'fec', force: true });
    expect(seeded.ok).toBe(true);
    const { rows } = await db().execute<{ month: string; documents: number }>(sql`
      select to_char(issued_at at time zone 'Europe/Paris', 'YYYY-MM') as month, count(*)::int as documents
      from invoices where not is_demo group by 1 order by 2 desc, 1 limit 1`);
    const month = String(rows[0]?.month);
    const [year, m] = month.split('-').map(Number);
    const last = new Date(Date.UTC(year as number, m as number, 0)).toISOString().slice(0, 10);
    const fec = await fecOf(`${month}-01`, last);
    const { entries, debit } = expectBalanced(fec);
    for (const row of fec.rows)
      expect(row[column('EcritureDate')]).toMatch(new RegExp(`^${month.replace('-', '')}\\d{2}$`));
    expect(entries).toBeGreaterThanOrEqual(Number(rows[0]?.documents) * 2);
    expect(debit).toBeGreaterThan(0);
    // One line per accounting line: the sales entries' lines each name one account and one side.
    for (const row of fec.rows) {
      expect((row[column('Debit')] === '0,00') !== (row[column('Credit')] === '0,00')).toBe(true);
    }
    expect(fec.fileName).toBe(`912345678FEC${last.replaceAll('-', '')}.txt`);
    // Read in small batches (keyset pagination), the same entries in the same order.
    const small: string[] = [];
    for await (const batch of accountingEntries({ from: `${month}-01`, to: last }, db(), 7)) {
      for (const entry of batch) small.push(`${entry.pieceRef} ${entry.journal}`);
    }
    const whole: string[] = [];
    for await (const batch of accountingEntries({ from: `${month}-01`, to: last })) {
      for (const entry of batch) whole.push(`${entry.pieceRef} ${entry.journal}`);
    }
    expect(small).toEqual(whole);
    expect(small.length).toBe(entries);
  }, 60_000);
});
