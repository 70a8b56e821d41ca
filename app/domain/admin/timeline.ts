/*
 * The raw order_events rows that the back office's order loader still returns. They are not shown
 * as such: the order details dialog reads the display-ready history of
 * server/orders/history.server.ts (labels from the registry domain/orders/events.ts, actors by
 * name).
 */

export interface AdminEventView {
  at: string;
  kind: string;
  from: string | null;
  to: string | null;
  /** The admin's name when the actor is an account, else the raw actor code: never shown. */
  actorName: string | null;
  data: Record<string, unknown> | null;
}

/** The longest internal note the dialog accepts. */
export const MAX_NOTE_LENGTH = 2000;
