import { and, eq, isNull, sql } from 'drizzle-orm';
import { type GuestContact, type GuestOrderInfoErrors, parseGuestOrderInfo } from '~/domain/orders/checkout-contact';
import type { CheckoutDetails } from '~/domain/orders/checkout-details';
import { GUEST_INFO_MESSAGES, type GuestInfo } from '~/domain/orders/guest-info';
import { shipsSomethingPhysical } from '~/domain/orders/lifecycle';
import { db, type Tx } from '../db/client.server';
import { orderEvents, orders } from '../db/schema';
import { log } from '../log.server';
import { isOrderId, orderAccessCookieName } from './access.server';
import { applyCheckoutDetails } from './checkout-details.server';
import { enqueueOrderConfirmation } from './confirmation-email.server';
import { readCookie, requestHoldsOrderToken } from './order-response.server';

/*
 * `update-guest-order` (body orderId, guestInfo): a guest saves
 * the e-mail address (required), phone, street address, city and postal code of an order they hold
 * the access cookie `sv_order_<id>` of. Nobody else may write them: a signed-in owner's details are
 * the account's, anyone else gets the answer of an unknown order. A paid order's details are frozen
 * in its invoice and are not changed any more. The first save also queues the order confirmation
 * e-mail, which had no address to go to when a guest ordered from the configurator.
 */

export type UpdateGuestOrderResult =
  | { ok: true; guestInfo: GuestInfo }
  | { ok: false; status: 400; error: string; fieldErrors: GuestOrderInfoErrors }
  | { ok: false; status: 404 | 409 | 500; error: string; fieldErrors?: undefined };

type SaveGuestInfoResult = Exclude<UpdateGuestOrderResult, { status: 400 }>;

/** The lower-cased "first last email" the back office searches. */
export function guestSearchText(info: Pick<GuestInfo, 'email' | 'firstName' | 'lastName'>): string {
  return [info.firstName, info.lastName, info.email]
    .filter((part): part is string => Boolean(part))
    .join(' ')
    .trim()
    .toLowerCase();
}

/**
 * The API's `update-guest-order`: checks the JSON body with the checkout's rules (an order that
 * asks an address takes the one sent as its delivery address: parseGuestOrderInfo), then records
 * it with the checkout's own function (recordCheckoutContact). Unknown order, signed-in
 * customer's order, wrong or missing cookie: 404.
 */
export async function updateGuestOrder(
  request: Request,
  input: { orderId: unknown; guestInfo: unknown },
): Promise<UpdateGuestOrderResult> {
  const orderId = input.orderId;
  if (!isOrderId(orderId) || !(await requestHoldsOrderToken(request, orderId))) {
    return { ok: false, status: 404, error: GUEST_INFO_MESSAGES.orderNotFound };
  }
  const [order] = await db()
    .select({
      userId: orders.userId,
      placedAt: orders.placedAt,
      deliveryMethod: orders.deliveryMethod,
      returnOriginals: orders.returnOriginals,
      sendMethod: orders.sendMethod,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!order || order.userId !== null) return { ok: false, status: 404, error: GUEST_INFO_MESSAGES.orderNotFound };
  const parsed = parseGuestOrderInfo(input.guestInfo, { asksAddress: asksAddress(order) });
  if (!parsed.success) {
    return { ok: false, status: 400, error: GUEST_INFO_MESSAGES.required, fieldErrors: parsed.fieldErrors };
  }
  return saveGuestContact(request, orderId, parsed.contact, parsed.details);
}

/** Something travels and the draft is not placed yet: the checkout asks (and freezes) its address. */
export function asksAddress(order: {
  placedAt: Date | null;
  deliveryMethod: string;
  returnOriginals: boolean;
  sendMethod: string;
}): boolean {
  return shipsSomethingPhysical(order) && order.placedAt === null;
}

/**
 * Saves checked information on the order, for the browser holding the order's access cookie
 * only (anyone else: 404), in one transaction with the order's row locked.
 */
async function saveGuestContact(
  request: Request,
  orderId: string,
  contact: GuestContact,
  details: CheckoutDetails | null,
): Promise<SaveGuestInfoResult> {
  try {
    return await db().transaction(async (tx) => {
      const [current] = await tx
        .select({ userId: orders.userId, paymentStatus: orders.paymentStatus, placedAt: orders.placedAt })
        .from(orders)
        .where(eq(orders.id, orderId))
        .for('update')
        .limit(1);
      if (!current || current.userId !== null) {
        return { ok: false, status: 404, error: GUEST_INFO_MESSAGES.orderNotFound } as const;
      }
      if (current.paymentStatus !== 'pending' && current.paymentStatus !== 'failed') {
        return { ok: false, status: 409, error: GUEST_INFO_MESSAGES.alreadyPaid } as const;
      }
      const saved = await recordCheckoutContact(tx, {
        orderId,
        contact,
        details,
        placed: current.placedAt !== null,
        actor: 'customer',
      });
      // A placed order's confirmation waited for an address (once per order: the outbox's dedupe
      // key). A draft's leaves when the customer confirms it at checkout.
      if (current.placedAt) {
        await enqueueOrderConfirmation(tx, {
          orderId,
          accessToken: readCookie(request, orderAccessCookieName(orderId)),
        });
      }
      return { ok: true, guestInfo: saved } as const;
    });
  } catch (error) {
    log.error({ err: error, orderId }, 'update-guest-order failed');
    return { ok: false, status: 500, error: GUEST_INFO_MESSAGES.saveError };
  }
}

/**
 * THE way a guest's contact reaches an order, for the checkout's « Payer » (inside its placing
 * transaction) and for the API: the caller holds the order's row lock and has checked everything.
 * Writes the guest's columns (a field left out keeps its value) with the history line
 * `guest_info_updated`, and on a draft the delivery address (and billing, insurance) frozen as the
 * address the `place` transition requires. Returns the guest's information as saved.
 */
export async function recordCheckoutContact(
  tx: Tx,
  input: {
    orderId: string;
    contact: GuestContact | null;
    details: CheckoutDetails | null;
    placed: boolean;
    actor: string;
  },
): Promise<GuestInfo> {
  const { orderId, contact, details } = input;
  const [current] = await tx
    .select({
      email: orders.guestEmail,
      firstName: orders.guestFirstName,
      lastName: orders.guestLastName,
      phone: orders.guestPhone,
      address: orders.guestAddress,
      city: orders.guestCity,
      postalCode: orders.guestPostalCode,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  const merged: GuestInfo = {
    email: contact?.email ?? current?.email ?? '',
    firstName: pick(contact?.firstName, current?.firstName),
    lastName: pick(contact?.lastName, current?.lastName),
    phone: pick(contact?.phone, current?.phone),
    address: pick(contact?.address, current?.address),
    city: pick(contact?.city, current?.city),
    postalCode: pick(contact?.postalCode, current?.postalCode),
  };
  if (contact) {
    await tx
      .update(orders)
      .set({
        guestEmail: merged.email,
        guestFirstName: merged.firstName,
        guestLastName: merged.lastName,
        guestPhone: merged.phone,
        guestAddress: merged.address,
        guestCity: merged.city,
        guestPostalCode: merged.postalCode,
        searchText: guestSearchText(merged),
        updatedAt: sql`now()`,
      })
      .where(and(eq(orders.id, orderId), isNull(orders.userId)));
    await tx.insert(orderEvents).values({
      orderId,
      actor: input.actor,
      kind: 'guest_info_updated',
      data: {
        fields: Object.entries(contact)
          .filter(([, value]) => value !== null && value !== undefined)
          .map(([key]) => key),
      },
    });
  }
  if (details && !input.placed) await applyCheckoutDetails(tx, orderId, details, input.actor);
  return merged;
}

/** The value sent (null: emptied), or the one kept when the field was left out. */
function pick(sent: string | null | undefined, kept: string | null | undefined): string | null {
  return sent === undefined ? (kept ?? null) : sent;
}
