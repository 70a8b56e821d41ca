import { EyeIcon, PencilIcon } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { OrderStatusBadge, PaymentStatusBadge } from '~/components/account/status-badges';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '~/components/ui/dialog';
import { Pagination } from '~/components/ui/pagination';
import { SortHeader } from '~/components/ui/sort-header';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table';
import { type CustomerListParams, type CustomerSort, withParams } from '~/domain/admin/list-params';
import { countLabel, type ListPage } from '~/domain/admin/paging';
import type { CustomerDetails, CustomerListRow } from '~/domain/admin/views';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';
import { CustomerEditForm } from './customer-edit-form';
import { usePageHref } from './use-page-href';

/** A column of the Clients table: dates and figures sort largest first, the words A to Z. */
function CustomerSortHeader({
  label,
  sort,
  params,
  className,
}: {
  label: string;
  sort: CustomerSort;
  params: CustomerListParams;
  className?: string;
}) {
  const location = useLocation();
  const direction = params.sort === sort ? params.dir : null;
  const wordsFirst = sort === 'name' || sort === 'email';
  const nextDir = direction ? (direction === 'desc' ? 'asc' : 'desc') : wordsFirst ? 'asc' : 'desc';
  const href = withParams(new URLSearchParams(location.search), { sort, dir: nextDir, client: null });
  return <SortHeader label={label} direction={direction} href={href} className={className} />;
}

/** The Clients tab's table: accounts and guests, their orders and what they spent, and the details button. */
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
              <CustomerSortHeader label="Nom" sort="name" params={params} />
              <CustomerSortHeader label="Email" sort="email" params={params} />
              <CustomerSortHeader label="Client depuis" sort="date" params={params} />
              <CustomerSortHeader label="Commandes" sort="orders" params={params} className="text-right" />
              <CustomerSortHeader label="Dépensé" sort="spent" params={params} className="text-right" />
              <TableHead>
                <span className="sr-only">Détails</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {page.rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={6} className="py-8 text-center text-muted-foreground">
                  Aucun client ne correspond.
                </TableCell>
              </TableRow>
            ) : (
              page.rows.map((customer) => (
                <TableRow key={customer.id}>
                  <TableCell className="font-medium">
                    <span className="flex flex-wrap items-center gap-2">
                      {customer.name || '—'}
                      {customer.account ? null : <Badge variant="neutral">Sans compte</Badge>}
                    </span>
                  </TableCell>
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
  const [editing, setEditing] = useState(false);
  return (
    <Dialog open onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent className="max-w-3xl grid-cols-[minmax(0,1fr)]">
        <DialogHeader>
          <DialogTitle>{customer.name || customer.email}</DialogTitle>
          <DialogDescription>
            {customer.account
              ? `Client depuis le ${formatDateFr(customer.createdAt)}`
              : `Sans compte, première commande le ${formatDateFr(customer.createdAt)} : coordonnées de sa dernière commande`}
          </DialogDescription>
        </DialogHeader>
        {editing ? (
          <CustomerEditForm customer={customer} onDone={() => setEditing(false)} />
        ) : (
          <CustomerFacts customer={customer} address={address} onEdit={() => setEditing(true)} />
        )}
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

/** What the shop knows of a customer, and « Modifier les coordonnées » for an account. */
function CustomerFacts({
  customer,
  address,
  onEdit,
}: {
  customer: CustomerDetails;
  address: string;
  onEdit: () => void;
}) {
  return (
    <div className="flex flex-col gap-3">
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
      {customer.account ? (
        <Button type="button" variant="outline" size="sm" className="w-fit" onClick={onEdit}>
          <PencilIcon aria-hidden="true" />
          Modifier les coordonnées
        </Button>
      ) : null}
    </div>
  );
}
