import { FileTextIcon, ImagesIcon, PackageOpenIcon, Undo2Icon } from 'lucide-react';
import { Link } from 'react-router';
import { galleryPath } from '~/components/files/file-paths';
import { Button } from '~/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table';
import { toast } from '~/components/ui/toaster';
import type { AccountOrderRow } from '~/domain/account/account-rows';
import { itemsSummary } from '~/domain/account/order-details';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';
import { OrderStatusBadge } from './status-badges';
import type { WithdrawalView } from './withdrawal-view';

/** An account's order row (domain/account/account-rows.ts) with what the page made of it. */
export type OrderListRow = Pick<
  AccountOrderRow,
  'id' | 'number' | 'createdAt' | 'status' | 'totalPriceCents' | 'items' | 'invoiceNumber'
> &
  Partial<Pick<AccountOrderRow, 'filesOnline'>> & {
    /** « Numérisation », « Prêt »…: where the originals are, while the workshop has them. */
    stageLabel?: string | null;
    withdrawal: WithdrawalView;
  };

function StageLine({ label }: { label?: string | null }) {
  return label ? <span className="mt-1 block text-muted-foreground text-xs">Étape&nbsp;: {label}</span> : null;
}

export const WITHDRAW_LINK_LABEL = 'Renoncer au contrat ici';

function announceInvoice(row: OrderListRow) {
  toast.info('Ouverture de la facture', {
    description: `Facture ${row.invoiceNumber} — commande ${row.number}`,
  });
}

function Actions({ row }: { row: OrderListRow }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button asChild variant="outline" size="sm">
        <Link to={`/confirmation?orderId=${row.id}`} aria-label={`Détails de la commande ${row.number}`}>
          Détails
        </Link>
      </Button>
      {row.filesOnline ? (
        <Button asChild variant="outline" size="sm">
          <Link to={galleryPath(row.id)} aria-label={`Fichiers de la commande ${row.number}`}>
            <ImagesIcon aria-hidden="true" />
            Fichiers
          </Link>
        </Button>
      ) : null}
      {row.invoiceNumber ? (
        <Button asChild variant="outline" size="sm">
          <Link
            to={`/facture/${row.id}`}
            onClick={() => announceInvoice(row)}
            aria-label={`Facture de la commande ${row.number}`}
          >
            <FileTextIcon aria-hidden="true" />
            Facture
          </Link>
        </Button>
      ) : null}
      {row.withdrawal.kind === 'open' ? (
        <Button asChild variant="ghost" size="sm" className="text-sepia">
          <Link to={`/retractation/${row.id}`} aria-label={`${WITHDRAW_LINK_LABEL} : commande ${row.number}`}>
            <Undo2Icon aria-hidden="true" />
            {WITHDRAW_LINK_LABEL}
          </Link>
        </Button>
      ) : null}
      {row.withdrawal.kind === 'withdrawn' ? (
        <span className="text-muted-foreground text-xs">Rétractation enregistrée</span>
      ) : null}
    </div>
  );
}

/** The customer's orders: a table on wide screens, cards on phones. */
export function OrdersList({ rows }: { rows: OrderListRow[] }) {
  if (rows.length === 0) {
    return (
      <div className="flex flex-col items-center gap-4 rounded-lg border border-border border-dashed px-6 py-12 text-center">
        <PackageOpenIcon className="size-10 text-muted-foreground" aria-hidden="true" />
        <p className="font-medium">Vous n’avez pas encore de commande.</p>
        <p className="max-w-sm text-muted-foreground text-sm">
          Estimez la numérisation de vos photos, films ou cassettes en quelques clics.
        </p>
        <Button asChild variant="accent">
          <Link to="/configurateur">Estimer ma commande</Link>
        </Button>
      </div>
    );
  }
  return (
    <>
      <div className="hidden md:block">
        <Table>
          <caption className="sr-only">Vos commandes, de la plus récente à la plus ancienne</caption>
          <TableHeader>
            <TableRow>
              <TableHead>Commande</TableHead>
              <TableHead>Date</TableHead>
              <TableHead>Articles</TableHead>
              <TableHead>Statut</TableHead>
              <TableHead className="text-right">Montant</TableHead>
              <TableHead>Actions</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.id}>
                <TableCell className="whitespace-nowrap font-medium">{row.number}</TableCell>
                <TableCell className="whitespace-nowrap">{formatDateFr(row.createdAt)}</TableCell>
                <TableCell className="max-w-64">{itemsSummary(row.items)}</TableCell>
                <TableCell>
                  <OrderStatusBadge status={row.status} />
                  <StageLine label={row.stageLabel} />
                </TableCell>
                <TableCell className="whitespace-nowrap text-right">
                  {formatEurosFromCents(row.totalPriceCents)}
                </TableCell>
                <TableCell>
                  <Actions row={row} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <ul className="flex flex-col gap-3 md:hidden">
        {rows.map((row) => (
          <li key={row.id} className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4">
            <div className="flex items-start justify-between gap-3">
              <div className="flex flex-col">
                <span className="font-semibold">{row.number}</span>
                <span className="text-muted-foreground text-sm">{formatDateFr(row.createdAt)}</span>
              </div>
              <div className="flex flex-col items-end">
                <OrderStatusBadge status={row.status} />
                <StageLine label={row.stageLabel} />
              </div>
            </div>
            <p className="text-sm">{itemsSummary(row.items)}</p>
            <p className="font-semibold">{formatEurosFromCents(row.totalPriceCents)}</p>
            <Actions row={row} />
          </li>
        ))}
      </ul>
    </>
  );
}
