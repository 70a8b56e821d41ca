import { z } from 'zod';
import '../zod-config';
import { hasNoForbiddenCharacter } from '../text-input';

/*
 * The money forms of the back office's order dialog: a refund (amount, how, why), a cancellation
 * with its refund, and the settlement of a withdrawal (the amount kept). Amounts are typed the
 * French way (« 12,50 ») or with a point; the server parses them here, never trusting the browser.
 * The field names are the forms' (components/admin/order-money-forms.tsx, bound with Conform); the
 * cancellation's refund fields carry a `refund` prefix inside the status form.
 */

export const REFUND_METHODS = ['gateway', 'transfer', 'cheque'] as const;
export type RefundMethodChoice = (typeof REFUND_METHODS)[number];

export const REFUND_METHOD_LABELS: Readonly<Record<RefundMethodChoice, string>> = {
  gateway: 'Par la plateforme de paiement (sur la carte du client)',
  transfer: 'Par virement (fait à la main)',
  cheque: 'Par chèque (fait à la main)',
};

export const REFUND_FORM_MESSAGES = {
  amountInvalid: 'Indiquez un montant en euros, par exemple 12,50.',
  methodInvalid: 'Choisissez comment rembourser.',
  reasonRequired: 'Indiquez le motif du remboursement.',
  reasonTooLong: 'Le motif est trop long (500 caractères au plus).',
  forbidden: 'Ce champ contient un caractère non autorisé.',
} as const;

/** « 12,50 », « 12.5 », « 1 234,00 » → cents; null for anything else (letters, several decimal marks, negative). */
export function parseEurosToCents(input: unknown): number | null {
  if (typeof input !== 'string') return null;
  const compact = input.replace(/[\s\u00a0\u202f€]/g, '');
  const match = /^(\d+)(?:[.,](\d{1,2}))?$/.exec(compact);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

// An empty field reaches the schema as undefined (Conform's parseWithZod): the same French message.
const amount = z.string({ error: REFUND_FORM_MESSAGES.amountInvalid }).transform((value, ctx) => {
  const cents = parseEurosToCents(value);
  if (cents === null) {
    ctx.addIssue({ code: 'custom', message: REFUND_FORM_MESSAGES.amountInvalid });
    return z.NEVER;
  }
  return cents;
});

const reason = z
  .string({ error: REFUND_FORM_MESSAGES.reasonRequired })
  .trim()
  .min(1, REFUND_FORM_MESSAGES.reasonRequired)
  .max(500, REFUND_FORM_MESSAGES.reasonTooLong)
  .refine(hasNoForbiddenCharacter, REFUND_FORM_MESSAGES.forbidden);

const method = z.enum(REFUND_METHODS, { error: REFUND_FORM_MESSAGES.methodInvalid });

export const refundFormSchema = z.object({ amount, method, reason });
export const withdrawalSettlementSchema = z.object({ kept: amount, method });
/** « Approuver le remboursement » of money owed back (« à rembourser »): which one, and how it goes. */
export const refundApprovalSchema = z.object({ refundId: z.uuid({ error: 'Remboursement introuvable.' }), method });

export type RefundFormInput = z.input<typeof refundFormSchema>;
export type WithdrawalSettlementInput = z.input<typeof withdrawalSettlementSchema>;
