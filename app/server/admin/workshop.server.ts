import { type SQL, sql } from 'drizzle-orm';
import {
  type AdvanceOutcome,
  BOARD_COLUMN_SIZE,
  BOARD_PAGE_SIZE,
  type BoardCard,
  type BoardColumn,
  type BoardColumnView,
  type BoardParams,
  columnsFor,
} from '~/domain/admin/workshop-board';
import { isWorkshopStage, WORKSHOP_STAGE_LABELS, type WorkshopStage } from '~/domain/order-status';
import { countedAt, parseReceptionCounts } from '~/domain/orders/counted-quantities';
import { isLate } from '~/domain/orders/due-date';
import { workHeldBack, workNotBefore } from '~/domain/orders/early-start';
import { nextStage, type Transition } from '~/domain/orders/lifecycle';
import { loadCopyWork } from '../copies/extra-copies.server';
import { db } from '../db/client.server';
import { applyTransition } from '../orders/lifecycle.server';
import { CUSTOMER_NAME } from './orders.server';
import { isoTimestampOrNull, whereAll } from './search-sql.server';

/*
 * The workshop board's queries. Each column is one query that walks orders_workshop_board_idx
 * (stage, due_at, created_at; placed orders still open) in its order: `due_at asc nulls last` puts
 * the late orders first (their due date is the oldest), then the others by due date, then those
 * not received yet (no due date) by age. Counts stop at BOARD_COUNT_CAP, so that the board costs
 * the same with 1 000 or 200 000 orders (npm run bench, docs/performance.md).
 */

export const BOARD_COUNT_CAP = 1000;

/** Something goes back to the customer: a USB key or DVD, or their originals. */
const SENDS_BACK = sql`(o.delivery_method <> 'digital' or o.return_originals)`;

function columnCondition(column: BoardColumn): SQL {
  if (column === 'to_ship') return sql`o.stage = 'ready' and o.status = 'completed' and ${SENDS_BACK}`;
  if (column === 'ready') return sql`o.stage = 'ready' and not ${SENDS_BACK}`;
  return sql`o.stage = ${column}`;
}

function filterConditions(params: BoardParams): SQL[] {
  // The predicate of orders_workshop_board_idx, written the same way so that the planner uses it.
  const conditions: SQL[] = [
    sql`o.placed_at is not null`,
    sql`o.status in ('pending', 'processing', 'completed')`,
    // A retention extension has no work (decision 029): never on the board.
    sql`not exists (select 1 from linked_orders l where l.order_id = o.id and l.kind = 'retention_extension')`,
  ];
  if (params.support) {
    conditions.push(sql`exists (select 1 from order_items i where i.order_id = o.id and i.type = ${params.support})`);
  }
  if (params.delivery) conditions.push(sql`o.delivery_method = ${params.delivery}`);
  if (params.label) conditions.push(sql`o.send_method = 'label'`);
  if (params.returnOriginals) conditions.push(sql`o.return_originals`);
  if (params.express) conditions.push(sql`o.express`);
  if (params.waiting === 'etiquette') {
    conditions.push(
      sql`o.send_method = 'label' and not exists (select 1 from shipments s where s.order_id = o.id and s.direction = 'inbound')`,
    );
  }
  return conditions;
}

/** The card's lines with their counted quantity once the parcel is received. */
function countedItems(items: unknown, stored: unknown): BoardCard['items'] {
  const counts = parseReceptionCounts(stored);
  return ((items as Array<{ type: string; quantity: number; position: number }> | null) ?? []).map((item) => ({
    type: item.type,
    quantity: item.quantity,
    counted: countedAt(counts, item.position),
  }));
}

function toCard(row: Record<string, unknown>, now: Date): BoardCard {
  const dueAt = isoTimestampOrNull(row.due_at);
  return {
    id: String(row.id),
    number: String(row.number),
    customer: String(row.customer ?? ''),
    items: countedItems(row.items, row.counts),
    stage: row.stage as WorkshopStage,
    dueAt,
    late: isLate(dueAt ? new Date(dueAt) : null, now),
    express: Boolean(row.express),
    paid: row.payment_status === 'paid' || row.payment_status === 'partially_refunded',
    rework: Boolean(row.rework),
    notBefore: heldBackUntil(row, now),
  };
}

/** The end of the withdrawal period the customer kept, while it still holds the work back. */
function heldBackUntil(row: Record<string, unknown>, now: Date): string | null {
  const notBefore = workNotBefore({
    createdAt: new Date(String(row.created_at)),
    earlyStartConsentAt: row.early_start_consent_at ? new Date(String(row.early_start_consent_at)) : null,
  });
  return notBefore && workHeldBack(notBefore, now) ? notBefore.toISOString() : null;
}

async function loadColumn(
  column: BoardColumn,
  params: BoardParams,
  limit: number,
  offset: number,
  now: Date,
): Promise<BoardColumnView> {
  const where = whereAll([...filterConditions(params), columnCondition(column)]);
  const orderBy = sql`o.due_at asc nulls last, o.created_at asc`;
  const [rows, count] = await Promise.all([
    // The page is chosen on the index first, then joined with accounts and items.
    db().execute(sql`
      select o.id, o.number, o.stage, o.due_at, o.express, o.payment_status, ${CUSTOMER_NAME} as customer,
        o.created_at, o.early_start_consent_at,
        coalesce((select json_agg(json_build_object('type', i.type, 'quantity', i.quantity, 'position', i.position)
                  order by i.position) from order_items i where i.order_id = o.id), '[]'::json) as items,
        -- What was counted at reception: the card shows it rather than what was declared.
        (select r.counts from receptions r where r.order_id = o.id limit 1) as counts,
        -- A delivered file the customer wants redone (decision 011): one index probe per card shown.
        exists (select 1 from order_files f
                where f.order_id = o.id and f.rework_requested_at is not null and f.deleted_at is null) as rework
      from (select * from orders o ${where} order by ${orderBy} limit ${limit} offset ${offset}) o
      left join "user" u on u.id = o.user_id
      order by ${orderBy}`),
    db().execute<{ n: number }>(sql`
      select count(*)::int as n from (select 1 from orders o ${where} limit ${BOARD_COUNT_CAP + 1}) t`),
  ]);
  const total = Number(count.rows[0]?.n ?? 0);
  const cards = rows.rows.map((row) => toCard(row, now));
  // Orders of extra copies: what to copy from which order (the card's lines are the keys or DVDs).
  const copies = await loadCopyWork(cards.map((card) => card.id));
  for (const card of cards) {
    const work = copies.get(card.id);
    if (!work) continue;
    const { sourceOrderId: _source, ...view } = work;
    card.copy = view;
    card.notBefore = null;
  }
  return {
    column,
    cards,
    total: Math.min(total, BOARD_COUNT_CAP),
    capped: total > BOARD_COUNT_CAP,
  };
}

/** The board: every column with its first cards, or one column a page at a time. */
export async function loadWorkshopBoard(params: BoardParams, now = new Date()): Promise<BoardColumnView[]> {
  const columns = columnsFor(params);
  const limit = params.column ? BOARD_PAGE_SIZE : BOARD_COLUMN_SIZE;
  const offset = params.column ? (params.page - 1) * BOARD_PAGE_SIZE : 0;
  return Promise.all(columns.map((column) => loadColumn(column, params, limit, offset, now)));
}

/**
 * « Passer à l’étape suivante » for each selected order, one lifecycle transition each (its own
 * transaction, history entry and e-mail): an order refused (not paid, parcel not received…) does
 * not stop the others, and its French refusal is reported.
 */
export async function advanceOrders(orderIds: readonly string[], actorId: string): Promise<AdvanceOutcome[]> {
  const ids = [...new Set(orderIds)];
  if (ids.length === 0) return [];
  const found = await db().execute(sql`
    select id, number, stage from orders where id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
  const byId = new Map(found.rows.map((row) => [String(row.id), row]));
  const outcomes: AdvanceOutcome[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (!row) {
      outcomes.push({ orderId: id, number: '', ok: false, message: 'Commande introuvable.' });
      continue;
    }
    outcomes.push(await advanceOne(id, String(row.number), row.stage, actorId));
  }
  return outcomes;
}

type AdvanceTarget = Extract<Transition, { type: 'advance_stage' }>['to'];

async function advanceOne(orderId: string, number: string, stage: unknown, actorId: string): Promise<AdvanceOutcome> {
  if (!isWorkshopStage(stage)) return { orderId, number, ok: false, message: 'Étape inconnue.' };
  if (stage === 'ready') return { orderId, number, ok: false, message: 'La commande est déjà prête.' };
  // Not received yet (no next stage): the lifecycle refuses with its own message.
  const to = (nextStage(stage) ?? 'digitising') as AdvanceTarget;
  const result = await applyTransition(orderId, { type: 'advance_stage', to }, actorId);
  if (!result.ok) return { orderId, number, ok: false, message: result.message };
  return { orderId, number, ok: true, message: `Passée à l’étape « ${WORKSHOP_STAGE_LABELS[to]} ».` };
}
