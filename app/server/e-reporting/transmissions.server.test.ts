import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { parisDay } from '~/domain/invoices/number';
import { insertTestOrder, type TestOrder } from '../../../tests/support/orders';
import { db } from '../db/client.server';
import { issueCreditNote, issueInvoice } from '../invoices/invoices.server';
import { log } from '../log.server';
import { applyPaymentNotification } from '../payments/notifications.server';
import type { FlowFile, FlowSender } from './sender.server';
import { readEReportingSettings, saveEReportingSettings } from './settings.server';
import {
  listTransmissions,
  markDeposited,
  runEReporting,
  sendTransmission,
  transmissionFile,
} from './transmissions.server';

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';

const databaseUrl = () => process.env.DATABASE_URL as string;
const DAY_MS = 24 * 3_600_000;

async function paidByCard(order: TestOrder, provider: 'monetico' | 'sandbox' = 'monetico') {
  const result = await applyPaymentNotification({
    provider,
    eventId: `evt_${order.id}`,
    providerRef: `${provider}_${order.id}`,
    orderId: order.id,
    outcome: 'paid',
    amountCents: order.totalCents,
    currency: 'EUR',
    method: 'card',
    raw: { test: true },
  });
  expect(result.status).toBe('applied');
}

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return (await db().execute(query)).rows as T[];
}

/*
 * The test orders (tests/support/orders.ts) are 94,90 € each: 35,00 € of photos and 44,00 € of VHS
 * (services), 15,90 € for the USB key they are delivered on (goods).
 */
let today: string;

beforeAll(async () => {
  // Two consumers paying by card, one by transfer (1,00 € more), a partial credit note of 20,00 €
  // on the first; a business buyer's invoice and a demonstration one, both left out.
  const [first, second, transfer, business, demo] = await Promise.all([
    insertTestOrder(databaseUrl()),
    insertTestOrder(databaseUrl()),
    insertTestOrder(databaseUrl(), { extraCents: 100 }),
    insertTestOrder(databaseUrl(), { extraCents: 50_000 }),
    insertTestOrder(databaseUrl(), { extraCents: 70_000 }),
  ]);
  await paidByCard(first as TestOrder);
  await paidByCard(second as TestOrder);
  await db().transaction((tx) =>
    issueInvoice(tx, {
      orderId: (transfer as TestOrder).id,
      actor: 'system',
      payment: { method: 'transfer', paidAt: new Date() },
    }),
  );
  await db().execute(
    sql`update orders set business = ${JSON.stringify({
      companyName: 'Mairie de Gien',
      siren: '214501519',
      vatNumber: null,
      purchaseOrderReference: null,
      publicBody: true,
      chorusServiceCode: null,
      engagementNumber: null,
    })}::jsonb where id = ${(business as TestOrder).id}`,
  );
  await paidByCard(business as TestOrder);
  await paidByCard(demo as TestOrder, 'sandbox');
  await db().transaction((tx) =>
    issueCreditNote(tx, {
      orderId: (first as TestOrder).id,
      actor: 'system',
      reason: 'Geste commercial',
      amountCents: 2000,
    }),
  );
  const documents = await rows<{ n: number }>(sql`
    select (select count(*) from invoices)::int + (select count(*) from credit_notes)::int as n`);
  expect(documents[0]?.n).toBe(6);
  today = parisDay(new Date());
});

describe('e-reporting transmissions', () => {
  it('prepares nothing before the VAT regime is chosen', async () => {
    expect((await readEReportingSettings()).regime).toBeNull();
    expect(await runEReporting(new Date(Date.now() + 40 * DAY_MS), null)).toEqual({
      prepared: 0,
      sent: 0,
      failed: 0,
      exported: 0,
    });
  });

  it('reports the consumers’ sales and payments of a finished period, sends through a platform that fails then succeeds, once', async () => {
    const saved = await saveEReportingSettings({ regime: 'normal-monthly', startDate: today }, 'system');
    expect(saved).toEqual({ ok: true });
    // Nothing is over yet: the period of today is still running.
    expect((await runEReporting(new Date(), null)).prepared).toBe(0);

    const deposited: FlowFile[] = [];
    let calls = 0;
    let refused = false;
    // The platform is down the first time the sales' report comes.
    const flaky: FlowSender = async (file) => {
      calls += 1;
      if (!refused && file.name.startsWith('EREPORTING_TRANSACTIONS_')) {
        refused = true;
        throw new Error('PA indisponible (503)');
      }
      deposited.push(file);
      return { flowId: `flow-${calls}` };
    };
    const later = new Date(Date.now() + 12 * DAY_MS);
    const first = await runEReporting(later, flaky);
    // The decade of today (transactions); the month's payments are not over twelve days later
    // unless today is late in the month.
    expect(first.prepared).toBeGreaterThanOrEqual(1);
    expect(first).toMatchObject({ failed: 1, sent: first.prepared - 1 });

    const transactions = (await listTransmissions()).find((t) => t.kind === 'transactions' && t.periodStart === today);
    expect(transactions).toBeDefined();
    // 94,90 + 94,90 + 95,90 − 20,00: the business and the demonstration invoices are left out.
    expect(transactions?.totalCents).toBe(9490 + 9490 + 9590 - 2000);
    expect(transactions?.excludingVatCents).toBe(7908 + 7908 + 7992 - 1667);
    expect(transactions?.vatCents).toBe(1582 + 1582 + 1598 - 333);

    const file = await transmissionFile(transactions?.id as string);
    const day = today.replaceAll('-', '');
    // Goods: three USB keys at 15,90 € (13,25 € excluding VAT each), less the goods' share of the
    // 20,00 € credit note (13,25 of the invoice's 79,08 € excluding VAT: 3,35 €, 2,79 € + 0,56 €).
    expect(file?.content).toContain(
      `<Date>${day}</Date>\n      <CurrencyCode>EUR</CurrencyCode>\n      <CategoryCode>TLB1</CategoryCode>\n      <TaxExclusiveAmount>36.96</TaxExclusiveAmount>\n      <TaxTotal>7.39</TaxTotal>`,
    );
    expect(file?.content).toContain('<CategoryCode>TPS1</CategoryCode>');
    expect(file?.name).toMatch(/^EREPORTING_TRANSACTIONS_\d{8}_\d{8}\.xml$/);

    // The next pass sends what failed; a third pass prepares and sends nothing more.
    const second = await runEReporting(later, flaky);
    expect(second).toEqual({ prepared: 0, sent: 1, failed: 0, exported: 0 });
    const third = await runEReporting(later, flaky);
    expect(third).toEqual({ prepared: 0, sent: 0, failed: 0, exported: 0 });

    const sent = (await listTransmissions()).find((t) => t.id === transactions?.id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    expect(calls).toBe(first.prepared + 1);
    expect(sent?.flowId).toMatch(/^flow-/);
    // The same tracking id on every attempt: the platform recognises a deposit whose answer was lost.
    expect(deposited.find((f) => f.name === file?.name)).toMatchObject({
      syntax: 'FRR',
      processingRule: 'B2C',
      trackingId: transactions?.id,
    });
    expect(deposited.find((f) => f.name === file?.name)?.content.toString('utf8')).toBe(file?.content);
    // Sent once: sending it again is refused.
    expect(await sendTransmission(sent?.id as string, flaky, 'system')).toEqual({ ok: false, reason: 'already-done' });

    const journal = await rows<{ kind: string; subject_label: string }>(
      sql`select kind, subject_label from audit_log where kind like 'ereporting.%' or kind = 'settings.ereporting' order by at`,
    );
    expect(journal[0]?.kind).toBe('settings.ereporting');
    expect(journal.filter((e) => e.kind === 'ereporting.send').map((e) => e.subject_label)).toContain(file?.name);
  });

  it('reports the payments for services on the day received, and exports the file when no platform is configured', async () => {
    // Forty days later the month's payments are over too; no platform: exported. Two instances
    // running the pass at the same moment prepare each period once.
    const muchLater = new Date(Date.now() + 40 * DAY_MS);
    const before = (await listTransmissions()).length;
    const runs = await Promise.all([runEReporting(muchLater, null), runEReporting(muchLater, null)]);
    const prepared = runs[0].prepared + runs[1].prepared;
    expect(prepared).toBeGreaterThanOrEqual(1);
    expect(runs[0].exported + runs[1].exported).toBe(prepared);
    const all = await listTransmissions();
    expect(all.length).toBe(before + prepared);
    expect(new Set(all.map((t) => `${t.kind} ${t.periodStart}`)).size).toBe(all.length);
    const payments = all.find((t) => t.kind === 'payments' && t.periodStart === today);
    // The services of each consumer invoice (94,90 − 15,90 of USB key), less the services' share of
    // the 20,00 € given back (16,65 €; the other 3,35 € gave back goods).
    expect(payments).toMatchObject({ status: 'exported', totalCents: 7900 + 7900 + 8000 - 1665 });
    const file = await transmissionFile(payments?.id as string);
    expect(file?.content).toContain('<PaymentsReport>');
    expect(file?.content).toContain('<Amount>221.35</Amount>');
    // Prepared once: a second pass adds nothing.
    expect((await runEReporting(muchLater, null)).prepared).toBe(0);
    expect((await listTransmissions()).length).toBe(all.length);

    // « Marquer comme déposé manuellement »: journaled, then never sent.
    const [admin] = await rows<{ id: string }>(sql`
      insert into "user" (id, name, email, email_verified, role, created_at, updated_at)
      values ('staff-ereporting', 'Claire Compta', 'claire@soovenirs.test', true, 'comptabilite', now(), now())
      returning id`);
    expect(await markDeposited(payments?.id as string, admin?.id as string)).toBe(true);
    expect(await markDeposited(payments?.id as string, admin?.id as string)).toBe(false);
    expect(await sendTransmission(payments?.id as string, async () => ({ flowId: 'x' }), 'system')).toEqual({
      ok: false,
      reason: 'already-done',
    });
    const entries = await rows<{ actor_name: string }>(
      sql`select actor_name from audit_log where kind = 'ereporting.deposit' and subject = ${payments?.id as string}`,
    );
    expect(entries).toEqual([{ actor_name: 'Claire Compta' }]);
  });

  it('refuses a regime that does not exist or a date that is not one', async () => {
    expect(await saveEReportingSettings({ regime: 'annuel', startDate: '2027-02-30' }, 'system')).toEqual({
      ok: false,
      fieldErrors: {
        regime: 'Choisissez le régime de TVA de la boutique.',
        startDate: 'Indiquez une date (jj/mm/aaaa).',
      },
    });
  });
});
