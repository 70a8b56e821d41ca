/*
 * An order's parcels as the back office reads them (app/server/shipping/*.server.ts) and shows them
 * (the « Expédier » dialog, app/components/admin/ship-order.tsx).
 */

export type Direction = 'inbound' | 'outbound';

/** One parcel of an order, inbound (the originals coming) or outbound (the return). */
export interface ShipmentSummary {
  direction: Direction;
  carrier: 'colissimo' | 'other';
  parcelNumber: string;
  hasLabel: boolean;
  insuredValueCents: number;
  createdAt: Date;
}

/** What the « Expédier » dialog shows before shipping. */
export interface ShippingFacts {
  orderNumber: string;
  status: string;
  /** A Colissimo return label can be made: originals to return, or a USB key or DVD. */
  returnLabel: boolean;
  insuredValueCents: number;
  shipments: ShipmentSummary[];
  /** Why shipping is refused now (the rule book's words), or null. */
  refusal: string | null;
}
