import { describe, expect, it } from 'vitest';
import { BUSINESS_MESSAGES } from '../invoices/business-buyer';
import { ADDRESS_MESSAGES } from './address';
import { checkoutPaySchema, parseCheckoutInvoicing } from './checkout-details';

const billing = {
  firstName: 'Marie',
  lastName: 'Curie',
  line1: '12 rue des Lilas',
  postalCode: '69002',
  city: 'Lyon',
  country: 'FR',
};
const business = { companyName: 'Archives Curie SARL', siren: '552100554', vatNumber: 'FR96552100554' };

describe('the checkout’s invoicing part', () => {
  it('freezes a digital order’s billing address without a phone', () => {
    const parsed = parseCheckoutInvoicing({ billing }, { asksBilling: true });
    expect(parsed).toEqual({
      ok: true,
      value: {
        billing: { ...billing, company: null, line2: null, country: 'FR', phone: '' },
        business: null,
      },
    });
  });

  it('asks the whole address of every buyer, consumer or business, each missing field in French', () => {
    const empty = { ...billing, firstName: '', lastName: '', line1: '', postalCode: '', city: '' };
    const expected = {
      firstName: ADDRESS_MESSAGES.firstName,
      lastName: ADDRESS_MESSAGES.lastName,
      line1: ADDRESS_MESSAGES.line1,
      postalCode: ADDRESS_MESSAGES.postalCode,
      city: ADDRESS_MESSAGES.city,
    };
    expect(parseCheckoutInvoicing({ billing: empty }, { asksBilling: true })).toEqual({
      ok: false,
      errors: { billing: expected },
    });
    expect(parseCheckoutInvoicing({}, { asksBilling: true })).toMatchObject({
      ok: false,
      errors: { billing: expected },
    });
    const refused = parseCheckoutInvoicing({ billing: empty, isBusiness: 'on', business }, { asksBilling: true });
    expect(refused).toEqual({ ok: false, errors: { billing: expected } });
    // One field missing is refused too: the invoice prints a whole address or none is taken.
    const noCity = parseCheckoutInvoicing({ billing: { ...billing, city: ' ' } }, { asksBilling: true });
    expect(noCity).toEqual({ ok: false, errors: { billing: { city: ADDRESS_MESSAGES.city } } });
  });

  it('takes the business buyer only when the box is ticked, and says what is wrong', () => {
    expect(parseCheckoutInvoicing({ business }, { asksBilling: false })).toEqual({
      ok: true,
      value: { billing: null, business: null },
    });
    const buyer = parseCheckoutInvoicing({ isBusiness: 'on', business }, { asksBilling: false });
    expect(buyer.ok && buyer.value.business?.siren).toBe('552100554');
    const wrong = parseCheckoutInvoicing(
      { isBusiness: 'on', business: { ...business, siren: '552100555' } },
      { asksBilling: false },
    );
    expect(!wrong.ok && wrong.errors.business?.siren).toBe(BUSINESS_MESSAGES.sirenKey);
  });

  it('puts each mistake on its field of the payment form and the guest’s name from the billing fields', () => {
    const schema = checkoutPaySchema(null, 'full', null, { asksBilling: true });
    const refused = schema.safeParse({
      contact: { email: 'marie@example.fr' },
      billing,
      isBusiness: 'on',
      business: { ...business, vatNumber: 'FR00552100554' },
    });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['business.vatNumber', BUSINESS_MESSAGES.vatKey],
    ]);
    // A consumer's form without its billing address: each field says what is missing.
    const bare = schema.safeParse({ contact: { email: 'marie@example.fr' } });
    expect(bare.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['billing.firstName', ADDRESS_MESSAGES.firstName],
      ['billing.lastName', ADDRESS_MESSAGES.lastName],
      ['billing.line1', ADDRESS_MESSAGES.line1],
      ['billing.postalCode', ADDRESS_MESSAGES.postalCode],
      ['billing.city', ADDRESS_MESSAGES.city],
      ['billing.country', ADDRESS_MESSAGES.country],
    ]);
    const accepted = schema.parse({ contact: { email: 'marie@example.fr' }, billing });
    expect(accepted.contact).toMatchObject({ firstName: 'Marie', lastName: 'Curie', city: 'Lyon' });
    expect(accepted.invoicing?.billing?.line1).toBe('12 rue des Lilas');
  });
});
