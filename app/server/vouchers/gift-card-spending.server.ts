import { eq } from 'drizzle-orm';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';
import { parseEurosToCents } from '~/domain/orders/checkout-details';
import { type GiftCardState, splitGiftCardPayment } from '~/domain/vouchers/gift-cards';
import type { Executor } from '../config/config-options.server';
import type { Tx } from '../db/client.server';
import { giftCards } from '../db/schema';
import { lookUpGiftCard } from './gift-card-lookup.server';
import { giftCardLedgerOf, recordGiftCardEntry } from './gift-cards.server';

/*
 * Paying an order with a gift card at checkout (decision 037). The code is looked up like on
 * /carte-cadeau/utiliser (by its hash, wrong codes counted per client and per account), then, in
 * the transaction that places the order and with the card's row locked, its `spent` entry takes
 * what the domain's splitGiftCardPayment gives: all of what is due, or the card's balance. The
 * lifecycle then asks the rest in money, or settles the order at once when the card paid it all.
 */

export const GIFT_CARD_CHECKOUT_MESSAGES = {
  empty: (state: GiftCardState, expiresAt: Date) =>
    state === 'expired'
      ? `Cette carte cadeau a expiré le ${formatDateFr(expiresAt)}\u00A0: elle ne peut plus payer de commande.`
      : state === 'canceled'
        ? 'Cette carte cadeau a été annulée\u00A0: elle ne peut plus payer de commande.'
        : 'Cette carte cadeau a déjà été entièrement utilisée.',
  amountInvalid: (maxCents: number) =>
    `Indiquez le montant à utiliser en euros, par exemple 35 ou 35,50, au plus ${formatEurosFromCents(maxCents)}\u00A0; laissez vide pour utiliser tout ce que la carte peut payer.`,
  codeRequired: 'Saisissez le code de votre carte cadeau, puis « Appliquer ».',
  oneCard: 'Une carte cadeau paie déjà une partie de cette commande\u00A0: une seule carte par commande.',
  ownSale: 'Une carte cadeau ne peut pas payer une autre carte cadeau.',
} as const;

/**
 * How much of the card the customer asks to use (« Montant à utiliser », empty: as much as it can
 * pay): at most what the order asks. Null when what was typed is not such an amount.
 */
export function requestedGiftCardCents(typed: string, dueCents: number): number | null {
  if (typed.trim() === '') return dueCents;
  const cents = parseEurosToCents(typed);
  return cents !== null && cents > 0 && cents <= dueCents ? cents : null;
}

export interface GiftCardPreview {
  maskedCode: string;
  balanceCents: number;
  expiresAt: Date;
  fromCardCents: number;
  fromOtherCents: number;
}

export type GiftCardPreviewResult =
  | { ok: true; preview: GiftCardPreview }
  | { ok: false; message: string; limited: boolean };

/**
 * What the card named by `typed` would pay of `dueCents` now (« Appliquer »): nothing is written
 * but the count of a wrong code.
 */
export async function previewGiftCardPayment(
  request: Request,
  typed: string,
  userId: string | null,
  dueCents: number,
  executor?: Executor,
): Promise<GiftCardPreviewResult> {
  const lookup = await lookUpGiftCard(request, typed, userId, executor);
  if (lookup.kind === 'refused') return { ok: false, message: lookup.message, limited: lookup.limited };
  const { card } = lookup;
  if (card.state !== 'active') {
    return { ok: false, message: GIFT_CARD_CHECKOUT_MESSAGES.empty(card.state, card.expiresAt), limited: false };
  }
  const fromCardCents = Math.min(card.balanceCents, dueCents);
  return {
    ok: true,
    preview: {
      maskedCode: card.maskedCode,
      balanceCents: card.balanceCents,
      expiresAt: card.expiresAt,
      fromCardCents,
      fromOtherCents: dueCents - fromCardCents,
    },
  };
}

/**
 * In the placing transaction: the card pays what it can of `dueCents` (a `spent` entry for the
 * order), decided under the card's lock. Returns what it paid, or the French refusal.
 */
export async function spendGiftCardInTx(
  tx: Tx,
  input: {
    request: Request;
    typed: string;
    userId: string | null;
    orderId: string;
    dueCents: number;
    actor: string;
    now: Date;
  },
): Promise<{ ok: true; fromCardCents: number; maskedCode: string } | { ok: false; message: string; limited: boolean }> {
  const lookup = await lookUpGiftCard(input.request, input.typed, input.userId, tx);
  if (lookup.kind === 'refused') return { ok: false, message: lookup.message, limited: lookup.limited };
  const { card } = lookup;
  // The card's row first (the lock recordGiftCardEntry takes again), then its ledger as it stands.
  const [locked] = await tx
    .select({ expiresAt: giftCards.expiresAt })
    .from(giftCards)
    .where(eq(giftCards.id, card.id))
    .for('update');
  if (!locked)
    return { ok: false, message: GIFT_CARD_CHECKOUT_MESSAGES.empty('canceled', card.expiresAt), limited: false };
  const ledger = await giftCardLedgerOf(tx, card.id, locked.expiresAt);
  const { fromCardCents } = splitGiftCardPayment(ledger, input.dueCents, input.now);
  if (fromCardCents <= 0) {
    return { ok: false, message: GIFT_CARD_CHECKOUT_MESSAGES.empty(card.state, card.expiresAt), limited: false };
  }
  const refusal = await recordGiftCardEntry(tx, card.id, {
    kind: 'spent',
    amountCents: fromCardCents,
    orderId: input.orderId,
    at: input.now,
    actor: input.actor,
  });
  if (refusal) return { ok: false, message: refusal, limited: false };
  return { ok: true, fromCardCents, maskedCode: card.maskedCode };
}

/** « Votre carte cadeau règle 35,00 € ; reste à payer : 45,00 € ». */
export function giftCardPreviewSentence(preview: Pick<GiftCardPreview, 'fromCardCents' | 'fromOtherCents'>): string {
  const card = formatEurosFromCents(preview.fromCardCents);
  return preview.fromOtherCents === 0
    ? `Votre carte cadeau règle toute la commande (${card}).`
    : `Votre carte cadeau règle ${card}\u00A0; reste à payer\u00A0: ${formatEurosFromCents(preview.fromOtherCents)}.`;
}
