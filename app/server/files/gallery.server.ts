import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { supportLabel } from '~/domain/account/order-details';
import type { GalleryFile } from '~/domain/files/delivered-files';
import { orderEvent } from '~/domain/orders/events';
import { orderAskerOf } from '../access/door.server';
import type { SessionUser } from '../auth/session.server';
import { type Database, db } from '../db/client.server';
import { notifications, orderEvents, orderFiles, orders } from '../db/schema';
import { isOrderId, type OrderViewerKind, refuseOrderViewer, viewerOf } from '../orders/access.server';
import type { OrderFile } from './order-files.server';

/*
 * The customer's gallery (decision 011): who may see an order's files, the page's data (groups
 * by support, one page of files), « À refaire » and the download counts.
 *
 * Access is decided here for every file address (the page, each file, thumbnail, preview, ZIP)
 * with the same rule as the order page (owner, guest holding the order's or the delivery's token,
 * admin; anyone else: null, a 404), but without loading the whole order: a gallery page asks for
 * up to 200 thumbnails at once. Customers see the files once « Publier la livraison » set
 * files_published_at; staff always; after the retention job (files_deleted_at) nobody gets a file.
 */

export const FILES_PER_PAGE = 200;

export interface FilesAccess {
  viewer: OrderViewerKind;
  user: SessionUser | null;
  order: {
    id: string;
    number: string;
    filesPublishedAt: Date | null;
    filesExpireAt: Date | null;
    filesDeletedAt: Date | null;
  };
}

/** Who `request` is for this order's files, or null (answer 404). Does not check publication. */
export async function getFilesAccess(request: Request, orderId: string): Promise<FilesAccess | null> {
  if (!isOrderId(orderId)) return null;
  const [row] = await db()
    .select({
      id: orders.id,
      number: orders.number,
      userId: orders.userId,
      accessTokenHash: orders.accessTokenHash,
      deliveryTokenHash: orders.deliveryTokenHash,
      filesPublishedAt: orders.filesPublishedAt,
      filesExpireAt: orders.filesExpireAt,
      filesDeletedAt: orders.filesDeletedAt,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  const asker = await orderAskerOf(request);
  const viewer = row ? viewerOf(row, [row.accessTokenHash, row.deliveryTokenHash], asker, request) : null;
  // Signed out on an account's order: to /login and back (the order-viewer rule, refuseOrderViewer).
  if (!row || !viewer) return refuseOrderViewer(request, asker, row);
  return {
    viewer,
    user: asker.user,
    order: {
      id: row.id,
      number: row.number,
      filesPublishedAt: row.filesPublishedAt,
      filesExpireAt: row.filesExpireAt,
      filesDeletedAt: row.filesDeletedAt,
    },
  };
}

/** Files can be served: published (or staff looking), and not deleted at the end of the retention. */
export function filesAreServed(access: FilesAccess): boolean {
  if (access.order.filesDeletedAt) return false;
  return access.viewer === 'admin' || access.order.filesPublishedAt !== null;
}

/**
 * One live file of the order, or null (another order's file id answers null too). `within`: a
 * further condition on order_files (a family share's selection, sharing.server.ts), so that the
 * owner's and a share's addresses are served by the same code.
 */
export async function findOrderFile(
  orderId: string,
  fileId: string,
  database: Database = db(),
  within?: SQL,
): Promise<OrderFile | null> {
  if (!isOrderId(fileId)) return null;
  const [file] = await database
    .select()
    .from(orderFiles)
    .where(and(eq(orderFiles.id, fileId), eq(orderFiles.orderId, orderId), isNull(orderFiles.deletedAt), within))
    .limit(1);
  return file ?? null;
}

export interface GalleryGroup {
  support: string;
  label: string;
  count: number;
  bytes: number;
}

export interface GalleryPage {
  groups: GalleryGroup[];
  totalCount: number;
  totalBytes: number;
  files: GalleryFile[];
  page: number;
  pageCount: number;
}

/**
 * The groups' counts and sizes (one GROUP BY) and one page of files, by support then name.
 * `within`: only the files of a family share's selection (sharing.server.ts).
 */
export async function loadGalleryPage(
  orderId: string,
  page: number,
  database: Database = db(),
  within?: SQL,
): Promise<GalleryPage> {
  const live = and(eq(orderFiles.orderId, orderId), isNull(orderFiles.deletedAt), within);
  const groupRows = await database
    .select({
      support: orderFiles.support,
      count: sql<number>`count(*)::int`,
      bytes: sql<string>`coalesce(sum(${orderFiles.sizeBytes}), 0)::text`,
    })
    .from(orderFiles)
    .where(live)
    .groupBy(orderFiles.support)
    .orderBy(asc(orderFiles.support));
  const groups = groupRows.map((row) => ({
    support: row.support,
    label: supportLabel(row.support),
    count: row.count,
    bytes: Number(row.bytes),
  }));
  const totalCount = groups.reduce((sum, group) => sum + group.count, 0);
  const totalBytes = groups.reduce((sum, group) => sum + group.bytes, 0);
  const pageCount = Math.max(1, Math.ceil(totalCount / FILES_PER_PAGE));
  const current = Math.min(Math.max(1, Math.trunc(page) || 1), pageCount);
  const rows = await database
    .select({
      id: orderFiles.id,
      name: orderFiles.name,
      support: orderFiles.support,
      kind: orderFiles.kind,
      sizeBytes: orderFiles.sizeBytes,
      width: orderFiles.width,
      height: orderFiles.height,
      durationSeconds: orderFiles.durationSeconds,
      thumbnailKey: orderFiles.thumbnailKey,
      previewKey: orderFiles.previewKey,
      reworkRequestedAt: orderFiles.reworkRequestedAt,
      reworkComment: orderFiles.reworkComment,
    })
    .from(orderFiles)
    .where(live)
    .orderBy(asc(orderFiles.support), asc(orderFiles.name), asc(orderFiles.id))
    .limit(FILES_PER_PAGE)
    .offset((current - 1) * FILES_PER_PAGE);
  return {
    groups,
    totalCount,
    totalBytes,
    page: current,
    pageCount,
    files: rows.map(({ thumbnailKey, previewKey, ...file }) => ({
      ...file,
      hasThumbnail: thumbnailKey !== null,
      hasPreview: previewKey !== null,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// « À refaire »

export const REWORK_MESSAGES = {
  commentTooShort: 'Décrivez en quelques mots ce qui doit être refait (3 caractères au moins).',
  commentTooLong: 'Votre commentaire est trop long (1 000 caractères au plus).',
  unknownFile: 'Ce fichier n’existe plus dans votre commande.',
  staffOnly: 'Seul le client peut demander à refaire un fichier.',
} as const;

export const reworkFormSchema = z.object({
  fileId: z.string().uuid({ message: REWORK_MESSAGES.unknownFile }),
  comment: z
    .string({ message: REWORK_MESSAGES.commentTooShort })
    .trim()
    .min(3, { message: REWORK_MESSAGES.commentTooShort })
    .max(1000, { message: REWORK_MESSAGES.commentTooLong }),
});

export type ReworkResult = { ok: true; fileName: string } | { ok: false; error: string };

/**
 * The customer flags a file « À refaire »: the file row, the history event and the back office's
 * notification in one transaction (side effects with the change: docs/architecture.md, « Conventions »).
 */
export async function requestRework(
  input: { orderId: string; orderNumber: string; fileId: string; comment: string; actor: string },
  database: Database = db(),
): Promise<ReworkResult> {
  return database.transaction(async (tx) => {
    const [file] = await tx
      .update(orderFiles)
      .set({ reworkRequestedAt: new Date(), reworkComment: input.comment })
      .where(and(eq(orderFiles.id, input.fileId), eq(orderFiles.orderId, input.orderId), isNull(orderFiles.deletedAt)))
      .returning({ id: orderFiles.id, name: orderFiles.name });
    if (!file) return { ok: false as const, error: REWORK_MESSAGES.unknownFile };
    await tx.insert(orderEvents).values({
      orderId: input.orderId,
      actor: input.actor,
      ...orderEvent('file_rework_requested', { fileId: file.id, fileName: file.name, comment: input.comment }),
    });
    // The notifications' kinds have no « files » yet: « Commande » is the closest the feed shows.
    await tx.insert(notifications).values({
      kind: 'order',
      orderId: input.orderId,
      status: 'rework',
      title: `Fichier à refaire — commande ${input.orderNumber}`,
      body: `${file.name} : ${input.comment.length > 200 ? `${input.comment.slice(0, 199)}…` : input.comment}`,
    });
    return { ok: true as const, fileName: file.name };
  });
}

// ---------------------------------------------------------------------------------------------
// Download counts (shown in the back office)

/** One more full download of each of these files (a ZIP counts once for each file it holds). */
export async function countDownloads(
  orderId: string,
  fileIds: readonly string[],
  database: Database = db(),
): Promise<void> {
  if (fileIds.length === 0) return;
  await database
    .update(orderFiles)
    .set({ downloadCount: sql`${orderFiles.downloadCount} + 1`, lastDownloadedAt: new Date() })
    .where(and(eq(orderFiles.orderId, orderId), inArray(orderFiles.id, [...fileIds])));
}

/** The same for every live file of the order (or of one support): the ZIP's files, in one statement. */
export async function countZipDownload(
  orderId: string,
  support: string | null,
  database: Database = db(),
): Promise<void> {
  await database
    .update(orderFiles)
    .set({ downloadCount: sql`${orderFiles.downloadCount} + 1`, lastDownloadedAt: new Date() })
    .where(
      and(
        eq(orderFiles.orderId, orderId),
        isNull(orderFiles.deletedAt),
        support === null ? undefined : eq(orderFiles.support, support),
      ),
    );
}

export interface FilesSummary {
  expiresAt: Date | null;
  deletedAt: Date | null;
  count: number;
  bytes: number;
}

/**
 * What the order page says about the files: null until they are published (the caller has checked
 * access to the order), else how many, until when, or that they were deleted.
 */
export async function loadFilesSummary(orderId: string, database: Database = db()): Promise<FilesSummary | null> {
  const [row] = await database
    .select({
      publishedAt: orders.filesPublishedAt,
      expiresAt: orders.filesExpireAt,
      deletedAt: orders.filesDeletedAt,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!row?.publishedAt) return null;
  // Counted by the query builder, not in a correlated subquery: drizzle renders `${orders.id}`
  // unqualified there ("id"), which Postgres read as the files' own id (always 0 files).
  const [files] = await database
    .select({
      count: sql<number>`count(*)::int`,
      bytes: sql<string>`coalesce(sum(${orderFiles.sizeBytes}), 0)::text`,
    })
    .from(orderFiles)
    .where(and(eq(orderFiles.orderId, orderId), isNull(orderFiles.deletedAt)));
  return {
    expiresAt: row.expiresAt,
    deletedAt: row.deletedAt,
    count: files?.count ?? 0,
    bytes: Number(files?.bytes ?? 0),
  };
}
