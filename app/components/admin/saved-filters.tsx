import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { BookmarkIcon, XIcon } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useFetcher, useLocation } from 'react-router';
import { Field } from '~/components/forms/field';
import { Button } from '~/components/ui/button';
import { toast } from '~/components/ui/toaster';
import { filterQuery, MAX_FILTER_NAME_LENGTH, type SavedFilter } from '~/domain/admin/saved-filters';

export const SAVED_FILTERS_PATH = '/admin/api/filtres-commandes';

type SaveResult =
  | { ok: true; intent: 'save'; message: string; submission: SubmissionResult<string[]> }
  | { ok: false; intent: 'save'; submission: SubmissionResult<string[]> };
type DeleteResult = { ok: true; intent: 'delete'; message: string } | { ok: false; intent: 'delete'; error: string };

/** Keyed: the answer outlives the chip it deletes (gone from the list once revalidated). */
const DELETE_FETCHER = 'delete-saved-filter';

/** One saved filter: a link to the list as it was saved, and its deletion. */
function SavedFilterChip({ filter }: { filter: SavedFilter }) {
  const fetcher = useFetcher<DeleteResult>({ key: DELETE_FETCHER });
  return (
    <li className="inline-flex items-center rounded-full border border-border bg-muted text-sm">
      <Link
        to={filter.query ? `/admin?${filter.query}` : '/admin'}
        className="rounded-l-full py-1 pr-1 pl-3 hover:underline"
      >
        {filter.name}
      </Link>
      <fetcher.Form method="post" action={SAVED_FILTERS_PATH}>
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={filter.id} />
        <button
          type="submit"
          className="inline-flex size-8 items-center justify-center rounded-full hover:bg-card focus-visible:outline-2 focus-visible:outline-ring"
          aria-label={`Supprimer le filtre ${filter.name}`}
          disabled={fetcher.state !== 'idle'}
        >
          <XIcon className="size-4" aria-hidden="true" />
        </button>
      </fetcher.Form>
    </li>
  );
}

/** « Enregistrer ce filtre »: names the list as it is now (the address bar's filters). */
function SaveFilterForm() {
  const location = useLocation();
  const fetcher = useFetcher<SaveResult>();
  const handled = useRef<unknown>(null);
  const result = fetcher.data;
  useEffect(() => {
    if (fetcher.state !== 'idle' || !result || handled.current === result) return;
    handled.current = result;
    if (result.ok) toast.success(result.message);
  }, [fetcher.state, result]);
  // Validated on the server with the domain's schema: its French errors show under the name.
  const [form, fields] = useForm<{ name: string }>({ id: 'save-order-filter', lastResult: result?.submission });
  return (
    <fetcher.Form
      method="post"
      action={SAVED_FILTERS_PATH}
      className="flex flex-wrap items-start gap-2"
      {...getFormProps(form)}
    >
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="query" value={filterQuery(location.search)} />
      <Field
        meta={fields.name}
        label="Nom du filtre"
        maxLength={MAX_FILTER_NAME_LENGTH + 20}
        className="flex min-w-48 flex-1 flex-col gap-1.5"
      />
      <Button type="submit" variant="outline" className="mt-6" disabled={fetcher.state !== 'idle'}>
        <BookmarkIcon aria-hidden="true" />
        Enregistrer ce filtre
      </Button>
    </fetcher.Form>
  );
}

/** The staff member's saved filters of the Commandes tab, and the form to save the current one. */
export function SavedFilters({ filters }: { filters: readonly SavedFilter[] }) {
  const deletion = useFetcher<DeleteResult>({ key: DELETE_FETCHER });
  const handled = useRef<unknown>(null);
  useEffect(() => {
    const result = deletion.data;
    if (deletion.state !== 'idle' || !result || handled.current === result) return;
    handled.current = result;
    if (result.ok) toast.success(result.message);
    else toast.error(result.error);
  }, [deletion.state, deletion.data]);
  return (
    <section
      aria-labelledby="filtres-enregistres"
      className="flex flex-col gap-3 rounded-lg border border-border bg-card p-3"
    >
      <h2 id="filtres-enregistres" className="font-semibold text-base">
        Filtres enregistrés
      </h2>
      {filters.length === 0 ? (
        <p className="text-muted-foreground text-sm">Aucun filtre enregistré.</p>
      ) : (
        <ul className="flex flex-wrap gap-2" aria-labelledby="filtres-enregistres">
          {filters.map((filter) => (
            <SavedFilterChip key={filter.id} filter={filter} />
          ))}
        </ul>
      )}
      <SaveFilterForm />
    </section>
  );
}
