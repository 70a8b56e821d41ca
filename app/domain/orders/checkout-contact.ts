import type { AddressFieldErrors, AddressFormValues, PostalAddress } from './address';
import { parseAddress } from './address';
import type { CheckoutDetails } from './checkout-details';
import {
  GUEST_INFO_MESSAGES,
  type GuestInfo,
  type GuestInfoErrors,
  type GuestInfoField,
  guestInfoSchema,
  parseGuestInfo,
} from './guest-info';

/*
 * A guest's contact on an order (decision 024): who they are (the e-mail address the
 * shop writes to) and, when something physical travels and the order is not placed yet, THE
 * delivery address. The checkout's « Payer » and the API's `update-guest-order` read them through
 * this module, so that an address accepted by one is the delivery address for the other:
 *
 * - the order asks an address (something travels, a draft): the address is checked as a postal
 *   address (parseAddress, the checkout's own rules) and becomes the delivery address frozen on the
 *   order; the guest's name, phone and street are copied from it (one address, asked once);
 * - otherwise (nothing physical, or the order is placed and its address frozen): the guest's
 *   optional name, phone and street are contact details only (guest-info.ts).
 */

/** What is written on the order's guest columns; a field left out keeps its value. */
export interface GuestContact {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
  address?: string | null;
  city?: string | null;
  postalCode?: string | null;
}

/** The guest's name, phone and street taken from the delivery address (not typed a second time). */
export function guestContactFromAddress(email: string, address: PostalAddress): GuestContact {
  return {
    email,
    firstName: address.firstName,
    lastName: address.lastName,
    phone: address.phone,
    address: [address.line1, address.line2].filter(Boolean).join(', '),
    city: address.city,
    postalCode: address.postalCode,
  };
}

/**
 * The API's guestInfo (`{ email, firstName, lastName, phone, address, city, postalCode, country }`)
 * as the checkout's delivery fields: `address` is the street line, the country France unless given.
 */
export function addressFormOfGuestInfo(input: unknown): AddressFormValues {
  const raw = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    firstName: text(raw.firstName),
    lastName: text(raw.lastName),
    company: '',
    line1: text(raw.address),
    line2: '',
    postalCode: text(raw.postalCode),
    city: text(raw.city),
    country: text(raw.country) || 'FR',
    phone: text(raw.phone),
  };
}

/** Where an address field's message goes among the API's guestInfo fields. */
const GUEST_FIELD_OF: Record<keyof AddressFieldErrors, GuestInfoField | 'country'> = {
  firstName: 'firstName',
  lastName: 'lastName',
  company: 'address',
  line1: 'address',
  line2: 'address',
  postalCode: 'postalCode',
  city: 'city',
  country: 'country',
  phone: 'phone',
};

export type GuestOrderInfoErrors = GuestInfoErrors & { country?: string };

/** Did the API's caller send any part of a postal address? */
function sendsAnAddress(input: unknown): boolean {
  const form = addressFormOfGuestInfo(input);
  return [form.line1, form.postalCode, form.city].some((value) => value.trim() !== '');
}

/**
 * The API's guestInfo checked for an order. `asksAddress`: something travels and the order is not
 * placed; an address sent then must be a complete postal address (it becomes the delivery address,
 * as the checkout's does), and its mistakes come back on the API's field names.
 */
export function parseGuestOrderInfo(
  input: unknown,
  options: { asksAddress: boolean },
):
  | { success: true; contact: GuestContact; details: CheckoutDetails | null }
  | { success: false; fieldErrors: GuestOrderInfoErrors } {
  if (!options.asksAddress || !sendsAnAddress(input)) {
    const info = parseGuestInfo(input);
    if (!info.success) return { success: false, fieldErrors: info.fieldErrors };
    // A name left out keeps the one the order has (typed in the configurator's quote).
    const { firstName, lastName, ...rest } = info.data;
    const contact: GuestContact = { ...rest, ...(firstName ? { firstName } : {}), ...(lastName ? { lastName } : {}) };
    return { success: true, contact, details: null };
  }
  const address = parseAddress(addressFormOfGuestInfo(input));
  const raw = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  // The e-mail's own rule; the address's fields follow the postal rules (the checkout's).
  const email = guestInfoSchema.shape.email.safeParse(raw.email ?? '');
  const fieldErrors: GuestOrderInfoErrors = {};
  if (!email.success) fieldErrors.email = email.error.issues[0]?.message ?? GUEST_INFO_MESSAGES.emailRequired;
  if (!address.success) {
    for (const [field, message] of Object.entries(address.fieldErrors)) {
      const target = GUEST_FIELD_OF[field as keyof AddressFieldErrors];
      fieldErrors[target] ??= message;
    }
  }
  if (!email.success || !address.success) return { success: false, fieldErrors };
  return {
    success: true,
    contact: guestContactFromAddress(email.data, address.data),
    details: { delivery: address.data, billing: null, insuredValueCents: 0, saveToProfile: false },
  };
}

export type { GuestInfo };
