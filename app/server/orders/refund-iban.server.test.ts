import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { IBAN_MESSAGES } from '~/domain/orders/iban';
import { payByCard } from '../../../tests/support/card-payment';
import { insertTestOrder, orderState } from '../../../tests/support/orders';
import { decidePayments } from '../admin/payments.server';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { applyTransition, REDUCTION_REASON } from './lifecycle.server';
import { deleteUnusedIbans, ibanStatus, revealIban, saveIban, sendIbanReminders } from './refund-iban.server';
import { approveRefund, dueRefunds } from './refunds.server';
import { withdrawFromOrder } from './withdrawal.server';

/*
 * The IBAN of a refund by transfer (decision 025): asked with the refund owed, stored encrypted,
 * read in full only through revealIban (journaled), deleted when the refund is paid, reminded and
 * expired by the housekeeping. A bad IBAN changes nothing.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';
const databaseUrl = () => process.env.DATABASE_URL as string;
const IBAN = 'FR76 3000 6000 0112 3456 7890 189';
const COMPACT = 'FR7630006000011234567890189';
const HOLDER = 'Marie Sklodowska';

async function accountant(): Promise<string> {
  const id = randomUUID();
  await db().execute(sql`
    insert into "user" (id, name, email, role, first_name, last_name)
    values (${id}, 'Paul Compta', ${`compta-${id}@soovenirs.test`}, 'comptabilite', 'Paul', 'Compta')`);
  return id;
}

/** A transfer-paid order with 10,00 € counted short at reception, approved. */
async function shortTransferOrder(staff: string) {
  const order = await insertTestOrder(databaseUrl());
  await db().execute(sql`update orders set payment_method = 'transfer' where id = ${order.id}`);
  await decidePayments([`o:${order.id}`], 'validate', { id: staff });
  const reduction = await applyTransition(
    order.id,
    { type: 'record_reduction', amountCents: 1_000, refundRight: true },
    staff,
    { reason: REDUCTION_REASON },
  );
  if (!reduction.ok) throw new Error(reduction.message);
  return { order, reduction };
}

async function bankRow(orderId: string) {
  const result = await db().execute<{ details: string | null; masked: string | null; received_at: Date | null }>(
    sql`select details, masked, received_at from refund_bank_details where order_id = ${orderId}`,
  );
  return result.rows[0] ?? null;
}

async function journal(orderId: string) {
  const result = await db().execute<{ kind: string; before: unknown; after: unknown; actor_id: string | null }>(
    sql`select kind, before, after, actor_id from audit_log where subject = ${orderId} order by id`,
  );
  return result.rows;
}

describe('the IBAN of a refund by transfer', () => {
  it('is asked with the refund owed, in the same step: e-mail with its link, refund left to pay by transfer', async () => {
    const staff = await accountant();
    const { order, reduction } = await shortTransferOrder(staff);
    expect(reduction.ok && reduction.refundResults).toEqual([
      { ok: false, due: true, message: expect.stringContaining('IBAN') },
    ]);
    const [due] = await dueRefunds(order.id);
    expect(due?.amountCents).toBe(1_000);
    const state = await orderState(databaseUrl(), order.id);
    const request = state.outbox.find((m) => m.template === 'refund-iban-request');
    expect(request?.data).toMatchObject({ amountCents: 1_000, orderNumber: order.number });
    expect(state.events).toContain('iban_requested');
    const method = await db().execute<{ method: string }>(sql`select method from refunds where order_id = ${order.id}`);
    expect(method.rows.map((r) => r.method)).toEqual(['transfer']);
    expect(await ibanStatus(order.id)).toMatchObject({ receivedAt: null, masked: null, owedCents: 1_000 });
  });

  it('refuses a bad IBAN changing nothing, stores a good one encrypted, and deletes it when the refund is paid', async () => {
    const staff = await accountant();
    const { order } = await shortTransferOrder(staff);
    const before = await bankRow(order.id);

    const bad = await saveIban({
      orderId: order.id,
      fields: { holder: HOLDER, iban: 'FR76 3000 6000 0112 3456 7890 188' },
      actor: 'guest',
    });
    expect(bad).toMatchObject({ ok: false, fieldErrors: { iban: [IBAN_MESSAGES.ibanChecksum] } });
    expect(await bankRow(order.id)).toEqual(before);
    expect(before?.details).toBeNull();

    const saved = await saveIban({
      orderId: order.id,
      fields: { holder: HOLDER, iban: IBAN, bic: 'BNPAFRPP' },
      actor: 'guest',
    });
    expect(saved).toMatchObject({ ok: true, masked: 'FR76 •••• •••• 0189' });
    // Encrypted at rest: neither the IBAN (in any spacing) nor the holder nor the BIC in the column.
    const stored = await bankRow(order.id);
    expect(stored?.details).toMatch(/^v1\./);
    for (const clear of [COMPACT, IBAN, '30006000011234567890', HOLDER, 'BNPAFRPP']) {
      expect(stored?.details).not.toContain(clear);
    }
    const dump = await db().execute(sql`select * from refund_bank_details where order_id = ${order.id}`);
    expect(JSON.stringify(dump.rows)).not.toContain('0112');

    const revealed = await revealIban(order.id, staff);
    expect(revealed).toMatchObject({ holder: HOLDER, iban: COMPACT, bic: 'BNPAFRPP', formatted: IBAN });

    const [due] = await dueRefunds(order.id);
    if (!due) throw new Error('no refund due');
    const paid = await approveRefund({ orderId: order.id, refundId: due.id, method: 'transfer', actor: staff });
    expect(paid).toMatchObject({ ok: true, amountCents: 1_000 });
    expect(await bankRow(order.id)).toBeNull();
    const state = await orderState(databaseUrl(), order.id);
    expect(state.paymentStatus).toBe('partially_refunded');
    expect(state.events).toEqual(expect.arrayContaining(['iban_received', 'iban_deleted', 'refund_issued']));

    const entries = await journal(order.id);
    expect(entries.map((e) => e.kind)).toEqual(expect.arrayContaining(['order.iban_viewed', 'order.iban_used']));
    expect(entries.find((e) => e.kind === 'order.iban_viewed')?.actor_id).toBe(staff);
    expect(JSON.stringify(entries)).not.toMatch(/0112|30006|FR76|Sklodowska/);
    // Nothing left to give back: the page has nothing to take.
    expect(await saveIban({ orderId: order.id, fields: { holder: HOLDER, iban: IBAN }, actor: 'guest' })).toMatchObject(
      {
        ok: false,
      },
    );
  });

  it('is asked on the common refund path: a withdrawal from a transfer-paid order asks it too', async () => {
    const staff = await accountant();
    const order = await insertTestOrder(databaseUrl());
    await db().execute(sql`update orders set payment_method = 'transfer' where id = ${order.id}`);
    await decidePayments([`o:${order.id}`], 'validate', { id: staff });
    expect(await withdrawFromOrder({ orderId: order.id, actor: 'guest' })).toMatchObject({ ok: true });
    const request = (await orderState(databaseUrl(), order.id)).outbox.find(
      (m) => m.template === 'refund-iban-request',
    );
    expect(request?.data).toMatchObject({ amountCents: order.totalCents });
    expect(await ibanStatus(order.id)).toMatchObject({ owedCents: order.totalCents, receivedAt: null });
  });

  it('asks nothing when the card can take the money back', async () => {
    const order = await insertTestOrder(databaseUrl());
    await payByCard(order.id, order.totalCents);
    const reduction = await applyTransition(
      order.id,
      { type: 'record_reduction', amountCents: 1_000, refundRight: true },
      'system',
      { reason: REDUCTION_REASON },
    );
    expect(reduction.ok && reduction.refundResults).toEqual([expect.objectContaining({ ok: true })]);
    expect(await bankRow(order.id)).toBeNull();
    expect((await orderState(databaseUrl(), order.id)).outbox.map((m) => m.template)).not.toContain(
      'refund-iban-request',
    );
  });

  it('reminds once after a week, and deletes an IBAN left unused', async () => {
    const staff = await accountant();
    const { order } = await shortTransferOrder(staff);
    const inEightDays = new Date(Date.now() + 8 * 86_400_000);
    expect(await sendIbanReminders(new Date())).toBe(0);
    expect(await sendIbanReminders(inEightDays)).toBeGreaterThanOrEqual(1);
    await sendIbanReminders(inEightDays);
    const reminders = (await orderState(databaseUrl(), order.id)).outbox.filter(
      (m) => m.template === 'refund-iban-request' && m.data.reminder === true,
    );
    expect(reminders).toHaveLength(1);

    await saveIban({ orderId: order.id, fields: { holder: HOLDER, iban: IBAN }, actor: 'guest' });
    expect(await deleteUnusedIbans(new Date())).toBe(0);
    expect((await bankRow(order.id))?.details).toMatch(/^v1\./);
    await deleteUnusedIbans(new Date(Date.now() + 61 * 86_400_000));
    expect(await bankRow(order.id)).toMatchObject({ details: null, masked: null, received_at: null });
  });
});
