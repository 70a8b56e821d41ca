import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeOrderStatus } from '~/server/admin/orders.server';
import { decidePayments } from '~/server/admin/payments.server';
import { db } from '~/server/db/client.server';
import { log } from '~/server/log.server';
import { refundOrder } from '~/server/orders/refunds.server';
import { readEntries, verifyJournal } from '~/server/payment-journal/journal.server';
import { applyPaymentNotification } from '~/server/payments/notifications.server';
import { confirmCheckout } from '~/server/payments/offline.server';
import { asDatabaseOwner } from '../support/databases';
import { runJournalVerify } from '../support/journal-verify';
import { insertTestOrder, type TestOrder } from '../support/orders';

/*
 * The journal's verification as an auditor runs it (`npm run journal:verify`): it passes on a
 * journal built by the shop's own journeys (card payments through the gateway's notification,
 * transfers chosen at checkout then validated or rejected in the back office, a partial refund, a
 * cancellation), and fails, naming the entry, its order and the amount, once someone holding the
 * database owner's password switched the trigger off and changed one amount in SQL.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';
const databaseUrl = () => process.env.DATABASE_URL as string;
const STAFF = 'system';
const journalVerify = () => runJournalVerify({ DATABASE_URL: databaseUrl() });

async function paidByCard(): Promise<TestOrder> {
  const order = await insertTestOrder(databaseUrl(), { extraCents: 500 });
  const ref = `stripe_${randomUUID()}`;
  await db().execute(sql`
    insert into payments (order_id, provider, provider_ref, amount, status, method)
    values (${order.id}, 'stripe', ${ref}, ${order.totalCents}, 'pending', 'card')`);
  await applyPaymentNotification({
    provider: 'stripe',
    eventId: `evt_${randomUUID()}`,
    providerRef: ref,
    orderId: order.id,
    outcome: 'paid',
    amountCents: order.totalCents,
    currency: 'EUR',
    method: 'card',
    raw: {},
  });
  return order;
}

/** A transfer chosen at checkout, then decided in the back office's Validation Paiements. */
async function transfer(decision: 'validate' | 'reject'): Promise<TestOrder> {
  const order = await insertTestOrder(databaseUrl());
  await confirmCheckout({ orderId: order.id, method: 'transfer', actor: 'customer', accessToken: order.accessToken });
  const [result] = await decidePayments([`o:${order.id}`], decision, { id: STAFF }, 'Virement non reçu');
  expect(result).toMatchObject({ ok: true });
  return order;
}

let altered: TestOrder;
beforeAll(async () => {
  altered = await paidByCard();
  await transfer('validate');
  await transfer('reject');
  const partly = await paidByCard();
  expect(
    await refundOrder({ orderId: partly.id, amountCents: 700, method: 'cheque', reason: 'Geste', actor: STAFF }),
  ).toMatchObject({ ok: true });
  const cancelled = await transfer('validate');
  expect(
    await changeOrderStatus({
      refundRight: true,
      orderId: cancelled.id,
      status: 'canceled',
      actor: { id: STAFF },
      refund: { amountCents: cancelled.totalCents, method: 'transfer', reason: 'Annulée' },
    }),
  ).toMatchObject({ ok: true });
});

describe('npm run journal:verify', () => {
  it('passes on the journal the journeys built, and names the entry whose amount was changed in SQL', async () => {
    const entries = await readEntries();
    expect(entries.map((e) => e.kind)).toEqual([
      'payment_received',
      'payment_validated',
      'payment_rejected',
      'payment_received',
      'refund',
      'payment_validated',
      'refund',
    ]);
    const passed = await journalVerify();
    expect(passed.code, passed.stderr).toBe(0);
    expect(passed.stdout).toContain('Journal des paiements conforme\u00a0: 7 écriture(s) (n° 1 à 7');

    // An attacker with the owner's password: the trigger off, one amount changed, the trigger back.
    await asDatabaseOwner(`
      alter table payment_journal disable trigger payment_journal_append_only;
      update payment_journal set amount_cents = 100 where seq = 1;
      alter table payment_journal enable trigger payment_journal_append_only;`);
    const failed = await journalVerify();
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('Journal des paiements NON conforme');
    expect(failed.stderr).toContain(`Écriture n° 1, commande ${altered.number}`);
    expect(failed.stderr).toMatch(/montant 1,00\s€ dans le journal, 99,90\s€ payés/);
  });

  it('names a removed entry, and one removed at the end by the payment it leaves behind', async () => {
    await asDatabaseOwner(`
      alter table payment_journal disable trigger payment_journal_append_only;
      update payment_journal set amount_cents = ${altered.totalCents} where seq = 1;
      delete from payment_journal where seq = 3;`);
    expect(await verifyJournal()).toMatchObject({ ok: false, problem: { fault: 'missing', seq: 3 } });
    await asDatabaseOwner(`
      delete from payment_journal where seq >= 3;
      alter table payment_journal enable trigger payment_journal_append_only;`);
    const last = await verifyJournal();
    expect(last).toMatchObject({ ok: false, problem: { fault: 'missing' } });
    if (!last.ok) expect(last.message).toMatch(/sans écriture au journal/);
  });
});
