import { type SQL, sql } from 'drizzle-orm';
import type { OrderListParams } from '~/domain/admin/list-params';
import { PAGE_SIZE } from '~/domain/admin/list-params';
import { countCap, type ListPage, pageOf } from '~/domain/admin/paging';
import { MAX_NOTE_LENGTH } from '~/domain/admin/timeline';
import type { OrderDetails, OrderListRow } from '~/domain/admin/views';
import type { OrderStatus, PaymentStatus } from '~/domain/order-status';
import { orderStatusLabel } from '~/domain/order-status';
import type { SessionUser } from '../auth/session.server';
import { db, type Tx } from '../db/client.server';
import { enqueueOrderStatusEmail, type OrderStatusEmailResult } from '../email/order-status-email.server';
import { log } from '../log.server';
import { type CreditNoteOutcome, issueCreditNoteForCanceledOrder } from './integrations.server';
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

function orderConditions(params: Pick<OrderListParams, 'q' | 'status' | 'payment' | 'from' | 'to'>): SQL[] {
  const conditions: SQL[] = [];
  if (params.status) conditions.push(sql`o.status = ${params.status}`);
  if (params.payment) conditions.push(sql`o.payment_status = ${params.payment}`);
  // Days are the shop's (Paris) days: from midnight of `from` to midnight after `to`.
  if (params.from) conditions.push(sql`o.created_at >= (${params.from}::date)::timestamp at time zone 'Europe/Paris'`);
  if (params.to) conditions.push(sql`o.created_at < (${params.to}::date + 1)::timestamp at time zone 'Europe/Paris'`);
  if (params.q) conditions.push(orderSearchCondition(params.q));
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
  };
}

export async function listOrders(params: OrderListParams, pageSize = PAGE_SIZE): Promise<ListPage<OrderListRow>> {
  const where = whereAll(orderConditions(params));
  const orderBy = ORDER_BY[`${params.sort}:${params.dir}`] ?? (ORDER_BY['date:desc'] as SQL);
  const offset = (params.page - 1) * pageSize;
  const [rowsResult, countResult] = await Promise.all([
    // The page is chosen first (on the orders' indexes), then joined with accounts and items.
    db().execute(sql`
      select o.id, o.number, o.created_at, o.status, o.payment_status, o.total_price, o.user_id,
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
      coalesce(u.phone, o.guest_phone) as phone,
      case when o.user_id is not null then u.street else o.guest_address end as address,
      case when o.user_id is not null then u.postal_code else o.guest_postal_code end as postal_code,
      case when o.user_id is not null then u.city else o.guest_city end as city
    from orders o left join "user" u on u.id = o.user_id
    where o.id = ${orderId}`);
  const o = orderResult.rows[0] as Record<string, unknown> | undefined;
  if (!o) return null;
  const [items, events, invoice, creditNotes, payments] = await Promise.all([
    db().execute(sql`
      select type, quantity, quality, resolution, format, restoration, denoise, reel_size, unit_price, line_total
      from order_items where order_id = ${orderId} order by position, id`),
    db().execute(sql`
      select e.at, e.kind, e."from", e."to", e.data, e.actor,
        nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '') as actor_name
      from order_events e left join "user" u on u.id = e.actor
      where e.order_id = ${orderId} order by e.at, e.id`),
    db().execute(sql`select id, number, issued_at, is_paid from invoices where order_id = ${orderId}`),
    db().execute(
      sql`select id, number, issued_at, amount from credit_notes where order_id = ${orderId} order by issued_at`,
    ),
    db().execute(sql`
      select id, provider, provider_ref, status, method, amount, created_at
      from payments where order_id = ${orderId} order by created_at`),
  ]);
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
    prices: {
      basePriceCents: n('base_price'),
      qualityPriceCents: n('quality_price'),
      resolutionPriceCents: n('resolution_price'),
      formatPriceCents: n('format_price'),
      restorationPriceCents: n('restoration_price'),
      denoisePriceCents: n('denoise_price'),
      deliveryCostCents: n('delivery_cost'),
      sendShippingCostCents: n('send_shipping_cost'),
      returnShippingCostCents: n('return_shipping_cost'),
      totalPriceCents: n('total_price'),
    },
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
    items: items.rows.map((r) => ({
      type: String(r.type),
      quantity: Number(r.quantity),
      quality: String(r.quality),
      resolution: (r.resolution as string | null) ?? null,
      format: (r.format as string | null) ?? null,
      restoration: Number(r.restoration),
      denoise: Boolean(r.denoise),
      reelSize: (r.reel_size as string | null) ?? null,
      unitPriceCents: Number(r.unit_price),
      lineTotalCents: Number(r.line_total),
    })),
    events: events.rows.map((r) => ({
      at: isoTimestamp(r.at),
      kind: String(r.kind),
      from: (r.from as string | null) ?? null,
      to: (r.to as string | null) ?? null,
      actorName: (r.actor_name as string | null) ?? (r.actor as string | null) ?? null,
      data: (r.data as Record<string, unknown> | null) ?? null,
    })),
  };
}

export type StatusEmailOutcome =
  | { kind: 'queued'; outboxId: string; recipient: string; recipientName: string }
  | { kind: 'skipped'; reason: 'notifications-disabled' | 'no-email' | 'unchanged' }
  | { kind: 'failed'; error: string };

export type StatusChangeResult =
  | {
      ok: true;
      changed: boolean;
      orderNumber: string;
      from: OrderStatus;
      to: OrderStatus;
      email: StatusEmailOutcome;
      creditNote: CreditNoteOutcome;
    }
  | { ok: false; reason: 'not-found' };

/** Where the customer follows their orders: the account for account holders; guests have no page to link. */
function customerOrderUrl(userId: string | null): string | undefined {
  return userId ? '/profile' : undefined;
}

/**
 * Sets the status of an order (specification 001, section 4: any value, no transition rule) and,
 * in the same transaction: the history entry, the customer's e-mail through the outbox when
 * notifications are enabled and the order has an e-mail address, and a credit note when a paid
 * order is cancelled. Either all of it happens or none of it.
 */
export async function changeOrderStatus(input: {
  orderId: string;
  status: OrderStatus;
  actor: Pick<SessionUser, 'id'>;
}): Promise<StatusChangeResult> {
  const result = await db().transaction(async (tx): Promise<StatusChangeResult> => {
    const locked = await tx.execute(sql`
      select o.id, o.number, o.status, o.payment_status, o.user_id, ${CUSTOMER_NAME} as customer,
        ${CUSTOMER_EMAIL} as email, u.first_name, o.guest_first_name
      from orders o left join "user" u on u.id = o.user_id
      where o.id = ${input.orderId}
      for update of o`);
    const order = locked.rows[0] as Record<string, unknown> | undefined;
    if (!order) return { ok: false, reason: 'not-found' };
    const from = order.status as OrderStatus;
    const to = input.status;
    const number = String(order.number);
    if (from === to) {
      return {
        ok: true,
        changed: false,
        orderNumber: number,
        from,
        to,
        email: { kind: 'skipped', reason: 'unchanged' },
        creditNote: { kind: 'none' },
      };
    }

    await tx.execute(sql`update orders set status = ${to}, updated_at = now() where id = ${input.orderId}`);
    const inserted = await tx.execute<{ id: number }>(sql`
      insert into order_events (order_id, actor, kind, "from", "to")
      values (${input.orderId}, ${input.actor.id}, 'status_changed', ${from}, ${to})
      returning id`);
    const eventId = inserted.rows[0]?.id;

    const creditNote =
      to === 'canceled' && order.payment_status === 'paid'
        ? await issueCreditNoteForCanceledOrder(tx, { orderId: input.orderId, actorId: input.actor.id })
        : ({ kind: 'none' } as const);

    const email = await queueStatusEmail(tx, {
      orderId: input.orderId,
      status: to,
      email: (order.email as string | null) ?? null,
      customer: String(order.customer ?? ''),
      firstName: (order.first_name as string | null) ?? (order.guest_first_name as string | null) ?? null,
      userId: (order.user_id as string | null) ?? null,
      eventKey: `event${eventId}`,
      actorId: input.actor.id,
    });
    return { ok: true, changed: true, orderNumber: number, from, to, email, creditNote };
  });
  if (result.ok && result.changed) invalidateDashboardStats();
  return result;
}

async function queueStatusEmail(
  tx: Tx,
  input: {
    orderId: string;
    status: OrderStatus;
    email: string | null;
    customer: string;
    firstName: string | null;
    userId: string | null;
    eventKey: string;
    actorId: string;
  },
): Promise<StatusEmailOutcome> {
  let queued: OrderStatusEmailResult;
  try {
    queued = await enqueueOrderStatusEmail(tx, {
      orderId: input.orderId,
      email: input.email,
      customer: input.firstName?.trim() || input.customer,
      status: input.status,
      statusLabel: orderStatusLabel(input.status),
      orderUrl: customerOrderUrl(input.userId),
      eventKey: input.eventKey,
    });
  } catch (error) {
    // The status change still stands: the e-mail's failure is reported, not the whole change.
    log.error({ err: error, orderId: input.orderId }, 'the status e-mail could not be queued');
    return { kind: 'failed', error: "Erreur lors de l'envoi de l'email" };
  }
  if (!queued.success) {
    if (queued.skipped) return { kind: 'skipped', reason: queued.skipped };
    return { kind: 'failed', error: queued.error };
  }
  const recipient = (input.email ?? '').trim();
  await tx.execute(sql`
    insert into order_events (order_id, actor, kind, data)
    values (${input.orderId}, ${input.actorId}, 'email_queued',
      ${JSON.stringify({ to: recipient, outboxId: queued.outboxId, template: 'order-status' })}::jsonb)`);
  return { kind: 'queued', outboxId: queued.outboxId, recipient, recipientName: input.customer || recipient };
}

export type NoteResult = { ok: true } | { ok: false; reason: 'not-found' | 'empty' | 'too-long' };

/** An internal note in the order's history (order_events kind `note`); never shown to the customer. */
export async function addOrderNote(input: {
  orderId: string;
  text: string;
  actor: Pick<SessionUser, 'id'>;
}): Promise<NoteResult> {
  const text = input.text.trim();
  if (text === '') return { ok: false, reason: 'empty' };
  if (text.length > MAX_NOTE_LENGTH) return { ok: false, reason: 'too-long' };
  const inserted = await db().execute(sql`
    insert into order_events (order_id, actor, kind, data)
    select id, ${input.actor.id}, 'note', ${JSON.stringify({ text })}::jsonb from orders where id = ${input.orderId}
    returning id`);
  return inserted.rows.length > 0 ? { ok: true } : { ok: false, reason: 'not-found' };
}

/** The delivery state of an outbox row, for the status-change notices. */
export async function outboxStatus(id: string): Promise<{ status: string; lastError: string | null } | null> {
  const result = await db().execute(sql`select status, last_error from email_outbox where id = ${id}`);
  const row = result.rows[0] as { status: string; last_error: string | null } | undefined;
  return row ? { status: row.status, lastError: row.last_error } : null;
}
