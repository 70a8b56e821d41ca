import { z } from 'zod';
import '../zod-config';
import { hasNoForbiddenCharacter } from '../text-input';

/*
 * The bank details a customer gives so that a refund can reach them by transfer
 * (docs/decisions/025-refund-iban.md): the account holder, the IBAN, the BIC when they have it.
 * Pure: the server checks the form here, never trusting the browser.
 *
 * An IBAN (ISO 13616) is checked three ways: its country is in the SEPA area (the shop pays in
 * euros by SEPA transfer), its length is that country's, and its check digits pass the mod-97
 * test (ISO 7064). A typo in one character, or two swapped, fails the test.
 */

/** SEPA countries and territories with their IBAN length (the SWIFT IBAN registry). */
export const SEPA_IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  VA: 22,
};

export const IBAN_MESSAGES = {
  holderRequired: 'Indiquez le nom du titulaire du compte.',
  holderTooLong: 'Le nom du titulaire est trop long (70 caractères au plus).',
  ibanRequired: 'Indiquez votre IBAN.',
  ibanCharacters: 'Un IBAN ne contient que des lettres et des chiffres, par exemple FR76 3000 6000 0112 3456 7890 189.',
  ibanCountry:
    'Cet IBAN n’est pas celui d’un pays de la zone SEPA : nous ne pouvons virer qu’en euros dans la zone SEPA.',
  ibanLength: (country: string, length: number) =>
    `Un IBAN ${country} compte ${length} caractères : vérifiez qu’il n’en manque pas et qu’il n’y en a pas de trop.`,
  ibanChecksum: 'Cet IBAN n’est pas valide : un caractère est probablement erroné. Recopiez-le depuis votre RIB.',
  bicInvalid: 'Le BIC compte 8 ou 11 lettres et chiffres, par exemple BNPAFRPP (facultatif).',
  forbidden: 'Ce champ contient un caractère non autorisé.',
} as const;

/** The customer's page (/remboursement/:orderId). */
export const IBAN_PAGE_MESSAGES = {
  nothingOwed: 'Aucun remboursement n’est en attente sur cette commande : votre IBAN n’est pas nécessaire.',
  failed: 'Votre IBAN n’a pas pu être enregistré. Réessayez dans un instant.',
} as const;

/** Spaces, dashes and dots removed, upper case: how an IBAN or BIC is stored and compared. */
export function compactCode(input: string): string {
  return input.replace(/[\s\u00a0\u202f.-]/g, '').toUpperCase();
}

/** ISO 7064 mod 97-10 over the IBAN moved to end with its country and check digits. */
export function ibanChecksumOk(iban: string): boolean {
  const moved = `${iban.slice(4)}${iban.slice(0, 4)}`;
  let remainder = 0;
  for (const char of moved) {
    const code = char.charCodeAt(0);
    // Letters count as two digits (A = 10 … Z = 35).
    const value = code >= 65 && code <= 90 ? String(code - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** Null when `input` is a valid SEPA IBAN, else the French message saying what is wrong. */
export function ibanProblem(input: string): string | null {
  const iban = compactCode(input);
  if (iban === '') return IBAN_MESSAGES.ibanRequired;
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(iban)) return IBAN_MESSAGES.ibanCharacters;
  const country = iban.slice(0, 2);
  const length = SEPA_IBAN_LENGTHS[country];
  if (length === undefined) return IBAN_MESSAGES.ibanCountry;
  if (iban.length !== length) return IBAN_MESSAGES.ibanLength(country, length);
  return ibanChecksumOk(iban) ? null : IBAN_MESSAGES.ibanChecksum;
}

/** `FR7630006000011234567890189` → `FR76 3000 6000 0112 3456 7890 189`: how a person reads and copies it. */
export function formatIban(iban: string): string {
  return compactCode(iban).replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * What the staff without the refund right, the customer's page and the e-mails show: the country,
 * the check digits and the last four characters (`FR76 •••• •••• 0189`), enough to tell two
 * accounts apart, never enough to pay into one.
 */
export function maskIban(iban: string): string {
  const compact = compactCode(iban);
  return `${compact.slice(0, 4)} •••• •••• ${compact.slice(-4)}`;
}

const BIC = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

export const ibanFormSchema = z.object({
  holder: z
    .string({ error: IBAN_MESSAGES.holderRequired })
    .trim()
    .min(1, IBAN_MESSAGES.holderRequired)
    .max(70, IBAN_MESSAGES.holderTooLong)
    .refine(hasNoForbiddenCharacter, IBAN_MESSAGES.forbidden),
  iban: z
    .string({ error: IBAN_MESSAGES.ibanRequired })
    .max(64, IBAN_MESSAGES.ibanCharacters)
    .transform((value, ctx) => {
      const problem = ibanProblem(value);
      if (problem) {
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
      return compactCode(value);
    }),
  bic: z
    .string()
    .max(20, IBAN_MESSAGES.bicInvalid)
    .optional()
    .transform((value, ctx) => {
      const bic = compactCode(value ?? '');
      if (bic === '') return null;
      if (!BIC.test(bic)) {
        ctx.addIssue({ code: 'custom', message: IBAN_MESSAGES.bicInvalid });
        return z.NEVER;
      }
      return bic;
    }),
});

export type IbanForm = z.output<typeof ibanFormSchema>;

/** Days after the request before the customer is reminded once (docs/payments.md, « IBAN »). */
export const IBAN_REMINDER_DAYS = 7;
/**
 * Days an IBAN given is kept when no refund is made with it (the refund cancelled, or never paid):
 * then deleted by the housekeeping. A paid refund deletes it at once.
 */
export const IBAN_MAX_KEEP_DAYS = 60;

/** The sentence of the e-mails and the order page. */
export function ibanRequestSentence(amountCents: number, formatEuros: (cents: number) => string): string {
  return `Indiquez-nous votre IBAN pour recevoir votre remboursement de ${formatEuros(amountCents)}`;
}
