import type { OrderState, Transition } from '../orders/lifecycle';
import type { AuditChange, AuditFields } from './changes';
import { type AuditKind, TRANSITION_AUDIT_KINDS } from './kinds';

/*
 * The audit entry of an order transition applied by a staff member: the states that changed
 * (status, payment status, stage) before → after, and what the transition carried that a reader
 * of the Journal needs (the amount of a refund and its credit note, a parcel number, a reason).
 */

const STATE_FIELDS = ['status', 'paymentStatus', 'stage', 'paymentMethod'] as const;

export interface TransitionOutcome {
  invoiceNumber?: string | null;
  creditNoteNumber?: string | null;
  reason?: string | null;
}

export function transitionAuditChange(
  before: OrderState,
  after: OrderState,
  transition: Transition,
  outcome: TransitionOutcome = {},
): AuditChange & { kind: AuditKind } {
  const old: AuditFields = {};
  const next: AuditFields = {};
  for (const field of STATE_FIELDS) {
    if (before[field] !== after[field]) {
      old[field] = before[field];
      next[field] = after[field];
    }
  }
  const carried: AuditFields = {};
  if ('amountCents' in transition) carried.amountCents = transition.amountCents;
  if (transition.type === 'cancel' && transition.refundCents > 0) carried.refundCents = transition.refundCents;
  if (transition.type === 'settle_withdrawal') carried.keptCents = transition.keptCents;
  // The staff's explicit choice to start an unpaid order's work.
  if (transition.type === 'set_status' && transition.startBeforePayment) carried.startBeforePayment = true;
  if (transition.type === 'ship') carried.parcelNumber = transition.parcelNumber;
  if (transition.type === 'receive') carried.dueAt = transition.dueAt;
  if (transition.type === 'publish_files') {
    carried.fileCount = transition.fileCount;
    carried.expiresAt = transition.expiresAt;
  }
  if (outcome.creditNoteNumber) carried.creditNote = outcome.creditNoteNumber;
  if (outcome.invoiceNumber) carried.invoice = outcome.invoiceNumber;
  if (outcome.reason) carried.reason = outcome.reason;
  return {
    kind: TRANSITION_AUDIT_KINDS[transition.type],
    before: Object.keys(old).length > 0 ? old : null,
    after: { ...next, ...carried },
  };
}
