import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import {
  parseShareForm,
  SHARE_MAX_INVITATIONS_PER_DAY,
  SHARE_MESSAGES,
  SHARE_TOKEN_BYTES,
  type ShareFormInput,
  type ShareState,
  shareExpiry,
  sharePath,
  sharerDisplayName,
  shareState,
} from '~/domain/files/sharing';
import { decryptSecret, encryptSecret } from '../crypto.server';
import { type Database, db, type Tx } from '../db/client.server';
import { createSharedRateLimiter } from '../db/rate-limit.server';
import { fileShareFiles, fileShareInvitations, fileShares, orderFiles, orders, user } from '../db/schema';
import { enqueueEmail } from '../email/outbox.server';
import { log } from '../log.server';
import { hashOrderAccessToken } from '../orders/access.server';

/*
 * « Partager avec la famille » (decision 028). The customer (the order's owner, or the guest
 * holding its token: the route checks it with getFilesAccess) makes a share of all the delivered
 * files or of a selection; relatives open /partage/{token} without an account.
 *
 * The token is 256 random bits, looked up by its SHA-256 (the guests' tokens' hash, orders/
 * access.server.ts) and also kept sealed with APP_SECRET so that the customer can copy the link
 * again (docs/decisions/028-family-sharing.md). The shared pages are served by the gallery's own
 * code (gallery.server.ts, downloads.server.ts, zip-stream.server.ts) restricted by
 * `shareSelection`: a file outside the selection, or another share's file, is not found.
 *
 * Guessing: a client whose unknown tokens exceed SHARE_RATE_LIMIT (default 30) in ten minutes gets
 * 429 on every share address, valid or not, until the window has passed.
 */

const SEAL_CONTEXT = 'file_shares.token';
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new token (256 bits, base64url) and the hash to store. */
export function createShareToken(): { token: string; hash: string } {
  const token = randomBytes(SHARE_TOKEN_BYTES).toString('base64url');
  return { token, hash: hashOrderAccessToken(token) };
}

/**
 * The condition on order_files of a share: none for `all` (every live file of the order, those
 * delivered later too), the selection's rows otherwise. An IN over the share's own rows: no
 * correlated column to qualify.
 */
export function shareSelection(
  share: { id: string; scope: 'all' | 'selection' },
  database: Database = db(),
): SQL | undefined {
  if (share.scope === 'all') return undefined;
  return inArray(
    orderFiles.id,
    database.select({ id: fileShareFiles.fileId }).from(fileShareFiles).where(eq(fileShareFiles.shareId, share.id)),
  );
}

// ---------------------------------------------------------------------------------------------
// The customer's side

export type CreateShareResult = { ok: true; shareId: string; token: string } | { ok: false; error: string };

/** The order as a share needs it: its files' dates, and who shares (the account, else the guest). */
async function sharedOrder(tx: Tx, orderId: string) {
  const [order] = await tx
    .select({
      id: orders.id,
      filesPublishedAt: orders.filesPublishedAt,
      filesExpireAt: orders.filesExpireAt,
      filesDeletedAt: orders.filesDeletedAt,
      guestFirstName: orders.guestFirstName,
      guestLastName: orders.guestLastName,
      guestEmail: orders.guestEmail,
      ownerFirstName: user.firstName,
      ownerLastName: user.lastName,
      ownerEmail: user.email,
    })
    .from(orders)
    .leftJoin(user, eq(user.id, orders.userId))
    .where(eq(orders.id, orderId))
    .limit(1);
  return order;
}

/** The order's live files, or those of the selection: what the invitation says it holds. */
function liveFiles(orderId: string, form: ShareFormInput): SQL | undefined {
  return and(
    eq(orderFiles.orderId, orderId),
    isNull(orderFiles.deletedAt),
    form.scope === 'selection' ? inArray(orderFiles.id, form.fileIds) : undefined,
  );
}

/**
 * Why the form cannot be shared as asked (the first reason's French message), or null: a selected
 * file that is not one of the order's live files, or more invitations than a day allows.
 */
async function shareFormRefusal(tx: Tx, orderId: string, form: ShareFormInput, now: Date): Promise<string | null> {
  if (form.scope === 'selection') {
    const [found] = await tx.select({ n: count() }).from(orderFiles).where(liveFiles(orderId, form));
    if ((found?.n ?? 0) !== form.fileIds.length) return SHARE_MESSAGES.unknownFile;
  }
  if (form.emails.length === 0) return null;
  const [sent] = await tx
    .select({ n: count() })
    .from(fileShareInvitations)
    .innerJoin(fileShares, eq(fileShares.id, fileShareInvitations.shareId))
    .where(
      and(
        eq(fileShares.orderId, orderId),
        sql`${fileShareInvitations.createdAt} > ${new Date(now.getTime() - 24 * 60 * 60 * 1000)}`,
      ),
    );
  if ((sent?.n ?? 0) + form.emails.length > SHARE_MAX_INVITATIONS_PER_DAY) return SHARE_MESSAGES.tooManyToday;
  return null;
}

/** The invitations and their e-mails (one per address, Reply-To the customer when known), in `tx`. */
async function inviteRelatives(
  tx: Tx,
  invitation: {
    orderId: string;
    share: { id: string; expiresAt: Date };
    token: string;
    sharerName: string;
    replyTo: string | null;
    form: ShareFormInput;
    now: Date;
  },
): Promise<void> {
  const { orderId, share, token, sharerName, replyTo, form, now } = invitation;
  const [files] = await tx.select({ n: count() }).from(orderFiles).where(liveFiles(orderId, form));
  await tx
    .insert(fileShareInvitations)
    .values(form.emails.map((email) => ({ shareId: share.id, email, createdAt: now })));
  for (const email of form.emails) {
    await enqueueEmail(tx, {
      to: email,
      template: 'share-invitation',
      data: {
        sharerName,
        shareUrl: sharePath(token),
        expiresAt: share.expiresAt.toISOString(),
        allowDownloads: form.allowDownloads,
        fileCount: files?.n ?? 0,
        ...(form.message ? { message: form.message } : {}),
        ...(replyTo ? { replyTo } : {}),
      },
      dedupeKey: `share-invitation:${share.id}:${email.toLowerCase()}`,
      orderId,
    });
  }
}

/**
 * Makes a share, its selection, its invitations and their e-mails (one per address, Reply-To the
 * customer) in one transaction. The order's files must be published and not deleted.
 */
export async function createShare(
  input: {
    orderId: string;
    /** The account's id, or `guest`. */
    createdBy: string;
    form: ShareFormInput;
    now?: Date;
  },
  database: Database = db(),
): Promise<CreateShareResult> {
  const now = input.now ?? new Date();
  const { form } = input;
  return database.transaction(async (tx) => {
    const order = await sharedOrder(tx, input.orderId);
    if (!order?.filesPublishedAt || order.filesDeletedAt) return { ok: false, error: SHARE_MESSAGES.notServed };
    const refusal = await shareFormRefusal(tx, order.id, form, now);
    if (refusal) return { ok: false, error: refusal };
    const sharerName = order.ownerEmail
      ? sharerDisplayName(order.ownerFirstName, order.ownerLastName)
      : sharerDisplayName(order.guestFirstName, order.guestLastName);
    const replyTo = order.ownerEmail ?? order.guestEmail;
    const { token, hash } = createShareToken();
    const [share] = await tx
      .insert(fileShares)
      .values({
        orderId: order.id,
        tokenHash: hash,
        tokenSealed: encryptSecret(token, SEAL_CONTEXT),
        scope: form.scope,
        allowDownloads: form.allowDownloads,
        sharerName,
        label: form.label,
        message: form.message,
        expiresAt: shareExpiry(now, form.days, order.filesExpireAt),
        createdBy: input.createdBy,
        createdAt: now,
      })
      .returning({ id: fileShares.id, expiresAt: fileShares.expiresAt });
    if (!share) throw new Error('file_shares: the insert returned no row');
    if (form.scope === 'selection') {
      await tx.insert(fileShareFiles).values(form.fileIds.map((fileId) => ({ shareId: share.id, fileId })));
    }
    if (form.emails.length > 0) {
      await inviteRelatives(tx, { orderId: order.id, share, token, sharerName, replyTo, form, now });
    }
    return { ok: true, shareId: share.id, token };
  });
}

/** The form's fields as posted, for parseShareForm. */
export function shareFormFields(form: FormData) {
  return parseShareForm({
    scope: form.get('scope'),
    fileIds: form.getAll('fileId'),
    access: form.get('access'),
    days: form.get('days'),
    emails: form.get('emails'),
    label: form.get('label'),
    message: form.get('message'),
  });
}

/** Ends a share now; false when it is not this order's or was already revoked. */
export async function revokeShare(orderId: string, shareId: string, database: Database = db()): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(shareId)) return false;
  const rows = await database
    .update(fileShares)
    .set({ revokedAt: new Date() })
    .where(and(eq(fileShares.id, shareId), eq(fileShares.orderId, orderId), isNull(fileShares.revokedAt)))
    .returning({ id: fileShares.id });
  return rows.length > 0;
}

export interface ShareSummary {
  id: string;
  /** The link to copy (null when it was sealed with another APP_SECRET). */
  path: string | null;
  label: string | null;
  scope: 'all' | 'selection';
  fileCount: number;
  allowDownloads: boolean;
  state: ShareState;
  expiresAt: Date;
  revokedAt: Date | null;
  accessCount: number;
  lastAccessAt: Date | null;
  createdAt: Date;
  invited: string[];
}

/** The order's shares, newest first, with what the customer follows (state, count, last access). */
export async function listShares(
  orderId: string,
  database: Database = db(),
  now = new Date(),
): Promise<ShareSummary[]> {
  const [order] = await database
    .select({ filesPublishedAt: orders.filesPublishedAt, filesDeletedAt: orders.filesDeletedAt })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!order) return [];
  const rows = await database
    .select()
    .from(fileShares)
    .where(eq(fileShares.orderId, orderId))
    .orderBy(desc(fileShares.createdAt), desc(fileShares.id));
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [selected, invitations, [live]] = await Promise.all([
    database
      .select({ shareId: fileShareFiles.shareId, n: count() })
      .from(fileShareFiles)
      .innerJoin(orderFiles, eq(orderFiles.id, fileShareFiles.fileId))
      .where(and(inArray(fileShareFiles.shareId, ids), isNull(orderFiles.deletedAt)))
      .groupBy(fileShareFiles.shareId),
    database
      .select({ shareId: fileShareInvitations.shareId, email: fileShareInvitations.email })
      .from(fileShareInvitations)
      .where(inArray(fileShareInvitations.shareId, ids))
      .orderBy(asc(fileShareInvitations.createdAt), asc(fileShareInvitations.email)),
    database
      .select({ n: count() })
      .from(orderFiles)
      .where(and(eq(orderFiles.orderId, orderId), isNull(orderFiles.deletedAt))),
  ]);
  return rows.map((row) => {
    let path: string | null = null;
    try {
      path = sharePath(decryptSecret(row.tokenSealed, SEAL_CONTEXT));
    } catch (error) {
      log.warn({ err: error, shareId: row.id }, 'a share’s link could not be unsealed');
    }
    return {
      id: row.id,
      path,
      label: row.label,
      scope: row.scope,
      fileCount: row.scope === 'all' ? (live?.n ?? 0) : (selected.find((entry) => entry.shareId === row.id)?.n ?? 0),
      allowDownloads: row.allowDownloads,
      state: shareState(row, order, now),
      expiresAt: row.expiresAt,
      revokedAt: row.revokedAt,
      accessCount: row.accessCount,
      lastAccessAt: row.lastAccessAt,
      createdAt: row.createdAt,
      invited: invitations.filter((entry) => entry.shareId === row.id).map((entry) => entry.email),
    };
  });
}

/** The order's live files for the form's selection (name and support; thumbnails by the owner's addresses). */
export async function listShareableFiles(orderId: string, database: Database = db()) {
  return database
    .select({
      id: orderFiles.id,
      name: orderFiles.name,
      support: orderFiles.support,
      kind: orderFiles.kind,
      sizeBytes: orderFiles.sizeBytes,
      hasThumbnail: sql<boolean>`${orderFiles.thumbnailKey} is not null`,
    })
    .from(orderFiles)
    .where(and(eq(orderFiles.orderId, orderId), isNull(orderFiles.deletedAt)))
    .orderBy(asc(orderFiles.support), asc(orderFiles.name), asc(orderFiles.id));
}

// ---------------------------------------------------------------------------------------------
// The relatives' side

/** Unknown tokens per client address in ten minutes before every share address answers 429. */
export const SHARE_RATE_WINDOW_MS = 10 * 60_000;
const limiter = createSharedRateLimiter({
  name: 'share-token',
  limit: () => {
    const value = Number(process.env.SHARE_RATE_LIMIT ?? 30);
    return Number.isFinite(value) && value > 0 ? value : 30;
  },
  windowMs: SHARE_RATE_WINDOW_MS,
});

/** The address the Express server saw (server/app.ts sets it; a client cannot forge it). */
const CLIENT_IP_HEADER = 'x-soovenirs-client-ip';

export interface OpenShare {
  id: string;
  orderId: string;
  scope: 'all' | 'selection';
  allowDownloads: boolean;
  sharerName: string;
  message: string | null;
  expiresAt: Date;
}

export type ShareLookup =
  | { kind: 'open'; share: OpenShare }
  /** Revoked, expired, or the files are gone: 410 « Ce partage a pris fin ». */
  | { kind: 'ended' }
  /** No such token: 404. */
  | { kind: 'unknown' }
  /** Too many unknown tokens from this client: 429. */
  | { kind: 'limited' };

/** What `token` opens for `request`'s client (see the rate limit above). */
export async function lookUpShare(request: Request, token: string, database: Database = db()): Promise<ShareLookup> {
  const client = request.headers.get(CLIENT_IP_HEADER) || 'unknown';
  const find = async () => {
    if (!TOKEN_PATTERN.test(token)) return null;
    const [row] = await database
      .select({
        share: fileShares,
        filesPublishedAt: orders.filesPublishedAt,
        filesDeletedAt: orders.filesDeletedAt,
      })
      .from(fileShares)
      .innerJoin(orders, eq(orders.id, fileShares.orderId))
      .where(eq(fileShares.tokenHash, hashOrderAccessToken(token)))
      .limit(1);
    return row ?? null;
  };
  const [over, row] = await Promise.all([limiter.isOver(client), find()]);
  if (over) return { kind: 'limited' };
  if (!row) {
    const counted = await limiter.hit(client);
    return counted.allowed ? { kind: 'unknown' } : { kind: 'limited' };
  }
  if (shareState(row.share, row) !== 'active') return { kind: 'ended' };
  const { share } = row;
  return {
    kind: 'open',
    share: {
      id: share.id,
      orderId: share.orderId,
      scope: share.scope,
      allowDownloads: share.allowDownloads,
      sharerName: share.sharerName,
      message: share.message,
      expiresAt: share.expiresAt,
    },
  };
}

/** One more visit of the share's page (the customer sees the count and the last one). */
export async function countShareAccess(shareId: string, database: Database = db()): Promise<void> {
  await database
    .update(fileShares)
    .set({ accessCount: sql`${fileShares.accessCount} + 1`, lastAccessAt: new Date() })
    .where(eq(fileShares.id, shareId));
}

/** The plain answers of a share's file addresses (the page has its own). */
export function shareRefusal(lookup: Exclude<ShareLookup, { kind: 'open' }> | { kind: 'missing' }): Response {
  const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-store' };
  if (lookup.kind === 'ended') return new Response('Ce partage a pris fin.', { status: 410, headers });
  if (lookup.kind === 'limited') {
    return new Response('Trop de liens inconnus. Veuillez patienter quelques minutes.', {
      status: 429,
      headers: { ...headers, 'Retry-After': String(SHARE_RATE_WINDOW_MS / 1000) },
    });
  }
  return new Response('Fichier introuvable.', { status: 404, headers });
}
