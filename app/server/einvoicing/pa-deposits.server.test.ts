import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configureFakePa, type FakePa, startFakePa } from '../../../tests/support/fake-pa';
import { insertTestOrder, type TestOrder } from '../../../tests/support/orders';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { refundOrder } from '../orders/refunds.server';
import { applyPaymentNotification } from '../payments/notifications.server';
import { getFlow, lookupSiren, testPaConnection } from './pa-client.server';
import { loadPaConfig } from './pa-config.server';
import { drainPaFlows, listOrderPaFlows, pollPaStatuses, reissueRejectedInvoice } from './pa-deposits.server';

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';

const databaseUrl = () => process.env.DATABASE_URL as string;
const BUYER = {
  companyName: 'Mairie de Saint-Test',
  siren: '732829321', // a wrong key: what the PA rejects
  vatNumber: null,
  purchaseOrderReference: 'BC-42',
  publicBody: false,
  chorusServiceCode: null,
  engagementNumber: null,
};
const FIXED_SIREN = '732829320';

let pa: FakePa;

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return (await db().execute(query)).rows as T[];
}

/**
 * A business order (orders.business set as the checkout will), paid by card: its invoice is issued.
 * Through the sandbox, a gateway that refunds (its pending payment first, as checkout leaves it).
 */
async function paidBusinessOrder(provider: 'monetico' | 'sandbox' = 'monetico'): Promise<TestOrder> {
  const order = await insertTestOrder(databaseUrl());
  await db().execute(sql`update orders set business = ${JSON.stringify(BUYER)}::jsonb where id = ${order.id}`);
  const providerRef = `ref_${order.id}`;
  if (provider === 'sandbox') {
    await db().execute(sql`
      insert into payments (order_id, provider, provider_ref, amount, status, method)
      values (${order.id}, 'sandbox', ${providerRef}, ${order.totalCents}, 'pending', 'card')`);
  }
  const result = await applyPaymentNotification({
    provider,
    eventId: `evt_${order.id}`,
    providerRef,
    orderId: order.id,
    outcome: 'paid',
    amountCents: order.totalCents,
    currency: 'EUR',
    method: 'card',
    raw: { test: true },
  });
  expect(result.status).toBe('applied');
  return order;
}

async function history(orderId: string): Promise<Array<{ kind: string; data: Record<string, unknown> }>> {
  return rows(
    sql`select kind, data from order_events where order_id = ${orderId} and kind like 'einvoice%' order by id`,
  );
}

beforeAll(async () => {
  pa = await startFakePa();
  pa.addCompany(FIXED_SIREN, 'Mairie de Saint-Test');
});
afterAll(async () => {
  await pa.close();
});
beforeEach(() => configureFakePa(pa));

describe('the PA settings', () => {
  it('stores the client secret encrypted, journals the change without it, and tests the connection', async () => {
    const [stored] = await rows<{ value: string }>(
      sql`select option_value as value from config_options where option_name = 'pa_config'`,
    );
    expect(stored?.value).not.toContain(pa.clientSecret);
    expect(JSON.parse(stored?.value ?? '{}').clientSecret).toMatch(/^v1\./);
    expect((await loadPaConfig()).clientSecret).toBe(pa.clientSecret);
    const audits = await rows<{ after: Record<string, unknown> }>(
      sql`select after from audit_log where kind = 'settings.pa'`,
    );
    expect(audits.length).toBeGreaterThan(0);
    expect(JSON.stringify(audits)).not.toContain(pa.clientSecret);
    expect(await testPaConnection(await loadPaConfig())).toMatchObject({ ok: true });
    expect(await testPaConnection({ ...(await loadPaConfig()), clientSecret: 'wrong' })).toMatchObject({ ok: false });
    expect(await lookupSiren(FIXED_SIREN)).toMatchObject({
      businessName: 'Mairie de Saint-Test',
      receivesInvoices: true,
    });
    expect(await lookupSiren('552100554')).toBeNull();
  });
});

describe('a business invoice on the PA', () => {
  it('is queued in the issuing transaction and deposited once, even by two workers at once', async () => {
    const order = await paidBusinessOrder();
    const [invoice] = await rows<{ id: string; number: string }>(
      sql`select id, number from invoices where order_id = ${order.id}`,
    );
    const queued = await rows<{ state: string; document_number: string }>(
      sql`select state, document_number from pa_flows where order_id = ${order.id}`,
    );
    expect(queued).toEqual([{ state: 'queued', document_number: invoice?.number }]);

    const [first, second] = await Promise.all([drainPaFlows(), drainPaFlows()]);
    expect((first?.deposited ?? 0) + (second?.deposited ?? 0)).toBe(1);
    await drainPaFlows();
    const deposits = pa.depositsOf(invoice?.number ?? '');
    expect(deposits).toHaveLength(1);
    expect(deposits[0]?.flowInfo).toMatchObject({
      trackingId: invoice?.number,
      flowSyntax: 'Factur-X',
      processingRule: 'B2B',
    });
    expect(deposits[0]?.file.subarray(0, 5).toString()).toBe('%PDF-');
    const [recorded] = await rows<{ flow_id: string }>(sql`select flow_id from pa_flows where order_id = ${order.id}`);
    expect(await getFlow(recorded?.flow_id as string)).toMatchObject({
      flowId: deposits[0]?.flowId,
      trackingId: invoice?.number,
      flowDirection: 'Out',
    });
    expect((await history(order.id)).map((e) => e.kind)).toEqual(['einvoice_deposited']);
  });

  it('a consumer order queues nothing', async () => {
    const order = await insertTestOrder(databaseUrl());
    await applyPaymentNotification({
      provider: 'monetico',
      eventId: `evt_${order.id}`,
      providerRef: `ref_${order.id}`,
      orderId: order.id,
      outcome: 'paid',
      amountCents: order.totalCents,
      currency: 'EUR',
      method: 'card',
      raw: {},
    });
    expect(await rows(sql`select id from pa_flows where order_id = ${order.id}`)).toEqual([]);
  });

  it('retries with backoff while the PA is down, and never deposits twice after a lost answer', async () => {
    const order = await paidBusinessOrder();
    pa.setDown(true);
    expect(await drainPaFlows()).toMatchObject({ deposited: 0, retry: 1 });
    const [waiting] = await rows<{ attempts: number; due_in: number; last_error: string }>(
      sql`select attempts, extract(epoch from next_at - now())::int as due_in, last_error from pa_flows where order_id = ${order.id}`,
    );
    expect(waiting?.attempts).toBe(1);
    expect(waiting?.due_in).toBeGreaterThan(20);
    expect(waiting?.last_error).toMatch(/503/);
    pa.setDown(false);
    // The answer of the next attempt is lost: the PA has the flow, the shop does not know it.
    pa.loseNextAnswer();
    const [invoice] = await rows<{ number: string }>(sql`select number from invoices where order_id = ${order.id}`);
    await db().execute(sql`update pa_flows set next_at = now() where order_id = ${order.id}`);
    expect(await drainPaFlows()).toMatchObject({ deposited: 0, retry: 1 });
    expect(pa.depositsOf(invoice?.number ?? '')).toHaveLength(1);
    // The retry finds it by its trackingId rather than depositing it again.
    await db().execute(sql`update pa_flows set next_at = now() where order_id = ${order.id}`);
    expect(await drainPaFlows()).toMatchObject({ deposited: 1 });
    expect(pa.depositsOf(invoice?.number ?? '')).toHaveLength(1);
    const [done] = await rows<{ flow_id: string }>(sql`select flow_id from pa_flows where order_id = ${order.id}`);
    expect(done?.flow_id).toBe(pa.depositsOf(invoice?.number ?? '')[0]?.flowId);
  });

  it('lands each status once in the history; a rejection is fixed and re-issued, then « Encaissée » is sent', async () => {
    const order = await paidBusinessOrder();
    await drainPaFlows();
    const [invoice] = await rows<{ id: string; number: string; amount: number }>(
      sql`select id, number, amount from invoices where order_id = ${order.id}`,
    );
    const number = invoice?.number as string;
    pa.setStatus(number, 213, 'SIREN de l’acheteur inconnu');
    expect((await pollPaStatuses()).received).toBeGreaterThanOrEqual(2); // 200 Déposée, 213 Rejetée
    expect((await pollPaStatuses()).received).toBe(0);
    const statuses = (await history(order.id)).filter((e) => e.kind === 'einvoice_status');
    expect(statuses.map((e) => e.data.code)).toEqual([200, 213]);
    expect(statuses[1]?.data.reason).toBe('SIREN de l’acheteur inconnu');

    const [flow] = await listOrderPaFlows(order.id);
    expect(flow).toMatchObject({ paStatus: 213, paStatusLabel: 'Rejetée', canReissue: true });
    const refused = await reissueRejectedInvoice({
      orderId: order.id,
      paFlowId: flow?.id as string,
      correction: { companyName: 'Mairie de Saint-Test', siren: '123', vatNumber: '', chorusServiceCode: '' },
      actor: 'system',
    });
    expect(refused).toMatchObject({ ok: false, fieldErrors: { siren: expect.any(String) } });
    const reissued = await reissueRejectedInvoice({
      orderId: order.id,
      paFlowId: flow?.id as string,
      correction: { companyName: 'Mairie de Saint-Test', siren: FIXED_SIREN, vatNumber: '', chorusServiceCode: '' },
      actor: 'system',
    });
    expect(reissued.ok).toBe(true);
    if (!reissued.ok) return;
    // The buyer corrected as an order edit: its history event and its journal entry, the SIREN only.
    const change = { field: 'siren', before: BUYER.siren, after: FIXED_SIREN };
    expect(
      await rows(sql`select data from order_events where order_id = ${order.id} and kind = 'business_buyer_corrected'`),
    ).toEqual([{ data: { changes: [change] } }]);
    expect(
      await rows(
        sql`select kind, before, after from audit_log where subject = ${order.id} and kind like 'order.%' order by id`,
      ),
    ).toEqual([
      { kind: 'order.business_buyer', before: { siren: BUYER.siren }, after: { siren: FIXED_SIREN } },
      {
        kind: 'order.einvoice_reissue',
        before: { invoice: number },
        after: { invoice: reissued.invoiceNumber, creditNote: reissued.creditNoteNumber },
      },
    ]);
    // The rejected number stays, cancelled by a credit note; the replacement takes the next number.
    const documents = await rows<{ number: string; amount: number; siren: string | null; replaces: string | null }>(sql`
      select number, amount, snapshot->'business'->>'siren' as siren, replaces_invoice_id as replaces
      from invoices where order_id = ${order.id} order by issued_at`);
    expect(documents.map((d) => d.number)).toEqual([number, reissued.invoiceNumber]);
    expect(documents[1]).toMatchObject({ siren: FIXED_SIREN, replaces: invoice?.id, amount: invoice?.amount });
    const notes = await rows<{ number: string; amount: number }>(
      sql`select number, amount from credit_notes where order_id = ${order.id}`,
    );
    expect(notes).toEqual([{ number: reissued.creditNoteNumber, amount: invoice?.amount }]);
    // Twice is refused: the invoice is replaced already.
    expect(
      await reissueRejectedInvoice({
        orderId: order.id,
        paFlowId: flow?.id as string,
        correction: { companyName: 'X', siren: FIXED_SIREN, vatNumber: '', chorusServiceCode: '' },
        actor: 'system',
      }),
    ).toMatchObject({ ok: false });

    // Only the replacement is deposited (the credit note of a rejected invoice stays with the shop).
    await drainPaFlows();
    expect(pa.depositsOf(reissued.invoiceNumber)).toHaveLength(1);
    expect(pa.depositsOf(reissued.creditNoteNumber ?? '')).toHaveLength(0);
    expect(pa.statusesSent).toEqual([]);

    // Received by the buyer's platform: the service invoice, paid, is « Encaissée » with its amount.
    pa.setStatus(reissued.invoiceNumber, 202);
    await pollPaStatuses();
    await drainPaFlows();
    await pollPaStatuses();
    await drainPaFlows();
    const sent = pa.statusesSent.filter((s) => s.invoiceNumber === reissued.invoiceNumber);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ code: 212, amount: ((invoice?.amount ?? 0) / 100).toFixed(2) });
    const kinds = (await history(order.id)).map((e) => e.kind);
    expect(kinds).toEqual([
      'einvoice_deposited',
      'einvoice_status',
      'einvoice_status',
      'einvoice_reissued',
      'einvoice_deposited',
      'einvoice_status',
      'einvoice_status',
      'einvoice_status_sent',
    ]);
  });

  it('a refusal by the buyer credits the invoice, once', async () => {
    const order = await paidBusinessOrder();
    await drainPaFlows();
    const [invoice] = await rows<{ number: string; amount: number }>(
      sql`select number, amount from invoices where order_id = ${order.id}`,
    );
    pa.setStatus(invoice?.number as string, 210, 'Prestation non commandée');
    pa.setStatus(invoice?.number as string, 210, 'Prestation non commandée');
    await pollPaStatuses();
    const notes = await rows<{ amount: number; reason: string }>(
      sql`select amount, reason from credit_notes where order_id = ${order.id}`,
    );
    expect(notes).toHaveLength(1);
    expect(notes[0]?.amount).toBe(invoice?.amount);
    expect(notes[0]?.reason).toContain('refusée par l’acheteur');
    // The credit note names a business buyer: it is deposited too.
    await drainPaFlows();
    const [noteRow] = await rows<{ number: string }>(sql`select number from credit_notes where order_id = ${order.id}`);
    expect(pa.depositsOf(noteRow?.number as string)).toHaveLength(1);
  });

  it('a refund after a refusal gives the money back under the refusal’s credit note, once', async () => {
    const order = await paidBusinessOrder('sandbox');
    await drainPaFlows();
    const [invoice] = await rows<{ number: string; amount: number }>(
      sql`select number, amount from invoices where order_id = ${order.id}`,
    );
    pa.setStatus(invoice?.number as string, 210, 'Prestation non commandée');
    await pollPaStatuses();
    const [note] = await rows<{ id: string; number: string; amount: number }>(
      sql`select id, number, amount from credit_notes where order_id = ${order.id}`,
    );
    expect(note?.amount).toBe(invoice?.amount);

    const refund = { orderId: order.id, amountCents: order.totalCents, method: 'gateway' as const, actor: 'system' };
    const made = await refundOrder({ ...refund, reason: 'Facture refusée' });
    expect(made).toMatchObject({ ok: true, amountCents: order.totalCents, creditNoteNumber: note?.number });
    // No second credit note: the refund is linked to the refusal's, the payment refunded.
    expect(await rows(sql`select number from credit_notes where order_id = ${order.id}`)).toEqual([
      { number: note?.number },
    ]);
    expect(
      await rows(sql`select amount, method, status, credit_note_id from refunds where order_id = ${order.id}`),
    ).toEqual([{ amount: order.totalCents, method: 'gateway', status: 'succeeded', credit_note_id: note?.id }]);
    const [state] = await rows<{ payment_status: string }>(
      sql`select payment_status from orders where id = ${order.id}`,
    );
    expect(state?.payment_status).toBe('refunded');
    const events = await rows<{ kind: string }>(
      sql`select kind from order_events where order_id = ${order.id} and kind in ('refund_issued', 'credit_note_issued')`,
    );
    expect(events.map((e) => e.kind).sort()).toEqual(['credit_note_issued', 'refund_issued']);
    const journal = await rows<{ document_number: string | null; amount: number }>(
      sql`select document_number, amount_cents::int as amount from payment_journal where kind = 'refund' and order_number = (select number from orders where id = ${order.id})`,
    );
    expect(journal).toEqual([{ document_number: note?.number, amount: order.totalCents }]);

    // A second submit of the form refunds nothing more.
    expect(await refundOrder({ ...refund, reason: 'Facture refusée' })).toEqual({
      ok: false,
      message: 'Tout ce qui a été payé a déjà été remboursé.',
    });
    expect(await rows(sql`select id from refunds where order_id = ${order.id}`)).toHaveLength(1);
  });
});
