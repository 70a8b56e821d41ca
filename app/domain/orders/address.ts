import { z } from 'zod';
import { FORBIDDEN_CHARACTER_MESSAGE } from '../text-input';
import '../zod-config';

/*
 * The postal address of an order (docs/fulfilment.md): where the USB key, the DVD or the
 * originals go back, and who is invoiced. Frozen in `order_addresses` when the order is placed.
 *
 * The countries the shop ships to: France (métropole and Corse; the overseas departments are left
 * out: Colissimo's parcels there need a customs declaration and take weeks, too long for
 * irreplaceable originals) and the neighbouring countries Colissimo's « Europe » offer delivers
 * with tracking and signature. Each has its postal code format and its calling code, to check
 * the postal code and to write the phone number in the international form the carrier wants.
 */

interface CountryRule {
  name: string;
  /** The postal code once spaces are dropped and letters upper-cased. */
  postalCode: RegExp;
  /** An example in the French message of a wrong postal code. */
  postalCodeExample: string;
  callingCode: string;
  /** National numbers start with a trunk 0 that the international form drops (not in Italy…). */
  trunkZero: boolean;
}

const COUNTRY_RULES = {
  FR: { name: 'France', postalCode: /^[0-9]{5}$/, postalCodeExample: '75011', callingCode: '33', trunkZero: true },
  BE: { name: 'Belgique', postalCode: /^[0-9]{4}$/, postalCodeExample: '1000', callingCode: '32', trunkZero: true },
  LU: {
    name: 'Luxembourg',
    postalCode: /^[0-9]{4}$/,
    postalCodeExample: '1009',
    callingCode: '352',
    trunkZero: false,
  },
  CH: { name: 'Suisse', postalCode: /^[0-9]{4}$/, postalCodeExample: '1200', callingCode: '41', trunkZero: true },
  MC: { name: 'Monaco', postalCode: /^980[0-9]{2}$/, postalCodeExample: '98000', callingCode: '377', trunkZero: false },
  DE: { name: 'Allemagne', postalCode: /^[0-9]{5}$/, postalCodeExample: '10115', callingCode: '49', trunkZero: true },
  ES: { name: 'Espagne', postalCode: /^[0-9]{5}$/, postalCodeExample: '28001', callingCode: '34', trunkZero: false },
  IT: { name: 'Italie', postalCode: /^[0-9]{5}$/, postalCodeExample: '00118', callingCode: '39', trunkZero: false },
  NL: {
    name: 'Pays-Bas',
    postalCode: /^[0-9]{4}[A-Z]{2}$/,
    postalCodeExample: '1011 AB',
    callingCode: '31',
    trunkZero: true,
  },
  PT: {
    name: 'Portugal',
    postalCode: /^[0-9]{4}-?[0-9]{3}$/,
    postalCodeExample: '1100-148',
    callingCode: '351',
    trunkZero: false,
  },
} as const satisfies Record<string, CountryRule>;

export type ShippingCountry = keyof typeof COUNTRY_RULES;
export const SHIPPING_COUNTRIES = Object.keys(COUNTRY_RULES) as ShippingCountry[];

export function isShippingCountry(value: unknown): value is ShippingCountry {
  return typeof value === 'string' && Object.hasOwn(COUNTRY_RULES, value);
}

/** The country's French name (the code itself for one we do not ship to, as an old row may hold). */
export function countryName(code: string): string {
  return isShippingCountry(code) ? COUNTRY_RULES[code].name : code;
}

/** The ISO code of a country given by its code or its French name (as documents print it); null for another. */
export function countryCodeOf(codeOrName: string): ShippingCountry | null {
  const value = codeOrName.trim();
  if (isShippingCountry(value.toUpperCase())) return value.toUpperCase() as ShippingCountry;
  const found = SHIPPING_COUNTRIES.find((code) => COUNTRY_RULES[code].name.toLowerCase() === value.toLowerCase());
  return found ?? null;
}

/** Colissimo prints 35 characters per address line: a longer one would be cut on the label. */
export const ADDRESS_LINE_MAX = 35;

export const ADDRESS_MESSAGES = {
  firstName: 'Veuillez saisir le prénom du destinataire',
  lastName: 'Veuillez saisir le nom du destinataire',
  line1: 'Veuillez saisir le numéro et la rue',
  postalCode: 'Veuillez saisir le code postal',
  postalCodeInvalid: (country: ShippingCountry) =>
    `Code postal invalide pour ce pays (exemple\u00a0: ${COUNTRY_RULES[country].postalCodeExample})`,
  city: 'Veuillez saisir la ville',
  country:
    'Nous livrons en France, en Belgique, au Luxembourg, en Suisse, à Monaco, en Allemagne, en Espagne, en Italie, aux Pays-Bas et au Portugal',
  phone: 'Veuillez saisir un numéro de téléphone (le transporteur peut en avoir besoin)',
  phoneInvalid:
    'Numéro de téléphone invalide (exemple\u00a0: 06\u00a012\u00a034\u00a056\u00a078 ou +32\u00a0470\u00a012\u00a034\u00a056)',
  tooLong: (max: number) => `Ce champ ne doit pas dépasser ${max}\u00a0caractères`,
} as const;

export interface PostalAddress {
  firstName: string;
  lastName: string;
  company: string | null;
  line1: string;
  line2: string | null;
  postalCode: string;
  city: string;
  country: ShippingCountry;
  /** International form, `+33612345678`. */
  phone: string;
}

export const ADDRESS_FIELDS = [
  'firstName',
  'lastName',
  'company',
  'line1',
  'line2',
  'postalCode',
  'city',
  'country',
  'phone',
] as const satisfies readonly (keyof PostalAddress)[];
export type AddressField = (typeof ADDRESS_FIELDS)[number];
export type AddressFieldErrors = Partial<Record<AddressField, string>>;
export type AddressFormValues = Record<AddressField, string>;

// Control characters (NUL that PostgreSQL's text refuses, line breaks that would split a label
// line, escapes) have no place in an address typed into one-line fields.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it looks for.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

const text = (max: number) =>
  z
    .string()
    .transform((value) => value.trim().replace(/\s+/g, ' '))
    .refine((value) => !CONTROL_CHARACTER.test(value), FORBIDDEN_CHARACTER_MESSAGE)
    .refine((value) => value.length <= max, ADDRESS_MESSAGES.tooLong(max));

const required = (max: number, message: string) =>
  z
    .string({ error: message })
    .pipe(text(max))
    .refine((value) => value.length > 0, message);

const optional = (max: number) =>
  z
    .string()
    .optional()
    .transform((value) => value ?? '')
    .pipe(text(max))
    .transform((value) => (value ? value : null));

/** The postal code as the post office writes it (Dutch `1011 AB`, Portuguese `1100-148`). */
export function normalisePostalCode(country: ShippingCountry, value: string): string | null {
  const compact = value.replace(/\s+/g, '').toUpperCase();
  if (!COUNTRY_RULES[country].postalCode.test(compact)) return null;
  if (country === 'NL') return `${compact.slice(0, 4)} ${compact.slice(4)}`;
  if (country === 'PT') return compact.includes('-') ? compact : `${compact.slice(0, 4)}-${compact.slice(4)}`;
  return compact;
}

/**
 * The phone number in international form (`+33612345678`): typed the French way (06 12 34 56 78),
 * the national way of the address's country, or already international (+32…, 0032…).
 */
export function normalisePhone(country: ShippingCountry, value: string): string | null {
  const compact = value.replace(/[\s.()/-]/g, '');
  let international: string;
  if (compact.startsWith('+')) international = compact;
  else if (compact.startsWith('00')) international = `+${compact.slice(2)}`;
  else {
    const rule = COUNTRY_RULES[country];
    if (rule.trunkZero && !compact.startsWith('0')) return null;
    international = `+${rule.callingCode}${rule.trunkZero ? compact.slice(1) : compact}`;
  }
  // E.164: at most 15 digits; 8 is the shortest number among the countries we ship to.
  if (!/^\+[1-9][0-9]{7,14}$/.test(international)) return null;
  // A French number has 9 digits after +33.
  if (international.startsWith('+33') && international.length !== 12) return null;
  return international;
}

const addressFieldsSchema = z.object({
  firstName: required(50, ADDRESS_MESSAGES.firstName),
  lastName: required(50, ADDRESS_MESSAGES.lastName),
  company: optional(ADDRESS_LINE_MAX),
  line1: required(ADDRESS_LINE_MAX, ADDRESS_MESSAGES.line1),
  line2: optional(ADDRESS_LINE_MAX),
  postalCode: required(10, ADDRESS_MESSAGES.postalCode),
  city: required(ADDRESS_LINE_MAX, ADDRESS_MESSAGES.city),
  country: z.string({ error: ADDRESS_MESSAGES.country }).refine(isShippingCountry, ADDRESS_MESSAGES.country),
  phone: required(30, ADDRESS_MESSAGES.phone),
});

/**
 * Validates an address typed into a form; the first French message of each field. The postal
 * code and the phone depend on the country: checked even when another field is wrong, so that the
 * customer sees every mistake at once.
 */
export function parseAddress(
  input: unknown,
): { success: true; data: PostalAddress } | { success: false; fieldErrors: AddressFieldErrors } {
  const parsed = addressFieldsSchema.safeParse(input ?? {});
  const fieldErrors: AddressFieldErrors = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as AddressField;
      if (ADDRESS_FIELDS.includes(field) && !fieldErrors[field]) fieldErrors[field] = issue.message;
    }
  }
  const raw = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const country = isShippingCountry(raw.country) ? raw.country : null;
  const postalCode =
    country && typeof raw.postalCode === 'string' ? normalisePostalCode(country, raw.postalCode) : null;
  const phone = country && typeof raw.phone === 'string' ? normalisePhone(country, raw.phone) : null;
  if (country && !fieldErrors.postalCode && !postalCode) {
    fieldErrors.postalCode = ADDRESS_MESSAGES.postalCodeInvalid(country);
  }
  if (country && !fieldErrors.phone && !phone) fieldErrors.phone = ADDRESS_MESSAGES.phoneInvalid;
  if (parsed.success && country && postalCode && phone && Object.keys(fieldErrors).length === 0) {
    return { success: true, data: { ...parsed.data, country, postalCode, phone } };
  }
  // A forged body that is not an object at all: point at the first field.
  if (Object.keys(fieldErrors).length === 0) fieldErrors.firstName = ADDRESS_MESSAGES.firstName;
  return { success: false, fieldErrors };
}

/**
 * The billing address of an order with nothing physical (docs/invoicing.md): the same fields and
 * rules as a postal address, but the phone is not asked (it serves the carrier only). Every buyer,
 * consumer or business, gives it: each invoice names its buyer where they live.
 */
export function parseBillingAddress(
  form: AddressFormValues,
): { success: true; data: PostalAddress } | { success: false; fieldErrors: AddressFieldErrors } {
  // A placeholder number stands for the phone not asked, dropped from the address returned.
  const parsed = parseAddress({ ...form, phone: '+33100000000' });
  if (!parsed.success) return parsed;
  return { success: true, data: { ...parsed.data, phone: '' } };
}

/** The phone number for reading: `+33 6 12 34 56 78` for a French one, grouped otherwise. */
export function formatPhone(phone: string): string {
  if (/^\+33[0-9]{9}$/.test(phone)) {
    return `0${phone.slice(3, 4)} ${phone.slice(4).replace(/([0-9]{2})(?=[0-9])/g, '$1 ')}`;
  }
  return phone;
}

type DisplayedAddress = Omit<PostalAddress, 'country' | 'phone'> & { country: string; phone?: string | null };

/** An address frozen on an order (order_addresses), as the customer's and the staff's pages show it. */
export interface FrozenAddress {
  firstName: string;
  lastName: string;
  company: string | null;
  line1: string;
  line2: string | null;
  postalCode: string;
  city: string;
  /** ISO code (FR, BE…). */
  country: string;
  phone: string | null;
}

/** The lines of the address as printed on an envelope: name, company, street, code and city, country. */
export function addressLines(address: DisplayedAddress): string[] {
  return [
    `${address.firstName} ${address.lastName}`.trim(),
    address.company,
    address.line1,
    address.line2,
    `${address.postalCode} ${address.city}`,
    countryName(address.country),
  ].filter((line): line is string => Boolean(line));
}

/** Same recipient at the same place (the invoice prints the delivery address only when it differs). */
export function sameAddress(a: DisplayedAddress, b: DisplayedAddress): boolean {
  return addressLines(a).join('\n') === addressLines(b).join('\n');
}
