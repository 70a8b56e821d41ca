import { sql } from 'drizzle-orm';
import { maskGiftCardCode } from '~/domain/vouchers/gift-cards';
import type { Executor } from '../config/config-options.server';
import { db } from '../db/client.server';

/*
 * What a gift card pays of an order (decision 037): the card's `spent` entries for the order minus
 * its `restored` ones, read from the ledger (never stored beside it). An order takes one card at
 * most. The lifecycle's state, the invoice's card line, the gateways' amount due and the pages all
 * read it here.
 */

export interface OrderGiftCardPart {
  cardId: string;
  /** What the card pays of the order now (spent − restored), in cents. */
  cents: number;
  /** What it took at placement, before any restoration. */
  spentCents: number;
  maskedCode: string;
  expiresAt: Date;
  /** Neither past its end nor closed: it can still take money back. */
  open: boolean;
  /** The card sale's invoice, where the card's VAT was counted (null before it exists). */
  saleInvoiceNumber: string | null;
}

export async function orderGiftCardPart(executor: Executor, orderId: string): Promise<OrderGiftCardPart | null> {
  const result = await executor.execute<{
    card_id: string;
    spent: number;
    restored: number;
    last4: string;
    expires_at: string | Date;
    open: boolean;
    sale_invoice: string | null;
  }>(sql`
    select c.id as card_id, c.code_last4 as last4, c.expires_at,
      (c.expires_at > now() and not exists (select 1 from gift_card_ledger x
        where x.card_id = c.id and x.kind in ('expired', 'refunded'))) as open,
      coalesce(sum(e.amount) filter (where e.kind = 'spent'), 0)::int as spent,
      coalesce(sum(e.amount) filter (where e.kind = 'restored'), 0)::int as restored,
      (select i.number from invoices i where i.order_id = c.sale_order_id and i.adjustment_id is null
        order by i.issued_at limit 1) as sale_invoice
    from gift_card_ledger e join gift_cards c on c.id = e.card_id
    where e.order_id = ${orderId} and e.kind in ('spent', 'restored')
    group by c.id
    order by min(e.at)
    limit 1`);
  const row = result.rows[0];
  if (!row) return null;
  return {
    cardId: row.card_id,
    cents: Number(row.spent) - Number(row.restored),
    spentCents: Number(row.spent),
    maskedCode: maskGiftCardCode(row.last4),
    expiresAt: new Date(row.expires_at),
    open: Boolean(row.open),
    saleInvoiceNumber: row.sale_invoice,
  };
}

/** The same, for a page (outside any transaction). */
export function giftCardPartOf(orderId: string): Promise<OrderGiftCardPart | null> {
  return orderGiftCardPart(db(), orderId);
}
