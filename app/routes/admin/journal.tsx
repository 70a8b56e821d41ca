import { JournalEntries } from '~/components/admin/journal-entries';
import { JournalFiltersForm } from '~/components/admin/journal-filters';
import { TabError } from '~/components/admin/tab-error';
import { Pagination } from '~/components/ui/pagination';
import { withParams } from '~/domain/admin/list-params';
import { parseJournalFilters } from '~/domain/audit/journal-filters';
import { requireStaff } from '~/server/admin/access.server';
import { journalPeople, listJournal } from '~/server/audit/audit.server';
import type { Route } from './+types/journal';

/*
 * « Journal » (decision 017): every back-office action, who did it, when, and what it was
 * before and after, newest first, filtered by person, action and dates from the address bar.
 * Read-only: the audit log cannot be edited or deleted (docs/decisions/017-audit-log.md).
 */

export function meta() {
  return [{ title: 'Journal — Soovenirs' }];
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'journal');
  const search = new URL(request.url).searchParams;
  const filters = parseJournalFilters(search);
  const [page, people] = await Promise.all([listJournal(filters), journalPeople()]);
  return { filters, page, people, search: search.toString() };
}

export default function JournalTab({ loaderData }: Route.ComponentProps) {
  const { filters, page, people, search } = loaderData;
  const current = new URLSearchParams(search);
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h2 className="font-semibold text-xl">Journal</h2>
        <p className="text-muted-foreground text-sm">
          Qui a fait quoi, et quand. {page.total} action{page.total > 1 ? 's' : ''}
          {filters.person || filters.kind || filters.from || filters.to ? ' avec ces filtres' : ''}.
        </p>
      </div>
      {/* Keyed by the address: « Effacer » and the back button show the filters that apply, not the last typed. */}
      <JournalFiltersForm key={search} filters={filters} people={people} />
      <JournalEntries entries={page.entries} />
      <Pagination
        page={page.page}
        pageCount={page.pageCount}
        hrefFor={(n) => withParams(current, { page: n })}
        label="Pages du journal"
      />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
