import { SearchIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Form, Link, useFetcher, useLocation } from 'react-router';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { isSearchable, MAX_SEARCH_LENGTH } from '~/domain/admin/list-params';
import type { SearchResults } from '~/domain/admin/views';
import { formatEurosFromCents } from '~/domain/format';
import { orderStatusLabel } from '~/domain/order-status';
import { searchTargetFor } from './admin-tabs';

export const SEARCH_PATH = '/admin/api/recherche';

function countText(part: { count: number; capped: boolean }): string {
  return part.capped ? `${part.count}+` : String(part.count);
}

/**
 * The dashboard's search box (orders, customers and invoices, by number, name or e-mail). Typing
 * shows the first matches of each kind; submitting filters the current list (or the orders) by the
 * term, which also works without JavaScript.
 */
export function GlobalSearch() {
  const location = useLocation();
  const current = new URLSearchParams(location.search).get('q') ?? '';
  const [value, setValue] = useState(current);
  const [open, setOpen] = useState(false);
  const fetcher = useFetcher<SearchResults>();
  const resultsId = useId();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => setValue(current), [current]);

  const onChange = (next: string) => {
    setValue(next);
    clearTimeout(timer.current);
    if (!isSearchable(next.trim())) {
      setOpen(false);
      return;
    }
    timer.current = setTimeout(() => {
      fetcher.load(`${SEARCH_PATH}?${new URLSearchParams({ q: next.trim() })}`);
      setOpen(true);
    }, 250);
  };

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const results = fetcher.data;
  const showResults = open && results && results.q === value.trim();
  return (
    <div ref={container} className="relative">
      <Form
        method="get"
        action={searchTargetFor(location.pathname)}
        role="search"
        className="flex gap-2"
        onSubmit={() => setOpen(false)}
      >
        <label htmlFor="recherche-globale" className="sr-only">
          Rechercher une commande, un client ou une facture
        </label>
        <div className="relative flex-1">
          <SearchIcon
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            id="recherche-globale"
            name="q"
            type="search"
            value={value}
            maxLength={MAX_SEARCH_LENGTH}
            onChange={(e) => onChange(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setOpen(false);
            }}
            placeholder="N° de commande, nom, email, n° de facture…"
            className="pl-9"
            autoComplete="off"
            aria-describedby={showResults ? resultsId : undefined}
          />
        </div>
        <Button type="submit">Rechercher</Button>
      </Form>
      {showResults ? (
        <section
          id={resultsId}
          aria-label="Résultats de la recherche"
          aria-live="polite"
          className="absolute inset-x-0 top-full z-30 mt-1 grid gap-3 rounded-lg border border-border bg-popover p-3 shadow-lg sm:grid-cols-3"
        >
          <ResultGroup title="Commandes" count={countText(results.orders)} empty={results.orders.rows.length === 0}>
            {results.orders.rows.map((o) => (
              <li key={o.id}>
                <Link
                  to={`/admin?commande=${o.id}`}
                  className="block rounded px-2 py-1 hover:bg-muted"
                  onClick={() => setOpen(false)}
                >
                  <span className="font-medium">{o.number}</span>{' '}
                  <span className="text-muted-foreground">
                    {o.customer} · {orderStatusLabel(o.status)} · {formatEurosFromCents(o.totalCents)}
                  </span>
                </Link>
              </li>
            ))}
          </ResultGroup>
          <ResultGroup title="Clients" count={countText(results.customers)} empty={results.customers.rows.length === 0}>
            {results.customers.rows.map((c) => (
              <li key={c.id}>
                <Link
                  to={`/admin/clients?client=${c.id}`}
                  className="block rounded px-2 py-1 hover:bg-muted"
                  onClick={() => setOpen(false)}
                >
                  <span className="font-medium">{c.name}</span> <span className="text-muted-foreground">{c.email}</span>
                </Link>
              </li>
            ))}
          </ResultGroup>
          <ResultGroup title="Factures" count={countText(results.invoices)} empty={results.invoices.rows.length === 0}>
            {results.invoices.rows.map((i) => (
              <li key={i.id}>
                <Link
                  to={`/admin/comptabilite?${new URLSearchParams({ q: i.number })}`}
                  className="block rounded px-2 py-1 hover:bg-muted"
                  onClick={() => setOpen(false)}
                >
                  <span className="font-medium">{i.number}</span>{' '}
                  <span className="text-muted-foreground">
                    {i.orderNumber} · {i.customer} · {formatEurosFromCents(i.amountCents)}
                  </span>
                </Link>
              </li>
            ))}
          </ResultGroup>
        </section>
      ) : null}
    </div>
  );
}

function ResultGroup({
  title,
  count,
  empty,
  children,
}: {
  title: string;
  count: string;
  empty: boolean;
  children: React.ReactNode;
}) {
  return (
    <div className="min-w-0 text-sm">
      <h2 className="mb-1 font-semibold text-muted-foreground text-xs uppercase tracking-wide">
        {title} ({count})
      </h2>
      {empty ? (
        <p className="px-2 py-1 text-muted-foreground">Aucun résultat</p>
      ) : (
        <ul className="truncate">{children}</ul>
      )}
    </div>
  );
}
