import { sql } from 'drizzle-orm';
import { formatEurosFromCents } from '~/domain/format';
import { PAYMENT_MESSAGES } from '~/domain/payments/messages';
import type { OfflinePaymentMethod } from '~/domain/payments/offline';
import { db } from '../db/client.server';
import { notifications, orderEvents } from '../db/schema';
import { enqueueOrderConfirmation } from '../orders/confirmation-email.server';
import { CheckoutError } from './checkout.server';

/*
 * A bank transfer or a cheque chosen at checkout (terms of sale, section 6). The order stays
 * "payment pending" with that method, which puts it in the back office's Validation Paiements
 * list; validating it there issues the invoice and the payment-received e-mail
 * (app/server/admin/payments.server.ts). In one transaction: the method, the history entry, a
 * notification for the back office, the card attempts still open closed (the customer gave up
 * paying by card: the list shows the transfer, not a stale session), and the order confirmation
 * e-mail with the instructions, once per method.
 */

const METHOD_WORDS: Record<OfflinePaymentMethod, string> = { transfer: 'virement', cheque: 'chèque' };

export async function chooseOfflinePayment(input: {
  orderId: string;
  method: OfflinePaymentMethod;
  actor: string;
  /** The guest's access token (from their cookie), for the e-mail's link. */
  accessToken: string | null;
}): Promise<void> {
  await db().transaction(async (tx) => {
    const found = await tx.execute<{
      number: string;
      payment_status: string;
      payment_method: string;
      status: string;
      withdrawn_at: string | null;
      total_price: number;
    }>(sql`
      select number, payment_status, payment_method, status, withdrawn_at, total_price
      from orders where id = ${input.orderId} for update`);
    const order = found.rows[0];
    if (!order) throw new CheckoutError(404, PAYMENT_MESSAGES.orderNotFound);
    if (order.payment_status === 'paid' || order.payment_status === 'refunded') {
      throw new CheckoutError(409, PAYMENT_MESSAGES.alreadyPaid);
    }
    if (order.status === 'canceled') throw new CheckoutError(409, PAYMENT_MESSAGES.orderCanceled);
    if (order.withdrawn_at) throw new CheckoutError(409, PAYMENT_MESSAGES.orderWithdrawn);
    if (Number(order.total_price) <= 0) throw new CheckoutError(422, PAYMENT_MESSAGES.nothingToPay);

    // A failed card payment leaves the order "failed": choosing another way to pay reopens it.
    await tx.execute(sql`
      update orders set payment_method = ${input.method}, payment_status = 'pending', updated_at = now()
      where id = ${input.orderId}`);
    await tx.execute(sql`
      update payments set status = 'canceled', updated_at = now()
      where order_id = ${input.orderId} and status = 'pending' and method = 'card'`);
    const changed = order.payment_method !== input.method || order.payment_status !== 'pending';
    await tx.insert(orderEvents).values({
      orderId: input.orderId,
      actor: input.actor,
      kind: 'payment_method_chosen',
      from: order.payment_method,
      to: input.method,
      data: { method: input.method, amountCents: Number(order.total_price) },
    });
    if (changed) {
      await tx.insert(notifications).values({
        kind: 'payment',
        orderId: input.orderId,
        status: 'pending',
        title: `Paiement par ${METHOD_WORDS[input.method]} attendu — commande ${order.number}`,
        body: `${formatEurosFromCents(Number(order.total_price))} à recevoir, référence ${order.number}.`,
      });
    }
    await enqueueOrderConfirmation(tx, {
      orderId: input.orderId,
      accessToken: input.accessToken,
      paymentMethod: input.method,
    });
  });
}
