import type { OrderTrackingView } from '~/domain/orders/item-stages';
import { parcelTrackingForPage } from '../shipping/tracking.server';
import { loadItemStages } from './item-stages.server';

/*
 * « Où sont mon colis et mes cassettes » on the customer's order page: the parcels'
 * carrier events (refreshed on view, at most every N minutes) and, once received, each counted
 * item's stage. Callers check access (access.server.ts).
 */

export type { OrderTrackingView };

export async function loadOrderTracking(orderId: string): Promise<OrderTrackingView> {
  const [parcels, supports] = await Promise.all([parcelTrackingForPage(orderId), loadItemStages(orderId)]);
  return { parcels, supports };
}
