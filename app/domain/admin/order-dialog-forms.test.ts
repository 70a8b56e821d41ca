import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import { REFUND_FORM_MESSAGES } from '../orders/refund-form';
import { statusChangeSchema, UNKNOWN_STATUS_MESSAGE } from './order-dialog-forms';

/** The status form as the dialog posts it, read the way the orders' action reads it. */
function post(fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return parseWithZod(form, { schema: statusChangeSchema });
}

/** The messages per field of a refused submission (none when it is accepted). */
function errorsOf(submission: ReturnType<typeof post>) {
  return submission.status === 'success' ? {} : (submission.error ?? {});
}

describe('the order dialog’s status form', () => {
  it('takes a status alone (no refund fields posted)', () => {
    const submission = post({ status: 'processing' });
    expect(submission.status).toBe('success');
    expect(submission.status === 'success' && submission.value).toEqual({
      status: 'processing',
      startBeforePayment: false,
      refund: null,
    });
  });

  it('reads « Commencer avant le paiement » only with « En traitement »', () => {
    const value = (fields: Record<string, string>) => {
      const submission = post(fields);
      return submission.status === 'success' ? submission.value.startBeforePayment : null;
    };
    expect(value({ status: 'processing', startBeforePayment: 'on' })).toBe(true);
    expect(value({ status: 'completed', startBeforePayment: 'on' })).toBe(false);
  });

  it('refuses an unknown status in French', () => {
    const submission = post({ status: 'lost' });
    expect(errorsOf(submission).status).toEqual([UNKNOWN_STATUS_MESSAGE]);
  });

  it('reads a cancellation’s refund, with its messages under its own fields', () => {
    const wrong = post({ status: 'canceled', withRefund: 'on', refundAmount: 'douze', refundMethod: 'gateway' });
    expect(errorsOf(wrong).refundAmount).toEqual([REFUND_FORM_MESSAGES.amountInvalid]);
    expect(errorsOf(wrong).refundReason).toEqual([REFUND_FORM_MESSAGES.reasonRequired]);

    const right = post({
      status: 'canceled',
      withRefund: 'on',
      refundAmount: '12,50',
      refundMethod: 'transfer',
      refundReason: 'Commande annulée',
    });
    expect(right.status === 'success' && right.value).toEqual({
      status: 'canceled',
      startBeforePayment: false,
      refund: { amountCents: 1250, method: 'transfer', reason: 'Commande annulée' },
    });
  });

  it('ignores the refund fields when the order is not cancelled', () => {
    const submission = post({ status: 'completed', refundAmount: 'douze' });
    expect(submission.status === 'success' && submission.value).toEqual({
      status: 'completed',
      startBeforePayment: false,
      refund: null,
    });
  });
});
