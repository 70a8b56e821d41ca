import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '~/components/ui/button';

interface PaginationProps {
  page: number;
  pageCount: number;
  /** The address of a page, e.g. `(n) => '?tab=commandes&page=' + n`. */
  hrefFor: (page: number) => string;
  label: string;
}

/** Previous / next links with "Page 2 sur 5"; nothing when there is one page. */
export function Pagination({ page, pageCount, hrefFor, label }: PaginationProps) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-3 pt-4 text-sm">
      {page > 1 ? (
        <Button asChild variant="outline" size="sm">
          <Link to={hrefFor(page - 1)} preventScrollReset>
            <ChevronLeftIcon aria-hidden="true" />
            Précédent
          </Link>
        </Button>
      ) : (
        <span />
      )}
      <span className="text-muted-foreground">
        Page {page} sur {pageCount}
      </span>
      {page < pageCount ? (
        <Button asChild variant="outline" size="sm">
          <Link to={hrefFor(page + 1)} preventScrollReset>
            Suivant
            <ChevronRightIcon aria-hidden="true" />
          </Link>
        </Button>
      ) : (
        <span />
      )}
    </nav>
  );
}
