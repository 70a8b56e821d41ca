import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../config/config-options.server';
import { orderFiles, orders } from '../db/schema';
import { recoverLinkToken } from '../email/guest-links.server';
import { baseUrl } from '../env.server';
import { accessTokenMatches } from '../orders/access.server';

/*
 * The links and figures of the customer's delivered files in e-mails (decision 011): the gallery's
 * address, with the delivery token for a guest, and what was published (count, total size, until
 * when). Used by the « Vos fichiers sont prêts », reminder and status e-mails.
 *
 * A guest's raw delivery token is never stored in clear: only its hash sits on the order, and the
 * « Vos fichiers sont prêts » e-mail keeps its link sealed in the outbox (sealed-data.server.ts).
 * Later e-mails (the reminder, « Expédié ») recover the token from that sealed link, checked
 * against the order's hash, so that every e-mail's link opens the gallery in any browser without
 * issuing a new token (which would break the first e-mail's link).
 */

/** The customer's gallery; `token` for a guest (the delivery token). */
export function galleryUrl(orderId: string, token: string | null): string {
  const url = `${baseUrl()}/commande/${orderId}/fichiers`;
  return token ? `${url}?${new URLSearchParams({ token })}` : url;
}

/**
 * The one-click ZIP of the order's files (the retention reminder's link) from its gallery link:
 * the same address with `.zip`, the guest's token kept (files-zip.ts sets its cookie, then sends
 * the archive from the clean address).
 */
export function zipUrlOf(gallery: string): string {
  const url = new URL(gallery);
  url.pathname = url.pathname.replace(/\/fichiers$/, '/fichiers.zip');
  return url.toString();
}

export interface PublishedFiles {
  userId: string | null;
  publishedAt: Date | null;
  expiresAt: Date | null;
  deletedAt: Date | null;
  fileCount: number;
  totalBytes: number;
  deliveryTokenHash: string | null;
}

/** What the customer sees of an order's delivery, or null when there is no such order. */
export async function publishedFiles(executor: Executor, orderId: string): Promise<PublishedFiles | null> {
  const [order] = await executor
    .select({
      userId: orders.userId,
      publishedAt: orders.filesPublishedAt,
      expiresAt: orders.filesExpireAt,
      deletedAt: orders.filesDeletedAt,
      deliveryTokenHash: orders.deliveryTokenHash,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!order) return null;
  const [files] = await executor
    .select({
      count: sql<number>`count(*)::int`,
      bytes: sql<string>`coalesce(sum(${orderFiles.sizeBytes}), 0)::text`,
    })
    .from(orderFiles)
    .where(and(eq(orderFiles.orderId, orderId), isNull(orderFiles.deletedAt)));
  return { ...order, fileCount: files?.count ?? 0, totalBytes: Number(files?.bytes ?? 0) };
}

/** The files are online for the customer: published and not deleted yet. */
export function filesOnline(files: PublishedFiles | null): files is PublishedFiles & { expiresAt: Date } {
  return Boolean(files?.publishedAt && files.expiresAt && !files.deletedAt && files.fileCount > 0);
}

/**
 * The guest's delivery token, from the sealed links of the order's earlier e-mails (the « Vos
 * fichiers sont prêts » one, or another that issued it: email/guest-links.server.ts), when it
 * still matches the order's delivery token; null otherwise (then links go without it).
 */
export function knownDeliveryToken(executor: Executor, orderId: string, hash: string | null): Promise<string | null> {
  return recoverLinkToken(executor, orderId, [hash]);
}

/** The gallery link of a later e-mail: with the guest's token when it can be recovered. */
export async function galleryLinkFor(executor: Executor, orderId: string, files: PublishedFiles): Promise<string> {
  if (files.userId) return galleryUrl(orderId, null);
  return galleryUrl(orderId, await knownDeliveryToken(executor, orderId, files.deliveryTokenHash));
}

/**
 * The files' fields of an e-mail (galleryUrl, fileCount, totalBytes, expiresAt), or none when the
 * files are not online. `token`: the guest's delivery token when the caller holds it.
 */
export async function deliveredFilesEmailFields(
  executor: Executor,
  orderId: string,
  token: string | null = null,
): Promise<{ galleryUrl?: string; fileCount?: number; totalBytes?: number; expiresAt?: string }> {
  const files = await publishedFiles(executor, orderId);
  if (!filesOnline(files)) return {};
  const usable = token && accessTokenMatches(token, files.deliveryTokenHash) ? token : null;
  return {
    galleryUrl: files.userId
      ? galleryUrl(orderId, null)
      : usable
        ? galleryUrl(orderId, usable)
        : await galleryLinkFor(executor, orderId, files),
    fileCount: files.fileCount,
    totalBytes: files.totalBytes,
    expiresAt: files.expiresAt.toISOString(),
  };
}
