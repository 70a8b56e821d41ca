import { BUSINESS_LIMITS, BUSINESS_MESSAGES, checkSiren, checkSiret, checkVatNumber } from '../invoices/business-buyer';
import type { BusinessBuyer } from '../invoices/snapshot';

/*
 * The staff's correction of a business buyer after the plateforme agréée rejected its invoice
 * (decision 047): the identifiers a rejection usually names (SIREN, VAT number, a public body's
 * SIRET and Chorus Pro service code) and the company's name, checked by the checkout's own rules
 * (invoices/business-buyer.ts). Pure.
 */

export interface BuyerCorrection {
  companyName: string;
  siren: string;
  vatNumber: string;
  siret: string;
  chorusServiceCode: string;
}

export type BuyerCorrectionField = keyof BuyerCorrection;

export function parseBuyerCorrection(
  input: Record<string, string>,
  current: BusinessBuyer,
): { ok: true; business: BusinessBuyer } | { ok: false; fieldErrors: Partial<Record<BuyerCorrectionField, string>> } {
  const companyName = (input.companyName ?? '').trim().replace(/\s+/g, ' ');
  const chorusServiceCode = (input.chorusServiceCode ?? '').trim();
  const fieldErrors: Partial<Record<BuyerCorrectionField, string>> = {};
  if (companyName === '') fieldErrors.companyName = BUSINESS_MESSAGES.companyName;
  else if (companyName.length > BUSINESS_LIMITS.companyName) {
    fieldErrors.companyName = BUSINESS_MESSAGES.tooLong(BUSINESS_LIMITS.companyName);
  }
  const siren = checkSiren(input.siren ?? '');
  if (!siren.ok) fieldErrors.siren = siren.message;
  const typedVat = (input.vatNumber ?? '').trim();
  const vat = typedVat === '' ? null : checkVatNumber(typedVat, siren.ok ? siren.siren : null);
  if (vat && !vat.ok) fieldErrors.vatNumber = vat.message;
  // A public body's establishment must stay the SIREN's: asked again with it.
  const siret = current.publicBody ? checkSiret(input.siret ?? '', siren.ok ? siren.siren : null) : null;
  if (siret && !siret.ok) fieldErrors.siret = siret.message;
  if (chorusServiceCode.length > BUSINESS_LIMITS.chorusServiceCode) {
    fieldErrors.chorusServiceCode = BUSINESS_MESSAGES.tooLong(BUSINESS_LIMITS.chorusServiceCode);
  }
  if (Object.keys(fieldErrors).length > 0 || !siren.ok || (vat && !vat.ok) || (siret && !siret.ok)) {
    return { ok: false, fieldErrors };
  }
  return {
    ok: true,
    business: {
      ...current,
      companyName,
      siren: siren.siren,
      vatNumber: vat ? vat.vatNumber : null,
      ...(siret ? { siret: siret.siret } : {}),
      chorusServiceCode: chorusServiceCode === '' ? null : chorusServiceCode,
    },
  };
}

/** The corrected fields in French (the order's history, the « Journal » page). */
export const BUYER_CORRECTION_FIELD_LABELS: Readonly<Record<BuyerCorrectionField, string>> = {
  companyName: 'Raison sociale',
  siren: 'SIREN',
  vatNumber: 'Numéro de TVA',
  siret: 'SIRET',
  chorusServiceCode: 'Code service Chorus Pro',
};

export interface BuyerChange {
  field: BuyerCorrectionField;
  before: string | null;
  after: string | null;
}

/** What a correction changes of the buyer, field by field (nothing when it only confirms it). */
export function buyerChanges(before: BusinessBuyer, after: BusinessBuyer): BuyerChange[] {
  return (Object.keys(BUYER_CORRECTION_FIELD_LABELS) as BuyerCorrectionField[])
    .map((field) => ({ field, before: before[field] ?? null, after: after[field] ?? null }))
    .filter((change) => change.before !== change.after);
}
