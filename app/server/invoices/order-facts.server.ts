import { eq } from 'drizzle-orm';
import type { BusinessBuyer, DocumentParty, SnapshotOrder } from '~/domain/invoices/snapshot';
import { partyName } from '~/domain/invoices/snapshot';
import type { OrderStatus, PaymentStatus, WorkshopStage } from '~/domain/order-status';
import { countryName, sameAddress } from '~/domain/orders/address';
import { amountDueCents } from '~/domain/orders/lifecycle';
import type { OrderPaymentMethod } from '~/domain/payments/offline';
import { DEFAULT_PRICE_LIST, type PriceListDocument } from '~/domain/pricing/default-price-list';
import { ORDER_EXTRA_KEYS, pickPriceFields } from '~/domain/pricing/pricing';
import { promotionDescription } from '~/domain/vouchers/promotions';
import type { Executor } from '../config/config-options.server';
import { orders, priceLists, user } from '../db/schema';
import { loadOrderAddresses, type OrderAddress, type OrderAddresses } from '../orders/addresses.server';
import { customerOf, loadOrderLines, type OrderCustomer, OWNER_COLUMNS } from '../orders/order-parts.server';
import { type OrderGiftCardPart, orderGiftCardPart } from '../vouchers/order-gift-card.server';
import { type OrderPromotion, orderPromotions } from '../vouchers/promotions.server';

/*
 * What the payment and invoicing code reads about an order: its amounts, items, the price list it
 * was priced with (for the words and unit prices of the lines) and its customer, the account
 * holder or the guest.
 */

export interface OrderFacts extends SnapshotOrder {
  createdAt: Date;
  userId: string | null;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  paymentMethod: OrderPaymentMethod;
  paidAt: Date | null;
  withdrawnAt: Date | null;
  stage: WorkshopStage;
  returnOriginals: boolean;
  sendMethod: string;
  express: boolean;
  dueAt: Date | null;
  customer: OrderCustomer;
  /** Frozen when the order was placed (something physical travels); none for older orders. */
  addresses: OrderAddresses;
  priceList: PriceListDocument | null;
  /** What a gift card pays of the order (decision 037), or null. */
  giftCard: OrderGiftCardPart | null;
  /** The money the order asks for: its total less the gift card's part (what a gateway is asked). */
  amountDueCents: number;
  /** What promotion codes took off (decision 038): the total is already net of it. */
  discountCents: number;
  /** The codes it was placed with, in the order they applied. */
  promotions: OrderPromotion[];
  /** The buyer as a business, frozen at placement; null for a consumer. */
  business: BusinessBuyer | null;
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
  const [items, owner, list, addresses, giftCard, promotions] = await Promise.all([
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
    loadOrderAddresses(executor, orderId),
    orderGiftCardPart(executor, orderId),
    order.discountCents > 0 ? orderPromotions(executor, orderId) : Promise.resolve([]),
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
    // What a document shows beside its lines: the extras and the total (the lines carry their parts).
    ...pickPriceFields(order, [...ORDER_EXTRA_KEYS, 'totalPriceCents']),
    insuredValueCents: order.insuredValueCents,
    items,
    customer: customerOf(order, owner),
    addresses,
    priceList: list,
    giftCard,
    amountDueCents: amountDueCents({ totalCents: order.totalPriceCents, giftCardCents: giftCard?.cents ?? 0 }),
    discountCents: order.discountCents,
    promotions,
    business: order.business ?? null,
    discounts: promotions.map(({ terms, cents }) => ({
      label: `Remise ${terms.code}`,
      detail: `${terms.label} (${promotionDescription(terms, list ?? DEFAULT_PRICE_LIST)})`,
      cents,
    })),
  };
}

/** A frozen address as a document's party: the name (with the company), the street lines. */
function partyOf(address: OrderAddress, email: string | null): DocumentParty {
  const name = partyName(address.firstName, address.lastName, email);
  return {
    name: address.company ? `${name} (${address.company})` : name,
    email,
    phone: address.phone,
    street: [address.line1, address.line2].filter(Boolean).join(', '),
    postalCode: address.postalCode,
    city: address.city,
    country: countryName(address.country),
  };
}

/**
 * The buyer as an invoice states it: at the billing address frozen on the order (the delivery
 * address when the customer gave no other), else the customer's own details (orders with nothing
 * physical, which ask no address).
 */
export function buyerOf(facts: OrderFacts): DocumentParty {
  const c = facts.customer;
  const frozen = facts.addresses.billing ?? facts.addresses.delivery;
  if (frozen) return partyOf(frozen, c.email);
  return {
    name: partyName(c.firstName, c.lastName, c.email),
    email: c.email,
    phone: c.phone,
    street: c.street,
    postalCode: c.postalCode,
    city: c.city,
    country: countryName(c.country ?? 'FR'),
  };
}

/** The delivery address an invoice prints: only when the buyer is invoiced at another address. */
export function deliveryPartyOf(facts: OrderFacts): DocumentParty | null {
  const { delivery, billing } = facts.addresses;
  if (!delivery || !billing || sameAddress(delivery, billing)) return null;
  return partyOf(delivery, null);
}

/** "Marie Curie", or undefined when the customer gave no name (e-mails then say "Bonjour,"). */
export function customerName(facts: OrderFacts): string | undefined {
  const name = `${facts.customer.firstName} ${facts.customer.lastName}`.trim();
  return name === '' ? undefined : name;
}
