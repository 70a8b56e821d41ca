import { EyeIcon, FilterIcon } from 'lucide-react';
import { Form, Link, useLocation } from 'react-router';
import { OrderStatusBadge, PaymentStatusBadge } from '~/components/account/status-badges';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { Pagination } from '~/components/ui/pagination';
import { SortHeader } from '~/components/ui/sort-header';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table';
import { itemsSummary } from '~/domain/account/order-details';
import { type OrderListParams, type OrderSort, withParams } from '~/domain/admin/list-params';
import { countLabel, type ListPage } from '~/domain/admin/paging';
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

/** The orders table: id (number), date, customer, items, status, amount, and a link to the details dialog. */
export function OrdersTable({ page, params }: { page: ListPage<OrderListRow>; params: OrderListParams }) {
  const pageHref = usePageHref();
  const location = useLocation();
  const current = new URLSearchParams(location.search);
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
      <div className="rounded-lg border border-border bg-card">
        <Table>
          <TableHeader>
            <TableRow>
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
                <TableCell colSpan={9} className="py-8 text-center text-muted-foreground">
                  Aucune commande ne correspond.
                </TableCell>
              </TableRow>
            ) : (
              page.rows.map((order) => (
                <TableRow key={order.id}>
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
                  <TableCell className="whitespace-nowrap text-xs">
                    {IN_WORKSHOP.has(order.status) ? workshopStageLabel(order.stage) : '—'}
                  </TableCell>
                  <TableCell>
                    <PaymentStatusBadge status={order.paymentStatus} />
                  </TableCell>
                  <TableCell className="whitespace-nowrap text-right tabular-nums">
                    {formatEurosFromCents(order.totalCents)}
                  </TableCell>
                  <TableCell className="text-right">
                    <Button asChild size="sm" variant="outline">
                      <Link
                        to={withParams(current, { commande: order.id, page: current.get('page') })}
                        preventScrollReset
                      >
                        <EyeIcon aria-hidden="true" />
                        <span>
                          Voir<span className="sr-only"> la commande {order.number}</span>
                        </span>
                      </Link>
                    </Button>
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
