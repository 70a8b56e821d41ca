import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { redirect } from 'react-router';
import { extendedExpiry } from '~/domain/files/retention';
import type { PostalAddress } from '~/domain/orders/address';
import { orderEvent } from '~/domain/orders/events';
import type { CopyWork } from '~/domain/orders/extra-copies';
import { EXTRA_COPY_MESSAGES } from '~/domain/orders/extra-copies';
import {
  type CopyMedium,
  priceExtraCopies,
  priceRetentionExtension,
  RETENTION_EXTENSION_DAYS,
} from '~/domain/pricing/pricing';
import { type Database, db, type Tx } from '../db/client.server';
import { linkedOrders, orderAddresses, orderEvents, orderFiles, orders } from '../db/schema';
import { extendRetentionInTx } from '../files/retention.server';
import { log } from '../log.server';
import { createOrderAccessToken, isOrderId, orderAccessCookie } from '../orders/access.server';
import { insertDraftOrder, type OrderCustomer } from '../orders/create-order.server';
import { getActivePriceList } from '../pricing/price-lists.server';

/*
 * Orders made from an order's delivered files (decision 029):
 *  - extra copies: USB keys or DVDs of all or part of the files, for the buyer or sent to a
 *    relative with a gift message;
 *  - « Prolonger d’un an »: a year more of the files' retention.
 * Each is an ordinary draft order (insertDraftOrder, like the configurator's), priced from the
 * active price list by the pricing function, with a `linked_orders` row naming its source order,
 * its kind and what to copy. The buyer then pays it at the ordinary checkout (card, transfer,
 * cheque), the lifecycle places, invoices and ships it; the workshop board reads what to copy.
 *
 * The callers have already established the right to the source order's files: the gallery (its
 * owner or the guest holding its token) and a family share's page (the relative holding the
 * share's link). Nothing here reads a request.
 */

export interface ExtraOrderBuyer {
  /** The signed-in customer, or null for a guest (the source order's guest, a relative). */
  user: OrderCustomer | null;
  /** A guest's address: where the order's e-mails go. */
  guestEmail?: string | null;
  /** For the history and linked_orders.ordered_by: a user id, `guest`, or `share:<id>`. */
  orderedBy: string;
}

export interface StartExtraCopyInput {
  sourceOrderId: string;
  /** The chosen files of the source order, or 'all' of them. */
  fileIds: 'all' | readonly string[];
  medium: CopyMedium;
  quantity: number;
  /** A relative's address (the order's delivery address), or null: the buyer's, asked at checkout. */
  recipient: PostalAddress | null;
  giftMessage: string | null;
  buyer: ExtraOrderBuyer;
}

export type StartedExtraOrder =
  | {
      ok: true;
      orderId: string;
      number: string;
      totalPriceCents: number;
      /** A guest buyer's access token (the route sets the order's cookie with it); null otherwise. */
      accessToken: string | null;
    }
  | { ok: false; message: string };

interface SourceFacts {
  id: string;
  number: string;
  filesPublishedAt: Date | null;
  filesExpireAt: Date | null;
  filesDeletedAt: Date | null;
}

async function lockSource(tx: Tx, orderId: string): Promise<SourceFacts | null> {
  if (!isOrderId(orderId)) return null;
  const [row] = await tx
    .select({
      id: orders.id,
      number: orders.number,
      filesPublishedAt: orders.filesPublishedAt,
      filesExpireAt: orders.filesExpireAt,
      filesDeletedAt: orders.filesDeletedAt,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    // Shared: two orders of copies may be made at once; the retention job's deletion waits.
    .for('share')
    .limit(1);
  return row ?? null;
}

function filesRefusal(source: SourceFacts | null): string | null {
  if (!source) return 'Commande introuvable';
  if (source.filesDeletedAt) return EXTRA_COPY_MESSAGES.filesGone;
  if (!source.filesPublishedAt) return EXTRA_COPY_MESSAGES.notPublished;
  return null;
}

function buyerFields(buyer: ExtraOrderBuyer) {
  const access = buyer.user ? null : createOrderAccessToken();
  return {
    access,
    email: buyer.user?.email ?? buyer.guestEmail?.trim() ?? null,
  };
}

/** Extra copies of the source order's files: a draft to pay at checkout, linked to its source. */
export async function startExtraCopyOrder(
  input: StartExtraCopyInput,
  database: Database = db(),
): Promise<StartedExtraOrder> {
  const { access, email } = buyerFields(input.buyer);
  return database.transaction(async (tx) => {
    const source = await lockSource(tx, input.sourceOrderId);
    const refusal = filesRefusal(source);
    if (refusal || !source) return { ok: false as const, message: refusal ?? 'Commande introuvable' };

    const live = and(eq(orderFiles.orderId, source.id), isNull(orderFiles.deletedAt));
    let fileIds: string[] | null = null;
    let fileCount: number;
    if (input.fileIds === 'all') {
      const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(orderFiles).where(live);
      fileCount = Number(row?.n ?? 0);
    } else {
      const wanted = [...new Set(input.fileIds)];
      if (wanted.length === 0) return { ok: false as const, message: EXTRA_COPY_MESSAGES.noFile };
      if (!wanted.every(isOrderId)) return { ok: false as const, message: EXTRA_COPY_MESSAGES.unknownFile };
      const found = await tx
        .select({ id: orderFiles.id })
        .from(orderFiles)
        .where(and(live, inArray(orderFiles.id, wanted)));
      // Another order's file, or one deleted since the page was shown: nothing is ordered.
      if (found.length !== wanted.length) return { ok: false as const, message: EXTRA_COPY_MESSAGES.unknownFile };
      fileIds = wanted;
      fileCount = wanted.length;
    }
    if (fileCount === 0) return { ok: false as const, message: EXTRA_COPY_MESSAGES.noFile };

    const priceList = await getActivePriceList(tx);
    const { line, price } = priceExtraCopies(priceList.data, { medium: input.medium, quantity: input.quantity });
    const created = await insertDraftOrder(tx, {
      user: input.buyer.user,
      email,
      accessTokenHash: access?.hash ?? null,
      deliveryMethod: input.medium,
      returnOriginals: false,
      // No originals travel for a copy: neither « sent by the customer » nor a prepaid label.
      sendMethod: 'none',
      express: false,
      price,
      priceList,
      items: [{ ...line, quality: 'standard' }],
      eventData: { source: 'extra_copy', sourceOrderNumber: source.number },
      actor: input.buyer.user?.id ?? 'customer',
    });
    await tx.insert(linkedOrders).values({
      orderId: created.id,
      sourceOrderId: source.id,
      kind: 'extra_copy',
      medium: input.medium,
      copies: input.quantity,
      fileIds,
      fileCount,
      gift: input.recipient !== null,
      giftMessage: input.recipient ? input.giftMessage : null,
      orderedBy: input.buyer.orderedBy,
    });
    // A relative's address is the parcel's: the checkout shows it, the buyer confirms it with « Payer ».
    if (input.recipient) {
      await tx.insert(orderAddresses).values({ ...input.recipient, kind: 'delivery', orderId: created.id });
    }
    // The staff reading the source order see where its copies went.
    await tx.insert(orderEvents).values({
      orderId: source.id,
      actor: input.buyer.user?.id ?? 'customer',
      ...orderEvent('note', { text: `Copies supplémentaires commandées\u00A0: commande ${created.number}` }),
    });
    return {
      ok: true as const,
      orderId: created.id,
      number: created.number,
      totalPriceCents: price.totalPriceCents,
      accessToken: access?.token ?? null,
    };
  });
}

/** « Prolonger d’un an »: a draft to pay; the files are kept longer once it is paid. */
export async function startRetentionExtensionOrder(
  input: { sourceOrderId: string; buyer: ExtraOrderBuyer; now?: Date },
  database: Database = db(),
): Promise<StartedExtraOrder> {
  const { access, email } = buyerFields(input.buyer);
  const now = input.now ?? new Date();
  return database.transaction(async (tx) => {
    const source = await lockSource(tx, input.sourceOrderId);
    const refusal = filesRefusal(source);
    if (refusal || !source) return { ok: false as const, message: refusal ?? 'Commande introuvable' };
    // The same rule as the staff's extension: not beyond the longest retention from today.
    const check = extendedExpiry(
      { expiresAt: source.filesExpireAt, deletedAt: source.filesDeletedAt },
      { kind: 'days', days: RETENTION_EXTENSION_DAYS },
      now,
    );
    if (!check.ok) return { ok: false as const, message: check.message };
    // One extension waiting for its payment at a time: two paid together could exceed the limit.
    const open = await tx.execute(sql`
      select 1 from linked_orders l join orders o on o.id = l.order_id
      where l.source_order_id = ${source.id} and l.kind = 'retention_extension'
        and o.placed_at is not null and o.payment_status in ('pending', 'failed') and o.status <> 'canceled'
      limit 1`);
    if (open.rows.length > 0) return { ok: false as const, message: EXTRA_COPY_MESSAGES.extensionOpen };

    const priceList = await getActivePriceList(tx);
    const { line, price } = priceRetentionExtension(priceList.data);
    const created = await insertDraftOrder(tx, {
      user: input.buyer.user,
      email,
      accessTokenHash: access?.hash ?? null,
      deliveryMethod: 'digital',
      returnOriginals: false,
      sendMethod: 'none',
      express: false,
      price,
      priceList,
      items: [{ ...line, quality: 'standard' }],
      eventData: { source: 'retention_extension', sourceOrderNumber: source.number },
      actor: input.buyer.user?.id ?? 'customer',
    });
    await tx.insert(linkedOrders).values({
      orderId: created.id,
      sourceOrderId: source.id,
      kind: 'retention_extension',
      retentionDays: RETENTION_EXTENSION_DAYS,
      orderedBy: input.buyer.orderedBy,
    });
    return {
      ok: true as const,
      orderId: created.id,
      number: created.number,
      totalPriceCents: price.totalPriceCents,
      accessToken: access?.token ?? null,
    };
  });
}

/**
 * After a draft is made: to the ordinary checkout, a guest buyer (the source order's guest, a
 * relative from a share) carrying the new order's access cookie. The same for every page that
 * sells from delivered files.
 */
export function redirectToCheckout(started: { orderId: string; accessToken: string | null }): Response {
  const headers = new Headers();
  if (started.accessToken) headers.append('Set-Cookie', orderAccessCookie(started.orderId, started.accessToken));
  return redirect(`/checkout?${new URLSearchParams({ orderId: started.orderId })}`, { headers });
}

/**
 * The lifecycle's `extend_retention` effect, in the payment's transaction: the source order's files
 * are kept RETENTION_EXTENSION_DAYS more. Applied once (applied_at). Should the files be gone or the
 * limit be reached meanwhile (paid by transfer long after), the payment still stands and the history
 * of both orders says so, for the staff to refund (decision 029).
 */
export async function applyPaidRetentionExtension(tx: Tx, orderId: string, actor: string, now: Date): Promise<void> {
  const [link] = await tx
    .select()
    .from(linkedOrders)
    .where(and(eq(linkedOrders.orderId, orderId), eq(linkedOrders.kind, 'retention_extension')))
    .for('update')
    .limit(1);
  if (!link || link.appliedAt) return;
  const [self] = await tx.select({ number: orders.number }).from(orders).where(eq(orders.id, orderId)).limit(1);
  const result = await extendRetentionInTx(
    tx,
    link.sourceOrderId,
    { kind: 'days', days: link.retentionDays ?? RETENTION_EXTENSION_DAYS },
    actor,
    now,
    { paidBy: self?.number ?? orderId },
  );
  if (result.ok) {
    await tx.update(linkedOrders).set({ appliedAt: now }).where(eq(linkedOrders.orderId, orderId));
    return;
  }
  log.warn({ orderId, sourceOrderId: link.sourceOrderId, reason: result.message }, 'paid retention extension refused');
  await tx.insert(orderEvents).values({
    orderId,
    at: now,
    actor: 'system',
    ...orderEvent('note', { text: `Prolongation non appliquée\u00A0: ${result.message} À rembourser.` }),
  });
}

/** What the gallery offers (prices from the active price list) and the files one may pick. */
export interface CopyOffer {
  usbPriceCents: number;
  discPriceCents: number;
  shippingPriceCents: number;
  extensionPriceCents: number;
  extensionDays: number;
  /** The new expiry a paid extension would give today, or why none is possible. */
  extension: { ok: true; expiresAt: Date } | { ok: false; message: string };
}

export async function loadCopyOffer(
  source: { filesExpireAt: Date | null; filesDeletedAt: Date | null },
  now: Date = new Date(),
  database: Database = db(),
): Promise<CopyOffer> {
  const list = (await getActivePriceList(database)).data;
  return {
    usbPriceCents: list.extraCopies.usbPrice,
    discPriceCents: list.extraCopies.discPrice,
    shippingPriceCents: list.extraCopies.shippingPrice,
    extensionPriceCents: priceRetentionExtension(list).price.totalPriceCents,
    extensionDays: RETENTION_EXTENSION_DAYS,
    extension: extendedExpiry(
      { expiresAt: source.filesExpireAt, deletedAt: source.filesDeletedAt },
      { kind: 'days', days: RETENTION_EXTENSION_DAYS },
      now,
    ),
  };
}

export interface PickableFile {
  id: string;
  name: string;
  support: string;
}

/**
 * Every live file of the order, by support then name: the selection's checkboxes. `within`: only
 * a family share's selection (shareSelection in files/sharing.server.ts).
 */
export async function listPickableFiles(
  orderId: string,
  within?: SQL,
  database: Database = db(),
): Promise<PickableFile[]> {
  return database
    .select({ id: orderFiles.id, name: orderFiles.name, support: orderFiles.support })
    .from(orderFiles)
    .where(and(eq(orderFiles.orderId, orderId), isNull(orderFiles.deletedAt), within))
    .orderBy(orderFiles.support, orderFiles.name, orderFiles.id);
}

const BOARD_FILE_NAMES = 50;

export async function loadCopyWork(
  orderIds: readonly string[],
  database: Database = db(),
): Promise<Map<string, CopyWork>> {
  const result = new Map<string, CopyWork>();
  if (orderIds.length === 0) return result;
  const links = await database
    .select({ link: linkedOrders, sourceNumber: orders.number })
    .from(linkedOrders)
    .innerJoin(orders, eq(orders.id, linkedOrders.sourceOrderId))
    .where(and(inArray(linkedOrders.orderId, [...orderIds]), eq(linkedOrders.kind, 'extra_copy')));
  for (const { link, sourceNumber } of links) {
    const chosen = link.fileIds;
    const names = await database
      .select({ name: orderFiles.name })
      .from(orderFiles)
      .where(
        and(
          eq(orderFiles.orderId, link.sourceOrderId),
          isNull(orderFiles.deletedAt),
          chosen ? inArray(orderFiles.id, chosen) : undefined,
        ),
      )
      .orderBy(orderFiles.support, orderFiles.name)
      .limit(BOARD_FILE_NAMES);
    result.set(link.orderId, {
      sourceOrderId: link.sourceOrderId,
      sourceNumber,
      medium: (link.medium ?? 'usb') as CopyMedium,
      copies: link.copies ?? 1,
      fileCount: link.fileCount,
      fileNames: names.map((row) => row.name),
      gift: link.gift,
      giftMessage: link.giftMessage,
    });
  }
  return result;
}

/**
 * Who buys from the gallery: the signed-in owner, or the guest of the order (its e-mails go to the
 * order's address). A family share names its relative itself.
 */
export async function galleryBuyer(
  access: {
    viewer: string;
    user: { id: string; email: string; firstName: string; lastName: string } | null;
    order: { id: string };
  },
  database: Database = db(),
): Promise<ExtraOrderBuyer> {
  if (access.viewer === 'owner' && access.user) {
    const { id, email, firstName, lastName } = access.user;
    return { user: { id, email, firstName, lastName }, orderedBy: id };
  }
  const [row] = await database
    .select({ email: orders.guestEmail })
    .from(orders)
    .where(eq(orders.id, access.order.id))
    .limit(1);
  return { user: null, guestEmail: row?.email ?? null, orderedBy: 'guest' };
}
