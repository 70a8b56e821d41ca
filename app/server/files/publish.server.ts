import { eq } from 'drizzle-orm';
import { retentionEnd } from '~/domain/files/delivered-files';
import { type Database, db } from '../db/client.server';
import { orders } from '../db/schema';
import { createOrderAccessToken, isOrderId } from '../orders/access.server';
import { type Actor, afterCommit, applyTransitionInTx, NOT_FOUND_MESSAGE } from '../orders/lifecycle.server';
import { knownDeliveryToken, publishedFiles } from './publish-links.server';
import { retentionDays } from './retention-settings.server';

/*
 * « Publier la livraison » (issue 16, point 3): the order's files become visible to the customer.
 * One transaction: count the live files, fix the expiry from the shop's retention period, give a
 * guest order a delivery token (its hash on the order; the raw token only in the e-mail's link,
 * sealed in the outbox), and apply the lifecycle's publish_files (stage « Prêt », status
 * « Traité », history, the « Vos fichiers sont prêts » e-mail). The lifecycle's French refusals
 * (unpaid, not received, no files…) come back to the caller as they are.
 */

export type PublishResult =
  | { ok: true; orderNumber: string; fileCount: number; expiresAt: Date; guestToken: string | null }
  | { ok: false; code: string; message: string };

export async function publishOrderFiles(
  orderId: string,
  actor: Actor,
  { now = new Date(), database = db() }: { now?: Date; database?: Database } = {},
): Promise<PublishResult> {
  if (!isOrderId(orderId)) return { ok: false, code: 'not_found', message: NOT_FOUND_MESSAGE };
  const outcome = await database
    .transaction(async (tx) => {
      // The row lock first (as the lifecycle takes it), so that two « Publier » clicks are applied in turn.
      const [locked] = await tx
        .select({ id: orders.id })
        .from(orders)
        .where(eq(orders.id, orderId))
        .for('update')
        .limit(1);
      if (!locked) return { ok: false as const, code: 'not_found', message: NOT_FOUND_MESSAGE };
      const files = await publishedFiles(tx, orderId);
      if (!files) return { ok: false as const, code: 'not_found', message: NOT_FOUND_MESSAGE };
      const expiresAt = retentionEnd(now, await retentionDays(tx));

      // A guest opens the gallery with a delivery token. Published again (after a rework), the token
      // of the first e-mail is kept when it can be recovered, so that its link keeps working.
      // The lifecycle stores a new token's hash with the publication.
      let guestToken: string | null = null;
      let deliveryTokenHash: string | null = null;
      if (!files.userId) {
        guestToken = await knownDeliveryToken(tx, orderId, files.deliveryTokenHash);
        if (!guestToken) {
          const fresh = createOrderAccessToken();
          guestToken = fresh.token;
          deliveryTokenHash = fresh.hash;
        }
      }

      const result = await applyTransitionInTx(
        tx,
        orderId,
        { type: 'publish_files', fileCount: files.fileCount, expiresAt: expiresAt.toISOString() },
        actor,
        { accessToken: guestToken, deliveryTokenHash, now },
      );
      // Refused: nothing of this attempt stays (the new token's hash included).
      if (!result.ok) throw new RefusedPublication({ ok: false, code: result.code, message: result.message });
      return { ok: true as const, result, fileCount: files.fileCount, expiresAt, guestToken };
    })
    .catch((error: unknown) => {
      if (error instanceof RefusedPublication) return error.refusal;
      throw error;
    });
  if (!outcome.ok) return outcome;
  await afterCommit(outcome.result, actor, { accessToken: outcome.guestToken, now });
  return {
    ok: true,
    orderNumber: outcome.result.orderNumber,
    fileCount: outcome.fileCount,
    expiresAt: outcome.expiresAt,
    guestToken: outcome.guestToken,
  };
}

class RefusedPublication extends Error {
  constructor(readonly refusal: { ok: false; code: string; message: string }) {
    super(refusal.message);
  }
}
