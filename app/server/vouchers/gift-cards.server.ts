import { createHash, randomBytes } from 'node:crypto';
import { asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { fromParisWallClock } from '~/domain/calendar';
import { priceGiftCard } from '~/domain/pricing/pricing';
import {
  formatGiftCardCode,
  GIFT_CARD_CODE_RANDOM_BYTES,
  type GiftCardEntry,
  type GiftCardLedger,
  type GiftCardPurchase,
  type GiftCardState,
  generateGiftCardCode,
  giftCardBalanceCents,
  giftCardEntryProblem,
  giftCardExpiresAt,
  giftCardState,
  maskGiftCardCode,
} from '~/domain/vouchers/gift-cards';
import type { Executor } from '../config/config-options.server';
import { decryptSecret, encryptSecret } from '../crypto.server';
import { type Database, db, type Tx } from '../db/client.server';
import { giftCardLedger, giftCardSales, giftCards, orders } from '../db/schema';
import { enqueueEmail } from '../email/outbox.server';
import type { EmailTemplateData } from '../email/templates/registry';
import { baseUrl } from '../env.server';
import { createOrderAccessToken } from '../orders/access.server';
import { insertDraftOrder, type OrderCustomer } from '../orders/create-order.server';
import { getActivePriceList } from '../pricing/price-lists.server';

/*
 * Gift cards (decision 037): sold by an ordinary order, issued by its payment, spent as a means of
 * payment. The rules (codes, ledger, validity, how a payment or a refund is split) are the domain's
 * (domain/vouchers/gift-cards.ts); this module keeps them in PostgreSQL:
 *  - `startGiftCardOrder`: the draft order of a card (priced by the pricing function) and what the
 *    buyer chose, then the ordinary checkout;
 *  - `issueGiftCardInTx`: the lifecycle's `issue_gift_card` effect, in the paying transaction:
 *    the code, the card, its `issued` entry and its e-mails (on the chosen day, through the outbox);
 *  - reading a card's ledger under a lock, so that two spends of one card never both pass.
 */

/** The code's context in the shop's encryption (crypto.server.ts): a sealed code opens nowhere else. */
const CODE_CONTEXT = 'gift_cards.code';

/** Where a card's code is typed: the e-mail's button and the PDF's QR code carry it after `#`, never sent to the server. */
export function giftCardRedeemUrl(code: string): string {
  return `${baseUrl()}/carte-cadeau/utiliser#code=${formatGiftCardCode(code)}`;
}

export function giftCardCodeHash(normalisedCode: string): string {
  return createHash('sha256').update(normalisedCode, 'utf8').digest('hex');
}

export interface GiftCardBuyer {
  /** The signed-in customer, or null for a guest (who gives an address at checkout). */
  user: OrderCustomer | null;
  /** The name the card says it is from. */
  name: string;
}

export type StartedGiftCardOrder =
  | { ok: true; orderId: string; number: string; totalPriceCents: number; accessToken: string | null }
  | { ok: false; message: string };

/** « Offrir une carte cadeau »: a draft order of the card, to pay at the ordinary checkout. */
export async function startGiftCardOrder(
  input: { purchase: GiftCardPurchase; buyer: GiftCardBuyer },
  database: Database = db(),
): Promise<StartedGiftCardOrder> {
  const access = input.buyer.user ? null : createOrderAccessToken();
  return database.transaction(async (tx) => {
    const priceList = await getActivePriceList(tx);
    const { giftCards: bounds } = priceList.data;
    const { amountCents } = input.purchase;
    if (amountCents < bounds.minPrice || amountCents > bounds.maxPrice) {
      return { ok: false as const, message: 'Ce montant n’est plus proposé\u00A0: choisissez-en un autre.' };
    }
    const { line, price } = priceGiftCard(priceList.data, amountCents);
    const created = await insertDraftOrder(tx, {
      user: input.buyer.user,
      email: input.buyer.user?.email ?? null,
      accessTokenHash: access?.hash ?? null,
      deliveryMethod: 'digital',
      returnOriginals: false,
      // Nothing travels: no originals, no parcel.
      sendMethod: 'none',
      express: false,
      price,
      priceList,
      items: [{ ...line, quality: 'standard' }],
      eventData: { source: 'gift_card' },
      actor: input.buyer.user?.id ?? 'customer',
    });
    await tx.insert(giftCardSales).values({
      orderId: created.id,
      amountCents,
      buyerName: input.buyer.name,
      recipientName: input.purchase.recipientName,
      recipientEmail: input.purchase.recipientEmail,
      message: input.purchase.message ?? null,
      delivery: input.purchase.delivery,
      sendOn: input.purchase.delivery === 'email' ? input.purchase.sendDate : null,
    });
    return {
      ok: true as const,
      orderId: created.id,
      number: created.number,
      totalPriceCents: price.totalPriceCents,
      accessToken: access?.token ?? null,
    };
  });
}

/** 08:00 in Paris on `day` (YYYY-MM-DD): when a card chosen for that day leaves. */
export function parisMorning(day: string): Date {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(fromParisWallClock(Date.UTC(year ?? 0, (month ?? 1) - 1, date ?? 1, 8)));
}

/** When the e-mail of a card chosen for `sendOn` leaves once issued at `issuedAt`: that morning, or at once when it has passed (a transfer paid late). */
export function giftCardLeavesAt(sendOn: string, issuedAt: Date): Date {
  const morning = parisMorning(sendOn);
  return morning > issuedAt ? morning : issuedAt;
}

/**
 * The lifecycle's `issue_gift_card` effect, inside the transaction that records the sale's
 * payment: the code (75 random bits), the card valid for the price list's months, its `issued`
 * entry and its e-mails: the card to the recipient at 08:00 (Paris) on the chosen day and a copy
 * to the buyer then, or the card to the buyer at once when they print it. Issued once per order.
 */
export async function issueGiftCardInTx(
  tx: Tx,
  input: { saleOrderId: string; actor: string; now: Date },
): Promise<{ cardId: string } | null> {
  const [sale] = await tx
    .select({
      sale: giftCardSales,
      validityMonths: sql<number>`coalesce((pl.data -> 'giftCards' ->> 'validityMonths')::int, 12)`,
      buyerEmail: sql<string | null>`coalesce(u.email, ${orders.guestEmail})`,
      orderId: orders.id,
    })
    .from(giftCardSales)
    .innerJoin(orders, eq(orders.id, giftCardSales.orderId))
    .leftJoin(sql`price_lists pl`, sql`pl.id = ${orders.priceListId}`)
    .leftJoin(sql`"user" u`, sql`u.id = ${orders.userId}`)
    .where(eq(giftCardSales.orderId, input.saleOrderId))
    .limit(1);
  if (!sale) return null;
  const [already] = await tx
    .select({ id: giftCards.id })
    .from(giftCards)
    .where(eq(giftCards.saleOrderId, input.saleOrderId))
    .limit(1);
  if (already) return { cardId: already.id };

  const code = generateGiftCardCode(randomBytes(GIFT_CARD_CODE_RANDOM_BYTES));
  const expiresAt = giftCardExpiresAt(input.now, Number(sale.validityMonths));
  const [card] = await tx
    .insert(giftCards)
    .values({
      saleOrderId: input.saleOrderId,
      codeHash: giftCardCodeHash(code),
      codeSealed: encryptSecret(code, CODE_CONTEXT),
      codeLast4: code.slice(-4),
      initialCents: sale.sale.amountCents,
      issuedAt: input.now,
      expiresAt,
    })
    .returning({ id: giftCards.id });
  if (!card) throw new Error('gift_cards: the insert returned no row');
  await tx.insert(giftCardLedger).values({
    cardId: card.id,
    at: input.now,
    kind: 'issued',
    amountCents: sale.sale.amountCents,
    actor: input.actor,
  });
  await queueGiftCardEmails(tx, {
    cardId: card.id,
    code,
    expiresAt,
    sale: sale.sale,
    buyerEmail: sale.buyerEmail,
    now: input.now,
  });
  return { cardId: card.id };
}

/**
 * The data of the card's own e-mail (« gift-card »: the code, the link, the PDF): to the recipient
 * on the chosen day, or to the buyer who prints it (also when the back office sends it again).
 */
export function giftCardEmailData(input: {
  code: string;
  expiresAt: Date;
  sale: Pick<
    typeof giftCardSales.$inferSelect,
    'amountCents' | 'recipientName' | 'buyerName' | 'message' | 'delivery' | 'sendOn'
  >;
}): EmailTemplateData<'gift-card'> {
  const { sale } = input;
  return {
    code: formatGiftCardCode(input.code),
    amountCents: sale.amountCents,
    recipientName: sale.recipientName,
    buyerName: sale.buyerName,
    message: sale.message,
    expiresAt: input.expiresAt.toISOString(),
    redeemUrl: giftCardRedeemUrl(input.code),
    printedByBuyer: sale.delivery === 'print' || !sale.sendOn,
  };
}

async function queueGiftCardEmails(
  tx: Tx,
  input: {
    cardId: string;
    code: string;
    expiresAt: Date;
    sale: typeof giftCardSales.$inferSelect;
    buyerEmail: string | null;
    now: Date;
  },
): Promise<void> {
  const { sale } = input;
  const card = giftCardEmailData({ code: input.code, expiresAt: input.expiresAt, sale });
  if (sale.delivery === 'print' || !sale.sendOn) {
    if (!input.buyerEmail) return;
    await enqueueEmail(tx, {
      to: input.buyerEmail,
      template: 'gift-card',
      data: card,
      dedupeKey: `gift-card:${input.cardId}`,
      orderId: sale.orderId,
    });
    return;
  }
  const notBefore = giftCardLeavesAt(sale.sendOn, input.now);
  await enqueueEmail(tx, {
    to: sale.recipientEmail,
    template: 'gift-card',
    data: card,
    dedupeKey: `gift-card:${input.cardId}`,
    orderId: sale.orderId,
    notBefore,
  });
  if (input.buyerEmail) {
    await enqueueEmail(tx, {
      to: input.buyerEmail,
      template: 'gift-card-copy',
      data: {
        maskedCode: maskGiftCardCode(input.code),
        amountCents: sale.amountCents,
        recipientName: sale.recipientName,
        recipientEmail: sale.recipientEmail,
        buyerName: sale.buyerName,
        message: sale.message,
        sentAt: notBefore.toISOString(),
        expiresAt: input.expiresAt.toISOString(),
        accountUrl: `${baseUrl()}/profile?tab=cartes-cadeaux`,
      },
      dedupeKey: `gift-card-copy:${input.cardId}`,
      orderId: sale.orderId,
      notBefore,
    });
  }
}

/** A card's rules' view of it: its ledger, oldest first, and its expiry. */
export async function giftCardLedgerOf(executor: Executor, cardId: string, expiresAt: Date): Promise<GiftCardLedger> {
  const entries = await executor
    .select({
      kind: giftCardLedger.kind,
      amountCents: giftCardLedger.amountCents,
      orderId: giftCardLedger.orderId,
      at: giftCardLedger.at,
    })
    .from(giftCardLedger)
    .where(eq(giftCardLedger.cardId, cardId))
    .orderBy(asc(giftCardLedger.at), asc(giftCardLedger.id));
  return { entries, expiresAt };
}

/**
 * Writes one ledger entry after checking it against the card's ledger, the card's row locked
 * (FOR UPDATE) so that two concurrent spends or a spend and a refund are decided one after the
 * other. Returns the French refusal, or null once written.
 */
export async function recordGiftCardEntry(
  tx: Tx,
  cardId: string,
  entry: GiftCardEntry & { actor: string },
): Promise<string | null> {
  const [card] = await tx
    .select({ expiresAt: giftCards.expiresAt })
    .from(giftCards)
    .where(eq(giftCards.id, cardId))
    .for('update')
    .limit(1);
  if (!card) return 'Carte cadeau introuvable.';
  const problem = giftCardEntryProblem(await giftCardLedgerOf(tx, cardId, card.expiresAt), entry);
  if (problem) return problem;
  await tx.insert(giftCardLedger).values({
    cardId,
    at: entry.at,
    kind: entry.kind,
    amountCents: entry.amountCents,
    orderId: entry.orderId,
    actor: entry.actor,
  });
  return null;
}

export interface GiftCardSummary {
  id: string;
  saleOrderId: string;
  saleOrderNumber: string;
  maskedCode: string;
  initialCents: number;
  balanceCents: number;
  state: GiftCardState;
  issuedAt: Date;
  expiresAt: Date;
  recipientName: string;
  recipientEmail: string;
  delivery: 'email' | 'print';
  sendOn: string | null;
}

/** The cards of these sale orders, with their balance and state now. */
export async function giftCardSummaries(
  saleOrderIds: readonly string[],
  now: Date = new Date(),
  executor: Executor = db(),
): Promise<GiftCardSummary[]> {
  if (saleOrderIds.length === 0) return [];
  const rows = await executor
    .select({ card: giftCards, sale: giftCardSales, number: orders.number })
    .from(giftCards)
    .innerJoin(giftCardSales, eq(giftCardSales.orderId, giftCards.saleOrderId))
    .innerJoin(orders, eq(orders.id, giftCards.saleOrderId))
    .where(inArray(giftCards.saleOrderId, [...saleOrderIds]))
    .orderBy(desc(giftCards.issuedAt));
  if (rows.length === 0) return [];
  // Every card's ledger in one query (not one per card), oldest entry first.
  const entries = await executor
    .select({
      cardId: giftCardLedger.cardId,
      kind: giftCardLedger.kind,
      amountCents: giftCardLedger.amountCents,
      orderId: giftCardLedger.orderId,
      at: giftCardLedger.at,
    })
    .from(giftCardLedger)
    .where(
      inArray(
        giftCardLedger.cardId,
        rows.map(({ card }) => card.id),
      ),
    )
    .orderBy(asc(giftCardLedger.at), asc(giftCardLedger.id));
  return rows.map(({ card, sale, number }) => {
    const ledger: GiftCardLedger = {
      entries: entries.filter((entry) => entry.cardId === card.id),
      expiresAt: card.expiresAt,
    };
    return {
      id: card.id,
      saleOrderId: card.saleOrderId,
      saleOrderNumber: number,
      maskedCode: maskGiftCardCode(card.codeLast4),
      initialCents: card.initialCents,
      balanceCents: giftCardBalanceCents(ledger.entries),
      state: giftCardState(ledger, now),
      issuedAt: card.issuedAt,
      expiresAt: card.expiresAt,
      recipientName: sale.recipientName,
      recipientEmail: sale.recipientEmail,
      delivery: sale.delivery,
      sendOn: sale.sendOn,
    };
  });
}

/** The card a sale order issued, with its code in clear (the buyer's own « imprimer » link, a resend). */
export async function revealGiftCardCode(saleOrderId: string, executor: Executor = db()): Promise<string | null> {
  const [card] = await executor
    .select({ sealed: giftCards.codeSealed })
    .from(giftCards)
    .where(eq(giftCards.saleOrderId, saleOrderId))
    .limit(1);
  return card ? decryptSecret(card.sealed, CODE_CONTEXT) : null;
}

/** A gift card's sale cannot be withdrawn: its card paid something meanwhile (the transaction is rolled back). */
export class GiftCardInUseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GiftCardInUseError';
  }
}

/**
 * Closes the card of a withdrawn sale: a `refunded` entry of its whole balance, which the ledger's
 * rules accept only while nothing was ever spent. Returns the refusal, or null (also when the sale
 * issued no card: it was never paid).
 */
export async function closeUnusedGiftCard(
  tx: Tx,
  input: { saleOrderId: string; actor: string; now: Date },
): Promise<string | null> {
  const [card] = await tx
    .select({ id: giftCards.id, initialCents: giftCards.initialCents })
    .from(giftCards)
    .where(eq(giftCards.saleOrderId, input.saleOrderId))
    .limit(1);
  if (!card) return null;
  return recordGiftCardEntry(tx, card.id, {
    kind: 'refunded',
    amountCents: card.initialCents,
    orderId: null,
    at: input.now,
    actor: input.actor,
  });
}

/**
 * What a withdrawal needs to know of an order that sold a gift card (domain/account/withdrawal.ts):
 * its kind and whether its card has paid anything; nothing for any other order.
 */
export async function giftCardWithdrawalFacts(
  orderId: string,
  executor: Executor = db(),
): Promise<{ kind?: 'gift_card'; giftCardUsed?: boolean }> {
  const result = await executor.execute<{ sale: boolean; used: boolean }>(sql`
    select exists (select 1 from gift_card_sales g where g.order_id = ${orderId}) as sale,
      exists (select 1 from gift_cards c join gift_card_ledger e on e.card_id = c.id
        where c.sale_order_id = ${orderId} and e.kind = 'spent') as used`);
  const row = result.rows[0];
  return row?.sale ? { kind: 'gift_card', giftCardUsed: Boolean(row.used) } : {};
}
