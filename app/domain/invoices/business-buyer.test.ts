import { describe, expect, it } from 'vitest';
import {
  BUSINESS_MESSAGES,
  businessFormValues,
  checkSiren,
  checkVatNumber,
  formatSiren,
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
        chorusServiceCode: null,
        engagementNumber: null,
      },
    });
  });

  it('keeps the Chorus Pro references of a public body only', () => {
    const chorus = { chorusServiceCode: 'SERVICE-ARCHIVES', engagementNumber: 'EJ-2027-001' };
    const body = parseBusinessBuyer(form({ publicBody: 'on', vatNumber: '', ...chorus }));
    expect(body.ok && body.buyer).toMatchObject({ publicBody: true, vatNumber: null, ...chorus });
    const company = parseBusinessBuyer(form(chorus));
    expect(company.ok && company.buyer).toMatchObject({ chorusServiceCode: null, engagementNumber: null });
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
