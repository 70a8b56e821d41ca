import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertTestOrder, type TestOrder } from '../../../tests/support/orders';
import { db } from '../db/client.server';
import { issueCreditNote } from '../invoices/invoices.server';
import { log } from '../log.server';
import { applyPaymentNotification } from '../payments/notifications.server';
import type { PaymentNotification } from '../payments/types';
import { exportStream } from './exports.server';
import { listCreditNotes, listInvoices } from './invoices.server';
import { computeReports } from './reports.server';
import { countStats } from './stats.server';

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';

const databaseUrl = () => process.env.DATABASE_URL as string;

async function pay(order: TestOrder, provider: PaymentNotification['provider']) {
  const ref = `${provider}_${order.id}`;
  const result = await applyPaymentNotification({
    provider,
    eventId: `evt_${ref}`,
    providerRef: ref,
    orderId: order.id,
    outcome: 'paid',
    amountCents: order.totalCents,
    currency: 'EUR',
    method: 'card',
    raw: { test: true },
  });
  expect(result).toMatchObject({ orderPaid: true });
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

function parisDay(date: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(date);
}

describe('the Comptabilité lists', () => {
  it('list demonstration documents marked as such, found by their TEST- number, and partial credits', async () => {
    const real = await insertTestOrder(databaseUrl());
    await pay(real, 'monetico');
    await db().transaction((tx) =>
      issueCreditNote(tx, { orderId: real.id, actor: 'admin', reason: 'Geste commercial', amountCents: 100 }),
    );
    const demo = await insertTestOrder(databaseUrl());
    await pay(demo, 'sandbox');
    await db().transaction((tx) => issueCreditNote(tx, { orderId: demo.id, actor: 'admin', reason: 'Essai' }));

    const found = await listInvoices({ q: 'TEST-FA', page: 1 });
    expect(found.rows.map((r) => [r.orderNumber, r.isDemo, r.state])).toEqual([[demo.number, true, 'credited']]);
    const realRow = (await listInvoices({ q: '', page: 1 })).rows.find((r) => r.orderNumber === real.number);
    expect(realRow).toMatchObject({ isDemo: false, state: 'partially_credited' });
    const notes = await listCreditNotes({ q: 'test-av', page: 1 });
    expect(notes.rows.map((r) => [r.orderNumber, r.isDemo])).toEqual([[demo.number, true]]);
  });
});

describe('revenue', () => {
  it('is net of refunds and never counts a demonstration document, on the cards, the reports and the export', async () => {
    await db().execute(sql`delete from config_options`);
    const before = await countStats();
    const reportsBefore = await computeReports();

    // A real payment, then a partial refund's credit note: it counts net.
    const real = await insertTestOrder(databaseUrl());
    await pay(real, 'monetico');
    await db().transaction((tx) =>
      issueCreditNote(tx, { orderId: real.id, actor: 'admin', reason: 'Geste commercial', amountCents: 1250 }),
    );
    // Money through the sandbox, invoiced and credited in the demonstration series: nothing.
    const demo = await insertTestOrder(databaseUrl(), { extraCents: 3 });
    await pay(demo, 'sandbox');
    await db().transaction((tx) =>
      issueCreditNote(tx, { orderId: demo.id, actor: 'admin', reason: 'Essai', amountCents: 500 }),
    );

    const after = await countStats();
    const net = real.totalCents - 1250;
    expect(after.totalRevenueCents - before.totalRevenueCents).toBe(net);
    expect(after.revenueLast30Cents - before.revenueLast30Cents).toBe(net);

    const monthRevenue = (data: typeof reportsBefore) => data.months[data.months.length - 1]?.revenueCents ?? 0;
    expect(monthRevenue(await computeReports()) - monthRevenue(reportsBefore)).toBe(net);

    // This file's documents are all of today: a period around today holds them all.
    const day = 86_400_000;
    const from = parisDay(new Date(Date.now() - day));
    const to = parisDay(new Date(Date.now() + day));
    const csv = await readAll(exportStream({ dataset: 'factures', format: 'csv', from, to }).body);
    const lines = csv.replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]).toBe(
      'N° pièce;Type;Nature;Date;N° commande;Client;Email;Montant HT;TVA;Montant TTC;Réglé par carte cadeau;Statut;Pièce liée',
    );
    expect(lines.some((line) => line.startsWith('TEST-'))).toBe(false);
    const invoiceLine = lines.find((line) => line.includes(';Facture;Prestation;') && line.includes(real.number));
    const creditLine = lines.find((line) => line.includes(';Avoir;Prestation;') && line.includes(real.number));
    expect(invoiceLine).toContain(';Avoir partiel;AV-');
    expect(creditLine).toMatch(/;-10,42;-2,08;-12,50;;Avoir;FA-\d{4}-\d{6}$/);
    // The journal adds up to the revenue.
    const ttc = lines
      .slice(1)
      .map((line) => Math.round(Number((line.split(';')[9] as string).replace(',', '.')) * 100));
    expect(ttc.reduce((a, b) => a + b, 0)).toBe(after.totalRevenueCents);
  });
});
