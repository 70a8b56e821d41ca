import { NBSP } from '../format';

/*
 * Tracking numbers typed by the staff (« Expédier », and its correction). A number is checked for
 * the carrier it is typed for, so that a typo never reaches the customer with a tracking link:
 *
 *  - Colissimo / La Poste: 13 characters, either the domestic form (a digit, a letter, 11 digits:
 *    6A12345678901, 8R…, as Colissimo's own labels) or the international UPU S10 form (2 letters,
 *    8 digits, a check digit, the 2-letter country: RR123456785FR), whose check digit is verified
 *    (weights 8 6 4 2 3 5 9 7, modulus 11: 10 gives 0 and 11 gives 5);
 *  - another carrier: letters and digits, 5 to 40 (their formats vary), and no La Poste link.
 *
 * Spaces and dashes typed or pasted are dropped and letters upper-cased before checking.
 */

export const TYPED_CARRIERS = ['laposte', 'other'] as const;
export type TypedCarrier = (typeof TYPED_CARRIERS)[number];

export const PARCEL_NUMBER_MESSAGES = {
  laPoste: `Ce n’est pas un numéro de suivi Colissimo ou La Poste${NBSP}: 13 caractères, comme 6A12345678901 ou RR123456785FR.`,
  other: `Le numéro de suivi ne contient que des lettres et des chiffres (5 à 40).`,
} as const;

/** The number as carriers print it: no spaces nor dashes, upper case. */
export function normaliseParcelNumber(raw: string): string {
  return raw.replace(/[\s-]+/g, '').toUpperCase();
}

const S10_WEIGHTS = [8, 6, 4, 2, 3, 5, 9, 7] as const;

/** The UPU S10 check digit of the 8-digit serial number. */
export function s10CheckDigit(serial: string): number {
  const sum = [...serial].reduce((total, digit, index) => total + Number(digit) * (S10_WEIGHTS[index] ?? 0), 0);
  const check = 11 - (sum % 11);
  return check === 10 ? 0 : check === 11 ? 5 : check;
}

/** A Colissimo / La Poste tracking number (already normalised). */
export function isLaPosteParcelNumber(value: string): boolean {
  if (/^[0-9][A-Z][0-9]{11}$/.test(value)) return true;
  const s10 = /^[A-Z]{2}([0-9]{8})([0-9])[A-Z]{2}$/.exec(value);
  return s10 !== null && s10CheckDigit(s10[1] as string) === Number(s10[2]);
}

/** Why `value` (normalised) is not a tracking number of `carrier`, or null when it is one. */
export function parcelNumberProblem(carrier: TypedCarrier, value: string): string | null {
  if (carrier === 'laposte') return isLaPosteParcelNumber(value) ? null : PARCEL_NUMBER_MESSAGES.laPoste;
  return /^[A-Z0-9]{5,40}$/.test(value) ? null : PARCEL_NUMBER_MESSAGES.other;
}

/** The carrier recorded for a typed number: La Poste's are Colissimo's (tracked on laposte.fr). */
export function shipmentCarrier(carrier: TypedCarrier): 'colissimo' | 'other' {
  return carrier === 'laposte' ? 'colissimo' : 'other';
}
