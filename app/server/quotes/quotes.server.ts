import { and, desc, eq, like, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { PriceListDocument } from '~/domain/pricing/default-price-list';
import { lineTitle } from '~/domain/pricing/labels';
import type { PricedOrder } from '~/domain/pricing/pricing';
import {
  computeQuote,
  parseStoredSelection,
  resolveSelectionPayload,
  type Selection,
  selectionLines,
  selectionToPayload,
} from '~/domain/pricing/selection';
import { type Database, db } from '../db/client.server';
import { emailOutbox, orders, priceLists, quotes } from '../db/schema';
import { enqueueEmail } from '../email/outbox.server';
import { baseUrl } from '../env.server';
import {
  type CreatedOrder,
  createOrder,
  InvalidSelectionError,
  type OrderCustomer,
} from '../orders/create-order.server';
import { hashAccessToken, looksLikeAccessToken, newAccessToken } from '../orders/tokens.server';
import { type ActivePriceList, getActivePriceList, getPriceListById } from '../pricing/price-lists.server';

/*
 * Saved estimates (quotes). A signed-in customer's quotes are listed at /mes-devis; a guest's quote
 * is reached only through its private link /devis/<token> (the token is shown once, only its
 * SHA-256 is stored). A quote keeps the price list version it was priced with: it shows that price,
 * and says so when the active list has changed since. Ordering a quote prices it anew with the
 * active list, like any order, after showing the customer that price.
 */

export interface SavedQuote {
  id: string;
  /** A guest's private link token; null for a signed-in customer. */
  token: string | null;
  totalPriceCents: number;
  priceListVersion: number;
}

export interface QuotePriceList {
  id: string;
  version: number;
  data: PriceListDocument;
}

export interface QuoteView {
  id: string;
  createdAt: Date;
  userId: string | null;
  /** Null when the stored selection no longer passes today's rules. */
  selection: Selection | null;
  /** Total at saving, with the quote's own price list. */
  totalPriceCents: number;
  /** The quote priced with its own price list (what it said when saved). */
  saved: PricedOrder | null;
  priceList: QuotePriceList;
  active: QuotePriceList;
  /** The quote priced with the active list (what ordering it costs now). */
  current: PricedOrder | null;
  /** The active price list is not the quote's. */
  pricesChanged: boolean;
  order: { id: string; number: string; status: string; paymentStatus: string; userId: string | null } | null;
}

export interface QuoteSummary {
  id: string;
  createdAt: Date;
  totalPriceCents: number;
  priceListVersion: number;
  pricesChanged: boolean;
  lines: { label: string; quantity: number }[];
  orderNumber: string | null;
}

export async function saveQuote(
  input: { selection: Selection; user: OrderCustomer | null },
  database: Database = db(),
): Promise<SavedQuote> {
  const priceList = await getActivePriceList(database);
  const checked = resolveSelectionPayload(selectionToPayload(input.selection), {
    requireSupport: true,
    priceList: priceList.data,
  });
  if (!checked.value) throw new InvalidSelectionError(checked.error ?? {});
  const { price } = computeQuote(priceList.data, checked.value);
  const token = input.user ? null : newAccessToken();
  const [row] = await database
    .insert(quotes)
    .values({
      userId: input.user?.id ?? null,
      accessTokenHash: token ? hashAccessToken(token) : null,
      selection: checked.value,
      totalPriceCents: price.totalPriceCents,
      priceListId: priceList.id,
    })
    .returning({ id: quotes.id });
  if (!row) throw new Error('quotes: the insert returned no row');
  return { id: row.id, token, totalPriceCents: price.totalPriceCents, priceListVersion: priceList.version };
}

const quoteColumns = {
  id: quotes.id,
  createdAt: quotes.createdAt,
  userId: quotes.userId,
  selection: quotes.selection,
  totalPriceCents: quotes.totalPriceCents,
  priceListId: quotes.priceListId,
  orderId: quotes.orderId,
};

type QuoteRow = { [K in keyof typeof quoteColumns]: (typeof quotes.$inferSelect)[K] };

function priced(list: PriceListDocument, selection: Selection | null): PricedOrder | null {
  if (!selection) return null;
  const checked = resolveSelectionPayload(selectionToPayload(selection), { requireSupport: true, priceList: list });
  return checked.value ? computeQuote(list, checked.value) : null;
}

async function toView(row: QuoteRow, database: Database): Promise<QuoteView> {
  const [own, active] = await Promise.all([getPriceListById(row.priceListId, database), getActivePriceList(database)]);
  if (!own) throw new Error(`quote ${row.id}: price list ${row.priceListId} not found`);
  const selection = parseStoredSelection(row.selection);
  const [order] = row.orderId
    ? await database
        .select({
          id: orders.id,
          number: orders.number,
          status: orders.status,
          paymentStatus: orders.paymentStatus,
          userId: orders.userId,
        })
        .from(orders)
        .where(eq(orders.id, row.orderId))
        .limit(1)
    : [];
  const pick = (list: ActivePriceList): QuotePriceList => ({ id: list.id, version: list.version, data: list.data });
  return {
    id: row.id,
    createdAt: row.createdAt,
    userId: row.userId,
    selection,
    totalPriceCents: row.totalPriceCents,
    saved: priced(own.data, selection),
    priceList: pick(own),
    active: pick(active),
    current: priced(active.data, selection),
    pricesChanged: own.id !== active.id,
    order: order ?? null,
  };
}

/** A customer's own quote; null for anyone else's (the route answers 404). */
export async function getQuoteForUser(
  quoteId: string,
  userId: string,
  database: Database = db(),
): Promise<QuoteView | null> {
  if (!z.uuid().safeParse(quoteId).success) return null;
  const [row] = await database
    .select(quoteColumns)
    .from(quotes)
    .where(and(eq(quotes.id, quoteId), eq(quotes.userId, userId)))
    .limit(1);
  return row ? toView(row, database) : null;
}

/** The quote of a private link; null for a wrong token. */
export async function getQuoteByToken(token: string, database: Database = db()): Promise<QuoteView | null> {
  if (!looksLikeAccessToken(token)) return null;
  const [row] = await database
    .select(quoteColumns)
    .from(quotes)
    .where(eq(quotes.accessTokenHash, hashAccessToken(token)))
    .limit(1);
  return row ? toView(row, database) : null;
}

/** A customer's quotes, newest first (the 100 latest). */
export async function listQuotes(userId: string, database: Database = db()): Promise<QuoteSummary[]> {
  const [rows, active] = await Promise.all([
    database
      .select({
        id: quotes.id,
        createdAt: quotes.createdAt,
        selection: quotes.selection,
        totalPriceCents: quotes.totalPriceCents,
        priceListId: quotes.priceListId,
        priceListVersion: priceLists.version,
        priceListData: priceLists.data,
        orderNumber: orders.number,
      })
      .from(quotes)
      .innerJoin(priceLists, eq(priceLists.id, quotes.priceListId))
      .leftJoin(orders, eq(orders.id, quotes.orderId))
      .where(eq(quotes.userId, userId))
      .orderBy(desc(quotes.createdAt))
      .limit(100),
    getActivePriceList(database),
  ]);
  return rows.map((row) => {
    const selection = parseStoredSelection(row.selection);
    const list = row.priceListData as PriceListDocument;
    const lines = selection
      ? selectionLines(selection).map((line) => ({ label: lineTitle(list, line), quantity: line.quantity }))
      : [];
    return {
      id: row.id,
      createdAt: row.createdAt,
      totalPriceCents: row.totalPriceCents,
      priceListVersion: row.priceListVersion,
      pricesChanged: row.priceListId !== active.id,
      lines,
      orderNumber: row.orderNumber,
    };
  });
}

export type OrderQuoteResult = { kind: 'created'; order: CreatedOrder } | { kind: 'existing'; orderId: string };

/**
 * One click from a quote to an order. The order is priced with the active list (the version the
 * page showed, or PriceListChangedError). When the quote already led to an order that is still
 * waiting for payment and the visitor may open it, that order is returned instead of a second one
 * (a double click, or coming back to pay).
 */
export async function orderQuote(
  quote: QuoteView,
  options: {
    user: OrderCustomer | null;
    expectedPriceListVersion?: number | null;
    /** Whether this visitor may open the quote's existing order (owner, or guest cookie). */
    canOpenExistingOrder: boolean;
  },
  database: Database = db(),
): Promise<OrderQuoteResult> {
  if (
    quote.order &&
    options.canOpenExistingOrder &&
    quote.order.status === 'pending' &&
    quote.order.paymentStatus === 'pending'
  ) {
    return { kind: 'existing', orderId: quote.order.id };
  }
  if (!quote.selection) throw new InvalidSelectionError({ '': ['Ce devis ne peut plus être commandé tel quel.'] });
  const order = await createOrder(
    {
      selection: quote.selection,
      user: options.user,
      expectedPriceListVersion: options.expectedPriceListVersion,
      // Never an address the quote was e-mailed to: whoever holds a guest quote's link can send it
      // anywhere, and the order's confirmation (with its access token) must reach only the address
      // the customer types at checkout (or their account's).
      guestEmail: null,
      quoteId: quote.id,
    },
    database,
  );
  return { kind: 'created', order };
}

/** At most this many addresses can receive one quote: the form cannot be used to send spam. */
export const MAX_QUOTE_EMAILS = 5;

export type EmailQuoteResult = 'queued' | 'already-sent' | 'limit-reached';

/**
 * Sends (through the outbox) the `quote-saved` e-mail with the quote's link. The address is only
 * the recipient of that e-mail: it is not stored on the quote and never becomes the contact of an
 * order made from it (anyone holding a guest quote's link can type any address here).
 */
export async function emailQuote(
  quote: QuoteView,
  input: { to: string; quoteUrl: string; customerName?: string },
  database: Database = db(),
): Promise<EmailQuoteResult> {
  const to = input.to.trim().toLowerCase();
  const prefix = `quote-saved:${quote.id}:`;
  return database.transaction(async (tx) => {
    // One quote at a time: the count below stays true until this transaction ends.
    await tx.select({ id: quotes.id }).from(quotes).where(eq(quotes.id, quote.id)).for('update');
    const [{ sent } = { sent: 0 }] = await tx
      .select({ sent: sql<number>`count(*)::int` })
      .from(emailOutbox)
      .where(like(emailOutbox.dedupeKey, `${prefix}%`));
    const dedupeKey = `${prefix}${hashAccessToken(to)}`;
    const [already] = await tx
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, dedupeKey))
      .limit(1);
    if (already) return 'already-sent';
    if (sent >= MAX_QUOTE_EMAILS) return 'limit-reached';
    const list = quote.saved ? quote.priceList.data : quote.active.data;
    const lines = quote.selection
      ? selectionLines(quote.selection).map((line) => ({ label: lineTitle(list, line), quantity: line.quantity }))
      : [];
    await enqueueEmail(tx, {
      to,
      template: 'quote-saved',
      data: {
        quoteUrl: input.quoteUrl.startsWith('/') ? `${baseUrl()}${input.quoteUrl}` : input.quoteUrl,
        createdAt: quote.createdAt.toISOString(),
        totalCents: quote.totalPriceCents,
        lines,
        ...(input.customerName ? { customerName: input.customerName } : {}),
      },
      dedupeKey,
    });
    return 'queued';
  });
}
