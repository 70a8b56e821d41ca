import { countOf, formatEurosFromCents, NBSP } from '../format';
import { type PriceListDocument, SUPPORT_TYPES, type SupportType } from '../pricing/default-price-list';
import {
  PROMOTION_STATE_LABELS,
  type PromotionState,
  type PromotionTerms,
  promotionDescription,
  promotionPeriodText,
  promotionState,
} from './promotions';

/*
 * The back office's « Codes promo » (decision 038): the rows its list shows, the supports its form
 * offers, the French words of its answers. Pure: the rules are promotions.ts's, the server
 * (app/server/vouchers/promotions.server.ts) reads and writes, the page renders these strings.
 */

/** One code as the list shows it, every value already in French (computed on the server, Paris time). */
export interface PromotionOfficeRow {
  id: string;
  code: string;
  label: string;
  /** « 20 % sur Photos papier ». */
  discount: string;
  /** « à partir du 01/12/2026 ». */
  period: string;
  /** « 1 par client, première commande », or « Aucune ». */
  limits: string;
  state: PromotionState;
  stateLabel: string;
  paused: boolean;
  uses: number;
  /** « 35,00 € »: what the code took off the orders that count. */
  discountGiven: string;
  /** « 140,00 € »: what those orders were paid. */
  revenue: string;
}

/** What the server's list gives for one code (PromotionListRow), as far as the page needs it. */
export interface PromotionFigures {
  id: string;
  terms: PromotionTerms;
  paused: boolean;
  uses: number;
  discountCents: number;
  revenueCents: number;
}

/** A code's limits, in the words of the form: « 100 au total, 1 par client, dès 30,00 €, cumulable ». */
export function promotionLimitsText(
  terms: Pick<PromotionTerms, 'maxUses' | 'maxUsesPerCustomer' | 'minimumOrderCents' | 'firstOrderOnly' | 'combinable'>,
): string {
  const parts: string[] = [];
  if (terms.maxUses !== null) parts.push(`${countOf(terms.maxUses, 'utilisation')} au total`);
  if (terms.maxUsesPerCustomer !== null) parts.push(`${terms.maxUsesPerCustomer}${NBSP}par client`);
  if (terms.minimumOrderCents > 0) parts.push(`dès ${formatEurosFromCents(terms.minimumOrderCents)} de numérisation`);
  if (terms.firstOrderOnly) parts.push('première commande');
  if (terms.combinable) parts.push('cumulable');
  if (parts.length === 0) return 'Aucune';
  const text = parts.join(', ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** The list's row of a code, at `now`. */
export function promotionOfficeRow(figures: PromotionFigures, list: PriceListDocument, now: Date): PromotionOfficeRow {
  const { terms } = figures;
  const state = promotionState(terms, figures.paused, figures.uses, now);
  return {
    id: figures.id,
    code: terms.code,
    label: terms.label,
    discount: promotionDescription(terms, list),
    period: promotionPeriodText(terms),
    limits: promotionLimitsText(terms),
    state,
    stateLabel: PROMOTION_STATE_LABELS[state],
    paused: figures.paused,
    uses: figures.uses,
    discountGiven: formatEurosFromCents(figures.discountCents),
    revenue: formatEurosFromCents(figures.revenueCents),
  };
}

/** The supports a code may be limited to: those the price list sells, with its titles, in its order. */
export function promotionSupportOptions(list: PriceListDocument): { value: SupportType; label: string }[] {
  return SUPPORT_TYPES.filter((type) => list.supports[type]).map((type) => ({
    value: type,
    label: list.supports[type]?.title ?? type,
  }));
}

export const PROMOTION_OFFICE_MESSAGES = {
  checkForm: `Vérifiez le formulaire${NBSP}: le code n’a pas été créé.`,
  created: (code: string) => `Code promo ${code} créé.`,
  paused: (code: string) => `Code promo ${code} suspendu${NBSP}: il ne s’applique plus aux nouvelles commandes.`,
  resumed: (code: string) => `Code promo ${code} réactivé.`,
  notFound: 'Ce code promo est introuvable.',
} as const;

export type PromotionIntent = 'create' | 'pause' | 'resume';

/** The « Codes promo » action's answer: the French outcome, and the create form's submission. */
export interface PromotionActionData {
  intent: PromotionIntent;
  ok: boolean;
  message: string;
  /** The code the answer is about (pause, resume). */
  promotionId?: string;
  // biome-ignore lint/suspicious/noExplicitAny: Conform's SubmissionResult, without importing it in the domain
  submission?: any;
}
