import type { PriceListDocument } from '../pricing/default-price-list';
import type { PricedOrder } from '../pricing/pricing';
import {
  PROMOTION_MESSAGES,
  type PriceListPeriod,
  type PromotionTerms,
  promotionCovers,
  promotionDescription,
  promotionDiscounts,
  promotionSupportsText,
  REFERENCE_PRICE_DAYS,
  type ReferencePriceRow,
  referencePriceRows,
} from './promotions';

/*
 * A promotion code announced by a link (`/configurateur?code=NOEL20`, from a newsletter): the
 * server finds the code, the browser prices the live estimate with it. What travels from the
 * loader to the page is JSON (dates as ISO strings) and only the price lists the reference price
 * needs; the estimate is computed by the rules of promotions.ts, like the checkout's « Appliquer ».
 * The conditions that depend on the customer or the order's total are checked at checkout.
 */

type Json<T> = Omit<T, 'startsAt' | 'endsAt'> & { startsAt: string; endsAt: string | null };

export interface AnnouncedPromotion {
  terms: Json<PromotionTerms>;
  /** The price lists of the 30 days before the code's start, for its reference price. */
  periods: Array<{ list: PriceListDocument; from: string; until: string | null }>;
}

/** The code and the price lists its reference price looks at, ready for the page. */
export function announcePromotion(terms: PromotionTerms, periods: readonly PriceListPeriod[]): AnnouncedPromotion {
  const at = terms.startsAt.getTime();
  const windowStart = at - REFERENCE_PRICE_DAYS * 86_400_000;
  return {
    terms: {
      ...terms,
      supports: [...terms.supports],
      startsAt: terms.startsAt.toISOString(),
      endsAt: terms.endsAt?.toISOString() ?? null,
    },
    periods: periods
      .filter(
        (period) => period.from.getTime() <= at && (period.until === null || period.until.getTime() >= windowStart),
      )
      .map((period) => ({
        list: period.list,
        from: period.from.toISOString(),
        until: period.until?.toISOString() ?? null,
      })),
  };
}

/** The page's copy back into the domain's types. */
export function announcedTerms(announced: AnnouncedPromotion): { terms: PromotionTerms; periods: PriceListPeriod[] } {
  const { terms } = announced;
  return {
    terms: { ...terms, startsAt: new Date(terms.startsAt), endsAt: terms.endsAt ? new Date(terms.endsAt) : null },
    periods: announced.periods.map((period) => ({
      list: period.list,
      from: new Date(period.from),
      until: period.until ? new Date(period.until) : null,
    })),
  };
}

export type AnnouncedEstimate =
  | {
      applies: true;
      code: string;
      /** « 20 % sur Photos papier ». */
      description: string;
      discountCents: number;
      /** The estimate's total with the code taken off. */
      totalCents: number;
      references: ReferencePriceRow[];
    }
  | {
      applies: false;
      code: string;
      /** What the code applies to, said when nothing of the estimate is covered. */
      message: string;
    };

/** What the announced code would take off this estimate (the minimum and the uses apart). */
export function announcedEstimate(
  announced: AnnouncedPromotion,
  quote: PricedOrder,
  list: PriceListDocument,
): AnnouncedEstimate {
  const { terms, periods } = announcedTerms(announced);
  const lines = quote.lines.map((line) => ({ type: line.type, lineTotalCents: line.lineTotalCents }));
  if (!lines.some((line) => promotionCovers(terms, line.type) && line.lineTotalCents > 0)) {
    return {
      applies: false,
      code: terms.code,
      message: PROMOTION_MESSAGES.nothingEligible(terms.code, promotionSupportsText(terms, list)),
    };
  }
  const discountCents = promotionDiscounts([terms], lines).reduce((sum, discount) => sum + discount.cents, 0);
  return {
    applies: true,
    code: terms.code,
    description: promotionDescription(terms, list),
    discountCents,
    totalCents: quote.price.totalPriceCents - discountCents,
    references: referencePriceRows([terms], quote.lines, periods, list),
  };
}
