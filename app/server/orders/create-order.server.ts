import { eq } from 'drizzle-orm';
import type { PriceBreakdown } from '~/domain/pricing/pricing';
import {
  computeQuote,
  resolveSelectionPayload,
  type Selection,
  type SelectionErrors,
  selectionToPayload,
} from '~/domain/pricing/selection';
import { type Database, db, type Tx } from '../db/client.server';
import { orderEvents, orderItems, orders, quotes } from '../db/schema';
import { baseUrl } from '../env.server';
import { getActivePriceList } from '../pricing/price-lists.server';
import { createOrderAccessToken } from './access.server';
import { takeOrderNumber } from './order-number.server';

/*
 * `Commander`: a draft order and its items, created on the server from a selection, every price
 * recomputed from the active price list (a browser never sends a price we would read). In one
 * transaction: the order number (its counter row locked), the order, its items and the 'created'
 * history entry. Nothing else: a draft is not an order yet. The back office's notification, the
 * confirmation e-mail and the statistics come when the customer confirms it at checkout (the order
 * lifecycle's `place`); drafts never confirmed are deleted after 30 days. A guest gets a token that
 * opens the order (cookie `sv_order_<id>` set by the route; only its SHA-256 is stored in
 * orders.access_token_hash).
 */

export interface OrderCustomer {
  id: string;
  email: string;
  firstName?: string;
  lastName?: string;
}

export interface CreateOrderInput {
  selection: Selection;
  /** The signed-in customer, or null for a guest. */
  user: OrderCustomer | null;
  /** The price list version the customer was shown; when another one is active, nothing is created. */
  expectedPriceListVersion?: number | null;
  /** A guest's address when we already know it (from a quote sent by e-mail). */
  guestEmail?: string | null;
  /** The quote this order comes from: it is marked as ordered. */
  quoteId?: string | null;
}

export interface CreatedOrder {
  id: string;
  number: string;
  createdAt: Date;
  totalPriceCents: number;
  priceListId: string;
  priceListVersion: number;
  /** The guest's access token (null for a signed-in customer): give it to them, it is not stored. */
  accessToken: string | null;
}

export class PriceListChangedError extends Error {
  constructor(
    readonly expectedVersion: number,
    readonly currentVersion: number,
  ) {
    super(`The price list changed (version ${expectedVersion} shown, ${currentVersion} active)`);
    this.name = 'PriceListChangedError';
  }
}

export class InvalidSelectionError extends Error {
  constructor(readonly errors: SelectionErrors) {
    super(`Invalid selection: ${JSON.stringify(errors)}`);
    this.name = 'InvalidSelectionError';
  }
}

/** Where a customer follows an order; a guest's link carries the token, like the cookie does. */
export function orderFollowUrl(orderId: string, accessToken: string | null): string {
  const params = new URLSearchParams({ orderId });
  if (accessToken) params.set('token', accessToken);
  return `${baseUrl()}/confirmation?${params}`;
}

/** An order line as order_items stores it. */
export type DraftItem = Omit<typeof orderItems.$inferInsert, 'id' | 'orderId' | 'position'>;

export interface DraftOrderInput {
  user: OrderCustomer | null;
  /** The buyer's address: the account's, or the guest's. */
  email: string | null;
  accessTokenHash: string | null;
  deliveryMethod: 'digital' | 'usb' | 'disc';
  returnOriginals: boolean;
  sendMethod: string;
  express: boolean;
  price: PriceBreakdown;
  priceList: { id: string; version: number };
  items: DraftItem[];
  /** Where the order comes from, in its 'created' history entry. */
  eventData: Record<string, unknown>;
  /** Who created it, in the history: the customer's id, or `customer`. */
  actor?: string;
}

/**
 * The draft itself, in the caller's transaction: its number (the counter row locked), the order
 * row, its items and the 'created' history entry. `createOrder` (the configurator and quotes) and
 * the orders made from delivered files (extra copies, retention; app/server/copies/) all make their
 * drafts here, so that every order is born the same way and is then placed and paid at checkout.
 */
export async function insertDraftOrder(
  tx: Tx,
  input: DraftOrderInput,
): Promise<{ id: string; number: string; createdAt: Date }> {
  const createdAt = new Date();
  const number = await takeOrderNumber(tx, createdAt);
  const name = [input.user?.firstName, input.user?.lastName].filter(Boolean).join(' ');
  const [order] = await tx
    .insert(orders)
    .values({
      number,
      createdAt,
      updatedAt: createdAt,
      userId: input.user?.id ?? null,
      guestEmail: input.user ? null : input.email,
      accessTokenHash: input.accessTokenHash,
      status: 'pending',
      paymentStatus: 'pending',
      deliveryMethod: input.deliveryMethod,
      returnOriginals: input.returnOriginals,
      sendMethod: input.sendMethod,
      express: input.express,
      ...input.price,
      priceListId: input.priceList.id,
      // A draft: the customer confirms it at checkout (the order lifecycle's `place`).
      placedAt: null,
      searchText: [name, input.email ?? ''].join(' ').trim().toLowerCase(),
    })
    .returning({ id: orders.id });
  if (!order) throw new Error('orders: the insert returned no row');

  if (input.items.length > 0) {
    await tx.insert(orderItems).values(input.items.map((item, position) => ({ ...item, orderId: order.id, position })));
  }

  await tx.insert(orderEvents).values({
    orderId: order.id,
    at: createdAt,
    actor: input.actor ?? input.user?.id ?? 'customer',
    kind: 'created',
    from: null,
    to: 'pending',
    data: {
      totalCents: input.price.totalPriceCents,
      priceListVersion: input.priceList.version,
      ...input.eventData,
    },
  });
  return { id: order.id, number, createdAt };
}

export async function createOrder(input: CreateOrderInput, database: Database = db()): Promise<CreatedOrder> {
  const access = input.user ? null : createOrderAccessToken();
  const accessToken = access?.token ?? null;
  const email = input.user?.email ?? input.guestEmail?.trim() ?? null;

  return database.transaction(async (tx) => {
    const priceList = await getActivePriceList(tx);
    if (input.expectedPriceListVersion != null && input.expectedPriceListVersion !== priceList.version) {
      throw new PriceListChangedError(input.expectedPriceListVersion, priceList.version);
    }
    // The same rules as the form, whatever the caller: a stored quote, a future API.
    const checked = resolveSelectionPayload(selectionToPayload(input.selection), {
      requireSupport: true,
      priceList: priceList.data,
    });
    if (!checked.value) throw new InvalidSelectionError(checked.error ?? {});
    const selection = checked.value;
    const { lines, price } = computeQuote(priceList.data, selection);

    const { id, number, createdAt } = await insertDraftOrder(tx, {
      user: input.user,
      email,
      accessTokenHash: access?.hash ?? null,
      deliveryMethod: selection.deliveryMethod,
      returnOriginals: selection.returnOriginals,
      sendMethod: selection.sendMethod,
      express: selection.express === true,
      price,
      priceList,
      items: lines.map((line) => ({
        type: line.type,
        quantity: line.quantity,
        quality: line.quality,
        resolution: line.resolution,
        format: line.format,
        restoration: line.restoration,
        denoise: line.denoise,
        reelSize: line.reelSize,
        unitPriceCents: line.unitPriceCents,
        lineTotalCents: line.lineTotalCents,
      })),
      eventData: {
        source: input.quoteId ? 'quote' : 'configurator',
        ...(input.quoteId ? { quoteId: input.quoteId } : {}),
      },
    });
    if (input.quoteId) await tx.update(quotes).set({ orderId: id }).where(eq(quotes.id, input.quoteId));

    return {
      id,
      number,
      createdAt,
      totalPriceCents: price.totalPriceCents,
      priceListId: priceList.id,
      priceListVersion: priceList.version,
      accessToken,
    };
  });
}
