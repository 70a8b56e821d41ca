import type { Page } from 'playwright-core';

/*
 * The billing address a test gives at checkout (docs/invoicing.md): an order with nothing physical
 * asks it of every buyer, consumer or business, in the « Facturation » block; a physical one's is
 * its delivery address. One home for the tests that place a digital order through the real form,
 * in the browser or as a plain form post.
 */

export interface TestBillingAddress {
  firstName: string;
  lastName: string;
  line1: string;
  postalCode: string;
  city: string;
  /** ISO code. */
  country: string;
}

export const TEST_BILLING_ADDRESS: TestBillingAddress = {
  firstName: 'Marie',
  lastName: 'Curie',
  line1: '36 quai de Béthune',
  postalCode: '75004',
  city: 'Paris',
  country: 'FR',
};

/** The address's fields as the payment form posts them (`billing.city`…), for a plain form post. */
export function billingFormFields(address: Partial<TestBillingAddress> = {}): Record<string, string> {
  const whole = { ...TEST_BILLING_ADDRESS, ...address };
  return Object.fromEntries(Object.entries(whole).map(([field, value]) => [`billing.${field}`, value]));
}

const LABELS: Readonly<Record<Exclude<keyof TestBillingAddress, 'country'>, string>> = {
  firstName: 'Prénom',
  lastName: 'Nom',
  line1: 'Numéro et rue',
  postalCode: 'Code postal',
  city: 'Ville',
};

/**
 * Completes the billing address of the checkout's « Facturation » block in the browser: each field
 * the page left empty gets the test address's value; what it prefilled (the profile's name, a
 * guest's city) stays, as a customer would leave it. `address` forces its fields over the prefill.
 */
export async function fillBillingAddress(page: Page, address: Partial<TestBillingAddress> = {}): Promise<void> {
  const invoicing = page.getByRole('region', { name: 'Facturation' });
  for (const [field, label] of Object.entries(LABELS) as [keyof typeof LABELS, string][]) {
    const input = invoicing.getByLabel(label, { exact: true });
    const forced = address[field];
    if (forced !== undefined) await input.fill(forced);
    else if ((await input.inputValue()).trim() === '') await input.fill(TEST_BILLING_ADDRESS[field]);
  }
  if (address.country) await invoicing.getByLabel('Pays', { exact: true }).selectOption(address.country);
}
