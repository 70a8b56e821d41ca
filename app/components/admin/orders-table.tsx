import { EyeIcon, FilterIcon } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Form, Link, useLocation } from 'react-router';
import { OrderStatusBadge, PaymentStatusBadge } from '~/components/account/status-badges';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { Pagination } from '~/components/ui/pagination';
import { SortHeader } from '~/components/ui/sort-header';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table';
import { itemsSummary } from '~/domain/account/order-details';
import type { Role } from '~/domain/account/session-user';
import { ORDER_PAGE_SIZES, type OrderListParams, type OrderSort, withParams } from '~/domain/admin/list-params';
import { countLabel, type ListPage } from '~/domain/admin/paging';
import type { SavedFilter } from '~/domain/admin/saved-filters';
import type { OrderListRow } from '~/domain/admin/views';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';
import {
  ORDER_STATUS_LABELS,
  ORDER_STATUSES,
  PAYMENT_STATUS_LABELS,
  PAYMENT_STATUSES,
  WORKSHOP_STAGE_LABELS,
  WORKSHOP_STAGES,
  workshopStageLabel,
} from '~/domain/order-status';
import { DeliveryFilter, ShippingOptionFilters } from './filter-fields';
import { NativeSelect } from './native-select';
import { OrdersBulkBar } from './orders-bulk-bar';
import { SavedFilters } from './saved-filters';
import { usePageHref } from './use-page-href';

/** The filter form: a GET form, so that it works before JavaScript and the URL says what is shown. */
export function OrderFilters({ params }: { params: OrderListParams }) {
  const active = Boolean(
    params.status ||
      params.payment ||
      params.drafts ||
      params.from ||
      params.to ||
      params.q ||
      params.delivery ||
      params.label ||
      params.returnOriginals ||
      params.stage,
  );
  return (
    <Form method="get" className="rounded-lg border border-border bg-card p-4" aria-label="Filtrer les commandes">
      <h2 className="mb-3 flex items-center gap-2 font-semibold text-base">
        <FilterIcon className="size-4" aria-hidden="true" />
        Filtres
      </h2>
      {params.q ? <input type="hidden" name="q" value={params.q} /> : null}
      <input type="hidden" name="sort" value={params.sort} />
      <input type="hidden" name="dir" value={params.dir} />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-[1fr_1fr_1fr_auto_auto_auto]">
        <NativeSelect
          className="col-span-2 sm:col-span-1"
          label="Commandes"
          name="vue"
          defaultValue={params.drafts ? 'brouillons' : ''}
          options={[
            { value: '', label: 'Confirmées par le client' },
            { value: 'brouillons', label: 'Brouillons non confirmés' },
          ]}
        />
        <NativeSelect
          className="col-span-2 sm:col-span-1"
          label="Statut"
          name="status"
          defaultValue={params.status ?? ''}
          options={[
            { value: '', label: 'Tous les statuts' },
            ...ORDER_STATUSES.map((s) => ({ value: s, label: ORDER_STATUS_LABELS[s] })),
          ]}
        />
        <NativeSelect
          className="col-span-2 sm:col-span-1"
          label="Paiement"
          name="payment"
          defaultValue={params.payment ?? ''}
          options={[
            { value: '', label: 'Tous les paiements' },
            ...PAYMENT_STATUSES.map((s) => ({ value: s, label: PAYMENT_STATUS_LABELS[s] })),
          ]}
        />
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="filtre-du">Du</Label>
          <Input id="filtre-du" type="date" name="from" defaultValue={params.from ?? ''} />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="filtre-au">Au</Label>
          <Input id="filtre-au" type="date" name="to" defaultValue={params.to ?? ''} />
        </div>
        <NativeSelect
          className="col-span-2 sm:col-span-1"
          label="Étape à l’atelier"
          name="etape"
          defaultValue={params.stage ?? ''}
          options={[
            { value: '', label: 'Toutes les étapes' },
            ...WORKSHOP_STAGES.map((s) => ({ value: s, label: WORKSHOP_STAGE_LABELS[s] })),
          ]}
        />
        <DeliveryFilter value={params.delivery} className="col-span-2 sm:col-span-1" />
        <NativeSelect
          className="col-span-2 sm:col-span-1"
          label="Commandes par page"
          name="par_page"
          defaultValue={String(params.pageSize)}
          options={ORDER_PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))}
        />
        <fieldset className="col-span-2 flex flex-wrap items-end gap-x-5 gap-y-2 lg:col-span-3">
          <legend className="sr-only">Options de la commande</legend>
          <ShippingOptionFilters label={params.label} returnOriginals={params.returnOriginals} />
        </fieldset>
        <div className="col-span-2 flex items-end gap-2 lg:col-span-1">
          <Button type="submit">Filtrer</Button>
          {active ? (
            <Button asChild variant="ghost">
              <Link to="?">Effacer</Link>
            </Button>
          ) : null}
        </div>
      </div>
    </Form>
  );
}

/** A column of the orders table: a first click sorts the largest / latest first. */
function OrderSortHeader({
  label,
  sort,
  params,
  className,
}: {
  label: string;
  sort: OrderSort;
  params: OrderListParams;
  className?: string;
}) {
  const location = useLocation();
  const direction = params.sort === sort ? params.dir : null;
  const href = withParams(new URLSearchParams(location.search), {
    sort,
    dir: direction === 'desc' ? 'asc' : 'desc',
    commande: null,
  });
  return <SortHeader label={label} direction={direction} href={href} className={className} />;
}

/** The stage means something while the order is open; shipped or canceled orders have left the workshop. */
const IN_WORKSHOP = new Set(['pending', 'processing', 'completed']);

const stageOf = (order: OrderListRow) => (IN_WORKSHOP.has(order.status) ? workshopStageLabel(order.stage) : '—');

/** The selection of the bulk actions: the orders ticked on this page (a new page or filter starts afresh). */
function useSelection(rows: readonly OrderListRow[]) {
  const location = useLocation();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page, filter or sort clears the selection
  useEffect(() => setSelected(new Set()), [location.search]);
  const ids = rows.filter((row) => selected.has(row.id)).map((row) => row.id);
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const toggleAll = (on: boolean) => setSelected(new Set(on ? rows.map((row) => row.id) : []));
  const clear = useCallback(() => setSelected(new Set()), []);
  return { ids, isSelected: (id: string) => selected.has(id), toggle, toggleAll, clear };
}

type Selection = ReturnType<typeof useSelection>;

const CHECKBOX = 'size-4 accent-primary';

/** « Tout sélectionner »: checked when the whole page is, half-checked when part of it is. */
function SelectAll({ selection, total }: { selection: Selection; total: number }) {
  const ref = useRef<HTMLInputElement>(null);
  const count = selection.ids.length;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = count > 0 && count < total;
  }, [count, total]);
  return (
    <input
      ref={ref}
      type="checkbox"
      className={CHECKBOX}
      aria-label="Tout sélectionner"
      checked={total > 0 && count === total}
      disabled={total === 0}
      onChange={(event) => selection.toggleAll(event.target.checked)}
    />
  );
}

function RowCheckbox({ order, selection }: { order: OrderListRow; selection: Selection }) {
  return (
    <input
      type="checkbox"
      className={CHECKBOX}
      aria-label={`Sélectionner la commande ${order.number}`}
      checked={selection.isSelected(order.id)}
      onChange={(event) => selection.toggle(order.id, event.target.checked)}
    />
  );
}

function ViewLink({ order }: { order: OrderListRow }) {
  const location = useLocation();
  const current = new URLSearchParams(location.search);
  return (
    <Button asChild size="sm" variant="outline">
      <Link to={withParams(current, { commande: order.id, page: current.get('page') })} preventScrollReset>
        <EyeIcon aria-hidden="true" />
        <span>
          Voir<span className="sr-only"> la commande {order.number}</span>
        </span>
      </Link>
    </Button>
  );
}

/** On a phone: one card per order, Statut, Paiement and Montant in view without scrolling sideways. */
function OrderCards({ rows, selection }: { rows: readonly OrderListRow[]; selection: Selection }) {
  if (rows.length === 0) {
    return <p className="p-6 text-center text-muted-foreground">Aucune commande ne correspond.</p>;
  }
  return (
    <ul className="divide-y divide-border" aria-label="Commandes">
      {rows.map((order) => (
        <li key={order.id} className="flex flex-col gap-2 p-3">
          <div className="flex items-center gap-3">
            <RowCheckbox order={order} selection={selection} />
            <span className="font-medium">{order.number}</span>
            <span className="ml-auto text-muted-foreground text-xs">{formatDateFr(order.createdAt)}</span>
          </div>
          <p className="text-sm">
            {order.customer || '—'}
            {order.email ? <span className="block break-all text-muted-foreground text-xs">{order.email}</span> : null}
          </p>
          <dl className="grid grid-cols-[auto_1fr] items-center gap-x-3 gap-y-1 text-sm">
            <dt className="text-muted-foreground">Statut</dt>
            <dd>
              <OrderStatusBadge status={order.status} />
            </dd>
            <dt className="text-muted-foreground">Étape</dt>
            <dd className="text-xs">{stageOf(order)}</dd>
            <dt className="text-muted-foreground">Paiement</dt>
            <dd>
              <PaymentStatusBadge status={order.paymentStatus} />
            </dd>
            <dt className="text-muted-foreground">Montant</dt>
            <dd className="font-medium tabular-nums">{formatEurosFromCents(order.totalCents)}</dd>
          </dl>
          <div className="flex justify-end">
            <ViewLink order={order} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The orders table: id (number), date, customer, items, status, amount, and a link to the details dialog. */
export function OrdersTable({
  page,
  params,
  savedFilters,
  role,
}: {
  page: ListPage<OrderListRow>;
  params: OrderListParams;
  savedFilters: readonly SavedFilter[];
  role: Role;
}) {
  const pageHref = usePageHref();
  const selection = useSelection(page.rows);
  return (
    <section aria-labelledby="liste-commandes" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="liste-commandes" className="font-heading font-semibold text-xl">
          Commandes
        </h2>
        <p className="text-muted-foreground text-sm" aria-live="polite">
          {countLabel(page, { one: 'commande', many: 'commandes', none: 'Aucune commande' })}
          {params.q ? ` pour « ${params.q} »` : ''}
        </p>
      </div>
      <SavedFilters filters={savedFilters} />
      <OrdersBulkBar ids={selection.ids} onApplied={selection.clear} role={role} />
      <div className="rounded-lg border border-border bg-card md:hidden">
        {page.rows.length > 0 ? (
          <div className="flex items-center gap-3 border-border border-b p-3 text-sm">
            <SelectAll selection={selection} total={page.rows.length} />
            <span aria-hidden="true">Tout sélectionner</span>
          </div>
        ) : null}
        <OrderCards rows={page.rows} selection={selection} />
      </div>
      <div className="hidden rounded-lg border border-border bg-card md:block">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead className="w-10">
                <SelectAll selection={selection} total={page.rows.length} />
              </TableHead>
              <OrderSortHeader label="N°" sort="number" params={params} />
              <OrderSortHeader label="Date" sort="date" params={params} />
              <TableHead>Client</TableHead>
              <TableHead>Articles</TableHead>
              <TableHead>Statut</TableHead>
              <TableHead>Étape</TableHead>
              <TableHead>Paiement</TableHead>
              <OrderSortHeader label="Montant" sort="amount" params={params} className="text-right" />
              <TableHead>
                <span className="sr-only">Détails</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {page.rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={10} className="py-8 text-center text-muted-foreground">
                  Aucune commande ne correspond.
                </TableCell>
              </TableRow>
            ) : (
              page.rows.map((order) => (
                <TableRow key={order.id} data-state={selection.isSelected(order.id) ? 'selected' : undefined}>
                  <TableCell>
                    <RowCheckbox order={order} selection={selection} />
                  </TableCell>
                  <TableCell className="whitespace-nowrap font-medium">{order.number}</TableCell>
                  <TableCell className="whitespace-nowrap">{formatDateFr(order.createdAt)}</TableCell>
                  <TableCell>
                    <span className="block">{order.customer || '—'}</span>
                    {order.email ? <span className="block text-muted-foreground text-xs">{order.email}</span> : null}
                  </TableCell>
                  <TableCell className="max-w-64 text-muted-foreground text-xs">{itemsSummary(order.items)}</TableCell>
                  <TableCell>
                    <OrderStatusBadge status={order.status} />
                  </TableCell>
                  <TableCell className="whitespace-nowrap text-xs">{stageOf(order)}</TableCell>
                  <TableCell>
                    <PaymentStatusBadge status={order.paymentStatus} />
                  </TableCell>
                  <TableCell className="whitespace-nowrap text-right tabular-nums">
                    {formatEurosFromCents(order.totalCents)}
                  </TableCell>
                  <TableCell className="text-right">
                    <ViewLink order={order} />
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </div>
      <Pagination page={page.page} pageCount={page.pageCount} hrefFor={pageHref} label="Pages des commandes" />
    </section>
  );
}
