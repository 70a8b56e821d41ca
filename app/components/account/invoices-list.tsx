import { DownloadIcon, ReceiptTextIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';

export interface InvoiceListRow {
  id: string;
  number: string;
  issuedAt: Date;
  orderId: string;
  orderNumber: string;
  amountCents: number;
  isPaid: boolean;
}

/** The PDF of an invoice (served by the invoices module, issue 7). */
export function invoicePdfHref(orderId: string): string {
  return `/facture/${orderId}/pdf`;
}

function Actions({ row }: { row: InvoiceListRow }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button asChild variant="outline" size="sm">
        <Link to={`/facture/${row.orderId}`} aria-label={`Voir la facture ${row.number}`}>
          Voir
        </Link>
      </Button>
      <Button asChild variant="outline" size="sm">
        <a href={invoicePdfHref(row.orderId)} download aria-label={`Télécharger la facture ${row.number} en PDF`}>
          <DownloadIcon aria-hidden="true" />
          PDF
        </a>
      </Button>
    </div>
  );
}

function Paid({ paid }: { paid: boolean }) {
  return <Badge variant={paid ? 'success' : 'warning'}>{paid ? 'Payée' : 'En attente'}</Badge>;
}

export function InvoicesList({ rows }: { rows: InvoiceListRow[] }) {
  if (rows.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-lg border border-border border-dashed px-6 py-12 text-center">
        <ReceiptTextIcon className="size-10 text-muted-foreground" aria-hidden="true" />
        <p className="font-medium">Aucune facture pour le moment.</p>
        <p className="max-w-sm text-muted-foreground text-sm">
          Vos factures apparaissent ici dès le paiement de vos commandes.
        </p>
      </div>
    );
  }
  return (
    <>
      <div className="hidden md:block">
        <Table>
          <caption className="sr-only">Vos factures, de la plus récente à la plus ancienne</caption>
          <TableHeader>
            <TableRow>
              <TableHead>Facture</TableHead>
              <TableHead>Date</TableHead>
              <TableHead>Commande</TableHead>
              <TableHead className="text-right">Montant</TableHead>
              <TableHead>État</TableHead>
              <TableHead>Téléchargement</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.id}>
                <TableCell className="whitespace-nowrap font-medium">{row.number}</TableCell>
                <TableCell className="whitespace-nowrap">{formatDateFr(row.issuedAt)}</TableCell>
                <TableCell className="whitespace-nowrap">{row.orderNumber}</TableCell>
                <TableCell className="whitespace-nowrap text-right">{formatEurosFromCents(row.amountCents)}</TableCell>
                <TableCell>
                  <Paid paid={row.isPaid} />
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
          <li key={row.id} className="flex flex-col gap-2 rounded-lg border border-border bg-card p-4">
            <div className="flex items-start justify-between gap-3">
              <div className="flex flex-col">
                <span className="font-semibold">{row.number}</span>
                <span className="text-muted-foreground text-sm">
                  {formatDateFr(row.issuedAt)} · commande {row.orderNumber}
                </span>
              </div>
              <Paid paid={row.isPaid} />
            </div>
            <p className="font-semibold">{formatEurosFromCents(row.amountCents)}</p>
            <Actions row={row} />
          </li>
        ))}
      </ul>
    </>
  );
}
