import { describe, expect, it } from 'vitest';
import { FORBIDDEN_CHARACTER_MESSAGE } from '../text-input';
import {
  ADDRESS_MESSAGES,
  addressLines,
  countryName,
  formatPhone,
  normalisePhone,
  normalisePostalCode,
  parseAddress,
  SHIPPING_COUNTRIES,
  sameAddress,
} from './address';

const valid = {
  firstName: ' Jeanne ',
  lastName: 'Martin',
  company: '',
  line1: '12  rue des Lilas',
  line2: '',
  postalCode: '75 011',
  city: 'Paris',
  country: 'FR',
  phone: '06 12 34 56 78',
};

describe('postal address', () => {
  it('accepts a French address, trimmed, with the phone in international form', () => {
    expect(parseAddress(valid)).toEqual({
      success: true,
      data: {
        firstName: 'Jeanne',
        lastName: 'Martin',
        company: null,
        line1: '12 rue des Lilas',
        line2: null,
        postalCode: '75011',
        city: 'Paris',
        country: 'FR',
        phone: '+33612345678',
      },
    });
  });

  it.each([
    ['FR', '7501', null],
    ['FR', '75011', '75011'],
    ['BE', '1000', '1000'],
    ['BE', '10000', null],
    ['LU', '1009', '1009'],
    ['CH', '1200', '1200'],
    ['MC', '98000', '98000'],
    ['MC', '75011', null],
    ['DE', '10115', '10115'],
    ['NL', '1011ab', '1011 AB'],
    ['NL', '1011', null],
    ['PT', '1100148', '1100-148'],
    ['PT', '1100-148', '1100-148'],
  ] as const)('postal code in %s: %s → %s', (country, typed, expected) => {
    expect(normalisePostalCode(country, typed)).toBe(expected);
  });

  it.each([
    ['FR', '06 12 34 56 78', '+33612345678'],
    ['FR', '06.12.34.56.78', '+33612345678'],
    ['FR', '+33 6 12 34 56 78', '+33612345678'],
    ['FR', '0033612345678', '+33612345678'],
    ['FR', '612345678', null],
    ['FR', '06 12 34', null],
    ['BE', '0470 12 34 56', '+32470123456'],
    ['BE', '+32 470 12 34 56', '+32470123456'],
    ['IT', '06 1234 5678', '+390612345678'],
    ['FR', 'appelez-moi', null],
  ] as const)('phone in %s: %s → %s', (country, typed, expected) => {
    expect(normalisePhone(country, typed)).toBe(expected);
  });

  it('says in French what is wrong, field by field', () => {
    expect(parseAddress({ ...valid, postalCode: '7501', phone: '' })).toEqual({
      success: false,
      fieldErrors: {
        postalCode: 'Code postal invalide pour ce pays (exemple\u00a0: 75011)',
        phone: ADDRESS_MESSAGES.phone,
      },
    });
    expect(parseAddress({ ...valid, country: 'US', city: ' ' })).toMatchObject({
      success: false,
      fieldErrors: { country: ADDRESS_MESSAGES.country, city: ADDRESS_MESSAGES.city },
    });
    expect(parseAddress({ ...valid, country: 'BE', postalCode: '75011' })).toMatchObject({
      fieldErrors: { postalCode: 'Code postal invalide pour ce pays (exemple\u00a0: 1000)' },
    });
    expect(parseAddress({ ...valid, phone: '06 12' })).toMatchObject({
      fieldErrors: { phone: ADDRESS_MESSAGES.phoneInvalid },
    });
  });

  it('refuses control characters and lines longer than the label prints', () => {
    expect(parseAddress({ ...valid, line1: 'rue\u0000' })).toMatchObject({
      fieldErrors: { line1: FORBIDDEN_CHARACTER_MESSAGE },
    });
    expect(parseAddress({ ...valid, line2: 'a\u001bb' })).toMatchObject({
      fieldErrors: { line2: FORBIDDEN_CHARACTER_MESSAGE },
    });
    expect(parseAddress({ ...valid, line1: 'x'.repeat(36) })).toMatchObject({
      fieldErrors: { line1: 'Ce champ ne doit pas dépasser 35\u00a0caractères' },
    });
  });

  it('refuses garbage that is not a form at all, in French', () => {
    for (const garbage of [null, 'adresse', [], { firstName: ['a'] }]) {
      const result = parseAddress(garbage);
      expect(result.success).toBe(false);
      if (!result.success) {
        for (const message of Object.values(result.fieldErrors)) expect(message).toMatch(/[éèàç]|Veuillez|Nous/);
      }
    }
  });

  it('prints the lines of an envelope and compares two addresses', () => {
    const parsed = parseAddress({ ...valid, company: 'Atelier Martin', line2: 'Bâtiment B' });
    if (!parsed.success) throw new Error('valid address refused');
    expect(addressLines(parsed.data)).toEqual([
      'Jeanne Martin',
      'Atelier Martin',
      '12 rue des Lilas',
      'Bâtiment B',
      '75011 Paris',
      'France',
    ]);
    expect(sameAddress(parsed.data, { ...parsed.data, phone: '+33700000000' })).toBe(true);
    expect(sameAddress(parsed.data, { ...parsed.data, city: 'Lyon' })).toBe(false);
    expect(formatPhone('+33612345678')).toBe('06 12 34 56 78');
    expect(formatPhone('+32470123456')).toBe('+32470123456');
  });

  it('names every country in French', () => {
    expect(SHIPPING_COUNTRIES.map(countryName)).toEqual([
      'France',
      'Belgique',
      'Luxembourg',
      'Suisse',
      'Monaco',
      'Allemagne',
      'Espagne',
      'Italie',
      'Pays-Bas',
      'Portugal',
    ]);
  });
});
