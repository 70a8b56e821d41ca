import { type SQL, sql } from 'drizzle-orm';
import type { OrderListParams } from '~/domain/admin/list-params';
import { countCap, type ListPage, pageOf } from '~/domain/admin/paging';
import { MAX_NOTE_LENGTH } from '~/domain/admin/timeline';
import type { OrderDetails, OrderListRow } from '~/domain/admin/views';
import type { BusinessBuyer } from '~/domain/invoices/snapshot';
import { type OrderStatus, type PaymentStatus, type WorkshopStage, wasPaid } from '~/domain/order-status';
import { allowedTransitions, statusTransition } from '~/domain/orders/allowed-transitions';
import { isLate } from '~/domain/orders/due-date';
import { providerName } from '~/domain/orders/events';
import { nextStage, type Transition } from '~/domain/orders/lifecycle';
import { closedWorkRefusal } from '~/domain/orders/open-work';
import { priceFieldsFrom } from '~/domain/pricing/pricing';
import { hasNoForbiddenCharacter } from '~/domain/text-input';
import { recordAudit } from '../audit/audit.server';
import type { SessionUser } from '../auth/session.server';
import { db } from '../db/client.server';
import { orders } from '../db/schema';
import { loadOrderAddresses } from '../orders/addresses.server';
import { loadOrderHistory } from '../orders/history.server';
import { applyTransition, readOrderState, type StatusEmailOutcome } from '../orders/lifecycle.server';
import { loadOrderLines } from '../orders/order-parts.server';
import { type IbanStatus, ibanStatus } from '../orders/refund-iban.server';
import type { RefundMethod } from '../orders/refunds.server';
import { supportsRefund } from '../payments/refunds.server';
import { isoTimestamp, isoTimestampOrNull, orderSearchCondition, whereAll } from './search-sql.server';
import { invalidateDashboardStats } from './stats.server';

/*
 * The Commandes tab: the list (filtered, searched, sorted and paginated in SQL), the order details
 * dialog, and the status change with its side effects in one transaction.
 *
 * The list never counts the whole table: the count stops at COUNT_CAP rows ("plus de 10 000"),
 * so that a page costs the same with 1 000 or 200 000 orders. ORDER BY clauses are written to
 * match the indexes exactly (`created_at DESC NULLS LAST` is how the index is built).
 */

const ORDER_BY: Record<string, SQL> = {
  'date:desc': sql`o.created_at desc nulls last`,
  'date:asc': sql`o.created_at asc nulls first`,
  'amount:desc': sql`o.total_price desc, o.created_at desc nulls last`,
  'amount:asc': sql`o.total_price asc, o.created_at desc nulls last`,
  'number:desc': sql`o.number desc`,
  'number:asc': sql`o.number asc`,
};

type OrderFilterParams = Pick<
  OrderListParams,
  'q' | 'status' | 'payment' | 'drafts' | 'from' | 'to' | 'delivery' | 'label' | 'returnOriginals' | 'stage'
>;

function orderConditions(params: OrderFilterParams): SQL[] {
  // Drafts are not orders yet (docs/product.md): listed only when asked for.
  const conditions: SQL[] = [params.drafts ? sql`o.placed_at is null` : sql`o.placed_at is not null`];
  if (params.status) conditions.push(sql`o.status = ${params.status}`);
  if (params.payment) conditions.push(sql`o.payment_status = ${params.payment}`);
  // Days are the shop's (Paris) days: from midnight of `from` to midnight after `to`.
  if (params.from) conditions.push(sql`o.created_at >= (${params.from}::date)::timestamp at time zone 'Europe/Paris'`);
  if (params.to) conditions.push(sql`o.created_at < (${params.to}::date + 1)::timestamp at time zone 'Europe/Paris'`);
  if (params.q) conditions.push(orderSearchCondition(params.q));
  if (params.delivery) conditions.push(sql`o.delivery_method = ${params.delivery}`);
  if (params.label) conditions.push(sql`o.send_method = 'label'`);
  if (params.returnOriginals) conditions.push(sql`o.return_originals`);
  if (params.stage) conditions.push(sql`o.stage = ${params.stage}`);
  return conditions;
}

/** The customer's name and e-mail of an order row `o` joined with its account `u`. */
export const CUSTOMER_NAME = sql`coalesce(
  nullif(trim(concat_ws(' ', u.first_name, u.last_name)), ''),
  nullif(u.name, ''),
  nullif(trim(concat_ws(' ', o.guest_first_name, o.guest_last_name)), ''),
  '')`;
export const CUSTOMER_EMAIL = sql`coalesce(u.email, o.guest_email)`;

function toListRow(row: Record<string, unknown>): OrderListRow {
  return {
    id: String(row.id),
    number: String(row.number),
    createdAt: isoTimestamp(row.created_at),
    status: row.status as OrderStatus,
    paymentStatus: row.payment_status as PaymentStatus,
    totalCents: Number(row.total_price),
    customer: String(row.customer ?? ''),
    email: (row.email as string | null) ?? null,
    userId: (row.user_id as string | null) ?? null,
    items: (row.items as OrderListRow['items'] | null) ?? [],
    stage: row.stage as WorkshopStage,
  };
}

export async function listOrders(params: OrderListParams): Promise<ListPage<OrderListRow>> {
  const pageSize = params.pageSize;
  const where = whereAll(orderConditions(params));
  const orderBy = ORDER_BY[`${params.sort}:${params.dir}`] ?? (ORDER_BY['date:desc'] as SQL);
  const offset = (params.page - 1) * pageSize;
  const [rowsResult, countResult] = await Promise.all([
    // The page is chosen first (on the orders' indexes), then joined with accounts and items.
    db().execute(sql`
      select o.id, o.number, o.created_at, o.status, o.payment_status, o.total_price, o.user_id, o.stage,
        ${CUSTOMER_NAME} as customer, ${CUSTOMER_EMAIL} as email,
        coalesce((select json_agg(json_build_object('type', i.type, 'quantity', i.quantity) order by i.position)
                  from order_items i where i.order_id = o.id), '[]'::json) as items
      from (select * from orders o ${where} order by ${orderBy} limit ${pageSize} offset ${offset}) o
      left join "user" u on u.id = o.user_id
      order by ${orderBy}`),
    db().execute<{ n: number }>(sql`
      select count(*)::int as n from (select 1 from orders o ${where} limit ${countCap(params.q) + 1}) t`),
  ]);
  const total = Number(countResult.rows[0]?.n ?? 0);
  return pageOf(rowsResult.rows.map(toListRow), params.page, total, pageSize, countCap(params.q));
}

/** Everything the order details dialog shows, or null when there is no such order. */
export async function getOrderDetails(orderId: string): Promise<OrderDetails | null> {
  const orderResult = await db().execute(sql`
    select o.*, ${CUSTOMER_NAME} as customer, ${CUSTOMER_EMAIL} as email,
      (select coalesce(sum(j.amount), 0)::int from order_adjustments j
        where j.order_id = o.id and j.kind = 'supplement' and j.status = 'paid') as supplements_paid,
      coalesce(u.phone, o.guest_phone) as phone,
      case when o.user_id is not null then u.street else o.guest_address end as address,
      case when o.user_id is not null then u.postal_code else o.guest_postal_code end as postal_code,
      case when o.user_id is not null then u.city else o.guest_city end as city
    from orders o left join "user" u on u.id = o.user_id
    where o.id = ${orderId}`);
  const o = orderResult.rows[0] as Record<string, unknown> | undefined;
  if (!o) return null;
  const [items, history, invoice, creditNotes, payments, refundRows, addresses, lifecycle] = await Promise.all([
    loadOrderLines(db(), orderId),
    loadOrderHistory(db(), orderId, { audience: 'staff' }),
    db().execute(
      sql`select id, number, issued_at, is_paid from invoices where order_id = ${orderId} and adjustment_id is null`,
    ),
    db().execute(
      sql`select id, number, issued_at, amount from credit_notes where order_id = ${orderId} order by issued_at`,
    ),
    db().execute(sql`
      select id, provider, provider_ref, status, method, amount, created_at, settles_order
      from payments where order_id = ${orderId} order by created_at`),
    db().execute(sql`
      select r.id, r.created_at, r.amount, r.method, r.status, r.reason, r.credit_note_id, r.last_error,
        (r.payment_id is null or exists (select 1 from payments p where p.id = r.payment_id
          and (p.settles_order or p.adjustment_id is not null))) as for_order
      from refunds r where r.order_id = ${orderId} order by r.created_at`),
    loadOrderAddresses(db(), orderId),
    readOrderState(db(), orderId),
  ]);
  if (!lifecycle) return null;
  const inv = invoice.rows[0] as Record<string, unknown> | undefined;
  const n = (key: string) => Number(o[key] ?? 0);
  const text = (key: string) => (o[key] === null || o[key] === undefined ? null : String(o[key]));
  return {
    id: String(o.id),
    number: String(o.number),
    createdAt: isoTimestamp(o.created_at),
    updatedAt: isoTimestamp(o.updated_at),
    status: o.status as OrderStatus,
    paymentStatus: o.payment_status as PaymentStatus,
    paymentMethod: String(o.payment_method),
    deliveryMethod: String(o.delivery_method),
    sendMethod: String(o.send_method),
    returnOriginals: Boolean(o.return_originals),
    withdrawnAt: isoTimestampOrNull(o.withdrawn_at),
    paidAt: isoTimestampOrNull(o.paid_at),
    closedWork:
      closedWorkRefusal({
        placed: o.placed_at !== null && o.placed_at !== undefined,
        status: o.status as OrderStatus,
        withdrawn: o.withdrawn_at !== null && o.withdrawn_at !== undefined,
        paymentStatus: o.payment_status as PaymentStatus,
      })?.message ?? null,
    workshop: workshopOf(o),
    customer: {
      userId: text('user_id'),
      name: String(o.customer ?? ''),
      email: text('email'),
      phone: text('phone'),
      address: text('address'),
      postalCode: text('postal_code'),
      city: text('city'),
      isGuest: o.user_id === null,
    },
    addresses,
    // The business buyer frozen at placement (orders.business), as its invoices state it.
    business: (o.business as BusinessBuyer | null | undefined) ?? null,
    allowed: allowedTransitions(lifecycle.state),
    // Every price field, read from its column (the raw row is snake_case, as the schema names it).
    prices: priceFieldsFrom((field) => n(orders[field].name)),
    invoice: inv
      ? {
          id: String(inv.id),
          number: String(inv.number),
          issuedAt: isoTimestamp(inv.issued_at),
          isPaid: Boolean(inv.is_paid),
        }
      : null,
    creditNotes: creditNotes.rows.map((r) => ({
      id: String(r.id),
      number: String(r.number),
      issuedAt: isoTimestamp(r.issued_at),
      amountCents: Number(r.amount),
    })),
    payments: payments.rows.map((r) => ({
      id: String(r.id),
      provider: String(r.provider),
      reference: String(r.provider_ref),
      status: String(r.status),
      method: String(r.method),
      amountCents: Number(r.amount),
      createdAt: isoTimestamp(r.created_at),
    })),
    items,
    money: { ...moneyOf(o, payments.rows, refundRows.rows), iban: ibanView(await ibanStatus(orderId)) },
    history,
  };
}

/** The IBAN's state for the dialog: dates and the masked form only (the full one: revealIban). */
function ibanView(status: IbanStatus | null): OrderDetails['money']['iban'] {
  if (!status) return null;
  return {
    requestedAt: status.requestedAt.toISOString(),
    receivedAt: status.receivedAt?.toISOString() ?? null,
    masked: status.masked,
  };
}

function workshopOf(order: Record<string, unknown>): OrderDetails['workshop'] {
  const stage = order.stage as WorkshopStage;
  const dueAt = isoTimestampOrNull(order.due_at);
  const open = order.status === 'processing' || order.status === 'pending';
  return {
    stage,
    dueAt,
    late: open && isLate(dueAt ? new Date(dueAt) : null, new Date()),
    express: Boolean(order.express),
    // Only a received order moves on from here (the reception has its own form).
    nextStage: open ? nextStage(stage) : null,
  };
}

function moneyOf(
  order: Record<string, unknown>,
  paymentRows: Record<string, unknown>[],
  refundRows: Record<string, unknown>[],
): Omit<OrderDetails['money'], 'iban'> {
  const paid = wasPaid(String(order.payment_status));
  const forOrder = refundRows.filter((r) => r.for_order);
  const sum = (rows: Record<string, unknown>[]) => rows.reduce((total, r) => total + Number(r.amount), 0);
  const refundedCents = sum(forOrder.filter((r) => r.status === 'pending' || r.status === 'succeeded'));
  const owedCents = sum(forOrder.filter((r) => r.status === 'due'));
  // What paid it: the order's total and its paid supplements (the rule book's paidCents).
  const paidCents = Number(order.total_price) + Number(order.supplements_paid ?? 0);
  const settling = paymentRows.find((p) => p.settles_order);
  const provider = settling ? String(settling.provider) : null;
  return {
    placed: order.placed_at !== null,
    refundedCents,
    owedCents,
    refundableCents: paid ? Math.max(0, paidCents - refundedCents - owedCents) : 0,
    // Named as the history names it (« Paiement de démonstration »), not as the settings do.
    gateway: provider && supportsRefund(provider) ? (providerName(provider) ?? provider) : null,
    refunds: refundRows.map((r) => ({
      id: String(r.id),
      createdAt: isoTimestamp(r.created_at),
      amountCents: Number(r.amount),
      method: String(r.method),
      status: String(r.status),
      reason: String(r.reason),
      creditNoteId: (r.credit_note_id as string | null) ?? null,
      lastError: (r.last_error as string | null) ?? null,
    })),
  };
}

export type StatusChangeResult =
  | {
      ok: true;
      changed: boolean;
      orderNumber: string;
      from: OrderStatus;
      to: OrderStatus;
      email: StatusEmailOutcome | { kind: 'skipped'; reason: 'unchanged' };
      creditNote: CreditNoteOutcome;
      /** The refund given in the same step as a cancellation, or why it could not be. */
      refund: { ok: true; amountCents: number } | { ok: false; message: string } | null;
    }
  | { ok: false; reason: 'not-found' }
  | { ok: false; reason: 'refused'; message: string };

export type CreditNoteOutcome = { kind: 'none' } | { kind: 'issued'; number: string };

/**
 * Changes the status of an order from the back office: a transition of the order lifecycle (its
 * table says which moves are allowed), with its history entry, the customer's e-mail through the
 * outbox, and for a cancellation the closing of the open payment sessions and the refund the staff
 * chose (its credit note, its e-mail).
 */
export async function changeOrderStatus(input: {
  orderId: string;
  status: OrderStatus;
  actor: Pick<SessionUser, 'id'>;
  refund?: { amountCents: number; method: RefundMethod; reason: string } | null;
  /** Who changes it holds the refund right: without it, a paid order cancelled owes its money back. */
  refundRight: boolean;
  /** « Commencer avant le paiement »: the staff start the work on an unpaid order (kept in the history). */
  startBeforePayment?: boolean;
}): Promise<StatusChangeResult> {
  const transition: Transition =
    input.status === 'canceled'
      ? { type: 'cancel', refundCents: input.refund?.amountCents ?? 0, refundRight: input.refundRight }
      : statusTransition(input.status, input.startBeforePayment === true);
  const result = await applyTransition(input.orderId, transition, input.actor.id, {
    refundMethod: input.refund?.method,
    reason: input.refund?.reason,
  });
  if (!result.ok) {
    if (result.code === 'not_found') return { ok: false, reason: 'not-found' };
    if (result.code === 'same_status' && result.orderNumber) {
      return {
        ok: true,
        changed: false,
        orderNumber: result.orderNumber,
        from: input.status,
        to: input.status,
        email: { kind: 'skipped', reason: 'unchanged' },
        creditNote: { kind: 'none' },
        refund: null,
      };
    }
    return { ok: false, reason: 'refused', message: result.message };
  }
  await invalidateDashboardStats();
  const refund = result.refundResults[0] ?? null;
  return {
    ok: true,
    changed: true,
    orderNumber: result.orderNumber,
    from: result.decision.event.from as OrderStatus,
    to: result.decision.next.status,
    email: result.statusEmail ?? { kind: 'skipped', reason: 'unchanged' },
    creditNote:
      refund?.ok && refund.creditNoteNumber ? { kind: 'issued', number: refund.creditNoteNumber } : { kind: 'none' },
    refund: refund
      ? refund.ok
        ? { ok: true, amountCents: refund.amountCents }
        : { ok: false, message: refund.message }
      : null,
  };
}

export type NoteResult = { ok: true } | { ok: false; reason: 'not-found' | 'empty' | 'too-long' | 'forbidden' };

/** An internal note in the order's history (order_events kind `note`); never shown to the customer. */
export async function addOrderNote(input: {
  orderId: string;
  text: string;
  actor: Pick<SessionUser, 'id'>;
}): Promise<NoteResult> {
  const text = input.text.trim();
  if (text === '') return { ok: false, reason: 'empty' };
  if (text.length > MAX_NOTE_LENGTH) return { ok: false, reason: 'too-long' };
  // PostgreSQL refuses NUL (in jsonb too): the form's message rather than a server error.
  if (!hasNoForbiddenCharacter(text)) return { ok: false, reason: 'forbidden' };
  return db().transaction(async (tx) => {
    const inserted = await tx.execute(sql`
      insert into order_events (order_id, actor, kind, data)
      select id, ${input.actor.id}, 'note', ${JSON.stringify({ text })}::jsonb from orders where id = ${input.orderId}
      returning id`);
    if (inserted.rows.length === 0) return { ok: false, reason: 'not-found' } as const;
    await recordAudit(tx, { actor: input.actor.id, kind: 'order.note', subject: input.orderId, after: { note: text } });
    return { ok: true } as const;
  });
}

/** The delivery state of an outbox row, for the status-change notices. */
export async function outboxStatus(id: string): Promise<{ status: string; lastError: string | null } | null> {
  const result = await db().execute(sql`select status, last_error from email_outbox where id = ${id}`);
  const row = result.rows[0] as { status: string; last_error: string | null } | undefined;
  return row ? { status: row.status, lastError: row.last_error } : null;
}
