import { WORKSHOP_STAGE_LABELS, WORKSHOP_STAGES, type WorkshopStage } from '../order-status';
import type { CopyWorkCard } from '../orders/extra-copies';
import { DELIVERY_METHODS, type DeliveryMethod, SUPPORT_TYPES, type SupportType } from '../pricing/default-price-list';
import { parsePage } from './list-params';

/*
 * The workshop board (back office, « Atelier »): the placed orders still in the workshop, in one
 * column per stage, then « À expédier » for the finished orders that have something to send back.
 * Like the other lists it is driven by the address bar (a GET form of filters, `colonne` and
 * `page` to page through one column).
 */

export const BOARD_COLUMNS = [...WORKSHOP_STAGES, 'to_ship'] as const;
export type BoardColumn = (typeof BOARD_COLUMNS)[number];

export const BOARD_COLUMN_LABELS: Readonly<Record<BoardColumn, string>> = {
  ...WORKSHOP_STAGE_LABELS,
  to_ship: 'À expédier',
};

/** Cards per column on the board; a column opened alone shows this many per page. */
export const BOARD_COLUMN_SIZE = 10;
export const BOARD_PAGE_SIZE = 30;

/** What the order is waiting for: its prepaid label, the customer's parcel, or being shipped. */
export const BOARD_WAITING = ['etiquette', 'colis', 'expedition'] as const;
export type BoardWaiting = (typeof BOARD_WAITING)[number];

export const BOARD_WAITING_LABELS: Readonly<Record<BoardWaiting, string>> = {
  etiquette: 'En attente d’étiquette',
  colis: 'En attente du colis',
  expedition: 'En attente d’expédition',
};

export const BOARD_DELIVERY_LABELS: Readonly<Record<DeliveryMethod, string>> = {
  digital: 'Numérique',
  usb: 'Clé USB',
  disc: 'DVD',
};

export interface BoardParams {
  /** One column alone (paginated), or all columns with their first cards. */
  column: BoardColumn | null;
  page: number;
  support: SupportType | null;
  delivery: DeliveryMethod | null;
  /** Only orders with the prepaid sending label. */
  label: boolean;
  /** Only orders whose originals go back to the customer. */
  returnOriginals: boolean;
  express: boolean;
  waiting: BoardWaiting | null;
}

function oneOf<T extends string>(values: readonly T[], value: string | null): T | null {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : null;
}

/** Reads the board's parameters leniently: an unknown value is no filter. */
export function parseBoardParams(search: URLSearchParams): BoardParams {
  const column = oneOf(BOARD_COLUMNS, search.get('colonne'));
  return {
    column,
    page: column ? parsePage(search.get('page')) : 1,
    support: oneOf(SUPPORT_TYPES, search.get('support')),
    delivery: oneOf(DELIVERY_METHODS, search.get('livraison')),
    label: search.get('etiquette') === 'oui',
    returnOriginals: search.get('retour') === 'oui',
    express: search.get('express') === 'oui',
    waiting: oneOf(BOARD_WAITING, search.get('attente')),
  };
}

/** The filters as search parameters (the column and page left out), for the columns' links. */
export function boardFilterSearch(params: BoardParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.support) search.set('support', params.support);
  if (params.delivery) search.set('livraison', params.delivery);
  if (params.label) search.set('etiquette', 'oui');
  if (params.returnOriginals) search.set('retour', 'oui');
  if (params.express) search.set('express', 'oui');
  if (params.waiting) search.set('attente', params.waiting);
  return search;
}

/** The columns a filter on what is awaited can show (the others are left out of the query). */
export function columnsFor(params: BoardParams): BoardColumn[] {
  const columns: BoardColumn[] = params.column ? [params.column] : [...BOARD_COLUMNS];
  if (params.waiting === 'colis' || params.waiting === 'etiquette') {
    return columns.filter((c) => c === 'awaiting_originals');
  }
  if (params.waiting === 'expedition') return columns.filter((c) => c === 'to_ship');
  return columns;
}

/** One card of the board. */
export interface BoardCard {
  id: string;
  number: string;
  customer: string;
  /** Declared quantities, and what was counted at reception (null before). */
  items: { type: string; quantity: number; counted: number | null }[];
  stage: WorkshopStage;
  dueAt: string | null;
  late: boolean;
  express: boolean;
  paid: boolean;
  /** The customer flagged a delivered file « À refaire » (decision 011). */
  rework: boolean;
  /** The customer kept their withdrawal period: no digitising before this day (ISO), else null. */
  notBefore: string | null;
  /** An order of extra copies (decision 029): what to copy, from which order; null otherwise. */
  copy?: CopyWorkCard | null;
}

export interface BoardColumnView {
  column: BoardColumn;
  cards: BoardCard[];
  /** Capped count (BOARD_COUNT_CAP): « plus de … » beyond it. */
  total: number;
  capped: boolean;
}

/** Per-order outcome of « Passer à l’étape suivante ». */
export interface AdvanceOutcome {
  orderId: string;
  number: string;
  ok: boolean;
  /** The new stage's label, or the French refusal. */
  message: string;
}
