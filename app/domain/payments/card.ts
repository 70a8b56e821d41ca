import { z } from 'zod';
import '../zod-config';
import { SHOP_TIME_ZONE } from '../format';

/*
 * The card form: cardholder, card number, expiry (MM/AA) and
 * CVV (at most 4 characters), all required. The number must pass the Luhn check and the expiry must
 * not be in the past. The zod schema is read on the server (parseWithZod in the sandbox gateway's
 * action); the browser only gets the formatting helpers, which need no zod.
 */

export const CARD_MESSAGES = {
  cardHolderRequired: 'Le nom du titulaire de la carte est requis',
  cardHolderTooLong: 'Le nom du titulaire ne doit pas dépasser 100 caractères',
  cardNumberRequired: 'Le numéro de carte est requis',
  cardNumberInvalid: 'Numéro de carte invalide',
  expiryRequired: 'La date d’expiration est requise',
  expiryFormat: 'La date d’expiration doit être au format MM/AA (par exemple 12/29)',
  expiryPast: 'Cette carte est expirée',
  cvvRequired: 'Le cryptogramme visuel (CVV) est requis',
  cvvInvalid: 'Le CVV doit contenir 3 ou 4 chiffres',
} as const;

/** The card number's digits: spaces and dashes, as people type them, are dropped. */
export function normaliseCardNumber(value: string): string {
  return value.replace(/[\s-]/g, '');
}

/** "4242424242424242" -> "4242 4242 4242 4242" (for display and for the field as one types). */
export function formatCardNumber(value: string): string {
  return normaliseCardNumber(value)
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** The Luhn (mod 10) check of a card number: digits only, 12 to 19 of them. */
export function luhnValid(value: string): boolean {
  const digits = normaliseCardNumber(value);
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The last four digits, the only part of a number that may be kept or shown. */
export function cardLast4(value: string): string {
  return normaliseCardNumber(value).slice(-4);
}

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'cb' | 'unknown';

export function cardBrand(value: string): CardBrand {
  const digits = normaliseCardNumber(value);
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  return 'unknown';
}

/**
 * The expiry as people type it -> month and full year, or null. Phones' numeric keypads have no
 * slash, so « 1229 » (and « 122029 ») are read like « 12/29 »; « 12 / 29 », « 12-29 », « 1/29 »
 * and « 12/2029 » too.
 */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const match =
    /^\s*(\d{1,2})\s*[/\-.\s]\s*(\d{2}|\d{4})\s*$/.exec(value) ?? /^\s*(\d{2})(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return null;
  const month = Number(match[1]);
  const rawYear = match[2] as string;
  const year = rawYear.length === 2 ? 2000 + Number(rawYear) : Number(rawYear);
  if (month < 1 || month > 12) return null;
  return { month, year };
}

/** The expiry in its printed form, « 12/29 »: what the server keeps of what was typed. */
export function normaliseExpiry(value: string): string {
  const expiry = parseExpiry(value);
  if (!expiry) return value.trim();
  return `${String(expiry.month).padStart(2, '0')}/${String(expiry.year % 100).padStart(2, '0')}`;
}

/**
 * The expiry field as one types (JavaScript only): the digits, with the slash put in after the
 * month — « 1 », « 12 », « 12/2 », « 12/29 ». Whatever is not a digit is dropped, so a slash typed
 * by hand is not doubled.
 */
export function formatExpiryInput(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

/** The CVV's digits: spaces typed between them are dropped. */
export function normaliseCvv(value: string): string {
  return value.replace(/\s/g, '');
}

const parisYearMonth = new Intl.DateTimeFormat('en-CA', {
  timeZone: SHOP_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
});

/** A card is valid until the end of its expiry month (in the shop's time zone). */
export function isExpired(expiry: { month: number; year: number }, now: Date = new Date()): boolean {
  const parts = parisYearMonth.formatToParts(now);
  const year = Number(parts.find((p) => p.type === 'year')?.value);
  const month = Number(parts.find((p) => p.type === 'month')?.value);
  return expiry.year < year || (expiry.year === year && expiry.month < month);
}

const required = (message: string) => z.string({ error: message }).trim().min(1, { error: message, abort: true });

/**
 * The card form's schema. `now` is read when a value is checked (a long-lived schema does not
 * freeze the date); tests pass a fixed clock.
 */
export function createCardFormSchema({ now = () => new Date() }: { now?: () => Date } = {}) {
  return z.object({
    cardHolder: required(CARD_MESSAGES.cardHolderRequired).max(100, CARD_MESSAGES.cardHolderTooLong),
    cardNumber: required(CARD_MESSAGES.cardNumberRequired)
      .transform(normaliseCardNumber)
      .refine(luhnValid, { error: CARD_MESSAGES.cardNumberInvalid }),
    expiryDate: required(CARD_MESSAGES.expiryRequired)
      .superRefine((value, ctx) => {
        const expiry = parseExpiry(value);
        if (!expiry) ctx.addIssue({ code: 'custom', message: CARD_MESSAGES.expiryFormat });
        else if (isExpired(expiry, now())) ctx.addIssue({ code: 'custom', message: CARD_MESSAGES.expiryPast });
      })
      .transform(normaliseExpiry),
    // Checked after the spaces are dropped: « 123 » typed as « 1 2 3 » is a CVV (no `pattern` for
    // the browser to refuse it before).
    cvv: required(CARD_MESSAGES.cvvRequired)
      .transform(normaliseCvv)
      .refine((cvv) => /^\d{3,4}$/.test(cvv), { error: CARD_MESSAGES.cvvInvalid }),
  });
}

// Pure: a page that only formats card numbers (the sandbox's form) leaves zod out of its bundle.
export const cardFormSchema = /* @__PURE__ */ createCardFormSchema();
export type CardForm = z.output<typeof cardFormSchema>;
