import { parseDay, parsePage } from '../admin/list-params';
import type { AuditFields } from './changes';
import { type AuditKind, isAuditKind } from './kinds';

/*
 * The « Journal » page's filters, read from its GET form's query string: `personne` (a staff
 * member's user id, or `systeme`), `action` (an audit kind), `du` / `au` (days, Paris time) and
 * `page`. Anything unreadable is ignored (the page then shows everything), never an error.
 */

export const JOURNAL_PAGE_SIZE = 25;
/** The `personne` value of entries written by the shop itself. */
export const SYSTEM_PERSON = 'systeme';

export interface JournalFilters {
  person: string | null;
  kind: AuditKind | null;
  from: string | null;
  to: string | null;
  page: number;
}

export function parseJournalFilters(search: URLSearchParams): JournalFilters {
  const person = (search.get('personne') ?? '').trim().slice(0, 100);
  const kind = search.get('action');
  let from = parseDay(search.get('du'));
  let to = parseDay(search.get('au'));
  // « du 30 au 1er »: the two days were swapped, read them in order.
  if (from && to && from > to) [from, to] = [to, from];
  return {
    person: person || null,
    kind: isAuditKind(kind) ? kind : null,
    from,
    to,
    page: parsePage(search.get('page')),
  };
}

/** One row of the Journal, as the server reads it and the page shows it. */
export interface JournalEntry {
  id: number;
  /** ISO instant. */
  at: string;
  actorName: string;
  actorRole: string;
  kind: string;
  subject: string;
  subjectLabel: string | null;
  /** The subject is an order: its number links to the order's dialog. */
  isOrder: boolean;
  before: AuditFields | null;
  after: AuditFields | null;
}

export interface JournalPage {
  entries: JournalEntry[];
  total: number;
  page: number;
  pageCount: number;
}
