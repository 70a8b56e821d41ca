import { parseDay } from '../admin/list-params';
import { textPattern } from '../admin/search';
import { fromParisWallClock, parisWallClock } from '../calendar';
import { formatDateFr, NBSP } from '../format';
import {
  GIFT_CARD_CODE_LENGTH,
  type GiftCardEntryKind,
  type GiftCardState,
  giftCardExpiresAt,
  normaliseGiftCardCode,
  readGiftCardSymbols,
} from './gift-cards';

/*
 * The back office's « Cartes cadeaux » (decision 037): what its search means, how long a card may
 * be extended, the French words of its ledger and of its answers, and the rows the page shows. Pure:
 * the server (app/server/admin/gift-cards.server.ts) reads and writes, the page renders.
 */

/** The ledger's kinds as the page names them. */
export const GIFT_CARD_ENTRY_LABELS: Readonly<Record<GiftCardEntryKind, string>> = {
  issued: 'Émission',
  spent: 'Utilisation',
  restored: 'Restitution',
  expired: 'Expiration',
  refunded: 'Remboursement',
};

// ---------------------------------------------------------------------------------------------
// Search
// ---------------------------------------------------------------------------------------------

/**
 * What a term typed in the search box asks for:
 *  - `code`: a whole code, in any form the domain reads (dashes, spaces, lower case, O for 0): one
 *    card, found by the code's hash;
 *  - `bad-code`: sixteen symbols of the alphabet (digits among them, or in four groups of four) whose check symbol does not
 *    match: a typo in a code (no name or address looks like that), said as such rather than
 *    searched as text (nor sent into an address);
 *  - `terms`: the code's last four symbols (`tail`) and/or a piece of a name or an e-mail
 *    (`pattern`, a LIKE pattern; null when too short for the trigram index);
 *  - `all`: nothing typed.
 */
export type GiftCardSearch =
  | { kind: 'all' }
  | { kind: 'code'; code: string }
  | { kind: 'bad-code' }
  | { kind: 'terms'; tail: string | null; pattern: string | null };

export function parseGiftCardSearch(q: string): GiftCardSearch {
  const term = q.trim();
  if (term === '') return { kind: 'all' };
  const code = normaliseGiftCardCode(term);
  if (code) return { kind: 'code', code };
  const symbols = readGiftCardSymbols(term);
  // Sixteen symbols with a digit among them, or in four groups of four: a code mistyped (a name of
  // sixteen letters is searched as one).
  if (symbols?.length === GIFT_CARD_CODE_LENGTH && (/\d/.test(term) || /^(\S{4}[\s-]+){3}\S{4}$/.test(term)))
    return { kind: 'bad-code' };
  return { kind: 'terms', tail: symbols?.length === 4 ? symbols : null, pattern: textPattern(term) };
}

// ---------------------------------------------------------------------------------------------
// Extension
// ---------------------------------------------------------------------------------------------

/** A card is never valid longer than this after its issue, extensions included. */
export const GIFT_CARD_MAX_VALIDITY_MONTHS = 24;

export const GIFT_CARD_OFFICE_MESSAGES = {
  notFound: 'Carte cadeau introuvable.',
  noCode: 'Aucune carte cadeau ne porte ce code.',
  badCode: `Ce code n’est pas valide${NBSP}: vérifiez chaque symbole (une lettre mal lue, deux symboles inversés).`,
  dayRequired: 'Indiquez la nouvelle date de fin de validité.',
  notLater: (expiresAt: Date) =>
    `La nouvelle date doit être après la fin de validité actuelle, le ${formatDateFr(expiresAt)}.`,
  beyondMax: (latest: Date) =>
    `Une carte est valable au plus ${GIFT_CARD_MAX_VALIDITY_MONTHS} mois après son émission${NBSP}: au plus tard le ${formatDateFr(latest)}.`,
  closedExtend: `Cette carte est close (expirée, ou annulée et remboursée)${NBSP}: elle ne peut plus être prolongée.`,
  closedResend: `Cette carte est close (expirée, ou annulée et remboursée)${NBSP}: elle n’est pas renvoyée.`,
  notSentYet: (sendsAt: Date, to: string) =>
    `Cette carte partira le ${formatDateFr(sendsAt)} à ${to}, le jour choisi par l’acheteur${NBSP}: elle ne peut pas être renvoyée avant.`,
  noHolderEmail: `Aucune adresse e-mail n’est connue pour cette carte${NBSP}: elle ne peut pas être renvoyée.`,
  confirmRequired: 'Cochez la case pour confirmer l’annulation et le remboursement.',
  notCancelable: `Seule une carte active et jamais utilisée peut être annulée et remboursée.`,
} as const;

/** The last instant a card issued at `issuedAt` may be made valid until. */
export function giftCardLatestExpiry(issuedAt: Date): Date {
  return giftCardExpiresAt(issuedAt, GIFT_CARD_MAX_VALIDITY_MONTHS);
}

/** The instant of `day` (YYYY-MM-DD, Paris) at the Paris clock time of `clockOf`. */
function sameClockOn(day: string, clockOf: Date): Date {
  const wall = new Date(parisWallClock(clockOf.getTime()));
  const [year, month, date] = day.split('-').map(Number);
  return new Date(
    fromParisWallClock(
      Date.UTC(
        year ?? 0,
        (month ?? 1) - 1,
        date ?? 1,
        wall.getUTCHours(),
        wall.getUTCMinutes(),
        wall.getUTCSeconds(),
        wall.getUTCMilliseconds(),
      ),
    ),
  );
}

/**
 * « Prolonger »: the card valid until `day` (YYYY-MM-DD, as a date field posts it), at the clock
 * time it already ends at (a card is valid until the instant of its issue, months later: the
 * extension keeps that hour, so the 24 months are counted the same way). Refused for a closed card
 * (expired, or cancelled and refunded: its expiry may have been written in the ledger already),
 * for a day not after the current end, and beyond GIFT_CARD_MAX_VALIDITY_MONTHS after the issue.
 */
export function giftCardExtension(
  card: { issuedAt: Date; expiresAt: Date; state: GiftCardState },
  day: string,
): { ok: true; expiresAt: Date } | { ok: false; message: string } {
  const M = GIFT_CARD_OFFICE_MESSAGES;
  if (card.state === 'expired' || card.state === 'canceled') return { ok: false, message: M.closedExtend };
  const valid = parseDay(day.trim());
  if (!valid) return { ok: false, message: M.dayRequired };
  const expiresAt = sameClockOn(valid, card.expiresAt);
  if (expiresAt.getTime() <= card.expiresAt.getTime()) return { ok: false, message: M.notLater(card.expiresAt) };
  const latest = giftCardLatestExpiry(card.issuedAt);
  if (expiresAt.getTime() > latest.getTime()) return { ok: false, message: M.beyondMax(latest) };
  return { ok: true, expiresAt };
}

// ---------------------------------------------------------------------------------------------
// What the page shows
// ---------------------------------------------------------------------------------------------

export interface GiftCardOfficeEntry {
  /** ISO instant. */
  at: string;
  kind: GiftCardEntryKind;
  amountCents: number;
  /** The order it paid or that gave it back. */
  orderId: string | null;
  orderNumber: string | null;
}

export interface GiftCardOfficeRow {
  id: string;
  saleOrderId: string;
  saleOrderNumber: string;
  maskedCode: string;
  initialCents: number;
  balanceCents: number;
  state: GiftCardState;
  /** ISO instants. */
  issuedAt: string;
  expiresAt: string;
  /** The latest day « Prolonger » accepts (GIFT_CARD_MAX_VALIDITY_MONTHS after the issue). */
  latestExpiresAt: string;
  reminderSentAt: string | null;
  recipientName: string;
  recipientEmail: string;
  buyerName: string;
  buyerEmail: string | null;
  delivery: 'email' | 'print';
  /** YYYY-MM-DD: the day it leaves for the recipient; null when the buyer prints it. */
  sendOn: string | null;
  /** Oldest first. */
  entries: GiftCardOfficeEntry[];
  /** What the page offers (each action decides again, the card locked). */
  canResend: boolean;
  canExtend: boolean;
  canCancel: boolean;
}

export type GiftCardIntent = 'search' | 'resend' | 'extend' | 'cancel';

/** An action's answer: a French confirmation or refusal, for the card it was about. */
export interface GiftCardActionData {
  intent: GiftCardIntent;
  ok: boolean;
  message: string;
  cardId?: string;
}
