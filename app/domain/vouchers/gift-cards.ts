import { z } from 'zod';
import '../zod-config';
import { addDays, type CalendarDay, dayKey, fromParisWallClock, parisWallClock } from '../calendar';
import { formatDateFr, formatEurosFromCents, NBSP } from '../format';
import { parseEurosToCents } from '../orders/refund-form';
import { FORBIDDEN_CHARACTER_MESSAGE, hasNoForbiddenCharacter } from '../text-input';

/*
 * Gift cards (« cartes cadeaux »): single-purpose vouchers bought online that pay all or part of
 * later orders. Pure: the server decides everything here and only reads and writes the ledger.
 *
 * The balance is never stored: it is the sum of the card's ledger, so there is no second copy that
 * could drift from the entries. Every entry carries a positive amount and its kind says which way
 * the money goes:
 *  - `issued`   + the amount bought, once, the first entry;
 *  - `spent`    − on an order, at most the balance, before the expiry instant;
 *  - `restored` + on an order refunded or cancelled, at most what that order took from the card
 *                 net of what was already given back to it, and never to an expired card;
 *  - `expired`  − exactly the balance left, once the expiry instant has passed;
 *  - `refunded` − exactly the balance, for a card never used (a withdrawal, or the staff).
 * `expired` and `refunded` close the card: nothing more is written after them. With these rules
 * the balance stays between 0 and the amount issued: no entry can make it negative or create money.
 */

// ---------------------------------------------------------------------------------------------
// Codes
// ---------------------------------------------------------------------------------------------

/*
 * A code is 16 symbols of Crockford's base32, shown `XXXX-XXXX-XXXX-XXXX`: 15 random symbols
 * (75 bits: no one guesses a live card) and a check symbol, so that a typo is refused before any
 * lookup (no database query, no attempt counted against the person for a slip of the finger).
 *
 * The check symbol is a weighted sum over the field GF(32) (polynomial x⁵ + x² + 1, α = x): the
 * 16 symbols x₀…x₁₅ of a valid code satisfy Σ α^(15−i)·xᵢ = 0. A substitution of e ≠ 0 at i
 * changes the sum by α^(15−i)·e ≠ 0; swapping two different symbols at i < j changes it by
 * (α^(15−i) + α^(15−j))·(xᵢ + xⱼ) ≠ 0, as α has order 31 > 15. So every single-symbol
 * substitution and every transposition (adjacent or not) is caught, and the check symbol stays in
 * the 32-symbol alphabet (Crockford's mod-37 check would need five more symbols, `*~$=U`, awkward
 * to read aloud and to type).
 */

export const GIFT_CARD_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const GIFT_CARD_CODE_LENGTH = 16;
/** Random bytes the generator takes: one per random symbol (the server passes crypto bytes). */
export const GIFT_CARD_CODE_RANDOM_BYTES = GIFT_CARD_CODE_LENGTH - 1;

const SYMBOL_VALUES: ReadonlyMap<string, number> = new Map(
  [...GIFT_CARD_CODE_ALPHABET].map((symbol, value) => [symbol, value]),
);

/** v·α in GF(32) = GF(2)[x] / (x⁵ + x² + 1). */
function timesAlpha(value: number): number {
  const shifted = value << 1;
  return shifted & 0b100000 ? shifted ^ 0b100101 : shifted;
}

/** Σ α^(n−1−i)·xᵢ over the symbols' values, by Horner's rule. */
function weightedSum(values: readonly number[]): number {
  return values.reduce((sum, value) => timesAlpha(sum) ^ value, 0);
}

/**
 * A new code (compact, 16 symbols) from 15 random bytes. 256 is a multiple of 32, so each byte's
 * low 5 bits give a uniformly random symbol.
 */
export function generateGiftCardCode(randomBytes: Uint8Array): string {
  if (randomBytes.length < GIFT_CARD_CODE_RANDOM_BYTES) {
    throw new RangeError(`a gift card code needs ${GIFT_CARD_CODE_RANDOM_BYTES} random bytes`);
  }
  const values = [...randomBytes.subarray(0, GIFT_CARD_CODE_RANDOM_BYTES)].map((byte) => byte & 31);
  // Appending c to the 15 symbols gives α·sum + c: the sum of the 16 is 0 when c = α·sum.
  values.push(timesAlpha(weightedSum(values)));
  return values.map((value) => GIFT_CARD_CODE_ALPHABET[value]).join('');
}

/** What was typed, read as Crockford's base32: no space nor dash, upper case, `O` as 0, `I` and `L` as 1. */
function readSymbols(input: string): string {
  return input
    .trim()
    .toUpperCase()
    .replace(/[\s\u00a0\u202f\u2010-\u2015\u2212-]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
}

/**
 * What a person typed or pasted → the compact code (`K7M2…`), or null when it cannot be a code
 * (wrong length, a character outside the alphabet, a check symbol that does not match). Spaces and
 * dashes go (also the no-break ones an e-mail may put there); `O` reads as 0, `I` and `L` as 1, as
 * Crockford's base32 wants, since a printed card is read by eye.
 */
export function normaliseGiftCardCode(input: string): string | null {
  // A pasted page is not a code: no need to scan it.
  if (input.length > 64) return null;
  const code = readSymbols(input);
  if (code.length !== GIFT_CARD_CODE_LENGTH) return null;
  const values: number[] = [];
  for (const symbol of code) {
    const value = SYMBOL_VALUES.get(symbol);
    if (value === undefined) return null;
    values.push(value);
  }
  return weightedSum(values) === 0 ? code : null;
}

/**
 * What the staff typed to find a card, read as a code is (separators and the masking bullets of
 * `••••-••••-••••-6WAB` dropped, `O` as 0, `I` and `L` as 1): its symbols, or null when a character
 * is not of the alphabet. The back office's search reads the last four symbols, or a code with a
 * typo, from it.
 */
export function readGiftCardSymbols(input: string): string | null {
  if (input.length > 64) return null;
  const symbols = readSymbols(input.replace(/•/g, ''));
  return symbols !== '' && [...symbols].every((symbol) => SYMBOL_VALUES.has(symbol)) ? symbols : null;
}

/** `K7M2P9QRX4TB6WAB` → `K7M2-P9QR-X4TB-6WAB`: how the card, the e-mails and the account show it. */
export function formatGiftCardCode(code: string): string {
  return code.replace(/(.{4})(?=.)/g, '$1-');
}

/**
 * `••••-••••-••••-6WAB`: what logs, the back office's lists and the buyer's account show. The last
 * four symbols tell two cards apart; the twelve others hidden leave 60 random bits unknown. Whatever
 * is passed (a typed attempt too), at most its last four characters are shown.
 */
export function maskGiftCardCode(code: string): string {
  const compact = [...code.toUpperCase().replace(/[\s\u00a0\u202f\u2010-\u2015\u2212-]/g, '')];
  return `••••-••••-••••-${compact.slice(-4).join('')}`;
}

// ---------------------------------------------------------------------------------------------
// Ledger
// ---------------------------------------------------------------------------------------------

export const GIFT_CARD_ENTRY_KINDS = ['issued', 'spent', 'restored', 'expired', 'refunded'] as const;
export type GiftCardEntryKind = (typeof GIFT_CARD_ENTRY_KINDS)[number];

export interface GiftCardEntry {
  kind: GiftCardEntryKind;
  /** Always > 0: the kind says whether it adds to the balance (issued, restored) or takes from it. */
  amountCents: number;
  /** The order a `spent` or `restored` entry belongs to (required for them); free for the others. */
  orderId: string | null;
  at: Date;
}

/** A card as its rules need it: its ledger, oldest entry first, and its expiry instant. */
export interface GiftCardLedger {
  entries: readonly GiftCardEntry[];
  expiresAt: Date;
}

/** Which way each kind moves the balance (the ledger's amounts are all positive). */
export const GIFT_CARD_ENTRY_DIRECTION: Readonly<Record<GiftCardEntryKind, 1 | -1>> = {
  issued: 1,
  spent: -1,
  restored: 1,
  expired: -1,
  refunded: -1,
};

export const GIFT_CARD_MESSAGES = {
  notPositive: 'Le montant doit être supérieur à zéro, au centime près.',
  notIssued: 'Cette carte cadeau n’a pas encore été émise.',
  alreadyIssued: 'Cette carte cadeau a déjà été émise.',
  canceled: `Cette carte cadeau a été annulée et remboursée${NBSP}: elle ne peut plus être utilisée.`,
  expired: (expiresAt: Date) =>
    `Cette carte cadeau a expiré le ${formatDateFr(expiresAt)}${NBSP}: elle ne peut plus être utilisée.`,
  notYetExpired: (expiresAt: Date) =>
    `Cette carte cadeau est valable jusqu’au ${formatDateFr(expiresAt)}${NBSP}: elle n’a pas encore expiré.`,
  aboveBalance: (balanceCents: number) =>
    `Le solde de la carte cadeau n’est que de ${formatEurosFromCents(balanceCents)}.`,
  orderRequired: 'Indiquez la commande concernée.',
  nothingToRestore: `Rien n’est à rendre à la carte cadeau sur cette commande${NBSP}: elle n’a rien payé, ou tout lui a déjà été rendu.`,
  aboveRestorable: (restorableCents: number) =>
    `Cette commande ne peut rendre que ${formatEurosFromCents(restorableCents)} à la carte cadeau.`,
  notWholeBalance: (balanceCents: number) =>
    `Le montant doit être le solde exact de la carte cadeau, ${formatEurosFromCents(balanceCents)}.`,
  notUnused: `Cette carte cadeau a déjà servi${NBSP}: elle ne peut plus être annulée et remboursée.`,
} as const;

/** The balance: what was issued and restored, less what was spent, expired and refunded. */
export function giftCardBalanceCents(entries: readonly GiftCardEntry[]): number {
  return entries.reduce((balance, entry) => balance + GIFT_CARD_ENTRY_DIRECTION[entry.kind] * entry.amountCents, 0);
}

/** What the card may still get back on an order: what the order took from it, less what it gave back. */
export function giftCardRestorableCents(entries: readonly GiftCardEntry[], orderId: string): number {
  let net = 0;
  for (const entry of entries) {
    if (entry.orderId !== orderId) continue;
    if (entry.kind === 'spent') net += entry.amountCents;
    else if (entry.kind === 'restored') net -= entry.amountCents;
  }
  return Math.max(net, 0);
}

function closingEntry(entries: readonly GiftCardEntry[]): GiftCardEntry | undefined {
  return entries.find((entry) => entry.kind === 'expired' || entry.kind === 'refunded');
}

function hasPassed(instant: Date, now: Date): boolean {
  return now.getTime() >= instant.getTime();
}

/**
 * Null when `next` may be written after the card's entries, else the French reason why not. The
 * entries must be read in the transaction that writes `next`, with the card locked: two spends at
 * once must not both be checked against the same balance.
 */
export function giftCardEntryProblem(card: GiftCardLedger, next: GiftCardEntry): string | null {
  const { entries, expiresAt } = card;
  if (next.kind === 'issued') {
    if (entries.length > 0) return GIFT_CARD_MESSAGES.alreadyIssued;
    return Number.isSafeInteger(next.amountCents) && next.amountCents > 0 ? null : GIFT_CARD_MESSAGES.notPositive;
  }
  if (entries[0]?.kind !== 'issued') return GIFT_CARD_MESSAGES.notIssued;
  const closing = closingEntry(entries);
  if (closing) return closing.kind === 'expired' ? GIFT_CARD_MESSAGES.expired(expiresAt) : GIFT_CARD_MESSAGES.canceled;
  if (!Number.isSafeInteger(next.amountCents) || next.amountCents <= 0) return GIFT_CARD_MESSAGES.notPositive;
  const balance = giftCardBalanceCents(entries);
  const expired = hasPassed(expiresAt, next.at);
  switch (next.kind) {
    case 'spent':
      if (next.orderId === null) return GIFT_CARD_MESSAGES.orderRequired;
      if (expired) return GIFT_CARD_MESSAGES.expired(expiresAt);
      return next.amountCents > balance ? GIFT_CARD_MESSAGES.aboveBalance(balance) : null;
    case 'restored': {
      if (next.orderId === null) return GIFT_CARD_MESSAGES.orderRequired;
      // Money given back after the expiry would revive a dead card: it goes by the other method.
      if (expired) return GIFT_CARD_MESSAGES.expired(expiresAt);
      const restorable = giftCardRestorableCents(entries, next.orderId);
      if (restorable === 0) return GIFT_CARD_MESSAGES.nothingToRestore;
      return next.amountCents > restorable ? GIFT_CARD_MESSAGES.aboveRestorable(restorable) : null;
    }
    case 'expired':
      if (!expired) return GIFT_CARD_MESSAGES.notYetExpired(expiresAt);
      return next.amountCents === balance ? null : GIFT_CARD_MESSAGES.notWholeBalance(balance);
    case 'refunded':
      // Once a card has paid for something, the money is the shop's turnover, not the buyer's.
      if (entries.some((entry) => entry.kind === 'spent')) return GIFT_CARD_MESSAGES.notUnused;
      return next.amountCents === balance ? null : GIFT_CARD_MESSAGES.notWholeBalance(balance);
  }
}

export const GIFT_CARD_STATES = ['active', 'spent', 'expired', 'canceled'] as const;
export type GiftCardState = (typeof GIFT_CARD_STATES)[number];

export const GIFT_CARD_STATE_LABELS: Readonly<Record<GiftCardState, string>> = {
  active: 'Active',
  spent: 'Utilisée',
  expired: 'Expirée',
  canceled: 'Annulée',
};

/**
 * The card as shown: closed by a refund (canceled) or by its expiry entry (expired); else used up
 * when nothing is left (even past the expiry, « Utilisée » says more than « Expirée »); else
 * expired once the instant has passed, before the housekeeping has written the entry.
 */
export function giftCardState(card: GiftCardLedger, now: Date): GiftCardState {
  const closing = closingEntry(card.entries);
  if (closing) return closing.kind === 'refunded' ? 'canceled' : 'expired';
  if (giftCardBalanceCents(card.entries) <= 0) return 'spent';
  return hasPassed(card.expiresAt, now) ? 'expired' : 'active';
}

// ---------------------------------------------------------------------------------------------
// Validity
// ---------------------------------------------------------------------------------------------

/** Months a card is valid when the price list says nothing. */
export const DEFAULT_GIFT_CARD_VALIDITY_MONTHS = 12;
/** The reminder e-mail is due from this many days (of 24 hours) before the expiry. */
export const GIFT_CARD_REMINDER_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The expiry instant: `months` after the purchase, on the Paris calendar and at the same Paris
 * clock time; a day the target month lacks becomes its last day (31 January + 1 month = 28 or
 * 29 February), never the first days of the month after.
 */
export function giftCardExpiresAt(issuedAt: Date, months: number = DEFAULT_GIFT_CARD_VALIDITY_MONTHS): Date {
  if (!Number.isSafeInteger(months) || months <= 0) throw new RangeError(`validity must be whole months: ${months}`);
  const wall = new Date(parisWallClock(issuedAt.getTime()));
  const year = wall.getUTCFullYear();
  const month = wall.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const target = Date.UTC(
    year,
    month,
    Math.min(wall.getUTCDate(), lastDay),
    wall.getUTCHours(),
    wall.getUTCMinutes(),
    wall.getUTCSeconds(),
    wall.getUTCMilliseconds(),
  );
  return new Date(fromParisWallClock(target));
}

/**
 * Whether the reminder e-mail (« votre carte expire bientôt ») is due: once, from
 * GIFT_CARD_REMINDER_DAYS before the expiry, while the card is active (money left, not closed,
 * not expired).
 */
export function giftCardReminderDue(card: GiftCardLedger, reminderSentAt: Date | null, now: Date): boolean {
  if (reminderSentAt !== null) return false;
  if (giftCardState(card, now) !== 'active') return false;
  return now.getTime() >= card.expiresAt.getTime() - GIFT_CARD_REMINDER_DAYS * DAY_MS;
}

// ---------------------------------------------------------------------------------------------
// Paying and refunding
// ---------------------------------------------------------------------------------------------

function checkCents(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`${what} must be whole cents, not negative: ${value}`);
}

/**
 * How an order's amount due is paid: the card pays what it can, min(balance, due), the rest goes
 * to another method. An inactive card (closed, expired, empty) pays nothing. A positive
 * `fromCardCents` is a `spent` entry that giftCardEntryProblem accepts at `now`.
 */
export function splitGiftCardPayment(
  card: GiftCardLedger,
  dueCents: number,
  now: Date,
): { fromCardCents: number; fromOtherCents: number } {
  checkCents(dueCents, 'the amount due');
  const fromCardCents =
    giftCardState(card, now) === 'active' ? Math.min(giftCardBalanceCents(card.entries), dueCents) : 0;
  return { fromCardCents, fromOtherCents: dueCents - fromCardCents };
}

/**
 * How a refund of an order paid partly by the card goes back: to the card first, up to what the
 * order took from it net of earlier restorations, the rest by the order's other method. Nothing
 * goes back to an expired or closed card: all of it goes by the other method. The two parts
 * always add up to the refund; a positive `toCardCents` is a `restored` entry that
 * giftCardEntryProblem accepts at `now`.
 */
export function splitGiftCardRefund(
  card: GiftCardLedger,
  orderId: string,
  refundCents: number,
  now: Date,
): { toCardCents: number; toOtherCents: number } {
  checkCents(refundCents, 'the refund');
  const open = closingEntry(card.entries) === undefined && !hasPassed(card.expiresAt, now);
  const toCardCents = open ? Math.min(refundCents, giftCardRestorableCents(card.entries, orderId)) : 0;
  return { toCardCents, toOtherCents: refundCents - toCardCents };
}

// ---------------------------------------------------------------------------------------------
// The purchase form
// ---------------------------------------------------------------------------------------------

export const GIFT_CARD_DELIVERIES = ['email', 'print'] as const;

export const GIFT_CARD_MAX_LENGTH = { recipientName: 80, recipientEmail: 254, message: 500 } as const;
/** The e-mail can be sent from today up to this many days ahead. */
export const GIFT_CARD_MAX_SEND_DAYS = 365;

export const GIFT_CARD_PURCHASE_MESSAGES = {
  amountRequired: 'Indiquez le montant de la carte cadeau.',
  amountInvalid: 'Indiquez un montant en euros, au centime près, par exemple 50 ou 49,90.',
  amountOutOfBounds: (minCents: number, maxCents: number) =>
    `Le montant doit être compris entre ${formatEurosFromCents(minCents)} et ${formatEurosFromCents(maxCents)}.`,
  recipientNameRequired: 'Indiquez le nom de la personne à qui vous offrez la carte.',
  recipientNameTooLong: `Le nom est trop long (${GIFT_CARD_MAX_LENGTH.recipientName} caractères au plus).`,
  recipientEmailRequired: 'Indiquez l’adresse e-mail de la personne à qui vous offrez la carte.',
  recipientEmailInvalid: 'Cette adresse e-mail n’est pas valide.',
  recipientEmailTooLong: `L’adresse e-mail est trop longue (${GIFT_CARD_MAX_LENGTH.recipientEmail} caractères au plus).`,
  messageTooLong: `Le message est trop long (${GIFT_CARD_MAX_LENGTH.message} caractères au plus).`,
  deliveryInvalid: `Choisissez comment offrir la carte${NBSP}: par e-mail ou à imprimer.`,
  sendDateRequired: 'Choisissez la date à laquelle envoyer la carte par e-mail.',
  sendDateOutOfRange: 'Choisissez une date d’envoi entre aujourd’hui et dans un an.',
  forbidden: FORBIDDEN_CHARACTER_MESSAGE,
} as const;

const M = GIFT_CARD_PURCHASE_MESSAGES;

// One-line fields: no control character at all (a line break in a name would split an e-mail's
// header or the printed card's line). The message keeps its line breaks and nothing else.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it looks for.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it looks for.
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f]/;

/** `2026-05-12` → the calendar day, or null when it is not one (`2026-02-30`, `12/05/2026`). */
function calendarDayOf(key: string): CalendarDay | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key);
  if (!match) return null;
  const day = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  return dayKey(addDays(day, 0)) === key ? day : null;
}

/**
 * The purchase form's fields as posted (strings) → the purchase, amounts in cents. `bounds` are
 * the price list's; `today` is the Paris day (`YYYY-MM-DD`) against which the send date is checked.
 * The send date counts only for a card sent by e-mail (a card to print has none: null).
 */
export function giftCardPurchaseSchema(bounds: { minCents: number; maxCents: number }, today: string) {
  const { minCents, maxCents } = bounds;
  if (!Number.isSafeInteger(minCents) || !Number.isSafeInteger(maxCents) || minCents <= 0 || minCents > maxCents) {
    throw new RangeError(`gift card bounds must be whole cents, 0 < min ≤ max: ${minCents}, ${maxCents}`);
  }
  const todayDay = calendarDayOf(today);
  if (!todayDay) throw new RangeError(`today must be a YYYY-MM-DD day: ${today}`);
  // Keys of YYYY-MM-DD days compare as strings in calendar order.
  const lastSendDay = dayKey(addDays(todayDay, GIFT_CARD_MAX_SEND_DAYS));

  return z
    .object({
      // An empty field reaches the schema as undefined (Conform's parseWithZod): the same message.
      amount: z.string({ error: M.amountRequired }).transform((value, ctx) => {
        if (value.trim() === '') {
          ctx.addIssue({ code: 'custom', message: M.amountRequired });
          return z.NEVER;
        }
        const cents = parseEurosToCents(value);
        if (cents === null) {
          ctx.addIssue({ code: 'custom', message: M.amountInvalid });
          return z.NEVER;
        }
        if (cents < minCents || cents > maxCents) {
          ctx.addIssue({ code: 'custom', message: M.amountOutOfBounds(minCents, maxCents) });
          return z.NEVER;
        }
        return cents;
      }),
      // No `abort: true` on these checks: an explicitly aborted issue anywhere in the form stops the
      // send date's refinement below (its `when` is then not even asked), and an empty name would
      // hide a wrong date. The page keeps each field's first message; the pipe stops on any issue.
      recipientName: z
        .string({ error: M.recipientNameRequired })
        .trim()
        .min(1, M.recipientNameRequired)
        .max(GIFT_CARD_MAX_LENGTH.recipientName, M.recipientNameTooLong)
        .refine((value) => hasNoForbiddenCharacter(value) && !CONTROL_CHARACTER.test(value), M.forbidden),
      recipientEmail: z
        .string({ error: M.recipientEmailRequired })
        .trim()
        .min(1, M.recipientEmailRequired)
        .max(GIFT_CARD_MAX_LENGTH.recipientEmail, M.recipientEmailTooLong)
        .pipe(z.email({ error: M.recipientEmailInvalid })),
      message: z
        .string()
        .optional()
        // A textarea posts CRLF line breaks: counted and kept as one character each.
        .transform((value) => (value ?? '').replace(/\r\n?/g, '\n').trim())
        .refine((value) => value.length <= GIFT_CARD_MAX_LENGTH.message, M.messageTooLong)
        .refine((value) => hasNoForbiddenCharacter(value) && !CONTROL_BUT_NEWLINE.test(value), M.forbidden)
        .transform((value) => (value === '' ? null : value)),
      delivery: z.enum(GIFT_CARD_DELIVERIES, { error: M.deliveryInvalid }),
      sendDate: z.string().optional(),
    })
    .superRefine(
      (form, ctx) => {
        if (form.delivery !== 'email') return;
        const sendDate = form.sendDate?.trim() ?? '';
        if (sendDate === '') {
          ctx.addIssue({ code: 'custom', path: ['sendDate'], message: M.sendDateRequired });
        } else if (!calendarDayOf(sendDate) || sendDate < today || sendDate > lastSendDay) {
          ctx.addIssue({ code: 'custom', path: ['sendDate'], message: M.sendDateOutOfRange });
        }
      },
      // Run even when another field is wrong, so that every message shows at once.
      {
        when: (payload) => {
          const form = (payload.value ?? {}) as { delivery?: unknown; sendDate?: unknown };
          return form.delivery === 'email' && (form.sendDate === undefined || typeof form.sendDate === 'string');
        },
      },
    )
    .transform((form) => ({
      amountCents: form.amount,
      recipientName: form.recipientName,
      recipientEmail: form.recipientEmail,
      message: form.message,
      delivery: form.delivery,
      sendDate: form.delivery === 'email' ? (form.sendDate?.trim() ?? null) : null,
    }));
}

export type GiftCardPurchase = z.output<ReturnType<typeof giftCardPurchaseSchema>>;

// ---------------------------------------------------------------------------------------------
// How a sale is told
// ---------------------------------------------------------------------------------------------

/** What a buyer chose for a card, as the checkout, the confirmation and the account tell it. */
export interface GiftCardSaleChoice {
  amountCents: number;
  recipientName: string;
  delivery: (typeof GIFT_CARD_DELIVERIES)[number];
  /** The Paris day (`YYYY-MM-DD`) it is e-mailed; null for a card to print. */
  sendOn: string | null;
}

/** Whether the card goes by e-mail on a day: a card without a day is printed, as its e-mails treat it. */
export function giftCardSentByEmail(choice: Pick<GiftCardSaleChoice, 'delivery' | 'sendOn'>): boolean {
  return choice.delivery === 'email' && choice.sendOn !== null && calendarDayOf(choice.sendOn) !== null;
}

/** `2026-12-21` → `21/12/2026` (the Paris day, whatever the server's zone). */
function sendDayFr(day: string): string {
  const { year, month, day: date } = calendarDayOf(day) as CalendarDay;
  return formatDateFr(fromParisWallClock(Date.UTC(year, month - 1, date, 12)));
}

/**
 * « Carte cadeau Soovenirs de 50,00 € pour Jeanne Martin, envoyée par e-mail le 21/12/2026 », or
 * « …, à imprimer »: what a card's sale order is, instead of a digitisation's delivery.
 */
export function giftCardSaleSummary(choice: GiftCardSaleChoice): string {
  const card = `Carte cadeau Soovenirs de ${formatEurosFromCents(choice.amountCents)} pour ${choice.recipientName}`;
  return giftCardSentByEmail(choice)
    ? `${card}, envoyée par e-mail le ${sendDayFr(choice.sendOn as string)}`
    : `${card}, à imprimer`;
}
