import { eq } from 'drizzle-orm';
import { retentionEnd } from '~/domain/files/delivered-files';
import { type Database, db } from '../db/client.server';
import { orders } from '../db/schema';
import { isOrderId } from '../orders/access.server';
import { type Actor, type LifecycleTx, NOT_FOUND_MESSAGE, withLifecycle } from '../orders/lifecycle.server';
import { openReviewIfDue } from '../orders/preview-keep.server';
import { deliverFilesInTx, type Published } from './deliver-files.server';
import { publishedFiles } from './publish-links.server';
import { retentionDays } from './retention-settings.server';

/*
 * « Publier la livraison » (decision 013): the order's files become visible to the customer.
 * One transaction: count the live files, fix the expiry from the shop's retention period, give a
 * guest order a delivery token (its hash on the order; the raw token only in the e-mail's link,
 * sealed in the outbox), and apply the lifecycle's publish_files (stage « Prêt », status
 * « Traité », history, the « Vos fichiers sont prêts » e-mail). The lifecycle's French refusals
 * (unpaid, not received, no files…) come back to the caller as they are.
 *
 * « Preview and keep » (decision 030): an order with a support the order's price list
 * sends to the customer's review, never reviewed yet, is published for review instead
 * (preview-keep.server.ts); its delivery follows the end of the review, by the same function.
 */

export type PublishResult =
  | {
      ok: true;
      orderNumber: string;
      fileCount: number;
      expiresAt: Date;
      guestToken: string | null;
      /** Published for the customer's review instead (« preview and keep »): until when. */
      review?: { endsAt: Date; fileCount: number };
    }
  | { ok: false; code: string; message: string };

export async function publishOrderFiles(
  orderId: string,
  actor: Actor,
  { now = new Date(), database = db() }: { now?: Date; database?: Database } = {},
): Promise<PublishResult> {
  if (!isOrderId(orderId)) return { ok: false, code: 'not_found', message: NOT_FOUND_MESSAGE };
  // The lifecycle's use case: the publication's post-commit work runs once committed.
  const outcome = await withLifecycle(async (lifecycle) => {
    const published = await publishFilesInTx(lifecycle, orderId, actor, now, { allowReview: true });
    // Refused: nothing of this attempt stays (the new token's hash included).
    if (!published.ok) throw new RefusedPublication(published);
    return published;
  }, database).catch((error: unknown) => {
    if (error instanceof RefusedPublication) return error.refusal;
    throw error;
  });
  if (!outcome.ok) return outcome;
  return {
    ok: true,
    orderNumber: outcome.result.orderNumber,
    fileCount: outcome.fileCount,
    expiresAt: outcome.expiresAt,
    guestToken: outcome.guestToken,
    ...(outcome.review ? { review: outcome.review } : {}),
  };
}

/**
 * The publication inside the caller's use case (`withLifecycle`). `allowReview`: an order due for the customer's review is published for review instead;
 * otherwise the files are delivered (deliver-files.server.ts, which the review's end also calls).
 */
async function publishFilesInTx(
  lifecycle: LifecycleTx,
  orderId: string,
  actor: Actor,
  now: Date,
  { allowReview }: { allowReview: boolean },
): Promise<Published> {
  const { tx } = lifecycle;
  // The row lock first (as the lifecycle takes it), so that two « Publier » clicks are applied in turn.
  const [locked] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId)).for('update').limit(1);
  if (!locked) return { ok: false, code: 'not_found', message: NOT_FOUND_MESSAGE };
  const files = await publishedFiles(tx, orderId);
  if (!files) return { ok: false, code: 'not_found', message: NOT_FOUND_MESSAGE };
  const expiresAt = retentionEnd(now, await retentionDays(tx));

  if (allowReview) {
    const review = await openReviewIfDue(lifecycle, orderId, actor, now);
    if (review && !review.ok) return review;
    if (review?.ok) {
      return {
        ok: true,
        result: review.result,
        fileCount: review.fileCount,
        expiresAt,
        guestToken: null,
        review: { endsAt: review.endsAt, fileCount: review.fileCount },
      };
    }
  }

  return deliverFilesInTx(lifecycle, orderId, actor, now, { files, expiresAt });
}

class RefusedPublication extends Error {
  constructor(readonly refusal: { ok: false; code: string; message: string }) {
    super(refusal.message);
  }
}
