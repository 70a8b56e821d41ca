import { describe, expect, it } from 'vitest';
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
        chorusServiceCode: 'SERV-1',
      },
      buyer,
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(buyerChanges(buyer, parsed.business)).toEqual([
      { field: 'siren', before: '356000000', after: '552100554' },
      { field: 'vatNumber', before: null, after: 'FR96552100554' },
    ]);
    expect(buyerChanges(buyer, { ...buyer })).toEqual([]);
  });
});
