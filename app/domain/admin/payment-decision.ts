import { z } from 'zod';
import '../zod-config';
import { formatEurosFromCents, NNBSP } from '../format';
import { FORBIDDEN_CHARACTER_MESSAGE, hasNoForbiddenCharacter } from '../text-input';

/*
 * « Validation Paiements » (components/admin/payment-validation.tsx): validate or reject one payment
 * or the selection. The request's schema (routes/admin/api/payments.ts, Conform's parseWithZod) and
 * the confirmation's summary shown before a selection is posted.
 */

/** `p:<payment id>` (a gateway attempt) or `o:<order id>` (a transfer or cheque awaited). */
const PAYMENT_KEY = /^[po]:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A selection is a page of the list at most. */
export const MAX_PAYMENT_SELECTION = 100;

/** The rejection's reason is written in the customer's e-mail: a few sentences at most. */
export const MAX_REJECTION_REASON_LENGTH = 500;

export const PAYMENT_DECISION_MESSAGES = {
  decision: 'Choisissez de valider ou de rejeter les paiements.',
  selection: 'Sélectionnez entre 1 et 100 paiements de la liste.',
  reasonRequired: 'Indiquez le motif du rejet : le client le lira dans son e-mail.',
  reasonTooLong: `Le motif est trop long (${MAX_REJECTION_REASON_LENGTH} caractères au maximum).`,
} as const;

/** The decision; a rejection carries its reason (required), which the « Paiement non validé » e-mail gives. */
export const paymentDecisionSchema = z
  .object({
    decision: z.enum(['validate', 'reject'], { error: PAYMENT_DECISION_MESSAGES.decision }),
    id: z
      .array(z.string().regex(PAYMENT_KEY, PAYMENT_DECISION_MESSAGES.selection), {
        error: PAYMENT_DECISION_MESSAGES.selection,
      })
      .min(1, PAYMENT_DECISION_MESSAGES.selection)
      .max(MAX_PAYMENT_SELECTION, PAYMENT_DECISION_MESSAGES.selection),
    reason: z
      .string()
      .trim()
      .max(MAX_REJECTION_REASON_LENGTH, PAYMENT_DECISION_MESSAGES.reasonTooLong)
      .refine(hasNoForbiddenCharacter, FORBIDDEN_CHARACTER_MESSAGE)
      .optional(),
  })
  .superRefine((value, context) => {
    if (value.decision === 'reject' && !value.reason) {
      context.addIssue({ code: 'custom', path: ['reason'], message: PAYMENT_DECISION_MESSAGES.reasonRequired });
    }
  })
  // A validation has no reason: whatever was typed in the rejection's field is not kept.
  .transform((value) => (value.decision === 'reject' ? value : { decision: value.decision, id: value.id }));

export type PaymentDecision = z.output<typeof paymentDecisionSchema>['decision'];

/**
 * What a decision on the selection will do, said before it is posted: « 3 paiements seront validés :
 * SOO-1, SOO-2, SOO-3, total 387,00 € ».
 */
export function paymentDecisionSummary(
  decision: PaymentDecision,
  payments: ReadonlyArray<{ reference: string; amountCents: number }>,
): string {
  const one = payments.length === 1;
  const verb =
    decision === 'validate' ? (one ? 'sera validé' : 'seront validés') : one ? 'sera rejeté' : 'seront rejetés';
  const total = payments.reduce((sum, payment) => sum + payment.amountCents, 0);
  const references = payments.map((payment) => payment.reference).join(', ');
  return `${payments.length} paiement${one ? '' : 's'} ${verb}${NNBSP}: ${references}, total ${formatEurosFromCents(total)}`;
}

/**
 * One row's ✓ or ✗ asks first too (a mis-click rejected a 606,55 € payment): the dialog
 * names the order, the customer and the amount: « Commande SV-2026-000042 · Marie Curie · 606,55 € ».
 */
export function paymentDescription(payment: { orderNumber: string; customer: string; amountCents: number }): string {
  const customer = payment.customer.trim() || 'client sans nom';
  return `Commande ${payment.orderNumber} · ${customer} · ${formatEurosFromCents(payment.amountCents)}`;
}
