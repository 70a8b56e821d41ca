import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import { Link } from 'react-router';
import { pageWindow } from '~/domain/pagination';
import { cn } from './cn';

const linkClass =
  'inline-flex h-9 min-w-9 items-center justify-center gap-1 rounded-md border border-input bg-card px-2 text-sm hover:bg-muted';

interface PaginationProps {
  /** The current page, from 1. */
  page: number;
  /** How many pages the list has (the server's `LIMIT` / `OFFSET` paging: count ÷ page size). */
  pageCount: number;
  /** The address of a page, e.g. `(n) => '?tab=commandes&page=' + n`: plain links, they work without JavaScript. */
  hrefFor: (page: number) => string;
  /** What the pages are of, for screen readers: « Pages des commandes ». */
  label: string;
}

/**
 * The one pagination bar: previous / next, the page numbers around the current one (marked
 * `aria-current`) and « Page 2 sur 7 »; nothing when the list holds on one page.
 */
export function Pagination({ page, pageCount, hrefFor, label }: PaginationProps) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={label} className="flex flex-col items-center gap-2 pt-4 text-sm">
      <ul className="flex flex-wrap items-center justify-center gap-1">
        {page > 1 ? (
          <li>
            <Link to={hrefFor(page - 1)} className={linkClass} aria-label="Page précédente" preventScrollReset>
              <ChevronLeftIcon className="size-4" aria-hidden="true" />
              <span className="hidden sm:inline">Précédent</span>
            </Link>
          </li>
        ) : null}
        {pageWindow(page, pageCount).map((p, i) =>
          p === null ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity
            <li key={`gap-${i}`} className="px-1 text-muted-foreground" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={p}>
              <Link
                to={hrefFor(p)}
                preventScrollReset
                aria-current={p === page ? 'page' : undefined}
                aria-label={`Page ${p}`}
                className={cn(
                  linkClass,
                  p === page && 'border-primary bg-primary text-primary-foreground hover:bg-primary',
                )}
              >
                {p}
              </Link>
            </li>
          ),
        )}
        {page < pageCount ? (
          <li>
            <Link to={hrefFor(page + 1)} className={linkClass} aria-label="Page suivante" preventScrollReset>
              <span className="hidden sm:inline">Suivant</span>
              <ChevronRightIcon className="size-4" aria-hidden="true" />
            </Link>
          </li>
        ) : null}
      </ul>
      <p className="text-muted-foreground">
        Page {page} sur {pageCount}
      </p>
    </nav>
  );
}
