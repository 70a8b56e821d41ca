import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../config/config-options.server';
import { db } from '../db/client.server';
import { orders } from '../db/schema';
import { deliveredFilesEmailFields } from '../files/publish-links.server';
import { log } from '../log.server';
import { readStoredEmailConfig } from './email-config.server';
import { type EnqueuedEmail, enqueueEmail, InvalidRecipientError } from './outbox.server';

/*
 * The order status e-mail helper: order id, e-mail,
 * customer, status -> { success, error }, the error defaulting to 'Failed to send email'. If e-mail
 * notifications are disabled, or the order has no e-mail address, nothing is sent.
 */

export const STATUS_EMAIL_DEFAULT_ERROR = 'Failed to send email';
export const NOTIFICATIONS_DISABLED_ERROR = 'Les notifications par email sont désactivées';
export const NO_RECIPIENT_ERROR = "La commande n'a pas d'adresse email";
export const ORDER_NOT_FOUND_ERROR = 'Commande introuvable';
export const INVALID_RECIPIENT_ERROR = 'Adresse email invalide';

export interface OrderStatusEmailInput {
  orderId: string;
  /** The customer's address (the account's, or the guest's). */
  email: string | null | undefined;
  /** The customer's name, for the greeting. */
  customer?: string | null;
  /** The new status code. */
  status: string;
  /** The new status in French, shown by the generic wording (pending, unknown values). */
  statusLabel?: string;
  /** Where the customer follows the order (a path of the shop, or an absolute URL). */
  orderUrl?: string;
  /**
   * Names this status change, e.g. the id of its order_events row, so that a replay sends one
   * e-mail. Without it, the transaction is the event: one e-mail per status per transaction.
   */
  eventKey?: string;
}

export type OrderStatusEmailResult =
  | { success: true; outboxId: string; status: EnqueuedEmail['status']; duplicate: boolean }
  | { success: false; error: string; skipped?: 'notifications-disabled' | 'no-email' };

/** Queues the status e-mail inside the caller's transaction (the one that changes the status). */
export async function enqueueOrderStatusEmail(
  tx: Executor,
  input: OrderStatusEmailInput,
): Promise<OrderStatusEmailResult> {
  const config = await readStoredEmailConfig(tx);
  if (!config.enabled)
    return { success: false, skipped: 'notifications-disabled', error: NOTIFICATIONS_DISABLED_ERROR };
  const email = input.email?.trim();
  if (!email) return { success: false, skipped: 'no-email', error: NO_RECIPIENT_ERROR };

  const [order] = await tx.select({ number: orders.number }).from(orders).where(eq(orders.id, input.orderId)).limit(1);
  if (!order) return { success: false, error: ORDER_NOT_FOUND_ERROR };

  let eventKey = input.eventKey;
  if (!eventKey) {
    const result = await tx.execute<{ xid: string }>(sql`select pg_current_xact_id()::text as xid`);
    eventKey = `tx${result.rows[0]?.xid}`;
  }
  try {
    const queued = await enqueueEmail(tx, {
      to: email,
      template: 'order-status',
      data: {
        orderNumber: order.number,
        status: input.status,
        statusLabel: input.statusLabel,
        customerName: input.customer?.trim() || undefined,
        orderUrl: input.orderUrl,
        // « Traité » and « Expédié »: the files online, when they are (decision 011).
        ...(input.status === 'completed' || input.status === 'shipped'
          ? await deliveredFilesEmailFields(tx, input.orderId)
          : {}),
      },
      dedupeKey: `order-status:${input.orderId}:${input.status}:${eventKey}`,
      orderId: input.orderId,
    });
    return { success: true, outboxId: queued.id, status: queued.status, duplicate: !queued.created };
  } catch (error) {
    if (error instanceof InvalidRecipientError) return { success: false, error: INVALID_RECIPIENT_ERROR };
    throw error;
  }
}

/** The same in a transaction of its own; never throws. */
export async function sendOrderStatusEmail(input: OrderStatusEmailInput): Promise<OrderStatusEmailResult> {
  try {
    return await db().transaction((tx) => enqueueOrderStatusEmail(tx, input));
  } catch (error) {
    log.error({ err: error, orderId: input.orderId }, 'order status e-mail could not be queued');
    return { success: false, error: STATUS_EMAIL_DEFAULT_ERROR };
  }
}
