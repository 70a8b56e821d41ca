import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon } from 'lucide-react';
import { Link } from 'react-router';
import { TableHead } from './table';

export type SortDirection = 'asc' | 'desc';

const SORTED_AS: Record<SortDirection, { aria: 'ascending' | 'descending'; words: string }> = {
  asc: { aria: 'ascending', words: 'croissant' },
  desc: { aria: 'descending', words: 'décroissant' },
};

/**
 * The one sortable column heading: a link (the sort lives in the URL, so it works without
 * JavaScript and pages on the server), `aria-sort` on the sorted column, an arrow for the eye and
 * the same words for screen readers.
 */
export function SortHeader({
  label,
  direction,
  href,
  className,
}: {
  label: string;
  /** The column's current order, or null when the list is sorted by another column. */
  direction: SortDirection | null;
  /** The address that sorts by this column (the caller knows its list's parameters). */
  href: string;
  className?: string;
}) {
  const Icon = direction === null ? ArrowUpDownIcon : direction === 'desc' ? ArrowDownIcon : ArrowUpIcon;
  return (
    <TableHead className={className} aria-sort={direction ? SORTED_AS[direction].aria : undefined}>
      <Link to={href} preventScrollReset className="inline-flex items-center gap-1 hover:underline">
        {label}
        <Icon className="size-3.5" aria-hidden="true" />
        <span className="sr-only">{direction ? `(tri ${SORTED_AS[direction].words})` : '(trier)'}</span>
      </Link>
    </TableHead>
  );
}
