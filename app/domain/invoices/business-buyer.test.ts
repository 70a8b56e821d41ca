import { describe, expect, it } from 'vitest';
import {
  BUSINESS_MESSAGES,
  businessFormValues,
  checkSiren,
  checkSiret,
  checkVatNumber,
  formatSiren,
  formatSiret,
  frenchVatNumberOf,
  luhnValid,
  parseBusinessBuyer,
} from './business-buyer';

const form = (overrides: Partial<Record<string, string>> = {}) => ({
  ...businessFormValues(null),
  companyName: 'Archives de Lyon',
  siren: '552 100 554',
  vatNumber: 'FR 96 552 100 554',
  ...overrides,
});

describe('SIREN', () => {
  it('accepts real SIRENs, typed with spaces or dots', () => {
    expect(luhnValid('552100554')).toBe(true);
    expect(luhnValid('732829320')).toBe(true);
    expect(checkSiren('552 100 554')).toEqual({ ok: true, siren: '552100554' });
    expect(checkSiren('732.829.320')).toEqual({ ok: true, siren: '732829320' });
  });

  it('refuses a wrong key, a wrong length, letters and nothing, in French', () => {
    expect(checkSiren('552100555')).toEqual({ ok: false, message: BUSINESS_MESSAGES.sirenKey });
    expect(checkSiren('732829321')).toEqual({ ok: false, message: BUSINESS_MESSAGES.sirenKey });
    expect(checkSiren('55210055')).toEqual({ ok: false, message: BUSINESS_MESSAGES.sirenFormat });
    expect(checkSiren('55210055A')).toEqual({ ok: false, message: BUSINESS_MESSAGES.sirenFormat });
    expect(checkSiren('  ')).toEqual({ ok: false, message: BUSINESS_MESSAGES.siren });
  });

  it('prints as three groups', () => {
    expect(formatSiren('552100554')).toBe('552 100 554');
  });
});

describe('intra-community VAT number', () => {
  it('computes the French key: (12 + 3 × (SIREN mod 97)) mod 97', () => {
    expect(frenchVatNumberOf('552100554')).toBe('FR96552100554');
    expect(frenchVatNumberOf('732829320')).toBe('FR44732829320');
  });

  it('accepts a right key matching the SIREN, whatever the spacing and case', () => {
    expect(checkVatNumber('fr 44 732 829 320', '732829320')).toEqual({ ok: true, vatNumber: 'FR44732829320' });
  });

  it('refuses a wrong key, another SIREN and a wrong shape', () => {
    expect(checkVatNumber('FR45732829320', '732829320')).toEqual({ ok: false, message: BUSINESS_MESSAGES.vatKey });
    expect(checkVatNumber('FR96552100554', '732829320')).toEqual({ ok: false, message: BUSINESS_MESSAGES.vatSiren });
    expect(checkVatNumber('DE123456789', '732829320')).toEqual({ ok: false, message: BUSINESS_MESSAGES.vatFormat });
  });
});

describe('parseBusinessBuyer', () => {
  it('gives the buyer as the snapshot stores it', () => {
    expect(parseBusinessBuyer(form({ purchaseOrderReference: ' BC-2027-12 ' }))).toEqual({
      ok: true,
      buyer: {
        companyName: 'Archives de Lyon',
        siren: '552100554',
        vatNumber: 'FR96552100554',
        purchaseOrderReference: 'BC-2027-12',
        publicBody: false,
        siret: null,
        chorusServiceCode: null,
        engagementNumber: null,
      },
    });
  });

  it('keeps the SIRET and the Chorus Pro references of a public body only', () => {
    const chorus = { chorusServiceCode: 'SERVICE-ARCHIVES', engagementNumber: 'EJ-2027-001' };
    const body = parseBusinessBuyer(form({ publicBody: 'on', vatNumber: '', siret: '552 100 554 00013', ...chorus }));
    expect(body.ok && body.buyer).toMatchObject({
      publicBody: true,
      vatNumber: null,
      siret: '55210055400013',
      ...chorus,
    });
    const company = parseBusinessBuyer(form({ siret: '55210055400013', ...chorus }));
    expect(company.ok && company.buyer).toMatchObject({ siret: null, chorusServiceCode: null, engagementNumber: null });
  });

  it('asks a public body its SIRET: 14 digits, its key, starting with the SIREN', () => {
    const refusal = (siret: string) => {
      const parsed = parseBusinessBuyer(form({ publicBody: 'on', siret }));
      return parsed.ok ? null : parsed.errors.siret;
    };
    expect(refusal('')).toBe(BUSINESS_MESSAGES.siret);
    expect(refusal('5521005540001')).toBe(BUSINESS_MESSAGES.siretFormat);
    expect(refusal('55210055400014')).toBe(BUSINESS_MESSAGES.siretKey);
    // 21930048000015 is a keyed SIRET, of another SIREN than the buyer's 552 100 554.
    expect(refusal('21930048000015')).toBe(BUSINESS_MESSAGES.siretSiren);
    expect(refusal('552.100.554.00013')).toBeNull();
  });

  it('checks La Poste’s establishments by the sum of their digits', () => {
    // The digits of 356 000 000 00042 add up to 20 (a multiple of 5); Luhn would refuse it.
    expect(luhnValid('35600000000042')).toBe(false);
    expect(checkSiret('35600000000042', '356000000')).toEqual({ ok: true, siret: '35600000000042' });
    expect(checkSiret('35600000000043', '356000000')).toEqual({ ok: false, message: BUSINESS_MESSAGES.siretKey });
    expect(formatSiret('55210055400013')).toBe('552 100 554 00013');
  });

  it('says every mistake at once', () => {
    expect(parseBusinessBuyer(form({ companyName: ' ', siren: '552100555', vatNumber: 'FR00' }))).toEqual({
      ok: false,
      errors: {
        companyName: BUSINESS_MESSAGES.companyName,
        siren: BUSINESS_MESSAGES.sirenKey,
        vatNumber: BUSINESS_MESSAGES.vatFormat,
      },
    });
    expect(parseBusinessBuyer(form({ purchaseOrderReference: 'x'.repeat(51) }))).toEqual({
      ok: false,
      errors: { purchaseOrderReference: BUSINESS_MESSAGES.tooLong(50) },
    });
  });
});
