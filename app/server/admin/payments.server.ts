import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { PAGE_SIZE } from '~/domain/admin/list-params';
import { COUNT_CAP_DEFAULT, type ListPage, pageOf } from '~/domain/admin/paging';
import type { PendingPaymentRow } from '~/domain/admin/views';
import type { SessionUser } from '../auth/session.server';
import { db, type Tx } from '../db/client.server';
import { enqueueEmail } from '../email/outbox.server';
import { baseUrl } from '../env.server';
import { issueInvoice } from '../invoices/invoices.server';
import { customerName, loadOrderFacts } from '../invoices/order-facts.server';
import { log } from '../log.server';
import { CUSTOMER_EMAIL, CUSTOMER_NAME } from './orders.server';
import { anyOf, isoTimestamp, orderSearchCondition, textConditions } from './search-sql.server';
import { invalidateDashboardStats } from './stats.server';

/*
 * The Validation Paiements dialog (specification 001): payments in "En attente" (bank transfers
 * and cheques awaited, card sessions the gateway never confirmed), searched and validated or
 * rejected one by one or as a selection. The prototype only showed notices; here each action has its effect, in
 * one transaction per payment:
 *  - validate: the payment and the order become paid, the invoice is issued (gapless number,
 *    invoices.server.ts) and the customer's `payment-received` e-mail is queued in the outbox;
 *  - reject: the payment fails, and so does the order's payment status while it was pending.
 */

/** Orders paid by bank transfer or cheque: the money arrives outside any gateway. */
const MANUAL_METHODS = sql`('transfer', 'cheque')`;

/**
 * What waits for a decision: gateway attempts in "pending" (a `payments` row), and orders to be
 * paid by transfer or cheque that have no such attempt (the expected transfer is the payment; its
 * reference is the order's number, which the customer writes on the transfer).
 */
export async function listPendingPayments(
  params: { q: string; page: number },
  pageSize = PAGE_SIZE,
): Promise<ListPage<PendingPaymentRow>> {
  const search = params.q
    ? (reference: SQL) =>
        sql`and ${anyOf([...textConditions(sql`lower(${reference})`, params.q), sql`o.id in (select o.id from orders o where ${orderSearchCondition(params.q)})`])}`
    : () => sql``;
  const pending = sql`
    select 'p:' || p.id as key, p.provider_ref as reference, p.order_id, p.created_at, p.method, p.amount, p.provider
    from payments p join orders o on o.id = p.order_id
    where p.status = 'pending' ${search(sql`p.provider_ref`)}
    union all
    select 'o:' || o.id, o.number, o.id, o.created_at, o.payment_method, o.total_price, null
    from orders o
    where o.payment_status = 'pending' and o.payment_method in ${MANUAL_METHODS}
      and not exists (select 1 from payments p where p.order_id = o.id and p.status = 'pending')
      ${search(sql`o.number`)}`;
  const offset = (params.page - 1) * pageSize;
  const [rows, counted] = await Promise.all([
    db().execute(sql`
      select w.*, o.number as order_number, ${CUSTOMER_NAME} as customer, ${CUSTOMER_EMAIL} as email
      from (${pending} order by created_at desc nulls last limit ${pageSize} offset ${offset}) w
      join orders o on o.id = w.order_id
      left join "user" u on u.id = o.user_id
      order by w.created_at desc nulls last`),
    db().execute<{ n: number }>(sql`
      select count(*)::int as n from (select 1 from (${pending}) w limit ${COUNT_CAP_DEFAULT + 1}) t`),
  ]);
  return pageOf(
    rows.rows.map((r) => ({
      id: String(r.key),
      reference: String(r.reference),
      orderId: String(r.order_id),
      orderNumber: String(r.order_number),
      customer: String(r.customer ?? ''),
      email: (r.email as string | null) ?? null,
      date: isoTimestamp(r.created_at),
      method: String(r.method),
      provider: r.provider === null ? null : String(r.provider),
      amountCents: Number(r.amount),
      status: 'pending',
    })),
    params.page,
    Number(counted.rows[0]?.n ?? 0),
    pageSize,
  );
}

export type PaymentDecision = 'validate' | 'reject';

export type PaymentDecisionResult =
  | { id: string; ok: true; reference: string; orderNumber: string; invoiceNumber: string | null }
  | { id: string; ok: false; reference: string | null; reason: 'not-found' | 'not-pending' | 'error' };

interface Target {
  orderId: string;
  /** The gateway attempt, or null for an order paid by transfer or cheque. */
  payment: {
    id: string;
    provider: string;
    providerRef: string;
    status: string;
    amountCents: number;
    method: string;
  } | null;
  reference: string;
}

/** Locks the order, then its attempt (the order first, as the gateways' notifications do: no deadlock). */
async function lockTarget(tx: Tx, key: string): Promise<Target | null> {
  const [kind, id] = [key.slice(0, 2), key.slice(2)];
  if (kind === 'o:') {
    const order = await tx.execute<{ id: string; number: string }>(sql`
      select id, number from orders where id = ${id} for update`);
    const row = order.rows[0];
    return row ? { orderId: row.id, payment: null, reference: row.number } : null;
  }
  if (kind !== 'p:') return null;
  const owner = await tx.execute<{ order_id: string }>(sql`select order_id from payments where id = ${id}`);
  const orderId = owner.rows[0]?.order_id;
  if (!orderId) return null;
  await tx.execute(sql`select id from orders where id = ${orderId} for update`);
  const found = await tx.execute(sql`
    select id, provider, provider_ref, status, amount, method from payments where id = ${id} for update`);
  const p = found.rows[0] as
    | { id: string; provider: string; provider_ref: string; status: string; amount: number; method: string }
    | undefined;
  if (!p) return null;
  return {
    orderId,
    reference: p.provider_ref,
    payment: {
      id: p.id,
      provider: p.provider,
      providerRef: p.provider_ref,
      status: p.status,
      amountCents: Number(p.amount),
      method: p.method,
    },
  };
}

async function validateOne(tx: Tx, key: string, admin: Pick<SessionUser, 'id'>): Promise<PaymentDecisionResult> {
  const target = await lockTarget(tx, key);
  if (!target) return { id: key, ok: false, reference: null, reason: 'not-found' };
  const facts = await loadOrderFacts(tx, target.orderId);
  if (!facts) return { id: key, ok: false, reference: target.reference, reason: 'not-found' };
  const pending = target.payment ? target.payment.status === 'pending' : facts.paymentStatus === 'pending';
  if (!pending) return { id: key, ok: false, reference: target.reference, reason: 'not-pending' };

  const amountCents = target.payment?.amountCents ?? facts.totalPriceCents;
  if (target.payment) {
    await tx.execute(sql`update payments set status = 'paid', updated_at = now() where id = ${target.payment.id}`);
  }
  const data = {
    paymentId: target.payment?.id ?? null,
    provider: target.payment?.provider ?? null,
    reference: target.reference,
    amountCents,
    method: target.payment?.method ?? facts.paymentMethod,
  };
  await tx.execute(sql`
    insert into order_events (order_id, actor, kind, "from", "to", data)
    values (${target.orderId}, ${admin.id}, 'payment_validated', ${facts.paymentStatus}, 'paid', ${JSON.stringify(data)}::jsonb)`);

  if (facts.paymentStatus === 'paid' || facts.paymentStatus === 'refunded') {
    // Another attempt already paid the order: this one is recorded, nothing is invoiced twice.
    return { id: key, ok: true, reference: target.reference, orderNumber: facts.number, invoiceNumber: null };
  }
  const paidResult = await tx.execute<{ paid_at: string }>(sql`
    update orders set payment_status = 'paid', paid_at = now(), updated_at = now() where id = ${target.orderId}
    returning paid_at`);
  const paidAt = new Date(isoTimestamp(paidResult.rows[0]?.paid_at ?? new Date()));
  // Last: the invoice counter stays locked until the commit.
  const invoice = await issueInvoice(tx, {
    orderId: target.orderId,
    actor: admin.id,
    payment: { method: data.method, paidAt, provider: target.payment?.provider ?? null },
  });
  const email = facts.customer.email?.trim();
  if (email && z.email().safeParse(email).success) {
    await enqueueEmail(tx, {
      to: email,
      template: 'payment-received',
      data: {
        orderNumber: facts.number,
        amountCents,
        paidAt: paidAt.toISOString(),
        invoiceNumber: invoice.number,
        invoiceUrl: `${baseUrl()}/facture/${target.orderId}`,
        customerName: customerName(facts),
      },
      dedupeKey: `payment-received:${target.orderId}`,
      orderId: target.orderId,
    });
  }
  return { id: key, ok: true, reference: target.reference, orderNumber: facts.number, invoiceNumber: invoice.number };
}

async function rejectOne(tx: Tx, key: string, admin: Pick<SessionUser, 'id'>): Promise<PaymentDecisionResult> {
  const target = await lockTarget(tx, key);
  if (!target) return { id: key, ok: false, reference: null, reason: 'not-found' };
  const order = await tx.execute<{ number: string; payment_status: string }>(sql`
    select number, payment_status from orders where id = ${target.orderId}`);
  const facts = order.rows[0];
  if (!facts) return { id: key, ok: false, reference: target.reference, reason: 'not-found' };
  const pending = target.payment ? target.payment.status === 'pending' : facts.payment_status === 'pending';
  if (!pending) return { id: key, ok: false, reference: target.reference, reason: 'not-pending' };
  if (target.payment) {
    await tx.execute(sql`update payments set status = 'failed', updated_at = now() where id = ${target.payment.id}`);
  }
  if (facts.payment_status === 'pending') {
    await tx.execute(sql`update orders set payment_status = 'failed', updated_at = now() where id = ${target.orderId}`);
  }
  const data = {
    paymentId: target.payment?.id ?? null,
    provider: target.payment?.provider ?? null,
    reference: target.reference,
  };
  await tx.execute(sql`
    insert into order_events (order_id, actor, kind, "from", "to", data)
    values (${target.orderId}, ${admin.id}, 'payment_rejected', ${facts.payment_status},
      ${facts.payment_status === 'pending' ? 'failed' : facts.payment_status}, ${JSON.stringify(data)}::jsonb)`);
  return { id: key, ok: true, reference: target.reference, orderNumber: facts.number, invoiceNumber: null };
}

/** Validates or rejects payments, each in its own transaction (one failure does not undo the others). */
export async function decidePayments(
  ids: string[],
  decision: PaymentDecision,
  admin: Pick<SessionUser, 'id'>,
): Promise<PaymentDecisionResult[]> {
  const results: PaymentDecisionResult[] = [];
  for (const id of [...new Set(ids)]) {
    try {
      results.push(
        await db().transaction((tx) =>
          decision === 'validate' ? validateOne(tx, id, admin) : rejectOne(tx, id, admin),
        ),
      );
    } catch (error) {
      log.error({ err: error, paymentId: id, decision }, 'payment decision failed');
      results.push({ id, ok: false, reference: null, reason: 'error' });
    }
  }
  if (results.some((r) => r.ok)) invalidateDashboardStats();
  return results;
}
