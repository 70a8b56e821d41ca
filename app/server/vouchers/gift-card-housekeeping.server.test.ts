import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../db/client.server';
import { revealEmailData } from '../email/sealed-data.server';
import { log } from '../log.server';
import { withdrawFromOrder } from '../orders/withdrawal.server';
import { ensureDefaultPriceList } from '../seed/price-list.server';
import { expireGiftCards, remindExpiringGiftCards } from './gift-card-housekeeping.server';
import { recordGiftCardEntry } from './gift-cards.server';
import { insertBuyer, type PaidGiftCard, paidGiftCard, type TestBuyer } from './testing/gift-cards';

/*
 * The gift cards' housekeeping (decision 037) on cards sold and paid through the shop's own paths,
 * the shop's clock moved by passing `now`: a card past its end gets its `expired` entry of exactly
 * what is left, once; a month before the end, its holder (the recipient, or the buyer who printed
 * it) gets one reminder, queued with `reminder_sent_at` in one transaction.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';
const DAY = 86_400_000;
let buyer: TestBuyer;

beforeAll(async () => {
  await ensureDefaultPriceList();
  buyer = await insertBuyer();
});

async function expiresAt(card: PaidGiftCard): Promise<Date> {
  const { rows } = await db().execute<{ expires_at: string }>(
    sql`select expires_at::text from gift_cards where id = ${card.cardId}`,
  );
  return new Date((rows[0]?.expires_at ?? '').replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00'));
}

async function entries(card: PaidGiftCard) {
  const { rows } = await db().execute<{ kind: string; amount: number; actor: string; at: Date | string }>(
    sql`select kind, amount, actor, at from gift_card_ledger where card_id = ${card.cardId} order by at, id`,
  );
  return rows.map((row) => ({ kind: row.kind, amount: row.amount, actor: row.actor }));
}

async function spend(card: PaidGiftCard, amountCents: number, on: PaidGiftCard) {
  const refusal = await db().transaction((tx) =>
    recordGiftCardEntry(tx, card.cardId, {
      kind: 'spent',
      amountCents,
      orderId: on.orderId,
      at: new Date(),
      actor: 'customer',
    }),
  );
  expect(refusal).toBeNull();
}

async function reminders(card: PaidGiftCard) {
  const { rows } = await db().execute<{ to: string; next_at: Date | string; data: unknown; dedupe_key: string }>(
    sql`select "to", next_at, data, dedupe_key from email_outbox
      where order_id = ${card.orderId} and template = 'gift-card-expiring'`,
  );
  return rows;
}

async function reminderSentAt(card: PaidGiftCard): Promise<Date | null> {
  const { rows } = await db().execute<{ at: string | null }>(
    sql`select extract(epoch from reminder_sent_at) * 1000 as at from gift_cards where id = ${card.cardId}`,
  );
  return rows[0]?.at ? new Date(Number(rows[0].at)) : null;
}

describe('expiring gift cards', () => {
  it('writes one `expired` entry of exactly the balance left, only once the end has passed', async () => {
    const untouched = await paidGiftCard(buyer, { amountCents: 5000 });
    const partly = await paidGiftCard(buyer, { amountCents: 4000 });
    const used = await paidGiftCard(buyer, { amountCents: 2000 });
    const withdrawn = await paidGiftCard(buyer, { amountCents: 3000 });
    await spend(partly, 1500, untouched);
    await spend(used, 2000, untouched);
    expect(await withdrawFromOrder({ orderId: withdrawn.orderId, actor: buyer.id })).toMatchObject({ ok: true });
    const end = await expiresAt(untouched);

    // The day before: nothing is due.
    await expireGiftCards(new Date(end.getTime() - DAY));
    expect(await entries(untouched)).toEqual([{ kind: 'issued', amount: 5000, actor: 'sandbox' }]);

    const after = new Date(end.getTime() + 60_000);
    expect(await expireGiftCards(after)).toBeGreaterThanOrEqual(2);
    expect(await entries(untouched)).toEqual([
      { kind: 'issued', amount: 5000, actor: 'sandbox' },
      { kind: 'expired', amount: 5000, actor: 'system' },
    ]);
    expect((await entries(partly)).slice(-1)).toEqual([{ kind: 'expired', amount: 2500, actor: 'system' }]);
    // Nothing left, or closed by its refund: no entry to write.
    expect((await entries(used)).map((e) => e.kind)).toEqual(['issued', 'spent']);
    expect((await entries(withdrawn)).map((e) => e.kind)).toEqual(['issued', 'refunded']);
    const { rows } = await db().execute<{ at: string }>(
      sql`select extract(epoch from at) * 1000 as at from gift_card_ledger where card_id = ${untouched.cardId} and kind = 'expired'`,
    );
    expect(Number(rows[0]?.at)).toBe(after.getTime());

    // Run again: every card is closed or empty, nothing more is written.
    expect(await expireGiftCards(new Date(after.getTime() + DAY))).toBe(0);
    expect(await entries(untouched)).toHaveLength(2);
  });

  it('expires each card once when two instances run at the same time', async () => {
    const cards = await Promise.all([paidGiftCard(buyer), paidGiftCard(buyer), paidGiftCard(buyer)]);
    const ends = await Promise.all(cards.map(expiresAt));
    const after = new Date(Math.max(...ends.map((end) => end.getTime())) + 60_000);
    const [first, second] = await Promise.all([expireGiftCards(after), expireGiftCards(after)]);
    expect((first ?? 0) + (second ?? 0)).toBeGreaterThanOrEqual(3);
    for (const card of cards) {
      expect((await entries(card)).map((e) => e.kind)).toEqual(['issued', 'expired']);
    }
  });
});

describe('the reminder before the end', () => {
  it('queues « gift-card-expiring » to the recipient, a month before, once', async () => {
    const sent = await paidGiftCard(buyer, { delivery: 'email', amountCents: 6000, recipientName: 'Jeanne Martin' });
    const other = await paidGiftCard(buyer);
    await spend(sent, 1000, other);
    const end = await expiresAt(sent);

    // 31 days before: not yet.
    await remindExpiringGiftCards(new Date(end.getTime() - 31 * DAY));
    expect(await reminders(sent)).toEqual([]);
    expect(await reminderSentAt(sent)).toBeNull();

    const now = new Date(end.getTime() - 29 * DAY);
    expect(await remindExpiringGiftCards(now)).toBeGreaterThanOrEqual(1);
    const [mail, ...more] = await reminders(sent);
    expect(more).toEqual([]);
    expect(mail?.to).toBe(sent.recipientEmail);
    expect(mail?.dedupe_key).toBe(`gift-card-expiring:${sent.cardId}`);
    expect(new Date(mail?.next_at ?? 0).getTime()).toBe(now.getTime());
    expect(revealEmailData('gift-card-expiring', mail?.data)).toEqual({
      maskedCode: `••••-••••-••••-${sent.code.slice(-4)}`,
      balanceCents: 5000,
      expiresAt: end.toISOString(),
      shopUrl: 'https://www.soovenirs.test/configurateur',
      recipientName: 'Jeanne Martin',
    });
    expect(await reminderSentAt(sent)).toEqual(now);

    // The next runs: already reminded.
    expect(await remindExpiringGiftCards(new Date(now.getTime() + DAY))).toBe(0);
    expect(await reminders(sent)).toHaveLength(1);
    expect(await reminderSentAt(sent)).toEqual(now);
  });

  it('reminds the buyer who printed the card, and nobody of a card with nothing left', async () => {
    const printed = await paidGiftCard(buyer, { delivery: 'print' });
    const empty = await paidGiftCard(buyer, { delivery: 'print', amountCents: 2000 });
    await spend(empty, 2000, printed);
    const now = new Date((await expiresAt(empty)).getTime() - 10 * DAY);
    await remindExpiringGiftCards(now);
    const [mail] = await reminders(printed);
    expect(mail?.to).toBe(buyer.email);
    expect(revealEmailData('gift-card-expiring', mail?.data)).toMatchObject({ recipientName: 'Claire' });
    expect(await reminders(empty)).toEqual([]);
    expect(await reminderSentAt(empty)).toBeNull();
  });

  it('reminds no closed card, even within the month', async () => {
    const withdrawn = await paidGiftCard(buyer);
    expect(await withdrawFromOrder({ orderId: withdrawn.orderId, actor: buyer.id })).toMatchObject({ ok: true });
    await remindExpiringGiftCards(new Date((await expiresAt(withdrawn)).getTime() - 5 * DAY));
    expect(await reminders(withdrawn)).toEqual([]);
  });
});
