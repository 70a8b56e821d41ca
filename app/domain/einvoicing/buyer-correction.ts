import type { BusinessBuyer } from '../invoices/snapshot';

/*
 * The staff's correction of a business buyer after the plateforme agréée rejected its invoice
 * (decision 047): the identifiers a rejection usually names (SIREN, VAT number, Chorus Pro
 * service code) and the company's name. Pure.
 */

export interface BuyerCorrection {
  companyName: string;
  siren: string;
  vatNumber: string;
  chorusServiceCode: string;
}

export type BuyerCorrectionField = keyof BuyerCorrection;

/** A SIREN: 9 digits whose Luhn key is right. */
export function sirenValid(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    let digit = Number(value[8 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** A French VAT number: FR, a two-digit key, the SIREN; the key is (12 + 3 × (SIREN mod 97)) mod 97. */
export function frenchVatValid(value: string, siren: string): boolean {
  const match = /^FR(\d{2})(\d{9})$/.exec(value);
  if (!match) return /^[A-Z]{2}[A-Z0-9]{2,13}$/.test(value) && !value.startsWith('FR');
  if (match[2] !== siren) return false;
  return Number(match[1]) === (12 + 3 * (Number(siren) % 97)) % 97;
}

export function parseBuyerCorrection(
  input: Record<string, string>,
  current: BusinessBuyer,
): { ok: true; business: BusinessBuyer } | { ok: false; fieldErrors: Partial<Record<BuyerCorrectionField, string>> } {
  const companyName = (input.companyName ?? '').trim();
  const siren = (input.siren ?? '').replace(/\s+/g, '');
  const vatNumber = (input.vatNumber ?? '').replace(/\s+/g, '').toUpperCase();
  const chorusServiceCode = (input.chorusServiceCode ?? '').trim();
  const fieldErrors: Partial<Record<BuyerCorrectionField, string>> = {};
  if (companyName === '' || companyName.length > 200) fieldErrors.companyName = 'Raison sociale obligatoire.';
  if (!sirenValid(siren)) fieldErrors.siren = 'SIREN invalide (9 chiffres, clé de contrôle).';
  if (vatNumber !== '' && !frenchVatValid(vatNumber, siren)) {
    fieldErrors.vatNumber = 'Numéro de TVA invalide (FR, clé, SIREN).';
  }
  if (chorusServiceCode.length > 100) fieldErrors.chorusServiceCode = 'Code service trop long.';
  if (Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };
  return {
    ok: true,
    business: {
      ...current,
      companyName,
      siren,
      vatNumber: vatNumber === '' ? null : vatNumber,
      chorusServiceCode: chorusServiceCode === '' ? null : chorusServiceCode,
    },
  };
}

/** The corrected fields in French (the order's history, the « Journal » page). */
export const BUYER_CORRECTION_FIELD_LABELS: Readonly<Record<BuyerCorrectionField, string>> = {
  companyName: 'Raison sociale',
  siren: 'SIREN',
  vatNumber: 'Numéro de TVA',
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
