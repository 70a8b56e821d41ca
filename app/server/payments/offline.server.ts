import type { CheckoutDetails } from '~/domain/orders/checkout-details';
import { type CheckoutMethod, LIFECYCLE_MESSAGES } from '~/domain/orders/lifecycle';
import { PAYMENT_MESSAGES } from '~/domain/payments/messages';
import { SANDBOX_POLICY_MESSAGES } from '~/domain/payments/sandbox-policy';
import { db } from '../db/client.server';
import { applyCheckoutDetails } from '../orders/checkout-details.server';
import { afterCommit, applyTransitionInTx, lockOrderState, NOT_FOUND_MESSAGE } from '../orders/lifecycle.server';
import { CheckoutError } from './checkout.server';
import { getCardAvailability } from './sandbox-mode.server';

/*
 * The customer confirms the order at checkout by choosing how to pay (terms of sale, section 6):
 * card, bank transfer or cheque. A draft is placed then (the order lifecycle's `place`: the number
 * is the customer's, the back office is notified, the confirmation e-mail leaves, with the
 * instructions for a transfer or a cheque). A placed, unpaid order may change its way of paying
 * (`choose_payment_method`: after a declined card, say; the card sessions still open are closed
 * when the customer turns to a transfer or a cheque). A transfer or cheque then waits in the back
 * office's Validation Paiements; a card goes on to its gateway (createCheckout).
 */

const REFUSAL_STATUS: Record<string, { status: 404 | 409 | 422; message: string }> = {
  not_found: { status: 404, message: NOT_FOUND_MESSAGE },
  already_paid: { status: 409, message: PAYMENT_MESSAGES.alreadyPaid },
  canceled: { status: 409, message: PAYMENT_MESSAGES.orderCanceled },
  withdrawn: { status: 409, message: PAYMENT_MESSAGES.orderWithdrawn },
  nothing_to_pay: { status: 422, message: PAYMENT_MESSAGES.nothingToPay },
  no_address: { status: 422, message: LIFECYCLE_MESSAGES.noAddress },
};

export async function confirmCheckout(input: {
  orderId: string;
  method: CheckoutMethod;
  actor: string;
  /** The guest's access token (from their cookie), for the e-mail's link. */
  accessToken: string | null;
  /**
   * The addresses and insurance of the checkout form (something physical travels): written with
   * the placing of a draft, before `place`, which refuses such an order without its address.
   */
  details?: CheckoutDetails | null;
}): Promise<void> {
  // No card may be chosen while no gateway can take one: the order stays as it was (a draft is
  // not placed, nobody is e-mailed); transfer and cheque remain.
  if (input.method === 'card') {
    const card = await getCardAvailability();
    if (!card.available) {
      throw new CheckoutError(
        503,
        card.reason === 'sandbox-disabled' ? SANDBOX_POLICY_MESSAGES.cardUnavailable : PAYMENT_MESSAGES.notConfigured,
      );
    }
  }
  const result = await db().transaction(async (tx) => {
    const locked = await lockOrderState(tx, input.orderId);
    if (!locked) return { ok: false as const, code: 'not_found', message: NOT_FOUND_MESSAGE };
    const { state } = locked;
    // Paying again the way already chosen: nothing changes (the guard below still refuses a paid,
    // cancelled or withdrawn order).
    const unchanged =
      state.placed && state.paymentMethod === input.method && state.paymentStatus === 'pending' && !state.withdrawn;
    if (unchanged && state.status !== 'canceled') return null;
    if (!state.placed && input.details) await applyCheckoutDetails(tx, input.orderId, input.details, input.actor);
    return applyTransitionInTx(
      tx,
      input.orderId,
      state.placed ? { type: 'choose_payment_method', method: input.method } : { type: 'place', method: input.method },
      input.actor,
      { accessToken: input.accessToken },
    );
  });
  if (!result) return;
  if (!result.ok) {
    const refusal = REFUSAL_STATUS[result.code] ?? { status: 409 as const, message: result.message };
    throw new CheckoutError(refusal.status, refusal.message);
  }
  await afterCommit(result, input.actor);
}
