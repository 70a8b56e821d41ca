import { eq } from 'drizzle-orm';
import { retentionEnd } from '~/domain/files/delivered-files';
import { orders } from '../db/schema';
import { createOrderAccessToken } from '../orders/access.server';
import type { LifecycleTx } from '../orders/lifecycle.server';
import { type Actor, type AppliedTransition, NOT_FOUND_MESSAGE } from '../orders/transition.server';
import { knownDeliveryToken, publishedFiles } from './publish-links.server';
import { retentionDays } from './retention-settings.server';

/*
 * The delivery of an order's files inside the caller's transaction: the lifecycle's publish_files
 * with a guest's delivery token. « Publier la livraison » (publish.server.ts) comes here when no
 * review is due, and so does the end of a review (orders/preview-keep.server.ts): its own module so
 * that the two import it without importing each other. It applies the transition through the
 * caller's use case (`withLifecycle`), which runs its post-commit work once committed.
 */

export type Published =
  | {
      ok: true;
      result: AppliedTransition;
      fileCount: number;
      expiresAt: Date;
      guestToken: string | null;
      review?: { endsAt: Date; fileCount: number };
    }
  | { ok: false; code: string; message: string };

export async function deliverFilesInTx(
  { tx, apply }: LifecycleTx,
  orderId: string,
  actor: Actor,
  now: Date,
  known?: { files: NonNullable<Awaited<ReturnType<typeof publishedFiles>>>; expiresAt: Date },
): Promise<Published> {
  let files = known?.files;
  let expiresAt = known?.expiresAt;
  if (!files || !expiresAt) {
    // The row lock first (as the lifecycle takes it), so that two deliveries are applied in turn.
    const [locked] = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for('update')
      .limit(1);
    if (!locked) return { ok: false, code: 'not_found', message: NOT_FOUND_MESSAGE };
    const found = await publishedFiles(tx, orderId);
    if (!found) return { ok: false, code: 'not_found', message: NOT_FOUND_MESSAGE };
    files = found;
    expiresAt = retentionEnd(now, await retentionDays(tx));
  }
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

  const result = await apply(
    orderId,
    { type: 'publish_files', fileCount: files.fileCount, expiresAt: expiresAt.toISOString() },
    actor,
    { accessToken: guestToken, deliveryTokenHash, now },
  );
  if (!result.ok) return { ok: false, code: result.code, message: result.message };
  return { ok: true, result, fileCount: files.fileCount, expiresAt, guestToken };
}
