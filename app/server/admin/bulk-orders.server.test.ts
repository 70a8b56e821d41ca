import { beforeAll, describe, expect, it } from 'vitest';
import { insertTestOrder, type TestOrder } from '../../../tests/support/orders';
import { pool } from '../db/client.server';
import { saveEmailConfig } from '../email/email-config.server';
import { applyBulkChange, previewBulkChange } from './bulk-orders.server';

/*
 * The bulk status change (decision 021) on a real database: a selection of orders in mixed payment
 * states moved to « En traitement ». The preview says, before anything happens, which move and why
 * the others cannot; applying moves only the paid ones, and only their customers get an e-mail.
 */

const databaseUrl = () => process.env.DATABASE_URL as string;
const STAFF = 'staff-bulk';
const toProcessing = { kind: 'status', target: 'processing' } as const;

let paid: TestOrder[];
let unpaid: TestOrder;
let failed: TestOrder;
let refunded: TestOrder;

beforeAll(async () => {
  const saved = await saveEmailConfig({
    enabled: true,
    senderEmail: 'no-reply@soovenirs.fr',
    senderName: 'Soovenirs',
    smtpHost: 'smtp.example.fr',
    smtpPort: 587,
    smtpUsername: 'shop',
    smtpPassword: 'secret-password',
  });
  expect(saved.success).toBe(true);
  const order = (paymentStatus: 'pending' | 'paid' | 'failed' | 'refunded', n: number) =>
    insertTestOrder(databaseUrl(), { paymentStatus, guestEmail: `client-${paymentStatus}-${n}@example.fr` });
  paid = [await order('paid', 1), await order('paid', 2)];
  unpaid = await order('pending', 1);
  failed = await order('failed', 1);
  refunded = await order('refunded', 1);
});

const everyId = () => [...paid, unpaid, failed, refunded].map((o) => o.id);

async function statuses(): Promise<Record<string, string>> {
  const { rows } = await pool().query<{ number: string; status: string }>('select number, status from orders');
  return Object.fromEntries(rows.map((r) => [r.number, r.status]));
}

describe('bulk « En traitement » on orders in mixed payment states', () => {
  it('previews, per order, what moves and what the lifecycle refuses and why, changing nothing', async () => {
    const before = await statuses();
    const preview = await previewBulkChange({ ...toProcessing, ids: everyId() });
    expect(preview.accepted.map((o) => o.number).sort()).toEqual(paid.map((o) => o.number).sort());
    expect(preview.refused).toEqual(
      expect.arrayContaining([
        {
          orderId: unpaid.id,
          number: unpaid.number,
          reason:
            'Cette commande n’est pas payée : elle ne passe « En traitement » que si vous choisissez de commencer avant le paiement.',
        },
        {
          orderId: failed.id,
          number: failed.number,
          reason:
            'Le paiement de cette commande a échoué : elle ne peut pas passer « En traitement » avant d’être payée.',
        },
        {
          orderId: refunded.id,
          number: refunded.number,
          reason: 'Cette commande a été remboursée : elle ne peut pas passer « En traitement ».',
        },
      ]),
    );
    expect(preview.refused).toHaveLength(3);
    expect(await statuses()).toEqual(before);
    const { rows: outbox } = await pool().query('select id from email_outbox');
    expect(outbox).toEqual([]);
  });

  it('moves only the paid orders, and e-mails only their customers, even when sent every id', async () => {
    // The browser sends the previewed ones; a forged post with every id is checked again, order by order.
    const outcome = await applyBulkChange({ ...toProcessing, ids: everyId() }, STAFF);
    expect(outcome.accepted.map((o) => o.number).sort()).toEqual(paid.map((o) => o.number).sort());
    expect(outcome.refused.map((o) => o.number).sort()).toEqual([unpaid, failed, refunded].map((o) => o.number).sort());
    const after = await statuses();
    for (const order of paid) expect(after[order.number]).toBe('processing');
    for (const order of [unpaid, failed, refunded]) expect(after[order.number]).toBe('pending');

    const { rows: emails } = await pool().query<{ to: string; template: string; status: string }>(
      `select "to", template, data->>'status' as status from email_outbox order by "to"`,
    );
    expect(emails).toEqual(
      paid
        .map((_, i) => ({ to: `client-paid-${i + 1}@example.fr`, template: 'order-status', status: 'processing' }))
        .sort((a, b) => a.to.localeCompare(b.to)),
    );
    // Each moved order's history names the staff member; the refused ones have no new entry.
    const { rows: history } = await pool().query<{ order_id: string }>(
      `select order_id from order_events where kind = 'status_changed' and actor = $1`,
      [STAFF],
    );
    expect(history.map((h) => h.order_id).sort()).toEqual(paid.map((o) => o.id).sort());
  });
});
