import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { cn } from '~/components/ui/cn';
import { pageWindow, withParams } from '~/domain/admin/list-params';
import type { ListPage } from '~/domain/admin/paging';

const linkClass =
  'inline-flex h-9 min-w-9 items-center justify-center gap-1 rounded-md border border-input bg-card px-2 text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-2';

/** Page links of a server-paginated list (`?page=`), keeping the other parameters. */
export function Pagination({
  page,
  label,
  param = 'page',
}: {
  page: Pick<ListPage<unknown>, 'page' | 'pageCount' | 'totalIsCapped'>;
  label: string;
  param?: string;
}) {
  const location = useLocation();
  if (page.pageCount <= 1) return null;
  const current = new URLSearchParams(location.search);
  // Another list's page parameter (`cpage`) keeps this page's `page` as it is.
  const href = (p: number) =>
    withParams(current, param === 'page' ? { page: p } : { [param]: p, page: current.get('page') });
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-center gap-1">
      {page.page > 1 ? (
        <Link to={href(page.page - 1)} className={linkClass} preventScrollReset>
          <ChevronLeftIcon className="size-4" aria-hidden="true" />
          <span className="sr-only sm:not-sr-only">Précédente</span>
        </Link>
      ) : null}
      {pageWindow(page.page, page.pageCount).map((p, i) =>
        p === null ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity
          <span key={`gap-${i}`} className="px-1 text-muted-foreground" aria-hidden="true">
            …
          </span>
        ) : (
          <Link
            key={p}
            to={href(p)}
            preventScrollReset
            aria-current={p === page.page ? 'page' : undefined}
            aria-label={`Page ${p}`}
            className={cn(
              linkClass,
              p === page.page && 'border-primary bg-primary text-primary-foreground hover:bg-primary',
            )}
          >
            {p}
          </Link>
        ),
      )}
      {page.page < page.pageCount ? (
        <Link to={href(page.page + 1)} className={linkClass} preventScrollReset>
          <span className="sr-only sm:not-sr-only">Suivante</span>
          <ChevronRightIcon className="size-4" aria-hidden="true" />
        </Link>
      ) : null}
    </nav>
  );
}
