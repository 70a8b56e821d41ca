import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { verifyArchive } from '~/domain/payment-journal/archive';
import { entryHash, type JournalEntry } from '~/domain/payment-journal/entries';
import { verifyChain } from '~/domain/payment-journal/verify';
import { asDatabaseOwner } from '../../../tests/support/databases';
import { insertTestOrder, type TestOrder } from '../../../tests/support/orders';
import { changeOrderStatus } from '../admin/orders.server';
import { decidePayments } from '../admin/payments.server';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { refundOrder } from '../orders/refunds.server';
import { applyPaymentNotification } from '../payments/notifications.server';
import { exportJournalArchive } from './archive.server';
import { makeDueClosures } from './closures.server';
import { readClosures, readEntries, verifyJournal } from './journal.server';

/*
 * The payment journal on a real PostgreSQL: each way money moves appends its entry in the same
 * transaction (and none when it rolls back), whatever code writes the money row; appends at the
 * same instant stay one chain; the runtime role can only read it; closures add up; the archive's
 * signature holds, and breaks on one byte.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';
const databaseUrl = () => process.env.DATABASE_URL as string;
const STAFF = 'system';

/** What PostgreSQL answered a refused statement (drizzle wraps its error). */
async function refusal(statement: Promise<unknown>): Promise<string> {
  try {
    await statement;
  } catch (error) {
    const cause = (error as { cause?: Error }).cause;
    return (cause ?? (error as Error)).message;
  }
  return 'accepted';
}

async function entriesOf(order: TestOrder) {
  return (await readEntries()).filter((entry) => entry.orderNumber === order.number);
}

/** An order paid by card: the gateway's notification, as applied in production. */
async function paidByCard(provider: 'sandbox' | 'stripe' = 'sandbox'): Promise<TestOrder> {
  const order = await insertTestOrder(databaseUrl());
  const ref = `${provider}_${randomUUID()}`;
  await db().execute(sql`
    insert into payments (order_id, provider, provider_ref, amount, status, method)
    values (${order.id}, ${provider}, ${ref}, ${order.totalCents}, 'pending', 'card')`);
  const result = await applyPaymentNotification({
    provider,
    eventId: `evt_${randomUUID()}`,
    providerRef: ref,
    orderId: order.id,
    outcome: 'paid',
    amountCents: order.totalCents,
    currency: 'EUR',
    method: 'card',
    raw: {},
  });
  expect(result).toMatchObject({ status: 'applied', orderPaid: true });
  return order;
}

async function byTransfer(): Promise<TestOrder> {
  const order = await insertTestOrder(databaseUrl());
  await db().execute(sql`update orders set payment_method = 'transfer' where id = ${order.id}`);
  return order;
}

describe('each way money moves appends its entry', () => {
  it('a card payment: received, with its invoice, the gateway as actor; the sandbox’s flagged as demonstration', async () => {
    const order = await paidByCard('stripe');
    expect(await entriesOf(order)).toMatchObject([
      {
        kind: 'payment_received',
        amountCents: order.totalCents,
        method: 'card',
        provider: 'stripe',
        actor: 'stripe',
        demo: false,
        documentNumber: expect.stringMatching(/^FA-\d{4}-\d{6}$/),
        sourceTable: 'payments',
      },
    ]);
    const demo = await paidByCard('sandbox');
    expect(await entriesOf(demo)).toMatchObject([
      { kind: 'payment_received', demo: true, documentNumber: expect.stringMatching(/^TEST-FA-/) },
    ]);
  });

  it('a transfer validated, and one rejected, by the staff member who decided', async () => {
    const validated = await byTransfer();
    const rejected = await byTransfer();
    // The staff member who decided, read from the order's history.
    const cashier = `user_${randomUUID()}`;
    await decidePayments([`o:${validated.id}`], 'validate', { id: cashier });
    await decidePayments([`o:${rejected.id}`], 'reject', { id: cashier }, 'Virement non reçu');
    expect(await entriesOf(validated)).toMatchObject([
      {
        kind: 'payment_validated',
        amountCents: validated.totalCents,
        method: 'transfer',
        provider: null,
        actor: cashier,
        documentNumber: expect.stringMatching(/^FA-/),
        sourceTable: 'orders',
      },
    ]);
    expect(await entriesOf(rejected)).toMatchObject([
      {
        kind: 'payment_rejected',
        amountCents: rejected.totalCents,
        method: 'transfer',
        actor: cashier,
        documentNumber: null,
      },
    ]);
  });

  it('a partial refund and a cancellation’s refund, each with its credit note', async () => {
    const partly = await paidByCard('stripe');
    const refunded = await refundOrder({
      orderId: partly.id,
      amountCents: 1000,
      method: 'transfer',
      reason: 'Geste commercial',
      actor: STAFF,
    });
    expect(refunded).toMatchObject({ ok: true });
    expect((await entriesOf(partly)).map((e) => [e.kind, e.amountCents, e.method])).toEqual([
      ['payment_received', partly.totalCents, 'card'],
      ['refund', 1000, 'transfer'],
    ]);
    expect((await entriesOf(partly))[1]?.documentNumber).toMatch(/^AV-/);

    const cancelled = await paidByCard('sandbox');
    const result = await changeOrderStatus({
      refundRight: true,
      orderId: cancelled.id,
      status: 'canceled',
      actor: { id: STAFF },
      refund: { amountCents: cancelled.totalCents, method: 'gateway', reason: 'Annulée à la demande du client' },
    });
    expect(result).toMatchObject({ ok: true, refund: { ok: true } });
    expect((await entriesOf(cancelled)).at(-1)).toMatchObject({
      kind: 'refund',
      amountCents: cancelled.totalCents,
      method: 'gateway',
      provider: 'sandbox',
      demo: true,
      documentNumber: expect.stringMatching(/^TEST-AV-/),
    });
  });

  it('a new way of paying, written by hand, is journaled; a transaction rolled back leaves nothing', async () => {
    const order = await insertTestOrder(databaseUrl());
    // Any code that records money writes a row in a money table: the trigger journals it.
    await db().execute(sql`
      insert into payments (order_id, provider, provider_ref, amount, status, method)
      values (${order.id}, 'monetico', ${`m_${randomUUID()}`}, 4200, 'paid', 'card')`);
    expect(await entriesOf(order)).toMatchObject([
      { kind: 'payment_received', amountCents: 4200, provider: 'monetico' },
    ]);

    // Text the canonical form must escape as JSON.stringify does: quotes, accents, control characters.
    const odd = 'Zoé « caisse » "2"\\\n\t\u0001 €';
    await db().execute(sql`
      insert into refunds (order_id, method, amount, reason, status, actor)
      values (${order.id}, 'cheque', 200, 'Geste', 'succeeded', ${odd})`);
    const [, refund] = await entriesOf(order);
    expect(refund).toMatchObject({ kind: 'refund', actor: odd, method: 'cheque', amountCents: 200 });
    expect(entryHash(refund as JournalEntry)).toBe(refund?.hash);

    const rolledBack = await insertTestOrder(databaseUrl());
    const before = (await readEntries()).length;
    await expect(
      db().transaction(async (tx) => {
        await tx.execute(sql`
          insert into payments (order_id, provider, provider_ref, amount, status, method)
          values (${rolledBack.id}, 'stripe', ${`s_${randomUUID()}`}, 4200, 'paid', 'card')`);
        throw new Error('the payment fails after its row');
      }),
    ).rejects.toThrow('the payment fails');
    expect(await readEntries()).toHaveLength(before);
  });
});

describe('the chain', () => {
  it('stays one line when payments commit at the same instant', async () => {
    const orders = await Promise.all(Array.from({ length: 6 }, () => insertTestOrder(databaseUrl())));
    await Promise.all(
      orders.map((order) =>
        db().transaction(async (tx) => {
          await tx.execute(sql`
            insert into payments (order_id, provider, provider_ref, amount, status, method)
            values (${order.id}, 'stripe', ${`s_${randomUUID()}`}, ${order.totalCents}, 'paid', 'card')`);
        }),
      ),
    );
    const entries = await readEntries();
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
    expect(verifyChain(entries)).toMatchObject({ ok: true });
    // The trigger's canonical form is the one an outside verifier computes.
    for (const entry of entries) expect(entryHash(entry)).toBe(entry.hash);
  });

  it('cannot be written, changed or deleted by the runtime role, nor changed by the owner while the trigger stands', async () => {
    const [first] = await readEntries();
    expect(first).toBeDefined();
    const refused = /permission denied/;
    expect(await refusal(db().execute(sql`update payment_journal set amount_cents = 1`))).toMatch(refused);
    expect(await refusal(db().execute(sql`delete from payment_journal`))).toMatch(refused);
    expect(
      await refusal(db().execute(sql`insert into payment_journal select * from payment_journal where seq = 1`)),
    ).toMatch(refused);
    expect(
      await refusal(
        db().execute(
          sql`select payment_journal_append('refund', null, null, 1, 'card', null, 'x', false, 'payments', 'x')`,
        ),
      ),
    ).toMatch(refused);
    expect(await refusal(db().execute(sql`update payment_journal_closures set perpetual_cents = 0`))).toMatch(refused);
    // Setting the copy's variable does not let the runtime role skip the journal.
    const order = await insertTestOrder(databaseUrl());
    await db().transaction(async (tx) => {
      await tx.execute(sql`set local soovenirs.copying_rows = 'on'`);
      await tx.execute(sql`
        insert into payments (order_id, provider, provider_ref, amount, status, method)
        values (${order.id}, 'stripe', ${`s_${randomUUID()}`}, 100, 'paid', 'card')`);
    });
    expect(await entriesOf(order)).toHaveLength(1);
    await expect(asDatabaseOwner('update payment_journal set amount_cents = 1 where seq = 1')).rejects.toThrow(
      /append-only/,
    );
    await expect(asDatabaseOwner('delete from payment_journal where seq = 1')).rejects.toThrow(/append-only/);
    await expect(asDatabaseOwner('truncate payment_journal')).rejects.toThrow(/append-only/);
    expect(await verifyJournal()).toMatchObject({ ok: true });
  });
});

describe('closures and archives', () => {
  it('close each past day, then add up to the entries; the archive verifies and fails on one byte', async () => {
    const entries = await readEntries();
    const today = entries[0]?.recordedAt as Date;
    // Two days later: today and tomorrow are closed (a day missed while stopped is caught up).
    const later = new Date(today.getTime() + 2 * 24 * 3600_000);
    expect(await makeDueClosures(later)).toBeGreaterThanOrEqual(2);
    expect(await makeDueClosures(later)).toBe(0);
    const closures = await readClosures();
    const days = closures.filter((c) => c.period === 'day');
    const received = entries.filter((e) => e.kind === 'payment_received' && !e.demo);
    const total = (kind: 'payment_received' | 'refund') => days.reduce((sum, c) => sum + c.totals[kind].cents, 0);
    expect(total('payment_received')).toBe(received.reduce((sum, e) => sum + e.amountCents, 0));
    const realIn = entries
      .filter((e) => !e.demo && (e.kind === 'payment_received' || e.kind === 'payment_validated'))
      .reduce((sum, e) => sum + e.amountCents, 0);
    const realOut = entries.filter((e) => !e.demo && e.kind === 'refund').reduce((sum, e) => sum + e.amountCents, 0);
    expect(closures.at(-1)?.perpetualCents).toBe(realIn - realOut);
    expect(await verifyJournal()).toMatchObject({ ok: true, closures: closures.length });

    const first = days[0]?.periodKey as string;
    const last = days.at(-1)?.periodKey as string;
    const archive = Buffer.from(await exportJournalArchive(first, last));
    const checked = verifyArchive(archive);
    expect(checked).toMatchObject({ ok: true, chain: { count: entries.length } });
    const at = archive.indexOf('"amountCents":') + '"amountCents":'.length;
    archive[at] = archive[at] === '1'.charCodeAt(0) ? '2'.charCodeAt(0) : '1'.charCodeAt(0);
    expect(verifyArchive(archive)).toMatchObject({ ok: false, reason: expect.stringContaining('signature invalide') });
  });
});
