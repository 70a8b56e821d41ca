import {
  isOrderStatus,
  isPaymentStatus,
  isWorkshopStage,
  type OrderStatus,
  type PaymentStatus,
  type WorkshopStage,
} from '../order-status';
import { DELIVERY_METHODS, type DeliveryMethod } from '../pricing/default-price-list';

/*
 * The back office's lists are driven by the address bar: page, sort, filters and search are search
 * parameters, so that a list can be bookmarked, reloaded, shared, and used without JavaScript (the
 * filter form is a plain GET form). These functions read them leniently (a wrong value falls back
 * to the default rather than failing the page) and write them back, leaving out the defaults.
 */

export const PAGE_SIZE = 20;
/** The Commandes tab may show more per page, to select them all for a bulk action. */
export const ORDER_PAGE_SIZES = [20, 50, 100] as const;
/** Search terms shorter than this match too much to be useful (and defeat the trigram index). */
export const MIN_SEARCH_LENGTH = 2;
export const MAX_SEARCH_LENGTH = 100;
/** Offset pagination stops here: nobody pages through 10 000 pages; filters narrow the list. */
export const MAX_PAGE = 10_000;

export type SortDirection = 'asc' | 'desc';

export const ORDER_SORTS = ['date', 'amount', 'number'] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];

export const CUSTOMER_SORTS = ['date', 'name', 'email', 'orders', 'spent'] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];

export interface OrderListParams {
  q: string;
  page: number;
  status: OrderStatus | null;
  payment: PaymentStatus | null;
  /** Drafts (« Commander » never confirmed at checkout) instead of orders: hidden unless asked. */
  drafts: boolean;
  /** Inclusive days, `YYYY-MM-DD`, in the shop's time zone. */
  from: string | null;
  to: string | null;
  sort: OrderSort;
  dir: SortDirection;
  delivery: DeliveryMethod | null;
  /** Only the orders with the prepaid sending label. */
  label: boolean;
  /** Only the orders whose originals go back to the customer. */
  returnOriginals: boolean;
  stage: WorkshopStage | null;
  /** Orders per page (`par_page`), one of ORDER_PAGE_SIZES. */
  pageSize: number;
}

export interface CustomerListParams {
  q: string;
  page: number;
  sort: CustomerSort;
  dir: SortDirection;
}

export interface InvoiceListParams {
  q: string;
  page: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day written `YYYY-MM-DD`, or null. */
export function parseDay(value: string | null | undefined): string | null {
  if (!value || !DAY.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return null;
  return value;
}

export function parsePage(value: string | null | undefined): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? Math.min(page, MAX_PAGE) : 1;
}

/** The search term as typed, trimmed and bounded; empty when absent. */
export function parseSearch(value: string | null | undefined): string {
  return (value ?? '').trim().replace(/\s+/g, ' ').slice(0, MAX_SEARCH_LENGTH);
}

function oneOf<T extends string>(values: readonly T[], value: string | null, fallback: T): T {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : fallback;
}

function direction(value: string | null, fallback: SortDirection): SortDirection {
  return value === 'asc' || value === 'desc' ? value : fallback;
}

function isDeliveryMethod(value: string | null): value is DeliveryMethod {
  return value !== null && (DELIVERY_METHODS as readonly string[]).includes(value);
}

export function parseOrderListParams(search: URLSearchParams): OrderListParams {
  const status = search.get('status');
  const delivery = search.get('livraison');
  const stage = search.get('etape');
  const payment = search.get('payment');
  let from = parseDay(search.get('from'));
  let to = parseDay(search.get('to'));
  // A period given backwards is read the right way round.
  if (from && to && from > to) [from, to] = [to, from];
  return {
    q: parseSearch(search.get('q')),
    page: parsePage(search.get('page')),
    status: isOrderStatus(status) ? status : null,
    payment: isPaymentStatus(payment) ? payment : null,
    drafts: search.get('vue') === 'brouillons',
    from,
    to,
    sort: oneOf(ORDER_SORTS, search.get('sort'), 'date'),
    dir: direction(search.get('dir'), 'desc'),
    delivery: isDeliveryMethod(delivery) ? delivery : null,
    label: search.get('etiquette') === 'oui',
    returnOriginals: search.get('retour') === 'oui',
    stage: isWorkshopStage(stage) ? stage : null,
    pageSize: ORDER_PAGE_SIZES.find((size) => String(size) === search.get('par_page')) ?? PAGE_SIZE,
  };
}

export function parseCustomerListParams(search: URLSearchParams): CustomerListParams {
  const sort = oneOf(CUSTOMER_SORTS, search.get('sort'), 'date');
  return {
    q: parseSearch(search.get('q')),
    page: parsePage(search.get('page')),
    sort,
    dir: direction(search.get('dir'), sort === 'name' || sort === 'email' ? 'asc' : 'desc'),
  };
}

export function parseInvoiceListParams(search: URLSearchParams): InvoiceListParams {
  return { q: parseSearch(search.get('q')), page: parsePage(search.get('page')) };
}

/** Whether the term is long enough to search with. */
export function isSearchable(q: string): boolean {
  return q.length >= MIN_SEARCH_LENGTH;
}

/**
 * `?a=1&b=2` from the current parameters with some changed; null or '' removes a parameter, and
 * so does a default value (page 1). Changing anything but the page goes back to page 1.
 */
export function withParams(current: URLSearchParams, changes: Record<string, string | number | null>): string {
  const next = new URLSearchParams(current);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === '') next.delete(key);
    else next.set(key, String(value));
  }
  if (!('page' in changes)) next.delete('page');
  if (next.get('page') === '1') next.delete('page');
  const text = next.toString();
  return text ? `?${text}` : '?';
}

/** Total number of pages; at least 1, so that an empty list still shows "page 1 of 1". */
export function pageCount(total: number, pageSize = PAGE_SIZE): number {
  return Math.max(1, Math.min(MAX_PAGE, Math.ceil(total / pageSize)));
}
