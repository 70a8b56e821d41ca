import { createHmac, timingSafeEqual } from 'node:crypto';
import { SHOP_TIME_ZONE } from '../format';

export { isMoneticoKey } from './monetico-key';

/*
 * Monetico Paiement (Crédit Mutuel / CIC), version 3.0 of the payment form: the rules of the
 * protocol, no I/O (node:crypto's HMAC only; this module is for the server, never the browser).
 *
 * The seal ("MAC") of a message is HMAC-SHA1, in hexadecimal, of every field of the message but
 * MAC itself, sorted by name (byte order, as PHP's ksort in Monetico's kit) and written
 * `name=value` joined by `*`. The key is the merchant's 40-character hexadecimal key, used as the
 * 20 bytes it encodes; older keys end with two characters that are not hexadecimal, which
 * Monetico's kit maps back to hexadecimal first (`usableKey`).
 *
 * The server-to-server return ("CGI2") is answered with exactly `version=2\ncdr=0\n` when its seal
 * is right (the notification is acknowledged, whatever the payment's outcome), `version=2\ncdr=1\n`
 * when it is not.
 */

export const MONETICO_VERSION = '3.0';

export const MONETICO_PAYMENT_URLS = {
  test: 'https://p.monetico-services.com/test/paiement.cgi',
  production: 'https://p.monetico-services.com/paiement.cgi',
} as const;

export const MONETICO_RECEIPT_OK = 'version=2\ncdr=0\n';
export const MONETICO_RECEIPT_ERROR = 'version=2\ncdr=1\n';

/** The text the seal is computed over: fields but MAC, sorted by name, `name=value` joined by `*`. */
export function moneticoMacInput(fields: Readonly<Record<string, string>>): string {
  return Object.keys(fields)
    .filter((name) => name !== 'MAC')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => `${name}=${fields[name]}`)
    .join('*');
}

/**
 * The key's bytes. A key's last two characters may be a legacy encoding (Monetico's kit,
 * `_getUsableKey`): a letter between G and `, or a trailing M, standing for hexadecimal digits.
 */
export function moneticoUsableKey(key: string): Buffer {
  const trimmed = key.trim();
  let hex = trimmed.slice(0, 38);
  const final = `${trimmed.slice(38, 40)}00`;
  const first = final.charCodeAt(0);
  if (first > 70 && first < 97) hex += String.fromCharCode(first - 23) + final.charAt(1);
  else if (final.charAt(1) === 'M') hex += `${final.charAt(0)}0`;
  else hex += final.slice(0, 2);
  return Buffer.from(hex, 'hex');
}

/** The seal of a message, lower-case hexadecimal. */
export function computeMoneticoMac(fields: Readonly<Record<string, string>>, key: string): string {
  return createHmac('sha1', moneticoUsableKey(key)).update(moneticoMacInput(fields), 'utf8').digest('hex');
}

/** Whether the message's MAC field is its seal (case-insensitive, constant time). */
export function verifyMoneticoMac(fields: Readonly<Record<string, string>>, key: string): boolean {
  const received = fields.MAC;
  if (typeof received !== 'string' || !/^[0-9A-Fa-f]{40}$/.test(received)) return false;
  const expected = Buffer.from(computeMoneticoMac(fields, key), 'hex');
  return timingSafeEqual(expected, Buffer.from(received, 'hex'));
}

/** 6273 -> "62.73EUR" (the form's `montant`). */
export function formatMoneticoAmount(cents: number, currency = 'EUR'): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`invalid amount: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}${currency}`;
}

/** "62.73EUR" (or "62.7EUR", "62EUR") -> cents and currency; null when malformed. */
export function parseMoneticoAmount(value: string): { cents: number; currency: string } | null {
  const match = /^(\d{1,9})(?:[.,](\d{1,2}))?([A-Z]{3})$/.exec(value.trim());
  if (!match) return null;
  const units = Number(match[1]);
  const fraction = (match[2] ?? '0').padEnd(2, '0');
  return { cents: units * 100 + Number(fraction), currency: match[3] as string };
}

const parisParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: SHOP_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** The form's `date`: "DD/MM/YYYY:HH:MM:SS", in French time. */
export function formatMoneticoDate(date: Date): string {
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parisParts.formatToParts(date).find((p) => p.type === type)?.value ?? '00';
  return `${part('day')}/${part('month')}/${part('year')}:${part('hour')}:${part('minute')}:${part('second')}`;
}

export type MoneticoOutcome = 'paid' | 'failed' | 'ignored';

/**
 * The payment's outcome from the return's `code-retour`: `paiement` (production) and `payetest`
 * (test terminal) are payments; `Annulation` is a refused or abandoned payment. A test payment on a
 * shop configured for production is not money received: it is ignored.
 */
export function moneticoOutcome(codeRetour: string, testMode: boolean): MoneticoOutcome {
  const code = codeRetour.trim().toLowerCase();
  if (code === 'paiement') return 'paid';
  if (code === 'payetest') return testMode ? 'paid' : 'ignored';
  if (code === 'annulation') return 'failed';
  return 'ignored';
}

export interface MoneticoBilling {
  firstName?: string;
  lastName?: string;
  email?: string;
  addressLine1?: string;
  city?: string;
  postalCode?: string;
  country: string;
}

/** `contexte_commande`: the order's context (billing address for 3-D Secure), JSON in base64. */
export function encodeOrderContext(billing: MoneticoBilling): string {
  const clean = Object.fromEntries(Object.entries(billing).filter(([, v]) => typeof v === 'string' && v !== ''));
  return Buffer.from(JSON.stringify({ billing: clean }), 'utf8').toString('base64');
}
