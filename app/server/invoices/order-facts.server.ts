import { eq } from 'drizzle-orm';
import type { DocumentParty, SnapshotOrder } from '~/domain/invoices/snapshot';
import { partyName } from '~/domain/invoices/snapshot';
import type { PriceListDocument } from '~/domain/pricing/default-price-list';
import type { Executor } from '../config/config-options.server';
import { orders, priceLists, user } from '../db/schema';
import { customerOf, loadOrderLines, type OrderCustomer, OWNER_COLUMNS } from '../orders/order-parts.server';

/*
 * What the payment and invoicing code reads about an order: its amounts, items, the price list it
 * was priced with (for the words and unit prices of the lines) and its customer, the account
 * holder or the guest.
 */

export interface OrderFacts extends SnapshotOrder {
  createdAt: Date;
  userId: string | null;
  status: string;
  paymentStatus: string;
  paymentMethod: string;
  paidAt: Date | null;
  withdrawnAt: Date | null;
  stage: string;
  returnOriginals: boolean;
  sendMethod: string;
  express: boolean;
  dueAt: Date | null;
  customer: OrderCustomer;
  priceList: PriceListDocument | null;
}

/** The order's facts, or null. With `lock`, the order row is locked (FOR UPDATE) until the transaction ends. */
export async function loadOrderFacts(
  executor: Executor,
  orderId: string,
  { lock = false }: { lock?: boolean } = {},
): Promise<OrderFacts | null> {
  const query = executor.select().from(orders).where(eq(orders.id, orderId));
  const [order] = lock ? await query.for('update') : await query;
  if (!order) return null;
  const [items, owner, list] = await Promise.all([
    loadOrderLines(executor, orderId),
    order.userId
      ? executor
          .select(OWNER_COLUMNS)
          .from(user)
          .where(eq(user.id, order.userId))
          .then((rows) => rows[0] ?? null)
      : Promise.resolve(null),
    order.priceListId
      ? executor
          .select({ data: priceLists.data })
          .from(priceLists)
          .where(eq(priceLists.id, order.priceListId))
          .then((rows) => (rows[0]?.data as PriceListDocument | undefined) ?? null)
      : Promise.resolve(null),
  ]);
  return {
    id: order.id,
    number: order.number,
    createdAt: order.createdAt,
    userId: order.userId,
    status: order.status,
    paymentStatus: order.paymentStatus,
    paymentMethod: order.paymentMethod,
    paidAt: order.paidAt,
    withdrawnAt: order.withdrawnAt,
    stage: order.stage,
    returnOriginals: order.returnOriginals,
    sendMethod: order.sendMethod,
    express: order.express,
    dueAt: order.dueAt,
    deliveryMethod: order.deliveryMethod,
    deliveryCostCents: order.deliveryCostCents,
    sendShippingCostCents: order.sendShippingCostCents,
    returnShippingCostCents: order.returnShippingCostCents,
    totalPriceCents: order.totalPriceCents,
    items,
    customer: customerOf(order, owner),
    priceList: list,
  };
}

/** The buyer as an invoice states it. */
export function buyerOf(facts: OrderFacts): DocumentParty {
  const c = facts.customer;
  return {
    name: partyName(c.firstName, c.lastName, c.email),
    email: c.email,
    phone: c.phone,
    street: c.street,
    postalCode: c.postalCode,
    city: c.city,
    country: 'France',
  };
}

/** "Marie Curie", or undefined when the customer gave no name (e-mails then say "Bonjour,"). */
export function customerName(facts: OrderFacts): string | undefined {
  const name = `${facts.customer.firstName} ${facts.customer.lastName}`.trim();
  return name === '' ? undefined : name;
}
