import { eq, sql } from 'drizzle-orm';
import type { CheckoutDetails, CheckoutDetailsRules } from '~/domain/orders/checkout-details';
import { shipsSomethingPhysical } from '~/domain/orders/lifecycle';
import { withInsuredValue } from '~/domain/pricing/pricing';
import type { Executor } from '../config/config-options.server';
import { db, type Tx } from '../db/client.server';
import { orders, user } from '../db/schema';
import { getActivePriceList, getPriceListById } from '../pricing/price-lists.server';
import { freezeOrderAddresses } from './addresses.server';

/*
 * The checkout's addresses and insurance on the server: checked against the order's own
 * price list (its insurance ceiling, checkoutDetailsRules), then written in the transaction that places the draft, before
 * the `place` transition: the insurance re-prices the order through the pricing function
 * (withInsuredValue: never a price from the browser, never arithmetic here) and the addresses are frozen.
 */

interface PricedOrder {
  priceListId: string | null;
  deliveryMethod: string;
  returnOriginals: boolean;
  sendMethod: string;
}

/** A parcel comes back to the customer: the only one the ad valorem insurance covers. */
export function travelsBack(order: Pick<PricedOrder, 'deliveryMethod' | 'returnOriginals'>): boolean {
  return order.returnOriginals || order.deliveryMethod !== 'digital';
}

/** The price list the order was priced with (the active one for an old order that kept none). */
async function priceListOf(order: Pick<PricedOrder, 'priceListId'>, executor: Executor = db()) {
  const list = order.priceListId ? await getPriceListById(order.priceListId, executor) : null;
  return list ?? (await getActivePriceList(executor));
}

/** What the checkout shows of the insurance: its price per started 100 € and its ceiling. */
export async function insuranceOffer(
  order: PricedOrder,
): Promise<{ per100EurosCents: number; maxCents: number } | null> {
  if (!travelsBack(order)) return null;
  const list = await priceListOf(order);
  return { per100EurosCents: list.data.insurance.per100EurosPrice, maxCents: list.data.insurance.maxValue };
}

/**
 * What the payment form's addresses and insurance are checked against for this order (its own
 * price list's ceiling); null when nothing physical travels (nothing is asked).
 */
export async function checkoutDetailsRules(order: PricedOrder): Promise<CheckoutDetailsRules | null> {
  if (!shipsSomethingPhysical(order)) return null;
  const list = await priceListOf(order);
  return { travelsBack: travelsBack(order), maxInsuredCents: list.data.insurance.maxValue };
}

/**
 * Inside the placing transaction (the order's row locked): prices the insurance with the order's
 * price list (the total follows, as the sum of the order's price fields), and freezes the addresses.
 */
export async function applyCheckoutDetails(
  tx: Tx,
  orderId: string,
  details: CheckoutDetails,
  actor: string,
): Promise<void> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!order) return;
  const list = await priceListOf(order, tx);
  const insuredValueCents = travelsBack(order) ? details.insuredValueCents : 0;
  // Re-priced by the pricing function: the insurance from the list, the total from every field.
  const price = withInsuredValue(list.data, order, insuredValueCents);
  if (price.insurancePriceCents !== order.insurancePriceCents || insuredValueCents !== order.insuredValueCents) {
    await tx
      .update(orders)
      .set({
        insuredValueCents,
        insurancePriceCents: price.insurancePriceCents,
        totalPriceCents: price.totalPriceCents,
        updatedAt: sql`now()`,
      })
      .where(eq(orders.id, orderId));
  }
  await freezeOrderAddresses(tx, orderId, details, actor);
}

/** « Enregistrer cette adresse dans mon profil »: the delivery address becomes the profile's. */
export async function saveAddressToProfile(
  userId: string,
  details: CheckoutDetails,
  executor: Executor = db(),
): Promise<void> {
  const { delivery } = details;
  await executor
    .update(user)
    .set({
      firstName: delivery.firstName,
      lastName: delivery.lastName,
      phone: delivery.phone,
      street: [delivery.line1, delivery.line2].filter(Boolean).join(', '),
      postalCode: delivery.postalCode,
      city: delivery.city,
      country: delivery.country,
      updatedAt: new Date(),
    })
    .where(eq(user.id, userId));
}
