import { EyeIcon } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { OrderStatusBadge, PaymentStatusBadge } from '~/components/account/status-badges';
import { Button } from '~/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '~/components/ui/dialog';
import { Pagination } from '~/components/ui/pagination';
import { SortHeader } from '~/components/ui/sort-header';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table';
import { type CustomerListParams, type CustomerSort, withParams } from '~/domain/admin/list-params';
import { countLabel, type ListPage } from '~/domain/admin/paging';
import type { CustomerDetails, CustomerListRow } from '~/domain/admin/views';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';
import { usePageHref } from './use-page-href';

/** A column of the Clients table: the date sorts newest first, the words A to Z. */
function CustomerSortHeader({
  label,
  sort,
  params,
}: {
  label: string;
  sort: CustomerSort;
  params: CustomerListParams;
}) {
  const location = useLocation();
  const direction = params.sort === sort ? params.dir : null;
  const nextDir = direction ? (direction === 'desc' ? 'asc' : 'desc') : sort === 'date' ? 'desc' : 'asc';
  const href = withParams(new URLSearchParams(location.search), { sort, dir: nextDir, client: null });
  return <SortHeader label={label} direction={direction} href={href} />;
}

/** The Clients tab's table: id, name, email, orders, spent, and the details button. */
export function CustomersTable({ page, params }: { page: ListPage<CustomerListRow>; params: CustomerListParams }) {
  const pageHref = usePageHref();
  const location = useLocation();
  const current = new URLSearchParams(location.search);
  return (
    <section aria-labelledby="liste-clients" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="liste-clients" className="font-heading font-semibold text-xl">
          Clients
        </h2>
        <p className="text-muted-foreground text-sm" aria-live="polite">
          {countLabel(page, { one: 'client', many: 'clients', none: 'Aucun client' })}
          {params.q ? ` pour « ${params.q} »` : ''}
        </p>
      </div>
      <div className="rounded-lg border border-border bg-card">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Id</TableHead>
              <CustomerSortHeader label="Nom" sort="name" params={params} />
              <CustomerSortHeader label="Email" sort="email" params={params} />
              <CustomerSortHeader label="Inscription" sort="date" params={params} />
              <TableHead className="text-right">Commandes</TableHead>
              <TableHead className="text-right">Dépensé</TableHead>
              <TableHead>
                <span className="sr-only">Détails</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {page.rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={7} className="py-8 text-center text-muted-foreground">
                  Aucun client ne correspond.
                </TableCell>
              </TableRow>
            ) : (
              page.rows.map((customer) => (
                <TableRow key={customer.id}>
                  <TableCell className="font-mono text-xs" title={customer.id}>
                    {customer.id.slice(0, 8)}
                  </TableCell>
                  <TableCell className="font-medium">{customer.name || '—'}</TableCell>
                  <TableCell>{customer.email}</TableCell>
                  <TableCell className="whitespace-nowrap">{formatDateFr(customer.createdAt)}</TableCell>
                  <TableCell className="text-right tabular-nums">{customer.orders}</TableCell>
                  <TableCell className="whitespace-nowrap text-right tabular-nums">
                    {formatEurosFromCents(customer.spentCents)}
                  </TableCell>
                  <TableCell className="text-right">
                    <Button asChild size="sm" variant="outline">
                      <Link
                        to={withParams(current, { client: customer.id, page: current.get('page') })}
                        preventScrollReset
                      >
                        <EyeIcon aria-hidden="true" />
                        <span>
                          Détails<span className="sr-only"> de {customer.name || customer.email}</span>
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
      <Pagination page={page.page} pageCount={page.pageCount} hrefFor={pageHref} label="Pages des clients" />
    </section>
  );
}

/** The customer details dialog: name, email, phone, address, number of orders, total spent, and their orders. */
export function CustomerDetailsDialog({ customer, onClose }: { customer: CustomerDetails; onClose: () => void }) {
  const address = [customer.address, [customer.postalCode, customer.city].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  return (
    <Dialog open onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent className="max-w-3xl grid-cols-[minmax(0,1fr)]">
        <DialogHeader>
          <DialogTitle>{customer.name || customer.email}</DialogTitle>
          <DialogDescription>Client depuis le {formatDateFr(customer.createdAt)}</DialogDescription>
        </DialogHeader>
        <dl className="grid gap-3 sm:grid-cols-2">
          {[
            ['Nom', customer.name || '—'],
            ['Email', customer.email],
            ['Téléphone', customer.phone ?? '—'],
            ['Adresse', address || '—'],
            ['Nombre de commandes', String(customer.ordersCount)],
            ['Total dépensé', formatEurosFromCents(customer.spentCents)],
          ].map(([label, value]) => (
            <div key={label} className="flex flex-col">
              <dt className="text-muted-foreground text-xs">{label}</dt>
              <dd className="text-sm">{value}</dd>
            </div>
          ))}
        </dl>
        <section aria-labelledby="client-commandes" className="flex flex-col gap-2">
          <h3 id="client-commandes" className="font-semibold">
            Commandes
          </h3>
          {customer.orders.length === 0 ? (
            <p className="text-muted-foreground text-sm">Aucune commande.</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>N°</TableHead>
                  <TableHead>Date</TableHead>
                  <TableHead>Statut</TableHead>
                  <TableHead>Paiement</TableHead>
                  <TableHead className="text-right">Montant</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {customer.orders.map((order) => (
                  <TableRow key={order.id}>
                    <TableCell>
                      <Link to={`/admin?commande=${order.id}`} className="font-medium text-primary underline">
                        {order.number}
                      </Link>
                    </TableCell>
                    <TableCell className="whitespace-nowrap">{formatDateFr(order.createdAt)}</TableCell>
                    <TableCell>
                      <OrderStatusBadge status={order.status} />
                    </TableCell>
                    <TableCell>
                      <PaymentStatusBadge status={order.paymentStatus} />
                    </TableCell>
                    <TableCell className="whitespace-nowrap text-right tabular-nums">
                      {formatEurosFromCents(order.totalCents)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          {customer.ordersCount > customer.orders.length ? (
            <p className="text-muted-foreground text-xs">
              Les {customer.orders.length} dernières commandes sur {customer.ordersCount}.
            </p>
          ) : null}
        </section>
      </DialogContent>
    </Dialog>
  );
}
