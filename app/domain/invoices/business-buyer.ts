import type { BusinessBuyer } from './snapshot';

/*
 * A business buyer as the checkout and the profile take it (docs/invoicing.md): a company, an
 * association or a public body, with its SIREN (9 digits, Luhn key), its intra-community VAT
 * number (FR + 2-digit key + SIREN, the key being (12 + 3 × (SIREN mod 97)) mod 97, and the SIREN
 * in it must be the buyer's), an optional purchase order reference, and for a public body its
 * SIRET (14 digits, the establishment Chorus Pro addresses) and optional Chorus Pro references.
 * Pure: the checkout, the profile and the tests call the same rules.
 */

export const BUSINESS_FIELDS = [
  'companyName',
  'siren',
  'vatNumber',
  'purchaseOrderReference',
  'publicBody',
  'siret',
  'chorusServiceCode',
  'engagementNumber',
] as const;
export type BusinessField = (typeof BUSINESS_FIELDS)[number];
/** The form's fields as typed (the public body's checkbox: « on » or empty). */
export type BusinessFormValues = Record<BusinessField, string>;
export type BusinessFieldErrors = Partial<Record<BusinessField, string>>;

export const BUSINESS_LIMITS = {
  companyName: 100,
  purchaseOrderReference: 50,
  chorusServiceCode: 100,
  engagementNumber: 50,
} as const;

export const BUSINESS_MESSAGES = {
  companyName: 'Veuillez saisir la raison sociale',
  siren: 'Veuillez saisir le numéro SIREN (9 chiffres)',
  sirenFormat: 'Le numéro SIREN compte 9 chiffres (exemple\u00a0: 552\u00a0100\u00a0554)',
  sirenKey: 'Ce numéro SIREN n’existe pas\u00a0: vérifiez les 9 chiffres',
  vatFormat:
    'Numéro de TVA invalide\u00a0: FR, 2 chiffres de clé puis le SIREN (exemple\u00a0: FR\u00a096\u00a0552100554)',
  vatKey: 'La clé de ce numéro de TVA est fausse\u00a0: vérifiez les 2 chiffres après FR',
  vatSiren: 'Ce numéro de TVA ne correspond pas au SIREN indiqué',
  siret: 'Veuillez saisir le SIRET de l’établissement à facturer (14\u00a0chiffres)\u00a0: Chorus Pro l’exige',
  siretFormat: 'Le numéro SIRET compte 14 chiffres (exemple\u00a0: 552\u00a0100\u00a0554\u00a000013)',
  siretKey: 'Ce numéro SIRET n’existe pas\u00a0: vérifiez les 14 chiffres',
  siretSiren: 'Ce SIRET ne commence pas par le SIREN indiqué',
  tooLong: (max: number) => `Ce champ ne doit pas dépasser ${max}\u00a0caractères`,
  forbidden: 'Ce champ contient un caractère non autorisé.',
} as const;

/** The Luhn checksum of a string of digits (the SIREN's key). */
export function luhnValid(digits: string): boolean {
  if (!/^[0-9]+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The SIREN as typed (spaces, dots allowed) as 9 digits, or the French message of what is wrong. */
export function checkSiren(typed: string): { ok: true; siren: string } | { ok: false; message: string } {
  const compact = typed.replace(/[\s.\u00a0\u202f-]/g, '');
  if (compact === '') return { ok: false, message: BUSINESS_MESSAGES.siren };
  if (!/^[0-9]{9}$/.test(compact)) return { ok: false, message: BUSINESS_MESSAGES.sirenFormat };
  if (!luhnValid(compact)) return { ok: false, message: BUSINESS_MESSAGES.sirenKey };
  return { ok: true, siren: compact };
}

/** La Poste's SIREN: its establishments' SIRETs are keyed by the sum of their digits, not by Luhn. */
const LA_POSTE_SIREN = '356000000';

/**
 * A public body's establishment number as typed: 14 digits whose first 9 are its SIREN, with the
 * Luhn key (La Poste's: the sum of the digits a multiple of 5). Chorus Pro addresses an invoice to
 * an establishment, never to a SIREN.
 */
export function checkSiret(
  typed: string,
  siren: string | null,
): { ok: true; siret: string } | { ok: false; message: string } {
  const compact = typed.replace(/[\s.\u00a0\u202f-]/g, '');
  if (compact === '') return { ok: false, message: BUSINESS_MESSAGES.siret };
  if (!/^[0-9]{14}$/.test(compact)) return { ok: false, message: BUSINESS_MESSAGES.siretFormat };
  const keyed = compact.startsWith(LA_POSTE_SIREN)
    ? [...compact].reduce((sum, digit) => sum + Number(digit), 0) % 5 === 0
    : luhnValid(compact);
  if (!keyed) return { ok: false, message: BUSINESS_MESSAGES.siretKey };
  if (siren !== null && compact.slice(0, 9) !== siren) return { ok: false, message: BUSINESS_MESSAGES.siretSiren };
  return { ok: true, siret: compact };
}

/** `552 100 554 00013`: the SIRET as documents print it. */
export function formatSiret(siret: string): string {
  return /^[0-9]{14}$/.test(siret) ? `${formatSiren(siret.slice(0, 9))} ${siret.slice(9)}` : siret;
}

/** The 2-digit key of a French VAT number: (12 + 3 × (SIREN mod 97)) mod 97. */
export function frenchVatKey(siren: string): string {
  const key = (12 + 3 * (Number(siren) % 97)) % 97;
  return String(key).padStart(2, '0');
}

/** The French VAT number of a SIREN: `FR` + key + SIREN. */
export function frenchVatNumberOf(siren: string): string {
  return `FR${frenchVatKey(siren)}${siren}`;
}

/**
 * A French intra-community VAT number as typed (`FR 44 552 100 554`), written `FR44552100554`,
 * checked against its key and, when given, the buyer's SIREN.
 */
export function checkVatNumber(
  typed: string,
  siren: string | null,
): { ok: true; vatNumber: string } | { ok: false; message: string } {
  const compact = typed.replace(/[\s.\u00a0\u202f-]/g, '').toUpperCase();
  const match = /^FR([0-9]{2})([0-9]{9})$/.exec(compact);
  if (!match) return { ok: false, message: BUSINESS_MESSAGES.vatFormat };
  const [, key, vatSiren] = match as unknown as [string, string, string];
  if (frenchVatKey(vatSiren) !== key) return { ok: false, message: BUSINESS_MESSAGES.vatKey };
  if (siren !== null && vatSiren !== siren) return { ok: false, message: BUSINESS_MESSAGES.vatSiren };
  return { ok: true, vatNumber: compact };
}

/** `552 100 554`: the SIREN as documents print it. */
export function formatSiren(siren: string): string {
  return /^[0-9]{9}$/.test(siren) ? `${siren.slice(0, 3)} ${siren.slice(3, 6)} ${siren.slice(6)}` : siren;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it looks for.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

function cleanText(value: string): string {
  return value.trim().replace(/\s+/g, ' ');
}

/** A posted field as text (absent or not text: empty). */
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The posted `business.*` fields, every one as text. */
export function businessFormOf(value: unknown): BusinessFormValues {
  const fields = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  return Object.fromEntries(BUSINESS_FIELDS.map((field) => [field, text(fields[field])])) as BusinessFormValues;
}

/** A stored buyer as the form's values (to prefill the checkout or the profile). */
export function businessFormValues(buyer: BusinessBuyer | null): BusinessFormValues {
  return {
    companyName: buyer?.companyName ?? '',
    siren: buyer?.siren ?? '',
    vatNumber: buyer?.vatNumber ?? '',
    purchaseOrderReference: buyer?.purchaseOrderReference ?? '',
    publicBody: buyer?.publicBody ? 'on' : '',
    siret: buyer?.siret ?? '',
    chorusServiceCode: buyer?.chorusServiceCode ?? '',
    engagementNumber: buyer?.engagementNumber ?? '',
  };
}

/**
 * Checks the business buyer's fields; every mistake at once, each with its French message. The VAT
 * number is optional (an association or a public body may have none); when given it must match
 * the SIREN. The Chorus Pro references are kept for a public body only.
 */
export function parseBusinessBuyer(
  form: BusinessFormValues,
): { ok: true; buyer: BusinessBuyer } | { ok: false; errors: BusinessFieldErrors } {
  const errors: BusinessFieldErrors = {};
  for (const field of BUSINESS_FIELDS) {
    if (CONTROL_CHARACTER.test(form[field])) errors[field] = BUSINESS_MESSAGES.forbidden;
  }
  const limited = (field: keyof typeof BUSINESS_LIMITS): string | null => {
    const value = cleanText(form[field]);
    if (value.length > BUSINESS_LIMITS[field] && !errors[field]) {
      errors[field] = BUSINESS_MESSAGES.tooLong(BUSINESS_LIMITS[field]);
    }
    return value === '' ? null : value;
  };
  const companyName = limited('companyName');
  if (!companyName && !errors.companyName) errors.companyName = BUSINESS_MESSAGES.companyName;
  const siren = checkSiren(form.siren);
  if (!siren.ok && !errors.siren) errors.siren = siren.message;
  const typedVat = cleanText(form.vatNumber);
  const vat = typedVat === '' ? null : checkVatNumber(typedVat, siren.ok ? siren.siren : null);
  if (vat && !vat.ok && !errors.vatNumber) errors.vatNumber = vat.message;
  const purchaseOrderReference = limited('purchaseOrderReference');
  const publicBody = form.publicBody === 'on';
  // A public body's establishment: asked and checked only when « Organisme public » is ticked.
  const siret = publicBody ? checkSiret(form.siret, siren.ok ? siren.siren : null) : null;
  if (siret && !siret.ok && !errors.siret) errors.siret = siret.message;
  const chorusServiceCode = limited('chorusServiceCode');
  const engagementNumber = limited('engagementNumber');
  if (Object.keys(errors).length > 0 || !siren.ok || !companyName || (vat && !vat.ok) || (siret && !siret.ok)) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    buyer: {
      companyName,
      siren: siren.siren,
      vatNumber: vat?.ok ? vat.vatNumber : null,
      purchaseOrderReference,
      publicBody,
      siret: siret?.ok ? siret.siret : null,
      chorusServiceCode: publicBody ? chorusServiceCode : null,
      engagementNumber: publicBody ? engagementNumber : null,
    },
  };
}
