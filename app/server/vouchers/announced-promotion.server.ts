import { eq } from 'drizzle-orm';
import { type AnnouncedPromotion, announcePromotion } from '~/domain/vouchers/announced-promotion';
import {
  MAX_PROMOTION_CODE_LENGTH,
  normalisePromotionCode,
  PROMOTION_MESSAGES,
  promotionTimingProblem,
} from '~/domain/vouchers/promotions';
import { db } from '../db/client.server';
import { promotionCodes } from '../db/schema';
import { log } from '../log.server';
import {
  limiter,
  PROMOTION_LIMITED_MESSAGE,
  priceListPeriods,
  promotionLimiterKeys,
  termsOf,
} from './promotions.server';

/*
 * The configurator's `?code=NOEL20` (a newsletter's link): the code's terms for the live estimate,
 * or why it cannot be announced, in French. Only whether the code exists, is not paused and is
 * within its dates is checked here; the minimum and the uses are the checkout's, where the code is
 * checked again. An unknown code counts against the client like at checkout (the same limiter),
 * so that links cannot list the shop's codes.
 */

export type AnnouncedPromotionAnswer =
  | { ok: true; promotion: AnnouncedPromotion }
  | { ok: false; message: string; limited: boolean };

export async function announcedPromotion(
  request: Request,
  typed: string,
  now: Date,
  userId: string | null = null,
): Promise<AnnouncedPromotionAnswer | null> {
  const code = normalisePromotionCode(typed);
  if (code === '') return null;
  const keys = promotionLimiterKeys(request, userId);
  const over = await Promise.all(keys.map((key) => limiter.isSpent(key)));
  if (over.some(Boolean)) return { ok: false, message: PROMOTION_LIMITED_MESSAGE, limited: true };
  if (code.length > MAX_PROMOTION_CODE_LENGTH)
    return { ok: false, message: PROMOTION_MESSAGES.tooLong, limited: false };
  const [row] = await db().select().from(promotionCodes).where(eq(promotionCodes.code, code)).limit(1);
  if (!row) {
    const hits = await Promise.all(keys.map((key) => limiter.hit(key)));
    log.info({ code, userId }, 'promotion: an unknown code was announced by a link');
    return { ok: false, message: PROMOTION_MESSAGES.unknown(code), limited: hits.some((hit) => !hit.allowed) };
  }
  const terms = termsOf(row);
  const problem = promotionTimingProblem(terms, { now, paused: row.pausedAt !== null });
  if (problem) return { ok: false, message: problem, limited: false };
  return { ok: true, promotion: announcePromotion(terms, await priceListPeriods()) };
}
