import { and, asc, eq, inArray } from 'drizzle-orm';
import type { OrderEventKind } from '~/domain/orders/events';
import { countedLines, journeySteps, type OrderJourneyView } from '~/domain/orders/journey-steps';
import { packingAdviceFor } from '~/domain/orders/sending-instructions';
import { prepaidLabelPath } from '~/domain/shipping/labels';
import { trackingUrl } from '~/domain/shipping/tracking';
import { db } from '../db/client.server';
import { orderEvents, orderItems, orders, receptions, shipments } from '../db/schema';

/*
 * What the customer sees of the originals' journey on the confirmation page (their order's page,
 * for guests and account holders alike): the steps with their dates, the prepaid label, the
 * tracking link once shipped, what was counted at reception, and how to send the parcel. Only
 * customer-facing facts leave the server: no staff names, no remarks meant for the workshop.
 * Callers check access (access.server.ts).
 */

export type { OrderJourneyView };

const JOURNEY_KINDS: OrderEventKind[] = [
  'placed',
  'label_created',
  'parcel_posted',
  'parcel_received',
  'stage_changed',
  'shipped',
];

export function orderSlipPath(orderId: string): string {
  return `/commande/${orderId}/bordereau.pdf`;
}

export async function loadOrderJourney(orderId: string): Promise<OrderJourneyView | null> {
  const database = db();
  const [order] = await database
    .select({
      createdAt: orders.createdAt,
      status: orders.status,
      stage: orders.stage,
      deliveryMethod: orders.deliveryMethod,
      returnOriginals: orders.returnOriginals,
      sendMethod: orders.sendMethod,
      withdrawnAt: orders.withdrawnAt,
      placedAt: orders.placedAt,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order) return null;
  const [events, [reception], parcels, items] = await Promise.all([
    database
      .select({ kind: orderEvents.kind, at: orderEvents.at, to: orderEvents.to, data: orderEvents.data })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, orderId), inArray(orderEvents.kind, JOURNEY_KINDS)))
      .orderBy(asc(orderEvents.at), asc(orderEvents.id)),
    database.select({ counts: receptions.counts }).from(receptions).where(eq(receptions.orderId, orderId)),
    database
      .select({ direction: shipments.direction, parcelNumber: shipments.parcelNumber })
      .from(shipments)
      .where(eq(shipments.orderId, orderId)),
    database.select({ type: orderItems.type }).from(orderItems).where(eq(orderItems.orderId, orderId)),
  ]);
  const steps = journeySteps(order, events);
  const outbound = parcels.find((p) => p.direction === 'outbound');
  const shippedEvent = events.findLast((e) => e.kind === 'shipped');
  const shippedNumber = (shippedEvent?.data as { parcelNumber?: unknown } | null)?.parcelNumber;
  const parcelNumber = typeof shippedNumber === 'string' && shippedNumber ? shippedNumber : outbound?.parcelNumber;
  // The originals are expected: the order is placed (not a draft) and nothing has arrived yet.
  const expecting = steps !== null && order.placedAt !== null && order.stage === 'awaiting_originals';
  return {
    steps,
    counted: countedLines(reception?.counts),
    prepaidLabel:
      order.sendMethod === 'label' && steps !== null
        ? { url: prepaidLabelPath(orderId), ready: parcels.some((p) => p.direction === 'inbound') }
        : null,
    sending: expecting
      ? { slipUrl: orderSlipPath(orderId), packing: packingAdviceFor(items.map((item) => item.type)) }
      : null,
    tracking: order.status === 'shipped' && parcelNumber ? { parcelNumber, url: trackingUrl(parcelNumber) } : null,
  };
}
