import { eq, sql } from 'drizzle-orm';
import {
  DEFAULT_GIFT_CARD_VALIDITY_MONTHS,
  formatGiftCardCode,
  type GiftCardSaleChoice,
  type GiftCardState,
  giftCardSentByEmail,
} from '~/domain/vouchers/gift-cards';
import type { Executor } from '../config/config-options.server';
import { db } from '../db/client.server';
import { giftCardSales, giftCards, orders, priceLists } from '../db/schema';
import type { GiftCardDocument } from '../documents/gift-card-pdf';
import {
  type GiftCardSummary,
  giftCardLeavesAt,
  giftCardRedeemUrl,
  giftCardSummaries,
  revealGiftCardCode,
} from './gift-cards.server';

/*
 * What the customer's pages show of gift cards (decision 037): the card a sale order is about (the
 * checkout and the confirmation tell it instead of a digitisation's delivery), the cards a
 * signed-in buyer bought (« Mes cartes cadeaux »), and the printable card a buyer downloads again.
 * Callers check who may see the order (orders/access.server.ts); these only read.
 */

/** The printable card's address: for its sale order's viewers, once the card is issued. */
export function giftCardPdfPath(saleOrderId: string): string {
  return `/carte-cadeau/${saleOrderId}/carte.pdf`;
}

/**
 * When the card's e-mail leaves: 08:00 (Paris) on the chosen day, or its issue when that morning
 * had passed (a transfer paid late), as the outbox was told. Null for a card to print.
 */
function leavesAt(sale: Pick<GiftCardSaleChoice, 'delivery' | 'sendOn'>, issuedAt: Date): Date | null {
  if (!giftCardSentByEmail(sale) || !sale.sendOn) return null;
  return giftCardLeavesAt(sale.sendOn, issuedAt);
}

export interface GiftCardSaleView extends GiftCardSaleChoice {
  recipientEmail: string;
  /** Months the card is valid from its issue: its order's price list says. */
  validityMonths: number;
  /** The card, once its sale is paid; null before (nothing is issued, nothing can be downloaded). */
  card: {
    state: GiftCardState;
    expiresAt: Date;
    /** When its e-mail leaves for the recipient; null for a card to print. */
    sendsAt: Date | null;
    /** Its e-mail is still to leave. */
    sendsLater: boolean;
    /** The printable card, for a card the buyer prints and while it is not cancelled. */
    pdfHref: string | null;
  } | null;
}

/**
 * The gift card an order sold, or null for any other order: one lookup by the order's key, so that
 * every order's page can ask. The card's ledger is read only once the card exists.
 */
export async function giftCardSaleOf(
  orderId: string,
  now: Date = new Date(),
  executor: Executor = db(),
): Promise<GiftCardSaleView | null> {
  const [row] = await executor
    .select({
      sale: {
        amountCents: giftCardSales.amountCents,
        recipientName: giftCardSales.recipientName,
        recipientEmail: giftCardSales.recipientEmail,
        delivery: giftCardSales.delivery,
        sendOn: giftCardSales.sendOn,
      },
      cardId: giftCards.id,
      // As the card's issue reads it (gift-cards.server.ts): the order's price list, 12 by default.
      validityMonths: sql<number>`coalesce((${priceLists.data} -> 'giftCards' ->> 'validityMonths')::int, ${DEFAULT_GIFT_CARD_VALIDITY_MONTHS})`,
    })
    .from(giftCardSales)
    .innerJoin(orders, eq(orders.id, giftCardSales.orderId))
    .leftJoin(priceLists, eq(priceLists.id, orders.priceListId))
    .leftJoin(giftCards, eq(giftCards.saleOrderId, giftCardSales.orderId))
    .where(eq(giftCardSales.orderId, orderId))
    .limit(1);
  if (!row) return null;
  const [summary] = row.cardId ? await giftCardSummaries([orderId], now, executor) : [];
  return { ...row.sale, validityMonths: Number(row.validityMonths), card: summary ? cardView(summary, now) : null };
}

function cardView(summary: GiftCardSummary, now: Date): NonNullable<GiftCardSaleView['card']> {
  const sendsAt = leavesAt(summary, summary.issuedAt);
  return {
    state: summary.state,
    expiresAt: summary.expiresAt,
    sendsAt,
    sendsLater: sendsAt !== null && sendsAt > now,
    pdfHref: printable(summary) ? giftCardPdfPath(summary.saleOrderId) : null,
  };
}

/** A card its buyer prints, not closed by a withdrawal: its PDF may be downloaded again. */
function printable(card: { delivery: GiftCardSaleChoice['delivery']; sendOn: string | null; state: GiftCardState }) {
  return !giftCardSentByEmail(card) && card.state !== 'canceled';
}

export interface AccountGiftCard extends GiftCardSummary {
  /** When its e-mail leaves (or left) for the recipient; null for a card to print. */
  sendsAt: Date | null;
  pdfHref: string | null;
}

/**
 * « Mes cartes cadeaux »: the cards of the sale orders of this account (orders.user_id), the most
 * recently issued first. One query finds the sale orders, giftCardSummaries reads their cards and
 * every ledger at once: never a query per card.
 */
export async function accountGiftCards(
  userId: string,
  now: Date = new Date(),
  executor: Executor = db(),
): Promise<AccountGiftCard[]> {
  const sales = await executor
    .select({ orderId: giftCards.saleOrderId })
    .from(giftCards)
    .innerJoin(orders, eq(orders.id, giftCards.saleOrderId))
    .where(eq(orders.userId, userId));
  const summaries = await giftCardSummaries(
    sales.map((sale) => sale.orderId),
    now,
    executor,
  );
  return summaries.map((summary) => {
    const { sendsAt, pdfHref } = cardView(summary, now);
    return { ...summary, sendsAt, pdfHref };
  });
}

/**
 * The printable card of a sale order, its code in clear, or null: no such sale, not paid yet (no
 * card), a card e-mailed to its recipient (its buyer sees its code masked, decision 037), or a card
 * cancelled by a withdrawal.
 */
export async function printableGiftCard(
  saleOrderId: string,
  now: Date = new Date(),
  executor: Executor = db(),
): Promise<GiftCardDocument | null> {
  const [card] = await giftCardSummaries([saleOrderId], now, executor);
  if (!card || !printable(card)) return null;
  const [[sale], code] = await Promise.all([
    executor
      .select({ buyerName: giftCardSales.buyerName, message: giftCardSales.message })
      .from(giftCardSales)
      .where(eq(giftCardSales.orderId, saleOrderId))
      .limit(1),
    revealGiftCardCode(saleOrderId, executor),
  ]);
  if (!sale || !code) return null;
  return {
    code: formatGiftCardCode(code),
    amountCents: card.initialCents,
    recipientName: card.recipientName,
    buyerName: sale.buyerName,
    message: sale.message,
    expiresAt: card.expiresAt,
    redeemUrl: giftCardRedeemUrl(code),
  };
}
