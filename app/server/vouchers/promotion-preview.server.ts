import type { OrderLine } from '~/domain/orders/order-line';
import type { LineChoice } from '~/domain/pricing/pricing';
import {
  PROMOTION_MESSAGES,
  promotionDescription,
  referencePriceRows,
  typedPromotionCodes,
} from '~/domain/vouchers/promotions';
import { previewPromotionCodes, priceListPeriods } from './promotions.server';

/*
 * The checkout's « Appliquer » for promotion codes (decision 038): what the codes would take off,
 * in the words the customer reads, with the reference price of each reduction in percent.
 */

export interface PromotionPreviewAnswer {
  preview: {
    codes: Array<{ code: string; description: string; cents: number }>;
    discountCents: number;
    totalCents: number;
    references: Array<{ label: string; code: string; referenceCents: number; discountedCents: number }>;
  } | null;
  error: string | null;
  status: 200 | 409 | 429;
}

export async function promotionPreview(input: {
  request: Request;
  typed: string;
  orderId: string;
  placed: boolean;
  userId: string | null;
  items: readonly OrderLine[];
  totalCents: number;
}): Promise<PromotionPreviewAnswer> {
  if (input.placed) return { preview: null, error: PROMOTION_MESSAGES.alreadyPlaced, status: 409 };
  if (typedPromotionCodes(input.typed).length === 0) {
    return { preview: null, error: 'Saisissez un code promo, puis « Appliquer ».', status: 200 };
  }
  const checked = await previewPromotionCodes({
    request: input.request,
    typed: input.typed.slice(0, 128),
    orderId: input.orderId,
    userId: input.userId,
    now: new Date(),
  });
  if (!checked.ok) return { preview: null, error: checked.message, status: checked.limited ? 429 : 200 };
  const terms = checked.applied.map((code) => code.terms);
  const periods = await priceListPeriods();
  // The stored items carry every choice a line's price needs.
  const lines = input.items.map((item) => item as unknown as LineChoice & { unitPriceCents: number });
  return {
    preview: {
      codes: checked.applied.map((code) => ({
        code: code.terms.code,
        description: promotionDescription(code.terms, checked.list),
        cents: code.cents,
      })),
      discountCents: checked.discountCents,
      totalCents: input.totalCents - checked.discountCents,
      references: referencePriceRows(terms, lines, periods, checked.list),
    },
    error: null,
    status: 200,
  };
}
