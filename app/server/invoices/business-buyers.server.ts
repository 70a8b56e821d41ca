import { eq, sql } from 'drizzle-orm';
import type { BusinessBuyer } from '~/domain/invoices/snapshot';
import type { CheckoutInvoicing } from '~/domain/orders/checkout-details';
import type { Executor } from '../config/config-options.server';
import { db, type Tx } from '../db/client.server';
import { customerBusinessProfiles, orders } from '../db/schema';
import { freezeBillingAddress } from '../orders/addresses.server';

/*
 * The business buyer (docs/invoicing.md): the profile's defaults (customer_business_profiles), which
 * only prefill the checkout, and what a draft freezes when placed: orders.business, read by the
 * order's facts (order-facts.server.ts) and copied into its invoices and credit notes, and the
 * billing address of an order with nothing physical.
 */

/** The business identity the customer's profile keeps, or null. */
export async function loadBusinessProfile(userId: string, executor: Executor = db()): Promise<BusinessBuyer | null> {
  const [row] = await executor
    .select({ buyer: customerBusinessProfiles.buyer })
    .from(customerBusinessProfiles)
    .where(eq(customerBusinessProfiles.userId, userId))
    .limit(1);
  return row?.buyer ?? null;
}

/** Saves (or replaces) the profile's business identity; null removes it. */
export async function saveBusinessProfile(
  userId: string,
  buyer: BusinessBuyer | null,
  executor: Executor = db(),
): Promise<void> {
  if (!buyer) {
    await executor.delete(customerBusinessProfiles).where(eq(customerBusinessProfiles.userId, userId));
    return;
  }
  await executor
    .insert(customerBusinessProfiles)
    .values({ userId, buyer })
    .onConflictDoUpdate({ target: customerBusinessProfiles.userId, set: { buyer, updatedAt: sql`now()` } });
}

/**
 * Inside the placing transaction of a draft (its row locked): the business buyer frozen on the
 * order (null: a consumer, whatever an earlier attempt said), the billing address of an order with
 * nothing physical, and a signed-in business customer's identity kept in their profile for next time.
 */
export async function freezeCheckoutInvoicing(
  tx: Tx,
  input: { orderId: string; invoicing: CheckoutInvoicing; actor: string; profileOf: string | null },
): Promise<void> {
  const { orderId, invoicing } = input;
  await tx.update(orders).set({ business: invoicing.business, updatedAt: sql`now()` }).where(eq(orders.id, orderId));
  if (invoicing.billing) await freezeBillingAddress(tx, orderId, invoicing.billing, input.actor);
  if (input.profileOf && invoicing.business) await saveBusinessProfile(input.profileOf, invoicing.business, tx);
}
