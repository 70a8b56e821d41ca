import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertTestOrder } from '../../../tests/support/orders';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { deleteStaleDrafts, expireStaleCardAttempts } from './housekeeping.server';

log.level = 'silent';
const databaseUrl = () => process.env.DATABASE_URL as string;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function attempt(orderId: string, createdAt: Date, status = 'pending') {
  const ref = `sbx_${randomUUID()}`;
  await db().execute(sql`
    insert into payments (order_id, provider, provider_ref, amount, status, method, created_at)
    values (${orderId}, 'sandbox', ${ref}, 100, ${status}, 'card', ${createdAt})`);
  return ref;
}

const statusOf = async (ref: string) =>
  (await db().execute<{ status: string }>(sql`select status from payments where provider_ref = ${ref}`)).rows[0]
    ?.status;

describe('order housekeeping', () => {
  it('closes card attempts left unsettled for 24 hours, and only those', async () => {
    const order = await insertTestOrder(databaseUrl());
    const now = new Date();
    const old = await attempt(order.id, new Date(now.getTime() - 25 * HOUR));
    const recent = await attempt(order.id, new Date(now.getTime() - 23 * HOUR));
    const paid = await attempt(order.id, new Date(now.getTime() - 40 * HOUR), 'paid');
    expect(await expireStaleCardAttempts(now)).toBeGreaterThanOrEqual(1);
    expect([await statusOf(old), await statusOf(recent), await statusOf(paid)]).toEqual([
      'canceled',
      'pending',
      'paid',
    ]);
    const events = await db().execute<{ kind: string }>(
      sql`select kind from order_events where order_id = ${order.id} and kind = 'payment_expired'`,
    );
    expect(events.rows).toHaveLength(1);
  });

  it('deletes drafts never confirmed after 30 days, never an order or a draft with money', async () => {
    const [stale, recent, placed, withPayment] = await Promise.all([
      insertTestOrder(databaseUrl()),
      insertTestOrder(databaseUrl()),
      insertTestOrder(databaseUrl()),
      insertTestOrder(databaseUrl()),
    ]);
    const now = new Date();
    const longAgo = new Date(now.getTime() - 31 * DAY);
    await db().execute(
      sql`update orders set placed_at = null, created_at = ${longAgo} where id in (${stale.id}, ${withPayment.id})`,
    );
    await db().execute(
      sql`update orders set placed_at = null, created_at = ${new Date(now.getTime() - 29 * DAY)} where id = ${recent.id}`,
    );
    await db().execute(sql`update orders set created_at = ${longAgo} where id = ${placed.id}`);
    await attempt(withPayment.id, longAgo, 'failed');

    await deleteStaleDrafts(now);
    const left = await db().execute<{ id: string }>(
      sql`select id from orders where id in (${stale.id}, ${recent.id}, ${placed.id}, ${withPayment.id})`,
    );
    expect(left.rows.map((r) => r.id).sort()).toEqual([recent.id, placed.id, withPayment.id].sort());
  });
});
