import { describe, expect, it } from 'vitest';
import { BUSINESS_MESSAGES } from './business-buyer';
import { businessProfileSchema } from './business-profile';

describe('businessProfileSchema (the profile’s « Facturation professionnelle »)', () => {
  it('gives the buyer the profile keeps, without an engagement number', () => {
    const parsed = businessProfileSchema.parse({
      intent: 'save-business',
      companyName: ' Mairie  de Lyon ',
      siren: '552 100 554',
      vatNumber: 'fr96 552 100 554',
      purchaseOrderReference: 'BC-12',
      publicBody: 'on',
      siret: '552 100 554 00013',
      chorusServiceCode: 'SERVICE-FACTURES',
      engagementNumber: 'EJ-1',
    });
    expect(parsed).toEqual({
      companyName: 'Mairie de Lyon',
      siren: '552100554',
      vatNumber: 'FR96552100554',
      purchaseOrderReference: 'BC-12',
      publicBody: true,
      siret: '55210055400013',
      chorusServiceCode: 'SERVICE-FACTURES',
      engagementNumber: null,
    });
  });

  it('puts each French message on its field', () => {
    const refused = businessProfileSchema.safeParse({ companyName: '', siren: '552100555', vatNumber: 'FR00' });
    expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['companyName', BUSINESS_MESSAGES.companyName],
      ['siren', BUSINESS_MESSAGES.sirenKey],
      ['vatNumber', BUSINESS_MESSAGES.vatFormat],
    ]);
  });
});
