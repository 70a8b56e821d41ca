import { eq } from 'drizzle-orm';
import { maskGiftCardCode, normaliseGiftCardCode } from '~/domain/vouchers/gift-cards';
import { CLIENT_IP_HEADER } from '../auth/auth.server';
import type { Executor } from '../config/config-options.server';
import { db } from '../db/client.server';
import { createSharedRateLimiter } from '../db/rate-limit.server';
import { giftCards } from '../db/schema';
import { log } from '../log.server';
import { type GiftCardSummary, giftCardCodeHash, giftCardSummaries } from './gift-cards.server';

/*
 * A code typed by a person (decision 037): found by its hash, never by its text. Wrong codes are
 * counted per client address and per account (10 a minute by default, GIFT_CARD_CODE_RATE_LIMIT),
 * in PostgreSQL so that every instance counts the same: 75 random bits cannot be guessed, and a
 * script trying codes is stopped long before. Beyond the limit even a right code is refused until
 * the minute has passed. Logs carry the masked code only.
 */

export const GIFT_CARD_CODE_WINDOW_MS = 60_000;
const limiter = createSharedRateLimiter({
  name: 'gift-card-code',
  limit: () => {
    const value = Number(process.env.GIFT_CARD_CODE_RATE_LIMIT ?? 10);
    return Number.isFinite(value) && value > 0 ? value : 10;
  },
  windowMs: GIFT_CARD_CODE_WINDOW_MS,
});

export const GIFT_CARD_LOOKUP_MESSAGES = {
  malformed:
    'Ce code n’est pas celui d’une carte cadeau Soovenirs\u00A0: vérifiez-le (16\u00A0caractères, lettres et chiffres).',
  unknown: 'Aucune carte cadeau ne porte ce code. Vérifiez-le, ou écrivez-nous.',
  limited: 'Trop de codes essayés\u00A0: réessayez dans une minute.',
} as const;

export type GiftCardLookup =
  | { kind: 'found'; card: GiftCardSummary }
  | { kind: 'refused'; message: string; limited: boolean };

/** The card `typed` names, for `request`'s client (and account, when signed in). */
export async function lookUpGiftCard(
  request: Request,
  typed: string,
  userId: string | null,
  executor: Executor = db(),
): Promise<GiftCardLookup> {
  const keys = [`ip:${request.headers.get(CLIENT_IP_HEADER) || 'unknown'}`, ...(userId ? [`user:${userId}`] : [])];
  // Ten wrong codes used the minute up: the eleventh attempt waits, a right code too.
  const over = await Promise.all(keys.map((key) => limiter.isSpent(key)));
  if (over.some(Boolean)) return { kind: 'refused', message: GIFT_CARD_LOOKUP_MESSAGES.limited, limited: true };

  const wrong = async (message: string): Promise<GiftCardLookup> => {
    const hits = await Promise.all(keys.map((key) => limiter.hit(key)));
    log.info({ code: maskGiftCardCode(typed), userId }, 'gift card: a wrong code was typed');
    return { kind: 'refused', message, limited: hits.some((hit) => !hit.allowed) };
  };
  const code = normaliseGiftCardCode(typed);
  if (!code) return wrong(GIFT_CARD_LOOKUP_MESSAGES.malformed);
  const [card] = await executor
    .select({ saleOrderId: giftCards.saleOrderId })
    .from(giftCards)
    .where(eq(giftCards.codeHash, giftCardCodeHash(code)))
    .limit(1);
  if (!card) return wrong(GIFT_CARD_LOOKUP_MESSAGES.unknown);
  const [summary] = await giftCardSummaries([card.saleOrderId], new Date(), executor);
  if (!summary) return wrong(GIFT_CARD_LOOKUP_MESSAGES.unknown);
  return { kind: 'found', card: summary };
}
