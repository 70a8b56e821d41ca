import { z } from 'zod';
import '../zod-config';
import { frenchTypography } from '../format';
import { ORDER_STATUS_LABELS, type OrderStatus, WORKSHOP_STAGE_LABELS, type WorkshopStage } from '../order-status';
import type { Transition } from '../orders/lifecycle';

/*
 * Bulk actions of the Commandes tab: the selected orders change status or workshop
 * stage together, after a confirmation that says how many will move and which cannot, and why.
 * Each order still goes through the order lifecycle on its own: this module only says what was
 * asked, and words the summaries.
 */

export const MAX_BULK_ORDERS = 100;

/** Cancelling needs a refund decision per order: it stays in the order's dialog. */
export const BULK_STATUS_TARGETS = ['pending', 'processing', 'completed', 'shipped'] as const;
/** The stages the workshop moves an order to (reception has its own panel). */
export const BULK_STAGE_TARGETS = ['digitising', 'quality_check', 'ready'] as const;

export type BulkStatusTarget = (typeof BULK_STATUS_TARGETS)[number];
export type BulkStageTarget = (typeof BULK_STAGE_TARGETS)[number];

export const BULK_MESSAGES = {
  noSelection: 'Sélectionnez au moins une commande.',
  tooMany: `${MAX_BULK_ORDERS} commandes au maximum à la fois.`,
  unknownOrder: 'Commande introuvable.',
  unknownKind: 'Choisissez un changement de statut ou d’étape.',
  unknownStatus: 'Statut inconnu.',
  unknownStage: 'Étape inconnue.',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The `ids` of a link on the selection (export, job sheets): distinct, well-formed, not too many. */
export function parseSelectedIds(
  values: readonly string[],
): { ok: true; ids: string[] } | { ok: false; error: string } {
  const ids = [...new Set(values)];
  if (ids.length === 0) return { ok: false, error: BULK_MESSAGES.noSelection };
  if (ids.length > MAX_BULK_ORDERS) return { ok: false, error: BULK_MESSAGES.tooMany };
  if (!ids.every((id) => UUID.test(id))) return { ok: false, error: BULK_MESSAGES.unknownOrder };
  return { ok: true, ids };
}

const isOneOf = (values: readonly string[], value: string) => values.includes(value);

/** What the bulk bar posts: `ids` repeated, the kind of change, its target; `intent` previews or applies. */
export const bulkOrdersSchema = z
  .object({
    intent: z.enum(['preview', 'apply'], { error: BULK_MESSAGES.unknownKind }),
    kind: z.enum(['status', 'stage'], { error: BULK_MESSAGES.unknownKind }),
    target: z.string({ error: BULK_MESSAGES.unknownStatus }),
    ids: z
      .array(z.string().regex(UUID, BULK_MESSAGES.unknownOrder), { error: BULK_MESSAGES.noSelection })
      .min(1, BULK_MESSAGES.noSelection)
      .max(MAX_BULK_ORDERS, BULK_MESSAGES.tooMany),
  })
  .superRefine((value, context) => {
    if (value.kind === 'status' && !isOneOf(BULK_STATUS_TARGETS, value.target)) {
      context.addIssue({ code: 'custom', path: ['target'], message: BULK_MESSAGES.unknownStatus });
    }
    if (value.kind === 'stage' && !isOneOf(BULK_STAGE_TARGETS, value.target)) {
      context.addIssue({ code: 'custom', path: ['target'], message: BULK_MESSAGES.unknownStage });
    }
  });

export type BulkOrdersRequest = z.infer<typeof bulkOrdersSchema>;

/** The lifecycle transition asked of every selected order. */
export function bulkTransition(request: Pick<BulkOrdersRequest, 'kind' | 'target'>): Transition {
  return request.kind === 'status'
    ? { type: 'set_status', to: request.target as BulkStatusTarget }
    : { type: 'advance_stage', to: request.target as BulkStageTarget };
}

/** « “En traitement” » or « l’étape “Numérisation” », as the summaries say it. */
export function bulkTargetLabel(request: Pick<BulkOrdersRequest, 'kind' | 'target'>): string {
  return request.kind === 'status'
    ? `« ${ORDER_STATUS_LABELS[request.target as OrderStatus]} »`
    : `l’étape « ${WORKSHOP_STAGE_LABELS[request.target as WorkshopStage]} »`;
}

/** An order the lifecycle refuses, with its French reason. */
export interface BulkRefusal {
  orderId: string;
  number: string;
  reason: string;
}

/** What a preview or an application found: the orders that move (or moved), those refused. */
export interface BulkOutcome {
  accepted: Array<{ orderId: string; number: string }>;
  refused: BulkRefusal[];
}

const orders = (n: number) => `${n} commande${n > 1 ? 's' : ''}`;

/**
 * The confirmation's headline, before anything happens: how many of the selection will move, and
 * how many the lifecycle refuses (listed with their reasons under it): « 37 commandes sur 50
 * passeront à « En traitement » ; 13 ne peuvent pas changer. »
 */
export function previewHeadline(outcome: BulkOutcome, request: Pick<BulkOrdersRequest, 'kind' | 'target'>): string {
  const n = outcome.accepted.length;
  const refused = outcome.refused.length;
  if (n === 0) return frenchTypography('Aucune des commandes sélectionnées ne peut changer.');
  const moving = refused === 0 ? orders(n) : `${orders(n)} sur ${n + refused}`;
  const rest = refused === 0 ? '' : ` ; ${refused} ${refused > 1 ? 'ne peuvent pas changer' : 'ne peut pas changer'}`;
  return frenchTypography(`${moving} ${n > 1 ? 'passeront' : 'passera'} à ${bulkTargetLabel(request)}${rest}.`);
}

/** The answer after applying: « 50 commandes passées à « En traitement » ; 2 refusées. » */
export function resultHeadline(outcome: BulkOutcome, request: Pick<BulkOrdersRequest, 'kind' | 'target'>): string {
  const done = outcome.accepted.length;
  const refused = outcome.refused.length;
  const moved =
    done === 0
      ? 'Aucune commande n’a changé'
      : `${orders(done)} ${done > 1 ? 'passées' : 'passée'} à ${bulkTargetLabel(request)}`;
  const rest = refused === 0 ? '' : ` ; ${refused} ${refused > 1 ? 'refusées' : 'refusée'}`;
  return frenchTypography(`${moved}${rest}.`);
}

export type BulkActionData =
  | { ok: true; intent: 'preview' | 'apply'; headline: string; outcome: BulkOutcome }
  | { ok: false; error: string };
