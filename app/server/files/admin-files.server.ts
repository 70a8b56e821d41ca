import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { AdminFile, DeliveryState } from '~/domain/files/admin-files';
import { orderEvent } from '~/domain/orders/events';
import { recordAudit } from '../audit/audit.server';
import { type Database, db } from '../db/client.server';
import { orderEvents, orderFiles, orderReviewDrops, orders } from '../db/schema';
import { isOrderId } from '../orders/access.server';
import { listOrderFiles } from './order-files.server';
import { deleteFilesInTx } from './retention.server';
import { retentionDays } from './retention-settings.server';
import { type FileStorage, fileStorage } from './storage.server';

/*
 * The back office's side of an order's files (decision 011): what the « Fichiers livrés »
 * section shows, deleting one file (bytes and previews gone, the row kept with deleted_at, the
 * history told), and clearing a « À refaire » once the file is redone. The route checks the admin.
 */

export interface AdminOrderFiles {
  orderId: string;
  orderNumber: string;
  paymentStatus: string;
  stage: string;
  delivery: DeliveryState;
  retentionDays: number;
  files: AdminFile[];
  /** « Preview and keep » (decision 030): the files the customer dropped from their review. */
  droppedByCustomer: Array<{ name: string; support: string }>;
}

export async function loadAdminOrderFiles(orderId: string, database: Database = db()): Promise<AdminOrderFiles | null> {
  if (!isOrderId(orderId)) return null;
  const [order] = await database
    .select({
      number: orders.number,
      paymentStatus: orders.paymentStatus,
      stage: orders.stage,
      publishedAt: orders.filesPublishedAt,
      expiresAt: orders.filesExpireAt,
      deletedAt: orders.filesDeletedAt,
      reminderSentAt: orders.filesReminderSentAt,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!order) return null;
  const files = await listOrderFiles(orderId, database);
  const iso = (date: Date | null) => (date ? date.toISOString() : null);
  return {
    orderId,
    orderNumber: order.number,
    paymentStatus: order.paymentStatus,
    stage: order.stage,
    delivery: {
      publishedAt: iso(order.publishedAt),
      expiresAt: iso(order.expiresAt),
      deletedAt: iso(order.deletedAt),
      reminderSentAt: iso(order.reminderSentAt),
    },
    retentionDays: await retentionDays(database),
    droppedByCustomer: await database
      .select({ name: orderReviewDrops.name, support: orderReviewDrops.support })
      .from(orderReviewDrops)
      .where(eq(orderReviewDrops.orderId, orderId))
      .orderBy(orderReviewDrops.support, orderReviewDrops.name),
    files: files.map((file) => ({
      id: file.id,
      name: file.name,
      support: file.support,
      kind: file.kind,
      sizeBytes: file.sizeBytes,
      previewStatus: file.previewStatus,
      downloadCount: file.downloadCount,
      lastDownloadedAt: iso(file.lastDownloadedAt),
      reworkRequestedAt: iso(file.reworkRequestedAt),
      reworkComment: file.reworkComment,
      createdAt: file.createdAt.toISOString(),
    })),
  };
}

export type FileActionResult = { ok: true; message: string } | { ok: false; message: string };

const FILE_NOT_FOUND = 'Ce fichier n’existe plus sur la commande.';

/** Deletes one file of the order: its bytes and previews, the row marked, the history told. */
export async function deleteOrderFile(
  orderId: string,
  fileId: string,
  actor: string,
  {
    now = new Date(),
    storage = fileStorage(),
    database = db(),
  }: { now?: Date; storage?: FileStorage; database?: Database } = {},
): Promise<FileActionResult> {
  if (!isOrderId(orderId) || !isOrderId(fileId)) return { ok: false, message: FILE_NOT_FOUND };
  return database.transaction(async (tx) => {
    const [file] = await tx
      .select({
        id: orderFiles.id,
        orderId: orderFiles.orderId,
        name: orderFiles.name,
        storageKey: orderFiles.storageKey,
        thumbnailKey: orderFiles.thumbnailKey,
        previewKey: orderFiles.previewKey,
      })
      .from(orderFiles)
      .where(and(eq(orderFiles.id, fileId), eq(orderFiles.orderId, orderId), isNull(orderFiles.deletedAt)))
      .for('update')
      .limit(1);
    if (!file) return { ok: false as const, message: FILE_NOT_FOUND };
    await deleteFilesInTx(tx, storage, [file], now);
    await tx.insert(orderEvents).values({
      orderId,
      at: now,
      actor,
      ...orderEvent('files_deleted', { fileCount: 1, reason: 'staff', fileName: file.name }),
    });
    await recordAudit(tx, { actor, kind: 'file.delete', subject: orderId, at: now, after: { file: file.name } });
    return { ok: true as const, message: `Le fichier ${file.name} est supprimé.` };
  });
}

/** The staff redid a file the customer flagged: the « À refaire » mark goes, and the history says so. */
export async function markReworkDone(
  orderId: string,
  fileId: string,
  actor: string,
  database: Database = db(),
): Promise<FileActionResult> {
  if (!isOrderId(orderId) || !isOrderId(fileId)) return { ok: false, message: FILE_NOT_FOUND };
  return database.transaction(async (tx) => {
    const [file] = await tx
      .update(orderFiles)
      .set({ reworkRequestedAt: null, reworkComment: null })
      .where(
        and(
          eq(orderFiles.id, fileId),
          eq(orderFiles.orderId, orderId),
          isNull(orderFiles.deletedAt),
          isNotNull(orderFiles.reworkRequestedAt),
        ),
      )
      .returning({ name: orderFiles.name });
    if (!file) return { ok: false as const, message: FILE_NOT_FOUND };
    await tx.insert(orderEvents).values({
      orderId,
      actor,
      ...orderEvent('file_rework_done', { fileId, fileName: file.name }),
    });
    return { ok: true as const, message: `${file.name} n’est plus à refaire.` };
  });
}
