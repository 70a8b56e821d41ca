import { sql } from 'drizzle-orm';
import {
  GIFT_CARD_REMINDER_DAYS,
  giftCardBalanceCents,
  giftCardReminderDue,
  maskGiftCardCode,
} from '~/domain/vouchers/gift-cards';
import { isoTimestamp } from '../admin/search-sql.server';
import { db, type Tx } from '../db/client.server';
import { enqueueEmail } from '../email/outbox.server';
import { baseUrl } from '../env.server';
import { log } from '../log.server';
import { signedLedgerAmount } from './gift-card-sql.server';
import { giftCardLedgerOf, recordGiftCardEntry } from './gift-cards.server';

/*
 * The gift cards' part of the periodic housekeeping (orders/housekeeping.server.ts, decision 037),
 * safe on any number of instances: each run claims a batch of cards with FOR UPDATE SKIP LOCKED, so
 * that two instances never take the same card, and decides each with the domain's rules:
 *  - `expireGiftCards`: a card past its expiry with money left gets its `expired` entry of exactly
 *    that balance (through recordGiftCardEntry, actor `system`): the card is closed, and the money
 *    is no longer owed;
 *  - `remindExpiringGiftCards`: « votre carte expire bientôt », once, GIFT_CARD_REMINDER_DAYS before
 *    the expiry while money is left (giftCardReminderDue), to whoever holds the card: the recipient,
 *    or the buyer who printed it; the e-mail and `reminder_sent_at` in one transaction.
 * SQL only narrows the batch to the cards that can qualify (so that a card the rules pass over is
 * not claimed again at every run); the rules themselves are the domain's, asked card by card.
 */

const BATCH = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The balance of the card `c`: its ledger summed with each kind's sign. */
const balance = sql`(select coalesce(sum(${signedLedgerAmount('e')}), 0) from gift_card_ledger e where e.card_id = c.id)`;

/** No `expired` nor `refunded` entry: the card is not closed. */
const open = sql`not exists (select 1 from gift_card_ledger x where x.card_id = c.id and x.kind in ('expired', 'refunded'))`;

/** Writes the `expired` entries of the cards past their expiry with money left; returns how many. */
export async function expireGiftCards(now: Date = new Date()): Promise<number> {
  return db().transaction(async (tx) => {
    const claimed = await tx.execute<{ id: string; expires_at: Date | string }>(sql`
      select c.id, c.expires_at from gift_cards c
      where c.expires_at <= ${now} and ${open} and ${balance} > 0
      order by c.expires_at limit ${BATCH} for update of c skip locked`);
    let expired = 0;
    for (const card of claimed.rows) {
      const ledger = await giftCardLedgerOf(tx, card.id, new Date(isoTimestamp(card.expires_at)));
      const refusal = await recordGiftCardEntry(tx, card.id, {
        kind: 'expired',
        amountCents: giftCardBalanceCents(ledger.entries),
        orderId: null,
        at: now,
        actor: 'system',
      });
      if (refusal) log.warn({ cardId: card.id, refusal }, 'gift card not expired');
      else expired += 1;
    }
    return expired;
  });
}

type ReminderCandidate = {
  id: string;
  expires_at: Date | string;
  reminder_sent_at: Date | string | null;
  code_last4: string;
  sale_order_id: string;
  holder_email: string;
  holder_name: string;
};

/** Queues the reminder of the cards that expire within GIFT_CARD_REMINDER_DAYS; returns how many. */
export async function remindExpiringGiftCards(now: Date = new Date()): Promise<number> {
  const horizon = new Date(now.getTime() + GIFT_CARD_REMINDER_DAYS * DAY_MS);
  return db().transaction(async (tx) => {
    // The holder: the recipient of a card sent by e-mail, the buyer (account or guest) of one printed.
    const claimed = await tx.execute<ReminderCandidate>(sql`
      select c.id, c.expires_at, c.reminder_sent_at, c.code_last4, c.sale_order_id,
        h.email as holder_email, h.name as holder_name
      from gift_cards c
      join gift_card_sales s on s.order_id = c.sale_order_id
      join orders o on o.id = c.sale_order_id
      left join "user" u on u.id = o.user_id
      cross join lateral (select
        case when s.delivery = 'email' and s.send_on is not null then s.recipient_email
          else coalesce(u.email, o.guest_email) end as email,
        case when s.delivery = 'email' and s.send_on is not null then s.recipient_name
          else s.buyer_name end as name) h
      where c.reminder_sent_at is null and c.expires_at > ${now} and c.expires_at <= ${horizon}
        and h.email is not null and ${open} and ${balance} > 0
      order by c.expires_at limit ${BATCH} for update of c skip locked`);
    let sent = 0;
    for (const card of claimed.rows) if (await remind(tx, card, now)) sent += 1;
    return sent;
  });
}

async function remind(tx: Tx, card: ReminderCandidate, now: Date): Promise<boolean> {
  const ledger = await giftCardLedgerOf(tx, card.id, new Date(isoTimestamp(card.expires_at)));
  const reminderSentAt = card.reminder_sent_at === null ? null : new Date(isoTimestamp(card.reminder_sent_at));
  if (!giftCardReminderDue(ledger, reminderSentAt, now)) return false;
  await enqueueEmail(tx, {
    to: card.holder_email,
    template: 'gift-card-expiring',
    data: {
      maskedCode: maskGiftCardCode(card.code_last4),
      balanceCents: giftCardBalanceCents(ledger.entries),
      expiresAt: ledger.expiresAt.toISOString(),
      shopUrl: `${baseUrl()}/configurateur`,
      recipientName: card.holder_name,
    },
    dedupeKey: `gift-card-expiring:${card.id}`,
    orderId: card.sale_order_id,
    notBefore: now,
  });
  await tx.execute(sql`update gift_cards set reminder_sent_at = ${now} where id = ${card.id}`);
  return true;
}
