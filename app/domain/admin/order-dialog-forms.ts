import { z } from 'zod';
import '../zod-config';
import { ORDER_STATUSES } from '../order-status';
import { type RefundMethodChoice, refundFormSchema } from '../orders/refund-form';
import { FORBIDDEN_CHARACTER_MESSAGE, hasNoForbiddenCharacter } from '../text-input';
import { MAX_NOTE_LENGTH } from './timeline';

/*
 * The order dialog's status and note forms (components/admin/order-details-dialog.tsx), validated
 * on the server with Conform's parseWithZod (routes/admin/orders.tsx). The money forms' schemas are
 * in orders/refund-form.ts.
 */

export const ORDER_NOTE_MESSAGES = {
  empty: 'La note est vide',
  tooLong: `La note est trop longue (${MAX_NOTE_LENGTH} caractères au maximum)`,
  forbidden: FORBIDDEN_CHARACTER_MESSAGE,
} as const;

export const UNKNOWN_STATUS_MESSAGE = 'Statut inconnu';

export const orderNoteSchema = z.object({
  text: z
    .string({ error: ORDER_NOTE_MESSAGES.empty })
    .trim()
    .min(1, ORDER_NOTE_MESSAGES.empty)
    .max(MAX_NOTE_LENGTH, ORDER_NOTE_MESSAGES.tooLong)
    .refine(hasNoForbiddenCharacter, ORDER_NOTE_MESSAGES.forbidden),
});

export type OrderNoteInput = z.input<typeof orderNoteSchema>;

/** The refund a cancellation of a paid order carries (0 € when nothing is refunded). */
export interface CancelRefundChoice {
  amountCents: number;
  method: RefundMethodChoice;
  reason: string;
}

const REFUND_FIELDS = { amount: 'refundAmount', method: 'refundMethod', reason: 'refundReason' } as const;

/**
 * The new status; a cancellation of a paid order carries its refund fields (`withRefund` is posted
 * with them): they are read with the refund form's rules, their messages under their own fields.
 */
export const statusChangeSchema = z
  .object({
    status: z.enum(ORDER_STATUSES, { error: UNKNOWN_STATUS_MESSAGE }),
    /** « Commencer avant le paiement »: checked, the work on an unpaid order starts (the lifecycle's flag). */
    startBeforePayment: z.literal('on').optional(),
    withRefund: z.literal('on').optional(),
    refundAmount: z.unknown().optional(),
    refundMethod: z.unknown().optional(),
    refundReason: z.unknown().optional(),
  })
  .transform((value, ctx) => {
    const startBeforePayment = value.status === 'processing' && value.startBeforePayment === 'on';
    if (value.status !== 'canceled' || !value.withRefund) {
      return { status: value.status, startBeforePayment, refund: null };
    }
    const parsed = refundFormSchema.safeParse({
      amount: value.refundAmount,
      method: value.refundMethod,
      reason: value.refundReason,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = REFUND_FIELDS[issue.path[0] as keyof typeof REFUND_FIELDS];
        ctx.addIssue({ code: 'custom', message: issue.message, path: [field] });
      }
      return z.NEVER;
    }
    const refund: CancelRefundChoice = {
      amountCents: parsed.data.amount,
      method: parsed.data.method,
      reason: parsed.data.reason,
    };
    return { status: value.status, startBeforePayment: false, refund };
  });

export type StatusChangeInput = z.input<typeof statusChangeSchema>;
