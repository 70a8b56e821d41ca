import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { PriceListDocument } from '~/domain/pricing/default-price-list';
import { parsePriceListDocument } from '~/domain/pricing/price-list-schema';
import { PROMOTION_FORM_MESSAGES } from '~/domain/vouchers/promotion-form';
import {
  combinationProblem,
  type DiscountableLine,
  MAX_PROMOTION_CODE_LENGTH,
  PROMOTION_MESSAGES,
  type PriceListPeriod,
  type PromotionTerms,
  promotionDiscounts,
  promotionProblem,
  typedPromotionCodes,
} from '~/domain/vouchers/promotions';
import { recordAudit } from '../audit/audit.server';
import { CLIENT_IP_HEADER } from '../auth/auth.server';
import type { Executor } from '../config/config-options.server';
import { type Database, db, type Tx } from '../db/client.server';
import { createSharedRateLimiter } from '../db/rate-limit.server';
import { orderItems, orders, priceLists, promotionCodes, promotionCodeUses } from '../db/schema';
import { log } from '../log.server';
import { getActivePriceList } from '../pricing/price-lists.server';

/*
 * Promotion codes (decision 038): created and paused in the back office (journaled), checked and
 * taken at checkout. The rules are the domain's (domain/vouchers/promotions.ts); this module finds
 * the facts they need (uses, the customer's earlier orders, the order's lines) and writes a use in
 * the transaction that places the order, with the codes' rows locked so that two orders placed at
 * once cannot both take the last use.
 *
 * A code that does not exist counts against the client like a wrong gift card code (10 a minute by
 * default, PROMOTION_CODE_RATE_LIMIT): a script cannot list the shop's codes.
 */

type PromotionRow = typeof promotionCodes.$inferSelect;

/** Shared with the configurator's `?code=` link: an unknown code counts the same wherever it is typed. */
export const limiter = createSharedRateLimiter({
  name: 'promotion-code',
  limit: () => {
    const value = Number(process.env.PROMOTION_CODE_RATE_LIMIT ?? 10);
    return Number.isFinite(value) && value > 0 ? value : 10;
  },
  windowMs: 60_000,
});

export const PROMOTION_LIMITED_MESSAGE = 'Trop de codes essayés\u00A0: réessayez dans une minute.';

/** Whom a wrong code counts against: the client's address, and the account when signed in. */
export function promotionLimiterKeys(request: Request, userId: string | null): string[] {
  return [`ip:${request.headers.get(CLIENT_IP_HEADER) || 'unknown'}`, ...(userId ? [`user:${userId}`] : [])];
}

/** A stored code's terms as the domain reads them. */
export function termsOf(row: PromotionRow): PromotionTerms {
  return {
    code: row.code,
    label: row.label,
    kind: row.kind,
    percent: row.percent,
    amountCents: row.amountCents,
    supports: row.supports ?? [],
    minimumOrderCents: row.minimumOrderCents,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    maxUses: row.maxUses,
    maxUsesPerCustomer: row.maxUsesPerCustomer,
    firstOrderOnly: row.firstOrderOnly,
    combinable: row.combinable,
  };
}

// ---------------------------------------------------------------------------------------------
// The back office
// ---------------------------------------------------------------------------------------------

export type CreatePromotionResult = { ok: true; id: string } | { ok: false; field: 'code'; message: string };

/** A new code, journaled in the same transaction. A code taken already is refused in French. */
export async function createPromotion(terms: PromotionTerms, actor: string): Promise<CreatePromotionResult> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .insert(promotionCodes)
      .values({
        code: terms.code,
        label: terms.label,
        kind: terms.kind,
        percent: terms.percent,
        amountCents: terms.amountCents,
        supports: [...terms.supports],
        minimumOrderCents: terms.minimumOrderCents,
        startsAt: terms.startsAt,
        endsAt: terms.endsAt,
        maxUses: terms.maxUses,
        maxUsesPerCustomer: terms.maxUsesPerCustomer,
        firstOrderOnly: terms.firstOrderOnly,
        combinable: terms.combinable,
        createdBy: actor,
      })
      .onConflictDoNothing({ target: promotionCodes.code })
      .returning({ id: promotionCodes.id });
    if (!row) return { ok: false, field: 'code', message: PROMOTION_FORM_MESSAGES.codeTaken };
    await recordAudit(tx, {
      actor,
      kind: 'promotion.create',
      subject: row.id,
      subjectLabel: terms.code,
      after: auditFields(terms),
    });
    return { ok: true, id: row.id };
  });
}

function auditFields(terms: PromotionTerms) {
  return {
    code: terms.code,
    libellé: terms.label,
    remise: terms.kind === 'percent' ? `${terms.percent} %` : `${terms.amountCents} centimes`,
    supports: terms.supports.length ? terms.supports.join(', ') : 'tous',
    début: terms.startsAt.toISOString(),
    fin: terms.endsAt?.toISOString() ?? null,
  };
}

/** Pause or resume a code (its only change after creation), journaled; false when it is unknown. */
export async function setPromotionPaused(id: string, paused: boolean, actor: string): Promise<boolean> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .update(promotionCodes)
      .set({ pausedAt: paused ? sql`coalesce(${promotionCodes.pausedAt}, now())` : null })
      .where(eq(promotionCodes.id, id))
      .returning({ code: promotionCodes.code });
    if (!row) return false;
    await recordAudit(tx, {
      actor,
      kind: paused ? 'promotion.pause' : 'promotion.resume',
      subject: id,
      subjectLabel: row.code,
    });
    return true;
  });
}

export interface PromotionListRow {
  id: string;
  terms: PromotionTerms;
  paused: boolean;
  createdAt: Date;
  /** Uses that count (orders not cancelled before payment). */
  uses: number;
  /** What the code took off those orders. */
  discountCents: number;
  /** What those orders were paid (net of the discount): the code's revenue. */
  revenueCents: number;
}

/** Every code, newest first, with its uses and revenue (one query, counted in SQL). */
export async function listPromotions(database: Database = db()): Promise<PromotionListRow[]> {
  const counts = isNull(promotionCodeUses.releasedAt);
  const rows = await database
    .select({
      row: promotionCodes,
      uses: sql<number>`(count(${promotionCodeUses.id}) filter (where ${counts}))::int`,
      discount: sql<number>`coalesce(sum(${promotionCodeUses.discountCents}) filter (where ${counts}), 0)::int`,
      revenue: sql<number>`coalesce(sum(${orders.totalPriceCents}) filter (where ${counts} and ${orders.paymentStatus} in ('paid', 'partially_refunded')), 0)::int`,
    })
    .from(promotionCodes)
    .leftJoin(promotionCodeUses, eq(promotionCodeUses.promotionId, promotionCodes.id))
    .leftJoin(orders, eq(orders.id, promotionCodeUses.orderId))
    .groupBy(promotionCodes.id)
    .orderBy(desc(promotionCodes.createdAt));
  return rows.map(({ row, uses, discount, revenue }) => ({
    id: row.id,
    terms: termsOf(row),
    paused: row.pausedAt !== null,
    createdAt: row.createdAt,
    uses: Number(uses),
    discountCents: Number(discount),
    revenueCents: Number(revenue),
  }));
}

// ---------------------------------------------------------------------------------------------
// An order's codes
// ---------------------------------------------------------------------------------------------

export interface OrderPromotion {
  terms: PromotionTerms;
  cents: number;
}

/** The codes an order was placed with, in the order they applied (released ones too: they priced it). */
export async function orderPromotions(executor: Executor, orderId: string): Promise<OrderPromotion[]> {
  const rows = await executor
    .select({ row: promotionCodes, cents: promotionCodeUses.discountCents })
    .from(promotionCodeUses)
    .innerJoin(promotionCodes, eq(promotionCodes.id, promotionCodeUses.promotionId))
    .where(eq(promotionCodeUses.orderId, orderId))
    .orderBy(asc(promotionCodeUses.position));
  return rows.map(({ row, cents }) => ({ terms: termsOf(row), cents }));
}

/** The order's own lines, as the codes see them. */
async function orderLines(executor: Executor, orderId: string): Promise<DiscountableLine[]> {
  return executor
    .select({ type: orderItems.type, lineTotalCents: orderItems.lineTotalCents })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.position));
}

/** A cancelled or withdrawn unpaid order gives its codes' uses back (the lifecycle's release_promotions). */
export async function releasePromotionUses(tx: Tx, orderId: string, now: Date): Promise<void> {
  await tx
    .update(promotionCodeUses)
    .set({ releasedAt: now })
    .where(and(eq(promotionCodeUses.orderId, orderId), isNull(promotionCodeUses.releasedAt)));
}

/**
 * When each price list version was the shop's: from its publication to the next one's (the
 * reference price of a reduction looks 30 days back through them).
 */
export async function priceListPeriods(executor: Executor = db()): Promise<PriceListPeriod[]> {
  const rows = await executor
    .select({ data: priceLists.data, createdAt: priceLists.createdAt })
    .from(priceLists)
    .orderBy(asc(priceLists.createdAt));
  return rows.flatMap((row, i) => {
    const parsed = parsePriceListDocument(row.data);
    if (!parsed.ok) return [];
    return [{ list: parsed.document, from: row.createdAt, until: rows[i + 1]?.createdAt ?? null }];
  });
}

// ---------------------------------------------------------------------------------------------
// Checking and taking codes at checkout
// ---------------------------------------------------------------------------------------------

export interface AppliedPromotion {
  id: string;
  terms: PromotionTerms;
  cents: number;
}

export type PromotionCheck =
  | {
      ok: true;
      applied: AppliedPromotion[];
      discountCents: number;
      list: PriceListDocument;
      /** Whom the uses count for: the customer's e-mail in lower case. */
      customerKey: string;
    }
  | { ok: false; message: string; limited: boolean };

interface CheckInput {
  request: Request;
  typed: string;
  orderId: string;
  userId: string | null;
  now: Date;
}

/**
 * What the codes typed would take off this order now, or why not (French). With `lock`, the codes'
 * rows are locked until the end of the caller's transaction (the placing), so that the limits
 * counted here still hold when the uses are written.
 */
async function checkCodes(executor: Executor, input: CheckInput, lock: boolean): Promise<PromotionCheck> {
  const keys = promotionLimiterKeys(input.request, input.userId);
  const over = await Promise.all(keys.map((key) => limiter.isSpent(key)));
  if (over.some(Boolean)) return { ok: false, message: PROMOTION_LIMITED_MESSAGE, limited: true };
  if (input.typed.length > MAX_PROMOTION_CODE_LENGTH * 4) {
    return { ok: false, message: PROMOTION_MESSAGES.tooLong, limited: false };
  }
  const codes = typedPromotionCodes(input.typed);
  if (codes.length === 0)
    return { ok: true, applied: [], discountCents: 0, list: await orderList(executor, input.orderId), customerKey: '' };
  const query = executor
    .select()
    .from(promotionCodes)
    .where(inArray(promotionCodes.code, codes))
    .orderBy(asc(promotionCodes.id));
  const rows = lock ? await query.for('update') : await query;
  const unknown = codes.find((code) => !rows.some((row) => row.code === code));
  if (unknown) {
    const hits = await Promise.all(keys.map((key) => limiter.hit(key)));
    log.info(
      { code: unknown.slice(0, MAX_PROMOTION_CODE_LENGTH), userId: input.userId },
      'promotion: an unknown code was typed',
    );
    return { ok: false, message: PROMOTION_MESSAGES.unknown(unknown), limited: hits.some((hit) => !hit.allowed) };
  }
  // In the order typed: the first applies to the full prices, the next to what it left.
  const chosen = codes.map((code) => rows.find((row) => row.code === code) as PromotionRow);
  const combination = combinationProblem(chosen.map(termsOf));
  if (combination) return { ok: false, message: combination, limited: false };

  const [customer, lines, list] = await Promise.all([
    customerOf(executor, input.orderId),
    orderLines(executor, input.orderId),
    orderList(executor, input.orderId),
  ]);
  if (customer.giftCardSale) return { ok: false, message: PROMOTION_MESSAGES.giftCardSale, limited: false };
  const itemsCents = lines.reduce((sum, line) => sum + line.lineTotalCents, 0);
  for (const row of chosen) {
    const counts = await countUses(executor, row.id, customer.key, input.orderId);
    const problem = promotionProblem(
      termsOf(row),
      {
        now: input.now,
        paused: row.pausedAt !== null,
        uses: counts.uses,
        usesByCustomer: counts.byCustomer,
        customerHasOrdered: customer.hasOrdered,
        itemsCents,
      },
      lines,
      list,
    );
    if (problem) return { ok: false, message: problem, limited: false };
  }
  const discounts = promotionDiscounts(chosen.map(termsOf), lines);
  const applied = chosen.map((row, i) => ({ id: row.id, terms: termsOf(row), cents: discounts[i]?.cents ?? 0 }));
  const discountCents = applied.reduce((sum, code) => sum + code.cents, 0);
  return { ok: true, applied, discountCents, list, customerKey: customer.key };
}

async function orderList(executor: Executor, orderId: string): Promise<PriceListDocument> {
  const [row] = await executor
    .select({ data: priceLists.data })
    .from(orders)
    .innerJoin(priceLists, eq(priceLists.id, orders.priceListId))
    .where(eq(orders.id, orderId));
  return (row?.data as PriceListDocument | undefined) ?? (await getActivePriceList(executor)).data;
}

/** The order's customer: their key (e-mail in lower case), whether they ordered before. */
async function customerOf(executor: Executor, orderId: string) {
  const result = await executor.execute<{ key: string | null; has_ordered: boolean; gift_card_sale: boolean }>(sql`
    with me as (
      select lower(coalesce(u.email, o.guest_email, '')) as key, o.user_id
      from orders o left join "user" u on u.id = o.user_id where o.id = ${orderId}
    )
    select me.key,
      exists (
        select 1 from orders p left join "user" pu on pu.id = p.user_id
        where p.id <> ${orderId} and p.placed_at is not null
          and ((me.user_id is not null and p.user_id = me.user_id)
            or lower(coalesce(pu.email, p.guest_email, '')) = me.key)
      ) as has_ordered,
      exists (select 1 from gift_card_sales g where g.order_id = ${orderId}) as gift_card_sale
    from me`);
  const row = result.rows[0];
  return {
    key: row?.key ?? '',
    hasOrdered: Boolean(row?.has_ordered) && (row?.key ?? '') !== '',
    giftCardSale: Boolean(row?.gift_card_sale),
  };
}

async function countUses(executor: Executor, promotionId: string, customerKey: string, orderId: string) {
  const result = await executor.execute<{ uses: number; by_customer: number }>(sql`
    select count(*)::int as uses,
      (count(*) filter (where customer_key = ${customerKey} and ${customerKey} <> ''))::int as by_customer
    from promotion_code_uses
    where promotion_id = ${promotionId} and released_at is null and order_id <> ${orderId}`);
  return { uses: Number(result.rows[0]?.uses ?? 0), byCustomer: Number(result.rows[0]?.by_customer ?? 0) };
}

/** « Appliquer »: what the typed codes would take off; nothing is written but a wrong code's count. */
export async function previewPromotionCodes(input: CheckInput, executor: Executor = db()): Promise<PromotionCheck> {
  return checkCodes(executor, input, false);
}

/**
 * At « Payer », in the placing transaction (the order still a draft): the codes are checked again
 * with their rows locked, their uses written, and the order's discount and total set. The order's
 * total must be its price fields' sum (a draft's); it becomes that sum less the discount.
 */
export async function applyPromotionCodesInTx(tx: Tx, input: CheckInput): Promise<PromotionCheck> {
  const checked = await checkCodes(tx, input, true);
  if (!checked.ok || checked.applied.length === 0) return checked;
  await tx.insert(promotionCodeUses).values(
    checked.applied.map((code, position) => ({
      promotionId: code.id,
      orderId: input.orderId,
      position,
      customerKey: checked.customerKey,
      discountCents: code.cents,
    })),
  );
  await tx
    .update(orders)
    .set({
      discountCents: sql`${orders.discountCents} + ${checked.discountCents}`,
      totalPriceCents: sql`${orders.totalPriceCents} - ${checked.discountCents}`,
      updatedAt: input.now,
    })
    .where(eq(orders.id, input.orderId));
  return checked;
}
