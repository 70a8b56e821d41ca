import { and, eq } from 'drizzle-orm';
import type { PostalAddress } from '~/domain/orders/address';
import { orderEvent } from '~/domain/orders/events';
import type { Executor } from '../config/config-options.server';
import type { Tx } from '../db/client.server';
import { orderAddresses, orderEvents } from '../db/schema';

/*
 * The addresses frozen on an order (docs/fulfilment.md): written once, in the transaction that
 * places the order and before its `place` transition (which refuses something physical without a
 * delivery address), then only read. A later change of the customer's profile does not move them:
 * the parcel goes where the order said, and the invoice keeps the address it was issued to.
 */

export type OrderAddress = Omit<PostalAddress, 'country' | 'phone'> & { country: string; phone: string | null };

export interface OrderAddresses {
  delivery: OrderAddress | null;
  /** Null when the customer is invoiced at the delivery address. */
  billing: OrderAddress | null;
}

/** The order's addresses (none for an order with nothing physical). */
export async function loadOrderAddresses(executor: Executor, orderId: string): Promise<OrderAddresses> {
  const rows = await executor.select().from(orderAddresses).where(eq(orderAddresses.orderId, orderId));
  const pick = (kind: 'delivery' | 'billing'): OrderAddress | null => {
    const row = rows.find((candidate) => candidate.kind === kind);
    if (!row) return null;
    const { orderId: _order, kind: _kind, createdAt: _created, ...address } = row;
    return address;
  };
  return { delivery: pick('delivery'), billing: pick('billing') };
}

/**
 * Freezes the delivery address (and the billing address when it differs) on a draft about to be
 * placed, with the history entry `address_recorded`. The caller holds the order's row lock; a
 * second checkout attempt of the same draft (a refused card, say) replaces what the first wrote.
 */
export async function freezeOrderAddresses(
  tx: Tx,
  orderId: string,
  addresses: { delivery: PostalAddress; billing: PostalAddress | null },
  actor: string,
): Promise<void> {
  await tx.delete(orderAddresses).where(eq(orderAddresses.orderId, orderId));
  const rows = [
    { ...addresses.delivery, kind: 'delivery' as const, orderId },
    ...(addresses.billing ? [{ ...addresses.billing, kind: 'billing' as const, orderId }] : []),
  ];
  await tx.insert(orderAddresses).values(rows);
  await tx.insert(orderEvents).values({
    orderId,
    actor,
    ...orderEvent('address_recorded', { kinds: rows.map((row) => row.kind) }),
  });
}

/**
 * Freezes the billing address of a draft with nothing physical (no delivery address), with the
 * history entry `address_recorded`. The caller holds the order's row lock; a second attempt
 * replaces what the first wrote. The phone is not asked for it (only the carrier needs one).
 */
export async function freezeBillingAddress(
  tx: Tx,
  orderId: string,
  billing: PostalAddress,
  actor: string,
): Promise<void> {
  await tx.delete(orderAddresses).where(and(eq(orderAddresses.orderId, orderId), eq(orderAddresses.kind, 'billing')));
  await tx.insert(orderAddresses).values({ ...billing, phone: billing.phone || null, kind: 'billing', orderId });
  await tx.insert(orderEvents).values({
    orderId,
    actor,
    ...orderEvent('address_recorded', { kinds: ['billing'] }),
  });
}
