import { and, asc, eq, gt, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import { REMINDER_DAYS_BEFORE } from '~/domain/files/delivered-files';
import { type ExtensionRequest, extendedExpiry } from '~/domain/files/retention';
import { orderEvent } from '~/domain/orders/events';
import { type Database, db, type Tx } from '../db/client.server';
import { orderEvents, orderFiles, orders } from '../db/schema';
import { enqueueEmail, InvalidRecipientError } from '../email/outbox.server';
import { loadOrderFacts } from '../invoices/order-facts.server';
import { log } from '../log.server';
import { isOrderId } from '../orders/access.server';
import { playbackKey } from './playback.server';
import { deliveredFilesEmailFields, zipUrlOf } from './publish-links.server';
import { type FileStorage, fileKey, fileStorage } from './storage.server';

/*
 * The retention of the delivered files (decision 014), run by the orders' housekeeping every
 * 15 minutes (housekeeping.server.ts) on every instance:
 *  - REMINDER_DAYS_BEFORE days before the expiry, one « Pensez à télécharger vos fichiers » e-mail
 *    (outbox, dedupe key per expiry date), files_reminder_sent_at, history files_expiry_reminder;
 *  - at the expiry, every file's bytes and previews are deleted from the storage (folder or
 *    bucket), the rows marked deleted_at, the order files_deleted_at, history files_deleted.
 * Both claim their orders with FOR UPDATE SKIP LOCKED, so that instances share the work without
 * doing it twice, and are idempotent (a run cut halfway is finished by the next one). Both take
 * `now` so that tests move the clock.
 */

const REMINDER_BATCH = 100;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Orders deleted per transaction: each may hold thousands of files. */
const DELETION_BATCH = 5;
/** Storage deletions in flight at once (S3: one request each). */
const DELETE_CONCURRENCY = 8;

/** The reminders due at `now`; returns how many orders were reminded. */
export async function sendRetentionReminders(now: Date = new Date(), database: Database = db()): Promise<number> {
  let total = 0;
  for (;;) {
    const claimed = await database.transaction(async (tx) => {
      const due = await tx
        .select({ id: orders.id, expiresAt: orders.filesExpireAt })
        .from(orders)
        .where(
          and(
            isNotNull(orders.filesExpireAt),
            isNull(orders.filesDeletedAt),
            isNull(orders.filesReminderSentAt),
            gt(orders.filesExpireAt, now),
            lte(orders.filesExpireAt, new Date(now.getTime() + REMINDER_DAYS_BEFORE * DAY_MS)),
          ),
        )
        .orderBy(asc(orders.filesExpireAt))
        .limit(REMINDER_BATCH)
        .for('update', { skipLocked: true });
      for (const row of due) await remindOne(tx, row.id, row.expiresAt as Date, now);
      return due.length;
    });
    total += claimed;
    if (claimed < REMINDER_BATCH) return total;
  }
}

async function remindOne(tx: Tx, orderId: string, expiresAt: Date, now: Date): Promise<void> {
  const facts = await loadOrderFacts(tx, orderId);
  const to = facts?.customer.email?.trim();
  const files = await deliveredFilesEmailFields(tx, orderId);
  let emailed = false;
  if (facts && to && z.email().safeParse(to).success && files.galleryUrl) {
    try {
      await enqueueEmail(tx, {
        to,
        template: 'files-expiring',
        data: {
          orderNumber: facts.number,
          ...(facts.customer.firstName?.trim() ? { customerName: facts.customer.firstName.trim() } : {}),
          galleryUrl: files.galleryUrl,
          // « Tout télécharger » in one click, straight from the e-mail.
          zipUrl: zipUrlOf(files.galleryUrl),
          expiresAt: expiresAt.toISOString(),
          fileCount: files.fileCount ?? 0,
          totalBytes: files.totalBytes ?? 0,
        },
        // One reminder per expiry date: extended, the order is reminded again before the new date.
        dedupeKey: `files-expiring:${orderId}:${expiresAt.toISOString()}`,
        orderId,
      });
      emailed = true;
    } catch (error) {
      if (!(error instanceof InvalidRecipientError)) throw error;
    }
  }
  if (!emailed) log.info({ orderId }, 'files reminder: no e-mail sent (no valid address or no file online)');
  await tx.update(orders).set({ filesReminderSentAt: now }).where(eq(orders.id, orderId));
  if (emailed) {
    await tx.insert(orderEvents).values({
      orderId,
      at: now,
      actor: 'system',
      ...orderEvent('files_expiry_reminder', { expiresAt: expiresAt.toISOString() }),
    });
  }
}

/**
 * Every storage key of a file: its bytes, its previews and its video rendition, recorded
 * or not yet (a rendition's key is conventional: deleting one that was never made is a no-op).
 */
export function storageKeysOf(file: {
  id: string;
  orderId: string;
  storageKey: string;
  thumbnailKey: string | null;
  previewKey: string | null;
}): string[] {
  const keys = new Set([
    file.storageKey,
    fileKey(file.orderId, file.id, 'thumbnail'),
    fileKey(file.orderId, file.id, 'preview'),
    playbackKey(file.orderId, file.id),
  ]);
  if (file.thumbnailKey) keys.add(file.thumbnailKey);
  if (file.previewKey) keys.add(file.previewKey);
  return [...keys];
}

/** Deletes keys from the storage, a few at a time. */
export async function deleteKeys(storage: FileStorage, keys: readonly string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < keys.length) {
      const key = keys[next++] as string;
      await storage.delete(key);
    }
  };
  await Promise.all(Array.from({ length: Math.min(DELETE_CONCURRENCY, keys.length) }, worker));
}

/** Deletes the bytes and previews of `files` and marks them deleted (inside the caller's transaction). */
export async function deleteFilesInTx(
  tx: Tx,
  storage: FileStorage,
  files: ReadonlyArray<Parameters<typeof storageKeysOf>[0]>,
  now: Date,
): Promise<void> {
  // The bytes go first: if the storage fails, the transaction rolls back and the rows still say
  // where the bytes are, for the next run. Deleting a missing key is not an error (idempotent).
  await deleteKeys(storage, files.flatMap(storageKeysOf));
  for (const file of files) {
    await tx.update(orderFiles).set({ deletedAt: now }).where(eq(orderFiles.id, file.id));
  }
}

export interface DeletionReport {
  orders: number;
  files: number;
  /** Orders whose storage failed this time: retried at the next run. */
  failed: number;
}

/** Deletes the files of every order whose retention ended at `now`. */
export async function deleteExpiredFiles(
  now: Date = new Date(),
  storage: FileStorage = fileStorage(),
  database: Database = db(),
): Promise<DeletionReport> {
  const report: DeletionReport = { orders: 0, files: 0, failed: 0 };
  const failed: string[] = [];
  for (;;) {
    const claimed = await database.transaction(async (tx) => {
      const due = await tx.execute<{ id: string }>(sql`
        select id from orders
        where files_expire_at <= ${now}::timestamptz and files_deleted_at is null
          and not (id = any(${`{${failed.join(',')}}`}::uuid[]))
        order by files_expire_at
        limit ${DELETION_BATCH}
        -- NO KEY UPDATE, not UPDATE: one job still claims an order alone, but an order whose row is
        -- only referenced at this instant (the outbox recording an e-mail in its history holds a
        -- KEY SHARE lock) is not skipped until the next run.
        for no key update skip locked`);
      for (const { id } of due.rows) {
        try {
          // A savepoint per order: one order's failing storage does not undo the others.
          const count = await tx.transaction((inner) => deleteOrderFiles(inner, id, storage, now));
          report.orders++;
          report.files += count;
        } catch (error) {
          log.error({ err: error, orderId: id }, 'files retention: the files could not be deleted; retried later');
          failed.push(id);
          report.failed++;
        }
      }
      return due.rows.length;
    });
    if (claimed < DELETION_BATCH) return report;
  }
}

async function deleteOrderFiles(tx: Tx, orderId: string, storage: FileStorage, now: Date): Promise<number> {
  const live = await tx
    .select({
      id: orderFiles.id,
      orderId: orderFiles.orderId,
      storageKey: orderFiles.storageKey,
      thumbnailKey: orderFiles.thumbnailKey,
      previewKey: orderFiles.previewKey,
    })
    .from(orderFiles)
    .where(and(eq(orderFiles.orderId, orderId), isNull(orderFiles.deletedAt)))
    .for('update');
  await deleteFilesInTx(tx, storage, live, now);
  await tx.update(orders).set({ filesDeletedAt: now }).where(eq(orders.id, orderId));
  await tx.insert(orderEvents).values({
    orderId,
    at: now,
    actor: 'system',
    ...orderEvent('files_deleted', { fileCount: live.length, reason: 'retention' }),
  });
  return live.length;
}

export type ExtendResult = { ok: true; expiresAt: Date } | { ok: false; message: string };

/**
 * « Prolonger la conservation » of one order by the staff: a new date or + EXTENSION_DAYS, never
 * earlier than today, never after the deletion; the reminder is re-armed for the new date.
 */
export async function extendRetention(
  orderId: string,
  request: ExtensionRequest,
  actor: string,
  { now = new Date(), database = db() }: { now?: Date; database?: Database } = {},
): Promise<ExtendResult> {
  if (!isOrderId(orderId)) return { ok: false, message: 'Commande introuvable' };
  return database.transaction((tx) => extendRetentionInTx(tx, orderId, request, actor, now));
}

/**
 * The extension in the caller's transaction: the staff's « Prolonger la conservation » above, and
 * the customer's paid « Prolonger d’un an » (its payment's transaction, app/server/copies/).
 * `data` is kept in the history entry (the order that paid for it).
 */
export async function extendRetentionInTx(
  tx: Tx,
  orderId: string,
  request: ExtensionRequest,
  actor: string,
  now: Date,
  data: Record<string, string> = {},
): Promise<ExtendResult> {
  const [order] = await tx
    .select({ expiresAt: orders.filesExpireAt, deletedAt: orders.filesDeletedAt })
    .from(orders)
    .where(eq(orders.id, orderId))
    .for('update')
    .limit(1);
  if (!order) return { ok: false as const, message: 'Commande introuvable' };
  const decision = extendedExpiry(order, request, now);
  if (!decision.ok) return decision;
  await tx
    .update(orders)
    .set({ filesExpireAt: decision.expiresAt, filesReminderSentAt: null })
    .where(eq(orders.id, orderId));
  await tx.insert(orderEvents).values({
    orderId,
    at: now,
    actor,
    ...orderEvent('files_retention_extended', {
      expiresAt: decision.expiresAt.toISOString(),
      ...(order.expiresAt ? { previousExpiresAt: order.expiresAt.toISOString() } : {}),
      ...data,
    }),
  });
  return decision;
}
