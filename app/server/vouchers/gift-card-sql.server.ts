import { type SQL, sql } from 'drizzle-orm';
import { GIFT_CARD_ENTRY_DIRECTION, GIFT_CARD_ENTRY_KINDS } from '~/domain/vouchers/gift-cards';

/**
 * A ledger entry's amount with its kind's sign, in SQL (`entry` is the ledger row's alias): the
 * domain's directions written as a CASE, so that a sum in the database is the balance the domain
 * computes (giftCardBalanceCents), and a new kind there is a new branch here without editing.
 */
export function signedLedgerAmount(entry: 'e' | 'l'): SQL {
  const alias = sql.raw(entry);
  const branches = GIFT_CARD_ENTRY_KINDS.map(
    (kind) => sql`when ${kind} then ${sql.raw(String(GIFT_CARD_ENTRY_DIRECTION[kind]))}`,
  );
  return sql`(${alias}.amount * case ${alias}.kind ${sql.join(branches, sql` `)} end)`;
}

/**
 * What a gift card pays of the order `orderId` names (an SQL expression, e.g. `o.id`): its `spent`
 * entries less its `restored` ones (decision 037), as orderGiftCardPart reads it for one order.
 */
export function giftCardPartOfOrder(orderId: SQL): SQL {
  return sql`(select coalesce(-sum(${signedLedgerAmount('l')}), 0)::int from gift_card_ledger l
    where l.order_id = ${orderId} and l.kind in ('spent', 'restored'))`;
}
