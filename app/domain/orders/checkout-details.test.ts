import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import { PAYMENT_METHOD_MESSAGES } from '../payments/offline';
import { ADDRESS_MESSAGES } from './address';
import {
  CHECKOUT_DETAILS_MESSAGES,
  type CheckoutDetailsForm,
  checkoutPaySchema,
  parseCheckoutDetails,
  parseEurosToCents,
} from './checkout-details';

const address = {
  firstName: 'Jeanne',
  lastName: 'Martin',
  company: '',
  line1: '12 rue des Lilas',
  line2: '',
  postalCode: '75011',
  city: 'Paris',
  country: 'FR',
  phone: '0612345678',
};
const empty = Object.fromEntries(Object.keys(address).map((key) => [key, ''])) as typeof address;
const form = (overrides: Partial<CheckoutDetailsForm> = {}): CheckoutDetailsForm => ({
  delivery: address,
  billingDifferent: false,
  billing: empty,
  insure: false,
  insuredValue: '',
  saveToProfile: false,
  ...overrides,
});
const rules = { travelsBack: true, maxInsuredCents: 500_000 };

describe('checkout details', () => {
  it('reads euros as a French customer types them', () => {
    expect(parseEurosToCents('350')).toBe(35_000);
    expect(parseEurosToCents('1 200,5')).toBe(120_050);
    expect(parseEurosToCents('350.05 €')).toBe(35_005);
    expect(parseEurosToCents('-3')).toBeNull();
    expect(parseEurosToCents('beaucoup')).toBeNull();
  });

  it('keeps the billing address only when it differs, and ignores its fields otherwise', () => {
    const result = parseCheckoutDetails(form(), rules);
    expect(result).toMatchObject({ ok: true, details: { billing: null, insuredValueCents: 0 } });
    const billing = parseCheckoutDetails(
      form({ billingDifferent: true, billing: { ...address, city: 'Lyon' } }),
      rules,
    );
    expect(billing).toMatchObject({ ok: true, details: { billing: { city: 'Lyon' } } });
    expect(parseCheckoutDetails(form({ billingDifferent: true }), rules)).toMatchObject({
      ok: false,
      errors: { billing: { city: ADDRESS_MESSAGES.city } },
    });
  });

  it('insures the return up to the ceiling of the price list, with French messages', () => {
    expect(parseCheckoutDetails(form({ insure: true, insuredValue: '800' }), rules)).toMatchObject({
      ok: true,
      details: { insuredValueCents: 80_000 },
    });
    expect(parseCheckoutDetails(form({ insure: true, insuredValue: '6000' }), rules)).toEqual({
      ok: false,
      errors: {
        insuredValue:
          'La valeur assurée ne peut dépasser 5\u202f000,00\u00a0€ (plafond de l’assurance du transporteur)',
      },
    });
    expect(parseCheckoutDetails(form({ insure: true }), rules)).toMatchObject({
      errors: { insuredValue: CHECKOUT_DETAILS_MESSAGES.insuredValueRequired },
    });
    // Nothing returns: no insurance, whatever the form says.
    expect(
      parseCheckoutDetails(form({ insure: true, insuredValue: '800' }), { ...rules, travelsBack: false }),
    ).toMatchObject({ ok: true, details: { insuredValueCents: 0 } });
  });

  it('reads the payment form as Conform posts it, every mistake on its field', () => {
    const data = new FormData();
    data.set('intent', 'pay');
    data.set('paymentMethod', 'transfer');
    data.set('delivery.city', 'Paris');
    data.set('insure', 'on');
    data.set('insuredValue', '300');
    const refused = parseWithZod(data, { schema: checkoutPaySchema(rules) });
    expect(refused.status).toBe('error');
    expect(refused.reply().error).toMatchObject({
      'delivery.firstName': [ADDRESS_MESSAGES.firstName],
      'delivery.line1': [ADDRESS_MESSAGES.line1],
    });
    expect(refused.reply().error).not.toHaveProperty('delivery.city');
    expect(refused.reply().initialValue).toMatchObject({ delivery: { city: 'Paris' }, insuredValue: '300' });
  });

  it('pays by card unless told otherwise, refuses an unknown method, and asks no address without rules', () => {
    const plain = parseWithZod(new URLSearchParams({ intent: 'pay', earlyStartConsent: 'on' }), {
      schema: checkoutPaySchema(null),
    });
    expect(plain.status === 'success' && plain.value).toEqual({
      method: 'card',
      earlyStart: true,
      details: null,
      contact: null,
      invoicing: null,
    });
    const forged = parseWithZod(new URLSearchParams({ paymentMethod: 'bitcoin' }), { schema: checkoutPaySchema(null) });
    expect(forged.reply().error).toEqual({ paymentMethod: [PAYMENT_METHOD_MESSAGES.invalid] });
  });

  it('reads a guest’s contact with the address in the same press: the name and street come from the delivery', () => {
    const data = new FormData();
    data.set('paymentMethod', 'transfer');
    data.set('contact.email', ' Marie.Curie@Example.fr ');
    for (const [field, value] of Object.entries({
      firstName: 'Marie',
      lastName: 'Curie',
      line1: '12 rue des Lilas',
      line2: 'Bâtiment B',
      postalCode: '75011',
      city: 'Paris',
      country: 'FR',
      phone: '06 12 34 56 78',
    })) {
      data.set(`delivery.${field}`, value);
    }
    const paid = parseWithZod(data, { schema: checkoutPaySchema(rules, 'email') });
    expect(paid.status === 'success' && paid.value.contact).toEqual({
      email: 'marie.curie@example.fr',
      firstName: 'Marie',
      lastName: 'Curie',
      phone: '+33612345678',
      address: '12 rue des Lilas, Bâtiment B',
      city: 'Paris',
      postalCode: '75011',
    });
  });

  it('refuses a guest without an e-mail address on its field, with every address mistake at once', () => {
    const data = new FormData();
    data.set('paymentMethod', 'transfer');
    data.set('contact.email', '');
    data.set('delivery.postalCode', '7501');
    data.set('delivery.country', 'FR');
    const refused = parseWithZod(data, { schema: checkoutPaySchema(rules, 'email') });
    expect(refused.reply().error).toMatchObject({
      'contact.email': ['L’adresse e-mail est requise'],
      'delivery.postalCode': [ADDRESS_MESSAGES.postalCodeInvalid('FR')],
      'delivery.line1': [ADDRESS_MESSAGES.line1],
    });
    // Nothing typed is lost: the form comes back with it.
    expect(refused.reply().initialValue).toMatchObject({ delivery: { postalCode: '7501' } });
  });

  it('keeps the order’s address when the form sends none, and reads a digital order’s optional contact', () => {
    const kept = parseWithZod(new URLSearchParams({ paymentMethod: 'cheque' }), {
      schema: checkoutPaySchema(null, 'full', 'invite@example.fr'),
    });
    expect(kept.status === 'success' && kept.value.contact).toEqual({ email: 'invite@example.fr' });
    const full = parseWithZod(
      new URLSearchParams({
        'contact.email': 'a@example.fr',
        'contact.city': 'Orléans',
        'contact.postalCode': '45000',
      }),
      { schema: checkoutPaySchema(null, 'full') },
    );
    expect(full.status === 'success' && full.value.contact).toMatchObject({
      email: 'a@example.fr',
      city: 'Orléans',
      postalCode: '45000',
    });
    const wrong = parseWithZod(new URLSearchParams({ 'contact.email': 'a@example.fr', 'contact.postalCode': '4500' }), {
      schema: checkoutPaySchema(null, 'full'),
    });
    expect(wrong.reply().error).toEqual({ 'contact.postalCode': ['Code postal invalide (5 chiffres)'] });
  });
});
