import { describe, expect, it } from 'vitest';
import { BUSINESS_MESSAGES } from '../invoices/business-buyer';
import type { BusinessBuyer } from '../invoices/snapshot';
import { buyerChanges, parseBuyerCorrection } from './buyer-correction';

const buyer: BusinessBuyer = {
  companyName: 'Mairie de Saint-Test',
  siren: '356000000',
  vatNumber: null,
  purchaseOrderReference: 'BC-42',
  publicBody: true,
  chorusServiceCode: 'SERV-1',
  engagementNumber: null,
};

describe('buyerChanges', () => {
  it('lists the corrected fields with their values before and after, and nothing for a confirmation', () => {
    const parsed = parseBuyerCorrection(
      {
        companyName: 'Mairie de Saint-Test',
        siren: '552100554',
        vatNumber: 'FR 96 552100554',
        siret: '552 100 554 00013',
        chorusServiceCode: 'SERV-1',
      },
      buyer,
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(buyerChanges(buyer, parsed.business)).toEqual([
      { field: 'siren', before: '356000000', after: '552100554' },
      { field: 'vatNumber', before: null, after: 'FR96552100554' },
      { field: 'siret', before: null, after: '55210055400013' },
    ]);
    expect(buyerChanges(buyer, { ...buyer })).toEqual([]);
  });
});

describe('parseBuyerCorrection', () => {
  it('checks by the checkout’s rules, and a public body’s SIRET must follow its SIREN', () => {
    const refused = parseBuyerCorrection(
      { companyName: ' ', siren: '552100554', vatNumber: 'FR00552100554', siret: '21930048000015' },
      buyer,
    );
    expect(refused).toEqual({
      ok: false,
      fieldErrors: {
        companyName: BUSINESS_MESSAGES.companyName,
        vatNumber: BUSINESS_MESSAGES.vatKey,
        siret: BUSINESS_MESSAGES.siretSiren,
      },
    });
    expect(parseBuyerCorrection({ companyName: 'Mairie', siren: '552100555', siret: '' }, buyer)).toEqual({
      ok: false,
      fieldErrors: { siren: BUSINESS_MESSAGES.sirenKey, siret: BUSINESS_MESSAGES.siret },
    });
  });

  it('asks no SIRET of a company', () => {
    const company = { ...buyer, publicBody: false, chorusServiceCode: null };
    const parsed = parseBuyerCorrection({ companyName: 'Atelier', siren: '552100554', vatNumber: '' }, company);
    expect(parsed.ok && parsed.business).toMatchObject({ companyName: 'Atelier', siren: '552100554', vatNumber: null });
    expect(parsed.ok && 'siret' in parsed.business).toBe(false);
  });
});
