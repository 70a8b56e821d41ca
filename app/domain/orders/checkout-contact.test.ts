import { describe, expect, it } from 'vitest';
import { ADDRESS_MESSAGES } from './address';
import { parseGuestOrderInfo } from './checkout-contact';
import { GUEST_INFO_MESSAGES } from './guest-info';

/*
 * The API's guestInfo read with the checkout's rules (decision 024): on an order that asks an
 * address, the address sent is THE delivery address, checked as a postal address, or refused.
 */

const info = {
  email: 'Nouvelle@Example.fr',
  firstName: 'Marie',
  lastName: 'Curie',
  phone: '06 00 00 00 00',
  address: '1 rue de Bourgogne',
  city: 'Orléans',
  postalCode: '45000',
};

describe('parseGuestOrderInfo', () => {
  it('makes the address sent for a physical draft its delivery address, as the checkout would', () => {
    const parsed = parseGuestOrderInfo(info, { asksAddress: true });
    expect(parsed).toEqual({
      success: true,
      contact: {
        email: 'nouvelle@example.fr',
        firstName: 'Marie',
        lastName: 'Curie',
        phone: '+33600000000',
        address: '1 rue de Bourgogne',
        city: 'Orléans',
        postalCode: '45000',
      },
      details: {
        delivery: {
          firstName: 'Marie',
          lastName: 'Curie',
          company: null,
          line1: '1 rue de Bourgogne',
          line2: null,
          postalCode: '45000',
          city: 'Orléans',
          country: 'FR',
          phone: '+33600000000',
        },
        billing: null,
        insuredValueCents: 0,
        saveToProfile: false,
      },
    });
  });

  it('refuses an incomplete address for a physical draft on the API’s field names, never a silent success', () => {
    const parsed = parseGuestOrderInfo(
      { email: 'x@example.fr', city: 'Orléans', postalCode: '45000' },
      { asksAddress: true },
    );
    expect(parsed).toEqual({
      success: false,
      fieldErrors: {
        firstName: ADDRESS_MESSAGES.firstName,
        lastName: ADDRESS_MESSAGES.lastName,
        address: ADDRESS_MESSAGES.line1,
        phone: ADDRESS_MESSAGES.phone,
      },
    });
    expect(parseGuestOrderInfo({ ...info, email: '', country: 'BE' }, { asksAddress: true })).toEqual({
      success: false,
      fieldErrors: {
        email: GUEST_INFO_MESSAGES.emailRequired,
        postalCode: ADDRESS_MESSAGES.postalCodeInvalid('BE'),
      },
    });
  });

  it('keeps the e-mail alone for a physical draft sent without an address, and the loose contact otherwise', () => {
    expect(parseGuestOrderInfo({ email: 'x@example.fr' }, { asksAddress: true })).toMatchObject({
      success: true,
      details: null,
    });
    expect(parseGuestOrderInfo({ ...info, firstName: '' }, { asksAddress: false })).toMatchObject({
      success: true,
      details: null,
      contact: { email: 'nouvelle@example.fr', address: '1 rue de Bourgogne', phone: '06 00 00 00 00' },
    });
    // A name left out keeps the order's own (not emptied).
    const kept = parseGuestOrderInfo({ email: 'x@example.fr' }, { asksAddress: false });
    expect(kept.success && kept.contact).not.toHaveProperty('firstName');
  });
});
