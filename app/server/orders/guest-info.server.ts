import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { GUEST_INFO_MESSAGES, type GuestInfo, type GuestInfoErrors, parseGuestInfo } from '~/domain/orders/guest-info';
import { db } from '../db/client.server';
import { orderEvents, orders } from '../db/schema';
import { log } from '../log.server';
import { isOrderId, orderAccessCookieName } from './access.server';
import { enqueueOrderConfirmation } from './confirmation-email.server';
import { readCookie, requestHoldsOrderToken } from './order-response.server';

/*
 * The specification's `update-guest-order` (000, section 7: body orderId, guestInfo): a guest saves
 * the e-mail address (required), phone, street address, city and postal code of an order they hold
 * the access cookie `sv_order_<id>` of. Nobody else may write them: a signed-in owner's details are
 * the account's, anyone else gets the answer of an unknown order. A paid order's details are frozen
 * in its invoice and are not changed any more. The first save also queues the order confirmation
 * e-mail, which had no address to go to when a guest ordered from the configurator.
 */

export type UpdateGuestOrderResult =
  | { ok: true; guestInfo: GuestInfo }
  | { ok: false; status: 400; error: string; fieldErrors: GuestInfoErrors }
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
 * The API's `update-guest-order`: checks the JSON body, then saves it like the checkout's form.
 * Unknown order, signed-in customer's order, wrong or missing cookie: 404.
 */
export async function updateGuestOrder(
  request: Request,
  input: { orderId: unknown; guestInfo: unknown },
): Promise<UpdateGuestOrderResult> {
  const orderId = input.orderId;
  if (!isOrderId(orderId) || !(await requestHoldsOrderToken(request, orderId))) {
    return { ok: false, status: 404, error: GUEST_INFO_MESSAGES.orderNotFound };
  }
  const parsed = parseGuestInfo(input.guestInfo);
  if (!parsed.success) {
    return { ok: false, status: 400, error: GUEST_INFO_MESSAGES.required, fieldErrors: parsed.fieldErrors };
  }
  return saveGuestInfo(request, orderId, parsed.data);
}

/**
 * Saves checked information on the order, for the browser holding the order's access cookie
 * only (anyone else: 404).
 */
export async function saveGuestInfo(request: Request, orderId: string, info: GuestInfo): Promise<SaveGuestInfoResult> {
  if (!isOrderId(orderId) || !(await requestHoldsOrderToken(request, orderId))) {
    return { ok: false, status: 404, error: GUEST_INFO_MESSAGES.orderNotFound };
  }
  try {
    return await db().transaction(async (tx) => {
      const [current] = await tx
        .select({
          userId: orders.userId,
          paymentStatus: orders.paymentStatus,
          placedAt: orders.placedAt,
          firstName: orders.guestFirstName,
          lastName: orders.guestLastName,
        })
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
      const firstName = info.firstName ?? current.firstName;
      const lastName = info.lastName ?? current.lastName;
      await tx
        .update(orders)
        .set({
          guestEmail: info.email,
          guestFirstName: firstName,
          guestLastName: lastName,
          guestPhone: info.phone,
          guestAddress: info.address,
          guestCity: info.city,
          guestPostalCode: info.postalCode,
          searchText: guestSearchText({ email: info.email, firstName, lastName }),
          updatedAt: sql`now()`,
        })
        .where(and(eq(orders.id, orderId), isNull(orders.userId), ne(orders.paymentStatus, 'paid')));
      await tx.insert(orderEvents).values({
        orderId,
        actor: 'customer',
        kind: 'guest_info_updated',
        data: {
          fields: Object.entries(info)
            .filter(([, value]) => value !== null)
            .map(([key]) => key),
        },
      });
      // A placed order's confirmation waited for an address (once per order: the outbox's dedupe
      // key). A draft's leaves when the customer confirms it at checkout.
      if (current.placedAt) {
        await enqueueOrderConfirmation(tx, {
          orderId,
          accessToken: readCookie(request, orderAccessCookieName(orderId)),
        });
      }
      return { ok: true, guestInfo: { ...info, firstName, lastName } } as const;
    });
  } catch (error) {
    log.error({ err: error, orderId }, 'update-guest-order failed');
    return { ok: false, status: 500, error: GUEST_INFO_MESSAGES.saveError };
  }
}
