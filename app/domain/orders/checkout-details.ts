import { z } from 'zod';
import { formatEurosFromCents } from '../format';
import {
  type BusinessFieldErrors,
  type BusinessFormValues,
  businessFormOf,
  parseBusinessBuyer,
} from '../invoices/business-buyer';
import type { BusinessBuyer } from '../invoices/snapshot';
import { type CheckoutPaymentMethod, isCheckoutPaymentMethod, PAYMENT_METHOD_MESSAGES } from '../payments/offline';
import '../zod-config';
import {
  ADDRESS_FIELDS,
  type AddressFieldErrors,
  type AddressFormValues,
  type PostalAddress,
  parseAddress,
  parseBillingAddress,
} from './address';
import { type GuestContact, guestContactFromAddress } from './checkout-contact';
import { guestInfoSchema } from './guest-info';

/*
 * What the checkout asks on top of the payment when something physical travels: the
 * delivery address, the billing address when « Adresse de facturation différente » is ticked, the
 * optional ad valorem insurance of the return parcel, and for a signed-in customer whether to save
 * the address in their profile. Read from the payment form, checked here with French messages;
 * the server prices the insurance with the order's own price list.
 */

export interface CheckoutDetailsForm {
  delivery: AddressFormValues;
  billingDifferent: boolean;
  billing: AddressFormValues;
  insure: boolean;
  /** In euros, as typed (`350`, `1 200,50`). */
  insuredValue: string;
  saveToProfile: boolean;
}

export interface CheckoutDetails {
  delivery: PostalAddress;
  billing: PostalAddress | null;
  /** 0: not insured. */
  insuredValueCents: number;
  saveToProfile: boolean;
}

export interface CheckoutDetailsErrors {
  delivery?: AddressFieldErrors;
  billing?: AddressFieldErrors;
  insuredValue?: string;
}

/** What the order's addresses are checked against (its price list's insurance ceiling). */
export interface CheckoutDetailsRules {
  /** A parcel returns (originals, USB key, DVD): the only one that can be insured. */
  travelsBack: boolean;
  maxInsuredCents: number;
}

export const CHECKOUT_DETAILS_MESSAGES = {
  /** The heading of a refusal on the form's fields (not a payment's error). */
  invalidTitle: 'Vérifiez vos coordonnées',
  invalid: 'Veuillez corriger les champs indiqués avant de payer.',
  insuredValueRequired: 'Veuillez indiquer la valeur à assurer, en euros',
  insuredValueInvalid: 'Valeur invalide\u00a0: indiquez un montant en euros, par exemple 350 ou 350,50',
  insuredValueTooHigh: (maxCents: number) =>
    `La valeur assurée ne peut dépasser ${formatEurosFromCents(maxCents)} (plafond de l’assurance du transporteur)`,
} as const;

/** A posted field as text (absent or not text: empty). */
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A posted address (`delivery.city`… read by Conform as `{ delivery: { city } }`), every field as text. */
function addressFormOf(value: unknown): AddressFormValues {
  const fields = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  return Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, text(fields[field])])) as AddressFormValues;
}

/** The address block's fields of the payment form, as posted. */
export function checkoutDetailsFormOf(posted: Record<string, unknown>): CheckoutDetailsForm {
  return {
    delivery: addressFormOf(posted.delivery),
    billingDifferent: posted.billingDifferent === 'on',
    billing: addressFormOf(posted.billing),
    insure: posted.insure === 'on',
    insuredValue: text(posted.insuredValue),
    saveToProfile: posted.saveToProfile === 'on',
  };
}

/** Euros as typed by a French customer (`1 200,50`, `350`, `350.5`) in cents; null when not a sum. */
export function parseEurosToCents(value: string): number | null {
  const compact = value.replace(/[\s\u00a0\u202f€]/g, '').replace(',', '.');
  if (!/^[0-9]{1,9}(\.[0-9]{1,2})?$/.test(compact)) return null;
  const [units = '0', decimals = ''] = compact.split('.');
  return Number(units) * 100 + Number(decimals.padEnd(2, '0'));
}

/**
 * Checks the form. `travelsBack`: a parcel returns (originals, USB key, DVD), the only one that can
 * be insured; `maxInsuredCents`: the ceiling of the order's price list.
 */
export function parseCheckoutDetails(
  form: CheckoutDetailsForm,
  rules: CheckoutDetailsRules,
): { ok: true; details: CheckoutDetails } | { ok: false; errors: CheckoutDetailsErrors } {
  const errors: CheckoutDetailsErrors = {};
  const delivery = parseAddress(form.delivery);
  if (!delivery.success) errors.delivery = delivery.fieldErrors;
  const billing = form.billingDifferent ? parseAddress(form.billing) : null;
  if (billing && !billing.success) errors.billing = billing.fieldErrors;
  let insuredValueCents = 0;
  if (form.insure && rules.travelsBack) {
    const cents = form.insuredValue.trim() ? parseEurosToCents(form.insuredValue) : null;
    if (!form.insuredValue.trim()) errors.insuredValue = CHECKOUT_DETAILS_MESSAGES.insuredValueRequired;
    else if (cents === null || cents === 0) errors.insuredValue = CHECKOUT_DETAILS_MESSAGES.insuredValueInvalid;
    else if (cents > rules.maxInsuredCents) {
      errors.insuredValue = CHECKOUT_DETAILS_MESSAGES.insuredValueTooHigh(rules.maxInsuredCents);
    } else insuredValueCents = cents;
  }
  if (!delivery.success || (billing && !billing.success) || errors.insuredValue) return { ok: false, errors };
  return {
    ok: true,
    details: {
      delivery: delivery.data,
      billing: billing?.success ? billing.data : null,
      insuredValueCents,
      saveToProfile: form.saveToProfile,
    },
  };
}

/** The payment form's fields as the browser posts them (checkboxes: « on » or nothing). */
export type CheckoutPayFields = {
  contact: Record<'email' | 'firstName' | 'lastName' | 'phone' | 'address' | 'postalCode' | 'city', string>;
  paymentMethod: string;
  earlyStartConsent: string;
  delivery: AddressFormValues;
  billingDifferent: string;
  billing: AddressFormValues;
  insure: string;
  insuredValue: string;
  saveToProfile: string;
  /** « Je commande pour une entreprise, une association ou un organisme public ». */
  isBusiness: string;
  business: BusinessFormValues;
};

/**
 * What a draft's invoice will say of its buyer (docs/invoicing.md): the billing address of an
 * order with nothing physical (a physical one's is in its CheckoutDetails), and the business buyer.
 */
export interface CheckoutInvoicing {
  /** Nothing physical: the billing address typed (null: a physical order's is in its CheckoutDetails). */
  billing: PostalAddress | null;
  business: BusinessBuyer | null;
}

/** What the invoicing part of the form asks: `asksBilling` for a draft with nothing physical. */
export interface CheckoutInvoicingRules {
  asksBilling: boolean;
}

export interface CheckoutPayment {
  method: CheckoutPaymentMethod;
  /** The express request to start before the end of the withdrawal period. */
  earlyStart: boolean;
  /** The addresses and insurance, when something physical travels and the draft is not placed yet. */
  details: CheckoutDetails | null;
  /** A guest's contact (their e-mail address, and their name and address taken from the delivery). */
  contact: GuestContact | null;
  /** The billing address and business buyer of a draft (null once placed: nothing is asked). */
  invoicing: CheckoutInvoicing | null;
}

/**
 * Whose contact the form carries: `none` for an account's order (the account's details), `email`
 * for a guest's order with something physical (the name, phone and street come from the delivery
 * address, or are frozen once placed), `full` for a guest's order with nothing physical (e-mail
 * required, name, phone and address optional).
 */
export type CheckoutContactMode = 'none' | 'email' | 'full';

/**
 * The checkout's payment form (« Payer »): the method (card when none is posted: the
 * create-checkout API and older forms send none), the early-start request and, with `rules` (the
 * address block is shown), the addresses and insurance. Every mistake comes back on its field
 * (`delivery.postalCode`, `insuredValue`, `paymentMethod`) through Conform's parseWithZod.
 */
export function checkoutPaySchema(
  rules: CheckoutDetailsRules | null,
  contactMode: CheckoutContactMode = 'none',
  /** The guest's address the order already has: kept when the form sends no `contact.email` at all. */
  knownEmail: string | null = null,
  /** A draft: the business buyer, and the billing address when nothing physical travels. */
  invoicingRules: CheckoutInvoicingRules | null = null,
) {
  return z.looseObject({}).transform((posted, ctx): CheckoutPayment => {
    const method = posted.paymentMethod === undefined ? 'card' : posted.paymentMethod;
    if (!isCheckoutPaymentMethod(method)) {
      ctx.addIssue({ code: 'custom', path: ['paymentMethod'], message: PAYMENT_METHOD_MESSAGES.invalid });
    }
    const contact = contactMode === 'none' ? null : parseContact(posted.contact, contactMode, knownEmail);
    if (contact && !contact.ok) addFieldIssues(ctx, 'contact', contact.errors);
    const checked = rules ? parseCheckoutDetails(checkoutDetailsFormOf(posted), rules) : null;
    if (checked && !checked.ok) addDetailsIssues(ctx, checked.errors);
    const invoicing = invoicingRules ? parseCheckoutInvoicing(posted, invoicingRules) : null;
    if (invoicing && !invoicing.ok) {
      addFieldIssues(ctx, 'billing', invoicing.errors.billing);
      addFieldIssues(ctx, 'business', invoicing.errors.business);
    }
    if (
      !isCheckoutPaymentMethod(method) ||
      (checked && !checked.ok) ||
      (contact && !contact.ok) ||
      (invoicing && !invoicing.ok)
    ) {
      return z.NEVER;
    }
    const details = checked?.ok ? checked.details : null;
    const billingForm = addressFormOf(posted.billing);
    return {
      method,
      earlyStart: posted.earlyStartConsent === 'on',
      details,
      contact: contact?.ok
        ? guestContactOf(contact.value, details, invoicing?.ok && invoicingRules?.asksBilling ? billingForm : null)
        : null,
      invoicing: invoicing?.ok ? invoicing.value : null,
    };
  });
}

/**
 * The guest's contact: from the delivery address when the address block was filled in; with
 * nothing physical, the name and street typed in the billing fields (the one place they are asked);
 * else as posted.
 */
function guestContactOf(
  posted: GuestContact,
  details: CheckoutDetails | null,
  billing: AddressFormValues | null,
): GuestContact {
  if (details) return guestContactFromAddress(posted.email, details.delivery);
  if (!billing) return posted;
  const typed = (value: string) => {
    const trimmed = value.trim().replace(/\s+/g, ' ');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it refuses.
    return trimmed === '' || /[\u0000-\u001f\u007f]/.test(trimmed) ? undefined : trimmed.slice(0, 100);
  };
  const street = [billing.line1, billing.line2].map(typed).filter(Boolean).join(', ');
  const fromBilling: GuestContact = {
    email: posted.email,
    firstName: typed(billing.firstName),
    lastName: typed(billing.lastName),
    address: street || undefined,
    city: typed(billing.city),
    postalCode: typed(billing.postalCode),
  };
  const merged: GuestContact = { ...posted };
  for (const [key, value] of Object.entries(fromBilling) as [keyof GuestContact, string | undefined][]) {
    if (value !== undefined) merged[key] = value;
  }
  return merged;
}

/**
 * The invoicing part of a draft's form: the business buyer when « Je commande pour une entreprise… »
 * is ticked (its SIREN and VAT number checked), and with nothing physical the billing address,
 * required from every buyer (docs/invoicing.md).
 */
export function parseCheckoutInvoicing(
  posted: Record<string, unknown>,
  rules: CheckoutInvoicingRules,
):
  | { ok: true; value: CheckoutInvoicing }
  | { ok: false; errors: { billing?: AddressFieldErrors; business?: BusinessFieldErrors } } {
  const isBusiness = posted.isBusiness === 'on';
  const business = isBusiness ? parseBusinessBuyer(businessFormOf(posted.business)) : null;
  const billing = rules.asksBilling ? parseBillingAddress(addressFormOf(posted.billing)) : null;
  const errors: { billing?: AddressFieldErrors; business?: BusinessFieldErrors } = {};
  if (business && !business.ok) errors.business = business.errors;
  if (billing && !billing.success) errors.billing = billing.fieldErrors;
  if (errors.business || errors.billing) return { ok: false, errors };
  return {
    ok: true,
    value: {
      billing: billing?.success ? billing.data : null,
      business: business?.ok ? business.buyer : null,
    },
  };
}

/** The address block's mistakes, each on its field (`delivery.postalCode`, `billing.city`, `insuredValue`). */
function addDetailsIssues(ctx: z.RefinementCtx, { delivery, billing, insuredValue }: CheckoutDetailsErrors): void {
  addFieldIssues(ctx, 'delivery', delivery);
  addFieldIssues(ctx, 'billing', billing);
  if (insuredValue) ctx.addIssue({ code: 'custom', path: ['insuredValue'], message: insuredValue });
}

/** Each message of a group of fields on its own field (`contact.email`, `delivery.postalCode`). */
function addFieldIssues(
  ctx: z.RefinementCtx,
  prefix: 'contact' | 'delivery' | 'billing' | 'business',
  errors: Readonly<Record<string, string | undefined>> | undefined,
): void {
  for (const [field, message] of Object.entries(errors ?? {})) {
    ctx.addIssue({ code: 'custom', path: [prefix, field], message });
  }
}

/** The guest's contact fields of the pay form (`contact.email`…), checked with the guest rules. */
function parseContact(
  value: unknown,
  mode: 'email' | 'full',
  knownEmail: string | null,
): { ok: true; value: GuestContact } | { ok: false; errors: Record<string, string> } {
  const raw = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  // Not sent at all (a form of an older page, a script): the order's own address stays.
  if (raw.email === undefined && knownEmail) return { ok: true, value: { email: knownEmail } };
  const posted = mode === 'email' ? { email: raw.email } : raw;
  const parsed = guestInfoSchema.safeParse({ ...posted, email: typeof posted.email === 'string' ? posted.email : '' });
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (typeof field === 'string' && !errors[field]) errors[field] = issue.message;
    }
    return { ok: false, errors };
  }
  if (mode === 'email') return { ok: true, value: { email: parsed.data.email } };
  // A name left empty keeps the one the order already has (typed in the configurator's quote).
  const { firstName, lastName, ...rest } = parsed.data;
  return {
    ok: true,
    value: { ...rest, ...(firstName ? { firstName } : {}), ...(lastName ? { lastName } : {}) },
  };
}

/**
 * The payment form read without judging it (« Appliquer » a gift card): every field comes back as
 * typed, and the form's own checks wait for « Payer ».
 */
export const checkoutFormAsTyped = z.object({}).passthrough();
