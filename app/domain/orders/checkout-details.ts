import { formatEurosFromCents } from '../format';
import {
  type AddressFieldErrors,
  type AddressFormValues,
  addressFormValues,
  type PostalAddress,
  parseAddress,
} from './address';

/*
 * What the checkout asks on top of the payment when something physical travels (issue 15): the
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

export const CHECKOUT_DETAILS_MESSAGES = {
  invalid: 'Veuillez corriger l’adresse indiquée avant de payer.',
  insuredValueRequired: 'Veuillez indiquer la valeur à assurer, en euros',
  insuredValueInvalid: 'Valeur invalide\u00a0: indiquez un montant en euros, par exemple 350 ou 350,50',
  insuredValueTooHigh: (maxCents: number) =>
    `La valeur assurée ne peut dépasser ${formatEurosFromCents(maxCents)} (plafond de l’assurance du transporteur)`,
} as const;

export function readCheckoutDetailsForm(formData: FormData): CheckoutDetailsForm {
  const value = (name: string) => {
    const raw = formData.get(name);
    return typeof raw === 'string' ? raw : '';
  };
  return {
    delivery: addressFormValues(formData, 'delivery'),
    billingDifferent: value('billingDifferent') === 'on',
    billing: addressFormValues(formData, 'billing'),
    insure: value('insure') === 'on',
    insuredValue: value('insuredValue'),
    saveToProfile: value('saveToProfile') === 'on',
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
  rules: { travelsBack: boolean; maxInsuredCents: number },
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
