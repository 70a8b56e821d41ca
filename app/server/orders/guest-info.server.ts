import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { FORBIDDEN_CHARACTER_MESSAGE, hasNoForbiddenCharacter } from '~/domain/text-input';
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

export const GUEST_INFO_MESSAGES = {
  required: 'Veuillez remplir tous les champs obligatoires',
  emailRequired: 'L’adresse e-mail est requise',
  emailInvalid: 'Adresse e-mail invalide',
  phoneInvalid: 'Numéro de téléphone invalide',
  postalCodeInvalid: 'Code postal invalide (5 chiffres)',
  tooLong: 'Ce champ est trop long',
  saveError: 'Erreur lors de l’enregistrement des informations invité',
  orderNotFound: 'Commande introuvable',
  alreadyPaid: 'Cette commande est déjà payée : ses informations ne peuvent plus être modifiées.',
  saved: 'Vos informations ont été enregistrées.',
} as const;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, GUEST_INFO_MESSAGES.tooLong)
    // PostgreSQL's text cannot hold NUL: refused here with a French message, not a 500 at insert.
    .refine(hasNoForbiddenCharacter, FORBIDDEN_CHARACTER_MESSAGE)
    .optional()
    .transform((value) => (value ? value : null));

export const guestInfoSchema = z.object({
  email: z
    .string({ error: GUEST_INFO_MESSAGES.emailRequired })
    .trim()
    .min(1, GUEST_INFO_MESSAGES.emailRequired)
    .max(254, GUEST_INFO_MESSAGES.tooLong)
    .pipe(z.email(GUEST_INFO_MESSAGES.emailInvalid))
    .transform((value) => value.toLowerCase()),
  firstName: optionalText(100),
  lastName: optionalText(100),
  phone: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : null))
    .refine((value) => value === null || /^\+?[0-9 .()-]{6,20}$/.test(value), GUEST_INFO_MESSAGES.phoneInvalid),
  address: optionalText(200),
  city: optionalText(100),
  postalCode: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value.replace(/\s+/g, '') : null))
    .refine((value) => value === null || /^[0-9]{5}$/.test(value), GUEST_INFO_MESSAGES.postalCodeInvalid),
});

export type GuestInfo = z.output<typeof guestInfoSchema>;
export type GuestInfoField = keyof GuestInfo;
export type GuestInfoErrors = Partial<Record<GuestInfoField, string>>;

export type UpdateGuestOrderResult =
  | { ok: true; guestInfo: GuestInfo }
  | { ok: false; status: 400; error: string; fieldErrors: GuestInfoErrors }
  | { ok: false; status: 404 | 409 | 500; error: string; fieldErrors?: undefined };

/** Validates a guest's information (zod, French messages); the first error of each field. */
export function parseGuestInfo(
  input: unknown,
): { success: true; data: GuestInfo } | { success: false; fieldErrors: GuestInfoErrors } {
  const parsed = guestInfoSchema.safeParse(input ?? {});
  if (parsed.success) return { success: true, data: parsed.data };
  const fieldErrors: GuestInfoErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && field in guestInfoSchema.shape && !fieldErrors[field as GuestInfoField]) {
      fieldErrors[field as GuestInfoField] = issue.message;
    }
  }
  if (Object.keys(fieldErrors).length === 0) fieldErrors.email = GUEST_INFO_MESSAGES.emailRequired;
  return { success: false, fieldErrors };
}

/** The lower-cased "first last email" the back office searches. */
export function guestSearchText(info: Pick<GuestInfo, 'email' | 'firstName' | 'lastName'>): string {
  return [info.firstName, info.lastName, info.email]
    .filter((part): part is string => Boolean(part))
    .join(' ')
    .trim()
    .toLowerCase();
}

/**
 * Saves the guest's information on the order, for the browser holding the order's access cookie
 * only. Unknown order, signed-in customer's order, wrong or missing cookie: 404.
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
  const info = parsed.data;
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
