import { MAX_PAGE, PAGE_SIZE, pageCount } from './list-params';

/*
 * A page of a back-office list. Lists count their matches only up to COUNT_CAP_DEFAULT (+1 to know
 * there are more): beyond that, "plus de 10 000" says enough, and a page costs the same whatever
 * the size of the table.
 */

export const COUNT_CAP_DEFAULT = 10_000;
/** A search counts less far: a common name matches thousands of rows, each read to be checked. */
export const SEARCH_COUNT_CAP = 1_000;

/** How far a list counts: less far when it is a search. */
export function countCap(q: string): number {
  return q ? SEARCH_COUNT_CAP : COUNT_CAP_DEFAULT;
}

export interface ListPage<T> {
  rows: T[];
  page: number;
  pageCount: number;
  /** Matches counted, at most COUNT_CAP_DEFAULT. */
  total: number;
  /** True when there are more matches than `total`. */
  totalIsCapped: boolean;
  pageSize: number;
}

export function pageOf<T>(
  rows: T[],
  page: number,
  counted: number,
  pageSize = PAGE_SIZE,
  cap = COUNT_CAP_DEFAULT,
): ListPage<T> {
  const totalIsCapped = counted > cap;
  const total = Math.min(counted, cap);
  // When the count is capped, the page asked for may lie beyond it: let it be (up to MAX_PAGE).
  const pages = totalIsCapped
    ? Math.max(pageCount(total, pageSize), Math.min(page + (rows.length === pageSize ? 1 : 0), MAX_PAGE))
    : pageCount(total, pageSize);
  return { rows, page, pageCount: pages, total, totalIsCapped, pageSize };
}

export interface CountWords {
  one: string;
  many: string;
  /** The whole phrase for no match: "aucune commande", "aucun client". */
  none: string;
}

/** "1 234 commandes", "plus de 10 000 commandes", "aucune commande". */
export function countLabel(page: Pick<ListPage<unknown>, 'total' | 'totalIsCapped'>, words: CountWords): string {
  const format = new Intl.NumberFormat('fr-FR');
  if (page.totalIsCapped) return `plus de ${format.format(page.total)} ${words.many}`;
  if (page.total === 0) return words.none;
  return `${format.format(page.total)} ${page.total > 1 ? words.many : words.one}`;
}
