import { sql } from 'drizzle-orm';
import { PAGE_SIZE } from '~/domain/admin/list-params';
import { COUNT_CAP_DEFAULT, type ListPage, pageOf } from '~/domain/admin/paging';
import type { PaymentDecision } from '~/domain/admin/payment-decision';
import type { PendingPaymentRow } from '~/domain/admin/views';
import { amountDueCents } from '~/domain/orders/lifecycle';
import type { SessionUser } from '../auth/session.server';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { countPayment } from '../observability/metrics.server';
import { isOrderId } from '../orders/access.server';
import { withLifecycle } from '../orders/lifecycle.server';
import { giftCardPartOfOrder } from '../vouchers/gift-card-sql.server';
import { orderGiftCardPart } from '../vouchers/order-gift-card.server';
import { CUSTOMER_EMAIL, CUSTOMER_NAME } from './orders.server';
import { anyOf, isoTimestamp, orderSearchCondition, textConditions } from './search-sql.server';
import { invalidateDashboardStats } from './stats.server';

/*
 * The Validation Paiements dialog: the bank transfers and cheques awaited, searched
 * and validated or rejected one by one or as a selection. Card attempts are not here: only their
 * gateway settles them (a declined card is not money received). Each decision is one transition of
 * the order lifecycle (orders/lifecycle.server.ts), in its own transaction:
 *  - validate: `settle_payment` — paid, invoiced (gapless number), `payment-received` e-mail;
 *  - reject: `fail_payment` — the order's payment fails and can be paid again; the staff's reason is
 *    written in the customer's « Paiement non validé » e-mail.
 */

/** Orders paid by bank transfer or cheque: the money arrives outside any gateway. */
const MANUAL_METHODS = sql`('transfer', 'cheque')`;

/** Placed, live orders awaiting a transfer or a cheque (the reference is the order's number). */
export async function listPendingPayments(
  params: { q: string; page: number },
  pageSize = PAGE_SIZE,
): Promise<ListPage<PendingPaymentRow>> {
  const search = params.q
    ? sql`and ${anyOf([...textConditions(sql`lower(o.number)`, params.q), orderSearchCondition(params.q)])}`
    : sql``;
  const pending = sql`
    from orders o left join "user" u on u.id = o.user_id
    where o.payment_status = 'pending' and o.payment_method in ${MANUAL_METHODS}
      and o.placed_at is not null and o.status <> 'canceled' and o.withdrawn_at is null
      ${search}`;
  const offset = (params.page - 1) * pageSize;
  const [rows, counted] = await Promise.all([
    db().execute(sql`
      select o.id, o.number, o.created_at, o.payment_method,
        o.total_price - ${giftCardPartOfOrder(sql`o.id`)} as amount_due,
        ${CUSTOMER_NAME} as customer, ${CUSTOMER_EMAIL} as email
      ${pending}
      order by o.created_at desc nulls last limit ${pageSize} offset ${offset}`),
    db().execute<{ n: number }>(sql`
      select count(*)::int as n from (select 1 ${pending} limit ${COUNT_CAP_DEFAULT + 1}) t`),
  ]);
  return pageOf(
    rows.rows.map((r) => ({
      id: `o:${String(r.id)}`,
      reference: String(r.number),
      orderId: String(r.id),
      orderNumber: String(r.number),
      customer: String(r.customer ?? ''),
      email: (r.email as string | null) ?? null,
      date: isoTimestamp(r.created_at),
      method: String(r.payment_method),
      provider: null,
      // The money awaited: a gift card's part is not (decision 037).
      amountCents: Number(r.amount_due),
      status: 'pending',
    })),
    params.page,
    Number(counted.rows[0]?.n ?? 0),
    pageSize,
  );
}

export type PaymentDecisionResult =
  | {
      id: string;
      ok: true;
      reference: string;
      orderNumber: string;
      invoiceNumber: string | null;
      /** `transfer` or `cheque`: the payments' metric counts it under that provider. */
      method: string;
    }
  | {
      id: string;
      ok: false;
      reference: string | null;
      reason: 'not-found' | 'not-pending' | 'error';
      message?: string;
    };

async function decideOne(
  key: string,
  decision: PaymentDecision,
  admin: Pick<SessionUser, 'id'>,
  reason: string | undefined,
): Promise<PaymentDecisionResult> {
  const orderId = key.startsWith('o:') ? key.slice(2) : '';
  if (!isOrderId(orderId)) return { id: key, ok: false, reference: null, reason: 'not-found' };
  // The lifecycle's post-commit work (the prepaid sending label once paid) runs once committed.
  return withLifecycle(async ({ tx, apply }): Promise<PaymentDecisionResult> => {
    // Only an awaited transfer or cheque: a card attempt never becomes paid by hand.
    const found = await tx.execute<{ number: string; payment_method: string; total_price: number }>(sql`
      select number, payment_method, total_price from orders where id = ${orderId} for update`);
    const order = found.rows[0];
    if (!order) return { id: key, ok: false, reference: null, reason: 'not-found' };
    if (order.payment_method !== 'transfer' && order.payment_method !== 'cheque') {
      return { id: key, ok: false, reference: order.number, reason: 'not-pending' };
    }
    const transition =
      decision === 'validate'
        ? ({
            type: 'settle_payment',
            // The money awaited: the total less a gift card's part (decision 037).
            amountCents: amountDueCents({
              totalCents: Number(order.total_price),
              giftCardCents: (await orderGiftCardPart(tx, orderId))?.cents ?? 0,
            }),
            currency: 'EUR',
            method: order.payment_method,
          } as const)
        : ({ type: 'fail_payment', rejected: true } as const);
    // A rejection's reason goes to the history, the journal and the customer's e-mail.
    const result = await apply(orderId, transition, admin.id, {
      data: { reference: order.number, method: order.payment_method },
      ...(decision === 'reject' && reason ? { reason } : {}),
    });
    if (!result.ok) {
      return { id: key, ok: false, reference: order.number, reason: 'not-pending', message: result.message };
    }
    return {
      id: key,
      ok: true,
      reference: order.number,
      orderNumber: order.number,
      invoiceNumber: result.invoiceNumber,
      method: order.payment_method,
    };
  });
}

/**
 * Validates or rejects payments, each in its own transaction (one failure does not undo the others).
 * `reason`: why they are rejected, in the customer's « Paiement non validé » e-mail.
 */
export async function decidePayments(
  ids: string[],
  decision: PaymentDecision,
  admin: Pick<SessionUser, 'id'>,
  reason?: string,
): Promise<PaymentDecisionResult[]> {
  const results: PaymentDecisionResult[] = [];
  for (const id of [...new Set(ids)]) {
    try {
      const result = await decideOne(id, decision, admin, reason);
      // Counted once committed, like the gateways' notifications (observability/metrics.server.ts).
      if (result.ok) countPayment(result.method, decision === 'validate' ? 'paid' : 'rejected');
      results.push(result);
    } catch (error) {
      log.error({ err: error, paymentId: id, decision }, 'payment decision failed');
      results.push({ id, ok: false, reference: null, reason: 'error' });
    }
  }
  if (results.some((r) => r.ok)) await invalidateDashboardStats();
  return results;
}
