import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import { parseReceptionCounts } from '~/domain/orders/counted-quantities';
import { orderEvent } from '~/domain/orders/events';
import {
  decideSelection,
  type KeepPricing,
  orderNeedsReview,
  REVIEW_MESSAGES,
  REVIEW_REMINDER_DAYS_BEFORE,
  type ReviewFile,
  reviewEnd,
  reviewedSupports,
} from '~/domain/orders/preview-keep';
import type { OrderedLine } from '~/domain/orders/reception';
import type { PriceListDocument } from '~/domain/pricing/default-price-list';
import type { PromotionTerms } from '~/domain/vouchers/promotions';
import { type Database, db, type Tx } from '../db/client.server';
import { orderEvents, orderFiles, orderReviewDrops, orderReviews, orders, receptions } from '../db/schema';
import { guestLinkToken, withGuestToken } from '../email/guest-links.server';
import { enqueueEmail, InvalidRecipientError } from '../email/outbox.server';
import { deliverFilesInTx } from '../files/deliver-files.server';
import { deleteFilesInTx } from '../files/retention.server';
import { type FileStorage, fileStorage } from '../files/storage.server';
import { loadOrderFacts } from '../invoices/order-facts.server';
import { log } from '../log.server';
import { isOrderId } from './access.server';
import { type Actor, type AppliedTransition, type LifecycleTx, withLifecycle } from './lifecycle.server';
import { loadReceptionOrder } from './reception.server';
import type { RefundResult } from './refunds.server';

/*
 * « Preview and keep » (decision 030). For the supports the order's price list
 * flags, « Publier la livraison » publishes the files for the customer's review (`open_review`):
 * an e-mail gives the page's link and the end date, a reminder goes REVIEW_REMINDER_DAYS_BEFORE
 * days before it. The review ends once, in ONE transaction each time:
 *  - « Valider ma sélection » (`submitSelection`): the limit checked (refused: nothing changes),
 *    `close_review`, the dropped items priced by the pricing function with the order's own price
 *    list and owed back with `record_reduction` (approved: a refund `due` with its adjustment), the
 *    dropped files marked and deleted from the storage, then the delivery of what was kept
 *    (`publish_files`, « Vos fichiers sont prêts »). Once committed the refund is made through the
 *    lifecycle (gateway, then the `refund` transition with its credit notes and e-mail); an order
 *    paid by transfer or cheque keeps it « à rembourser » for the staff (decision 022).
 *  - the period lapsed (`closeLapsedReviews`, the orders' housekeeping): everything is kept and
 *    delivered, nothing is refunded.
 */

/** Why the money goes back: on the credit note and in the refund e-mail. */
export const REVIEW_REFUND_REASON = 'Fichiers retirés lors de votre sélection';

/** The review page of an order. */
export function selectionPath(orderId: string): string {
  return `/commande/${orderId}/selection`;
}

interface ReviewTerms {
  list: PriceListDocument;
  lines: OrderedLine[];
  counted: Record<string, number>;
  /** The promotion codes it was placed with (decision 038): a file given back refunds what was paid for it. */
  codes: PromotionTerms[];
}

/** The order's own price list, its lines and the reception's counts (the quantities paid for). */
async function loadTerms(executor: Tx | Database, orderId: string): Promise<ReviewTerms | null> {
  const order = await loadReceptionOrder(orderId, executor);
  if (!order) return null;
  const [reception] = await executor
    .select({ counts: receptions.counts })
    .from(receptions)
    .where(eq(receptions.orderId, orderId));
  const counted = Object.fromEntries(
    parseReceptionCounts(reception?.counts).map((line) => [line.key, line.counted] as const),
  );
  return { list: order.list, lines: order.lines, counted, codes: order.codes };
}

/** The live files of the reviewed supports. */
async function reviewFiles(executor: Tx | Database, orderId: string, supports: readonly string[]) {
  if (supports.length === 0) return [];
  return executor
    .select({
      id: orderFiles.id,
      orderId: orderFiles.orderId,
      name: orderFiles.name,
      support: orderFiles.support,
      kind: orderFiles.kind,
      storageKey: orderFiles.storageKey,
      thumbnailKey: orderFiles.thumbnailKey,
      previewKey: orderFiles.previewKey,
    })
    .from(orderFiles)
    .where(
      and(eq(orderFiles.orderId, orderId), isNull(orderFiles.deletedAt), inArray(orderFiles.support, [...supports])),
    )
    .orderBy(asc(orderFiles.support), asc(orderFiles.name));
}

export type OpenedReview =
  | { ok: true; result: AppliedTransition; endsAt: Date; fileCount: number }
  | { ok: false; code: string; message: string };

/**
 * Inside « Publier la livraison »'s transaction (the order row locked): opens the review when the
 * order has a reviewed support, files of it, and was never reviewed; null when it is delivered
 * directly.
 */
export async function openReviewIfDue(
  { tx, apply }: LifecycleTx,
  orderId: string,
  actor: Actor,
  now: Date,
): Promise<OpenedReview | null> {
  const [existing] = await tx
    .select({ closedAt: orderReviews.closedAt })
    .from(orderReviews)
    .where(eq(orderReviews.orderId, orderId));
  // Reviewed once: a later publication (a rework) delivers; an open one is the lifecycle's refusal.
  if (existing?.closedAt) return null;
  const terms = await loadTerms(tx, orderId);
  if (!terms || !orderNeedsReview(terms.list, terms.lines)) return null;
  const supports = reviewedSupports(terms.list);
  const files = await reviewFiles(tx, orderId, supports);
  if (files.length === 0 && !existing) return null;
  const endsAt = reviewEnd(now, terms.list.previewAndKeep.reviewDays);
  const opened = await apply(
    orderId,
    { type: 'open_review', fileCount: files.length, endsAt: endsAt.toISOString() },
    actor,
    { now },
  );
  if (!opened.ok) return { ok: false, code: opened.code, message: opened.message };
  await tx.insert(orderReviews).values({
    orderId,
    openedAt: now,
    endsAt,
    maxDropPercent: terms.list.previewAndKeep.maxDropPercent,
    supports,
    fileCount: files.length,
  });
  await emailReview(tx, orderId, 'review-open', endsAt, files.length, terms.list.previewAndKeep.maxDropPercent);
  return { ok: true, result: opened, endsAt, fileCount: files.length };
}

/** The review's e-mail (opening or reminder), with the page's link (a guest's carries a token). */
async function emailReview(
  tx: Tx,
  orderId: string,
  template: 'review-open' | 'review-reminder',
  endsAt: Date,
  fileCount: number,
  maxDropPercent: number,
): Promise<boolean> {
  const facts = await loadOrderFacts(tx, orderId);
  const to = facts?.customer.email?.trim();
  if (!facts || !to || !z.email().safeParse(to).success) {
    log.info({ orderId, template }, 'review e-mail: no valid address');
    return false;
  }
  const token = await guestLinkToken(tx, orderId, null);
  try {
    await enqueueEmail(tx, {
      to,
      template,
      data: {
        orderNumber: facts.number,
        ...(facts.customer.firstName?.trim() ? { customerName: facts.customer.firstName.trim() } : {}),
        selectionUrl: withGuestToken(selectionPath(orderId), token),
        endsAt: endsAt.toISOString(),
        fileCount,
        maxDropPercent,
      },
      dedupeKey: `${template}:${orderId}`,
      orderId,
    });
  } catch (error) {
    if (error instanceof InvalidRecipientError) return false;
    throw error;
  }
  return true;
}

export interface ReviewView {
  orderId: string;
  orderNumber: string;
  state: 'open' | 'closed' | 'lapsed';
  endsAt: Date;
  closedAt: Date | null;
  closedBy: 'customer' | 'system' | null;
  maxDropPercent: number;
  fileCount: number;
  droppedCount: number;
  refundCents: number;
  list: PriceListDocument;
  lines: OrderedLine[];
  counted: Record<string, number>;
  files: Array<ReviewFile & { hasThumbnail: boolean }>;
  dropped: Array<{ fileId: string; name: string; support: string; droppedAt: Date }>;
}

/** What the review page (and the staff) show; null when the order has no review. */
export async function loadReview(
  orderId: string,
  now: Date = new Date(),
  database: Database = db(),
): Promise<ReviewView | null> {
  if (!isOrderId(orderId)) return null;
  const [row] = await database
    .select({ review: orderReviews, number: orders.number })
    .from(orderReviews)
    .innerJoin(orders, eq(orders.id, orderReviews.orderId))
    .where(eq(orderReviews.orderId, orderId));
  if (!row) return null;
  const terms = await loadTerms(database, orderId);
  if (!terms) return null;
  const { review } = row;
  const files = review.closedAt ? [] : await reviewFiles(database, orderId, review.supports);
  const dropped = await database
    .select({
      fileId: orderReviewDrops.fileId,
      name: orderReviewDrops.name,
      support: orderReviewDrops.support,
      droppedAt: orderReviewDrops.droppedAt,
    })
    .from(orderReviewDrops)
    .where(eq(orderReviewDrops.orderId, orderId))
    .orderBy(asc(orderReviewDrops.support), asc(orderReviewDrops.name));
  return {
    orderId,
    orderNumber: row.number,
    state: review.closedAt ? 'closed' : review.endsAt.getTime() <= now.getTime() ? 'lapsed' : 'open',
    endsAt: review.endsAt,
    closedAt: review.closedAt,
    closedBy: review.closedBy,
    maxDropPercent: review.maxDropPercent,
    fileCount: review.fileCount,
    droppedCount: review.droppedCount ?? 0,
    refundCents: review.refundCents ?? 0,
    ...terms,
    files: files.map((file) => ({
      id: file.id,
      name: file.name,
      support: file.support,
      hasThumbnail: file.thumbnailKey !== null,
    })),
    dropped,
  };
}

/** A file under review (the page's thumbnails): live, of a reviewed support; null otherwise. */
export async function findReviewFile(orderId: string, fileId: string, database: Database = db()) {
  if (!isOrderId(orderId) || !isOrderId(fileId)) return null;
  const [review] = await database
    .select({ supports: orderReviews.supports })
    .from(orderReviews)
    .where(eq(orderReviews.orderId, orderId));
  if (!review) return null;
  const [file] = await database
    .select({ thumbnailKey: orderFiles.thumbnailKey, previewKey: orderFiles.previewKey })
    .from(orderFiles)
    .where(
      and(
        eq(orderFiles.id, fileId),
        eq(orderFiles.orderId, orderId),
        isNull(orderFiles.deletedAt),
        inArray(orderFiles.support, review.supports),
      ),
    );
  return file ?? null;
}

export type SelectionResult =
  | {
      ok: true;
      droppedCount: number;
      refundCents: number;
      /** The refund made once committed (its credit note), or why it is still owed. */
      refund: RefundResult | null;
      delivered: boolean;
    }
  | { ok: false; message: string; status: 400 | 404 | 409 };

/** The lifecycle or the limit refused inside the transaction: everything rolls back. */
class Refusal extends Error {
  constructor(
    readonly publicMessage: string,
    readonly status: 400 | 404 | 409 = 409,
  ) {
    super(publicMessage);
  }
}

interface Closing {
  droppedCount: number;
  refundCents: number;
  reduction: AppliedTransition | null;
  publication: AppliedTransition | null;
}

/**
 * Closes the review of `orderId` inside the caller's use case (`withLifecycle`, which runs the
 * refund and the delivery's post-commit work once committed). `kept`: the ticked files' ids (the customer's
 * selection); null: the period lapsed, everything is kept.
 */
async function closeReviewInTx(
  lifecycle: LifecycleTx,
  orderId: string,
  kept: ReadonlySet<string> | null,
  actor: Actor,
  now: Date,
  storage: FileStorage,
): Promise<Closing> {
  const { tx, apply } = lifecycle;
  // The order's lock first (as every change of it), then the review's row.
  const [order] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId)).for('update');
  if (!order) throw new Refusal('Commande introuvable', 404);
  const [review] = await tx.select().from(orderReviews).where(eq(orderReviews.orderId, orderId)).for('update');
  if (!review) throw new Refusal(REVIEW_MESSAGES.notOpen, 404);
  if (review.closedAt) throw new Refusal(REVIEW_MESSAGES.closed);
  const lapsed = kept === null;
  const terms = await loadTerms(tx, orderId);
  if (!terms) throw new Refusal('Commande introuvable', 404);
  const files = await reviewFiles(tx, orderId, review.supports);

  let pricing: KeepPricing = { beforeCents: 0, afterCents: 0, refundCents: 0, kept: {} };
  let dropped = new Set<string>();
  if (!lapsed) {
    const decision = decideSelection({
      ...terms,
      files,
      kept,
      maxDropPercent: review.maxDropPercent,
      fileCount: review.fileCount,
    });
    if (!decision.ok) throw new Refusal(decision.message, 400);
    pricing = decision.pricing;
    dropped = decision.dropped;
  }

  const closed = await apply(orderId, { type: 'close_review', droppedCount: dropped.size, lapsed }, actor, {
    now,
    data: { droppedCount: dropped.size, lapsed, refundCents: pricing.refundCents },
  });
  if (!closed.ok) throw new Refusal(closed.message);

  let reduction: AppliedTransition | null = null;
  if (pricing.refundCents > 0) {
    // The customer's right under the terms of the review: approved at once, like a withdrawal's
    // refund; made by the gateway once committed, else « à rembourser » (decision 022).
    const owed = await apply(
      orderId,
      { type: 'record_reduction', amountCents: pricing.refundCents, refundRight: true },
      actor,
      {
        now,
        reason: REVIEW_REFUND_REASON,
        adjustment: { receptionId: null, pricing: { review: true, ...pricing }, accessTokenHash: null },
        data: { droppedCount: dropped.size },
      },
    );
    if (!owed.ok) throw new Refusal(owed.message);
    reduction = owed;
  }

  await tx
    .update(orderReviews)
    .set({
      closedAt: now,
      closedBy: lapsed ? 'system' : 'customer',
      droppedCount: dropped.size,
      refundCents: pricing.refundCents,
    })
    .where(eq(orderReviews.orderId, orderId));

  const droppedFiles = files.filter((file) => dropped.has(file.id));
  if (droppedFiles.length > 0) {
    await tx.insert(orderReviewDrops).values(
      droppedFiles.map((file) => ({
        orderId,
        fileId: file.id,
        name: file.name,
        support: file.support,
        droppedAt: now,
      })),
    );
    // Bytes and previews go; the rows stay, marked deleted: out of the gallery, the ZIP and the delivery.
    await deleteFilesInTx(tx, storage, droppedFiles, now);
  }

  // What was kept is delivered now; a publication the lifecycle refuses (the order was cancelled
  // meanwhile, say) leaves the review closed and the files with the staff (a savepoint).
  let publication: AppliedTransition | null = null;
  try {
    const published = await lifecycle.savepoint(async (inner) => {
      const result = await deliverFilesInTx(inner, orderId, actor, now);
      if (!result.ok) throw new Refusal(result.message);
      return result;
    });
    publication = published.result;
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    log.info({ orderId, reason: error.publicMessage }, 'review closed: the kept files are not delivered yet');
  }
  return { droppedCount: dropped.size, refundCents: pricing.refundCents, reduction, publication };
}

/** « Valider ma sélection »: the customer's selection, its refund and the delivery of what is kept. */
export async function submitSelection(input: {
  orderId: string;
  kept: ReadonlySet<string>;
  actor?: Actor;
  now?: Date;
  storage?: FileStorage;
}): Promise<SelectionResult> {
  const now = input.now ?? new Date();
  const actor = input.actor ?? 'customer';
  if (!isOrderId(input.orderId)) return { ok: false, message: 'Commande introuvable', status: 404 };
  let closing: Closing;
  try {
    closing = await withLifecycle(async (lifecycle) => {
      const { tx } = lifecycle;
      const [review] = await tx
        .select({ endsAt: orderReviews.endsAt })
        .from(orderReviews)
        .where(eq(orderReviews.orderId, input.orderId));
      // Past its end the selection is the housekeeping's: everything is kept.
      const lapsed = review !== undefined && review.endsAt.getTime() <= now.getTime();
      return closeReviewInTx(
        lifecycle,
        input.orderId,
        lapsed ? null : input.kept,
        actor,
        now,
        input.storage ?? fileStorage(),
      );
    });
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, message: error.publicMessage, status: error.status };
    throw error;
  }
  return finish(closing);
}

/** What the customer reads once committed: the refund's outcome (made by withLifecycle) and the delivery. */
function finish(closing: Closing): Extract<SelectionResult, { ok: true }> {
  const refund: RefundResult | null = closing.reduction?.refundResults[0] ?? null;
  return {
    ok: true,
    droppedCount: closing.droppedCount,
    refundCents: closing.refundCents,
    refund,
    delivered: closing.publication !== null,
  };
}

const BATCH = 20;

/** The housekeeping: reviews whose period lapsed are closed, everything kept and delivered. */
export async function closeLapsedReviews(
  now: Date = new Date(),
  storage: FileStorage = fileStorage(),
  database: Database = db(),
): Promise<number> {
  let closed = 0;
  const skipped = new Set<string>();
  for (;;) {
    const due = await database
      .select({ orderId: orderReviews.orderId })
      .from(orderReviews)
      .where(and(isNull(orderReviews.closedAt), lte(orderReviews.endsAt, now)))
      .orderBy(asc(orderReviews.endsAt))
      .limit(BATCH + skipped.size);
    const todo = due.filter((row) => !skipped.has(row.orderId)).slice(0, BATCH);
    if (todo.length === 0) return closed;
    for (const { orderId } of todo) {
      try {
        await withLifecycle((lifecycle) => closeReviewInTx(lifecycle, orderId, null, 'system', now, storage), database);
        closed++;
      } catch (error) {
        // Closed meanwhile by the customer, or failing: the next run sees it again if still open.
        if (!(error instanceof Refusal)) log.error({ err: error, orderId }, 'lapsed review could not be closed');
        skipped.add(orderId);
      }
    }
  }
}

/** The housekeeping: one reminder per review, REVIEW_REMINDER_DAYS_BEFORE days before its end. */
export async function sendReviewReminders(now: Date = new Date(), database: Database = db()): Promise<number> {
  const soon = new Date(now.getTime() + REVIEW_REMINDER_DAYS_BEFORE * 86_400_000);
  return database.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(orderReviews)
      .where(
        and(
          isNull(orderReviews.closedAt),
          isNull(orderReviews.reminderSentAt),
          lte(orderReviews.endsAt, soon),
          sql`${orderReviews.endsAt} > ${now}`,
        ),
      )
      .limit(100)
      .for('update', { skipLocked: true });
    for (const review of due) {
      const sent = await emailReview(
        tx,
        review.orderId,
        'review-reminder',
        review.endsAt,
        review.fileCount,
        review.maxDropPercent,
      );
      await tx.update(orderReviews).set({ reminderSentAt: now }).where(eq(orderReviews.orderId, review.orderId));
      if (sent) {
        await tx.insert(orderEvents).values({
          orderId: review.orderId,
          at: now,
          actor: 'system',
          ...orderEvent('review_reminder', { endsAt: review.endsAt.toISOString() }),
        });
      }
    }
    return due.length;
  });
}
