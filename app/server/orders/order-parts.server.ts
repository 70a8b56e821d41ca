import { asc, eq } from 'drizzle-orm';
import type { OrderLine } from '~/domain/orders/order-line';
import type { Executor } from '../config/config-options.server';
import { orderItems, type orders, user } from '../db/schema';

/*
 * The parts of an order that both the invoicing code (invoices/order-facts) and the order pages
 * (orders/access) read: its lines in their order, and its customer, the account holder or the guest.
 */

export interface OrderCustomer {
  email: string | null;
  firstName: string;
  lastName: string;
  phone: string | null;
  street: string | null;
  postalCode: string | null;
  city: string | null;
  /** ISO code of the profile address's country (null for a guest or a profile without one). */
  country: string | null;
}

/** The account holder's columns, for a select or a join on "user". */
export const OWNER_COLUMNS = {
  email: user.email,
  firstName: user.firstName,
  lastName: user.lastName,
  phone: user.phone,
  street: user.street,
  postalCode: user.postalCode,
  city: user.city,
  country: user.country,
};

/** The account holder when there is one, else the guest details stored on the order. */
export function customerOf(
  order: typeof orders.$inferSelect,
  owner: Partial<Record<keyof OrderCustomer, string | null>> | null,
): OrderCustomer {
  if (owner?.email) {
    return {
      email: owner.email,
      firstName: owner.firstName ?? '',
      lastName: owner.lastName ?? '',
      phone: owner.phone ?? null,
      street: owner.street ?? null,
      postalCode: owner.postalCode ?? null,
      city: owner.city ?? null,
      country: owner.country ?? null,
    };
  }
  return {
    email: order.guestEmail,
    firstName: order.guestFirstName ?? '',
    lastName: order.guestLastName ?? '',
    phone: order.guestPhone,
    street: order.guestAddress,
    postalCode: order.guestPostalCode,
    city: order.guestCity,
    country: null,
  };
}

/** The order's lines as the customer composed them. */
export async function loadOrderLines(executor: Executor, orderId: string): Promise<OrderLine[]> {
  const rows = await executor
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.position), asc(orderItems.id));
  return rows.map((item) => ({
    type: item.type,
    quantity: item.quantity,
    quality: item.quality,
    resolution: item.resolution,
    format: item.format,
    restoration: item.restoration,
    denoise: item.denoise,
    reelSize: item.reelSize,
    unitPriceCents: item.unitPriceCents,
    lineTotalCents: item.lineTotalCents,
  }));
}
