import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { redirect } from 'react-router';
import type { OrderLine } from '~/domain/orders/order-line';
import { type PriceBreakdown, pickPriceFields } from '~/domain/pricing/pricing';
import { orderViewerRefusal } from '~/domain/staff/access-rules';
import { type OrderAsker, orderAskerOf } from '../access/door.server';
import { getUser, loginRedirectPath, type SessionUser } from '../auth/session.server';
import { type Database, db } from '../db/client.server';
import { invoices, orders, user } from '../db/schema';
import { baseUrl } from '../env.server';
import { loadOrderAddresses, type OrderAddresses } from './addresses.server';
import { loadOrderHistory, type OrderHistoryEntry } from './history.server';
import { customerOf, loadOrderLines, type OrderCustomer, OWNER_COLUMNS } from './order-parts.server';

/*
 * Who may see an order (docs/product.md, « Security »): its owner (orders.user_id), a guest holding the
 * order's access token, or a staff member whose role sees orders (the door). Anyone else gets the same answer as for an order that
 * does not exist (null, which routes turn into a 404), so that order ids cannot be probed.
 *
 * The guest's token is created with the order and kept in the browser in an
 * HttpOnly cookie named `sv_order_<orderId>`; the database keeps only its SHA-256 (hex) in
 * orders.access_token_hash.
 */

export const ORDER_ACCESS_COOKIE_PREFIX = 'sv_order_';
/** How long a guest's browser keeps access to an order. */
export const ORDER_ACCESS_MAX_AGE = 180 * 24 * 60 * 60;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isOrderId(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

export function orderAccessCookieName(orderId: string): string {
  return `${ORDER_ACCESS_COOKIE_PREFIX}${orderId.toLowerCase()}`;
}

/** SHA-256 (hex) of a guest access token, as stored in orders.access_token_hash. */
export function hashOrderAccessToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new guest access token and the hash to store with the order. */
export function createOrderAccessToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashOrderAccessToken(token) };
}

/** Set-Cookie giving this browser access to the order (for the checkout of a guest). */
export function orderAccessCookie(orderId: string, token: string): string {
  const secure = baseUrl().startsWith('https://');
  return `${orderAccessCookieName(orderId)}=${encodeURIComponent(token)}; Path=/; Max-Age=${ORDER_ACCESS_MAX_AGE}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function cookieValue(request: Request, name: string): string | null {
  const header = request.headers.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) {
      try {
        return decodeURIComponent(part.slice(separator + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** Constant-time comparison of a presented token with the stored hash. */
export function accessTokenMatches(token: string | null | undefined, storedHash: string | null | undefined): boolean {
  if (!token || !storedHash) return false;
  const presented = Buffer.from(hashOrderAccessToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && presented.length > 0 && timingSafeEqual(presented, stored);
}

export type OrderViewerKind = 'owner' | 'guest' | 'admin';

/** An order as its pages read it, with its 12 price fields (domain/pricing/pricing.ts). */
export interface OrderDetails extends PriceBreakdown {
  id: string;
  number: string;
  createdAt: Date;
  userId: string | null;
  status: string;
  paymentStatus: string;
  paymentMethod: string;
  deliveryMethod: string;
  returnOriginals: boolean;
  sendMethod: string;
  earlyStartConsentAt: Date | null;
  withdrawnAt: Date | null;
  paidAt: Date | null;
  /** Null for a draft (« Commander » only, not confirmed at checkout). */
  placedAt: Date | null;
  priceListId: string | null;
  insuredValueCents: number;
  customer: OrderCustomer;
  /** Frozen when the order was placed (something physical travels). */
  addresses: OrderAddresses;
  items: OrderLine[];
  /** The history as the customer reads it (the admin's dialog has its own, with every event). */
  events: OrderHistoryEntry[];
  invoice: {
    id: string;
    number: string;
    issuedAt: Date;
    amountCents: number;
    vatCents: number;
    isPaid: boolean;
    snapshot: unknown;
  } | null;
}

export interface ViewableOrder {
  viewer: OrderViewerKind;
  user: SessionUser | null;
  order: OrderDetails;
}

/** The order with its items, history, invoice and customer, whoever asks (callers check access). */
export async function loadOrderDetails(orderId: string, database: Database = db()): Promise<OrderDetails | null> {
  if (!isOrderId(orderId)) return null;
  const [row] = await database
    .select({
      order: orders,
      owner: OWNER_COLUMNS,
    })
    .from(orders)
    .leftJoin(user, eq(user.id, orders.userId))
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!row) return null;
  const [items, events, [invoice], addresses] = await Promise.all([
    loadOrderLines(database, orderId),
    // The customer's view: what the staff keep for themselves (notes, e-mails, alerts) stays here.
    loadOrderHistory(database, orderId, { audience: 'customer' }),
    database
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderId, orderId), isNull(invoices.adjustmentId)))
      .limit(1),
    loadOrderAddresses(database, orderId),
  ]);
  const o = row.order;
  return {
    id: o.id,
    number: o.number,
    createdAt: o.createdAt,
    userId: o.userId,
    status: o.status,
    paymentStatus: o.paymentStatus,
    paymentMethod: o.paymentMethod,
    deliveryMethod: o.deliveryMethod,
    returnOriginals: o.returnOriginals,
    sendMethod: o.sendMethod,
    ...pickPriceFields(o),
    earlyStartConsentAt: o.earlyStartConsentAt,
    withdrawnAt: o.withdrawnAt,
    paidAt: o.paidAt,
    placedAt: o.placedAt,
    priceListId: o.priceListId,
    insuredValueCents: o.insuredValueCents,
    customer: customerOf(o, row.owner),
    addresses,
    items,
    events,
    invoice: invoice
      ? {
          id: invoice.id,
          number: invoice.number,
          issuedAt: invoice.issuedAt,
          amountCents: invoice.amountCents,
          vatCents: invoice.vatCents,
          isPaid: invoice.isPaid,
          snapshot: invoice.snapshot,
        }
      : null,
  };
}

/**
 * Decides who `request` is for this order: `owner` (signed in as orders.user_id), `guest` (holds the
 * cookie `sv_order_<id>` whose SHA-256 is access_token_hash, or delivery_token_hash: the token of
 * the « Vos fichiers sont prêts » e-mail, unless signed in as another account) or `admin`: a staff
 * member whose role sees any order, as the door decides (access/door.server.ts, orderAskerOf).
 */
export function viewerOf(
  order: { id: string; userId: string | null },
  accessTokenHashes: string | null | ReadonlyArray<string | null>,
  { user: sessionUser, staffView }: OrderAsker,
  request: Request,
): OrderViewerKind | null {
  if (sessionUser && order.userId !== null && order.userId === sessionUser.id) return 'owner';
  // Another account's order: a guest token left in this browser (the order was attached to the
  // account afterwards, decision 015) does not open it to whoever signs in here next.
  if (sessionUser && order.userId !== null) return staffView ? 'admin' : null;
  const cookie = cookieValue(request, orderAccessCookieName(order.id));
  const hashes = Array.isArray(accessTokenHashes) ? accessTokenHashes : [accessTokenHashes];
  if (hashes.some((hash) => accessTokenMatches(cookie, hash))) return 'guest';
  if (staffView) return 'admin';
  return null;
}

const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * The order-viewer rule's refusal (domain/staff/access-rules.ts, orderViewerRefusal), applied in this
 * one place for every page and document of an order: reading one (GET, HEAD) while signed
 * out, when the order belongs to an account or does not exist, throws the redirect to
 * /login?redirectTo=<this address>, which brings the owner back here once signed in. Otherwise
 * null: the caller answers its 404 (a write, an API call, a guest's order without its token,
 * another customer).
 */
export function refuseOrderViewer(
  request: Request,
  asker: Pick<OrderAsker, 'requester'>,
  order: { userId: string | null } | undefined,
): null {
  if (!READ_METHODS.has(request.method.toUpperCase())) return null;
  const refusal = orderViewerRefusal(
    asker.requester,
    order ? { exists: true, ownedByAccount: order.userId !== null } : { exists: false },
  );
  if (refusal === 'sign-in') throw redirect(loginRedirectPath(request));
  return null;
}

/**
 * The order `orderId` when the requester may see it (owner, guest with the order's token, admin),
 * otherwise null: callers answer 404, the same as for an order that does not exist. A signed-out
 * reader of an account's order is sent to sign in instead (refuseOrderViewer throws the redirect).
 */
export async function getOrderForViewer(request: Request, orderId: string): Promise<ViewableOrder | null> {
  if (!isOrderId(orderId)) return null;
  const [access] = await db()
    .select({
      id: orders.id,
      userId: orders.userId,
      accessTokenHash: orders.accessTokenHash,
      deliveryTokenHash: orders.deliveryTokenHash,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  const asker = await orderAskerOf(request);
  const viewer = access ? viewerOf(access, [access.accessTokenHash, access.deliveryTokenHash], asker, request) : null;
  if (!viewer) return refuseOrderViewer(request, asker, access);
  const order = await loadOrderDetails(orderId);
  if (!order) return null;
  return { viewer, user: asker.user, order };
}

/**
 * An e-mailed link for a guest (`/confirmation?orderId=…&token=…`, `/retractation/…?token=…`) may
 * carry the order's access token, so that the guest can open the order on another device. When the
 * token is the order's, this returns the Set-Cookie that keeps it and the same address without the
 * token (callers redirect there: the token leaves the address bar and the history); otherwise null.
 */
export async function accessFromLink(
  request: Request,
  orderId: string,
): Promise<{ setCookie: string; cleanUrl: string } | null> {
  const url = new URL(request.url);
  const token = url.searchParams.get('token');
  if (!token || !isOrderId(orderId)) return null;
  const [row] = await db()
    .select({ hash: orders.accessTokenHash, delivery: orders.deliveryTokenHash })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  url.searchParams.delete('token');
  const cleanUrl = `${url.pathname}${url.search}`;
  // A wrong token is simply dropped from the address; the page then answers as it would without it.
  if (!row || !(accessTokenMatches(token, row.hash) || accessTokenMatches(token, row.delivery))) {
    return { setCookie: '', cleanUrl };
  }
  return { setCookie: orderAccessCookie(orderId, token), cleanUrl };
}

/**
 * What a visitor without access to `orderId` gets (decision 015): a signed-out visitor is sent
 * to /login remembering the page (`login`), unless the order is a guest's (only its token opens it:
 * `not-found`). An unknown id also leads to /login, so that the answer says no more than « sign in »;
 * a signed-in visitor who is not the owner gets the 404 of an unknown order.
 */
export async function deniedOrderAnswer(request: Request, orderId: string): Promise<'login' | 'not-found'> {
  if (!isOrderId(orderId)) return 'not-found';
  const user = await getUser(request);
  const [row] = user
    ? []
    : await db().select({ userId: orders.userId }).from(orders).where(eq(orders.id, orderId)).limit(1);
  const refusal = orderViewerRefusal(
    user ? { kind: 'customer' } : { kind: 'anonymous' },
    row ? { exists: true, ownedByAccount: row.userId !== null } : { exists: false },
  );
  return refusal === 'sign-in' ? 'login' : 'not-found';
}
