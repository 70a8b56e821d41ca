import { DownloadIcon, ReceiptTextIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table';
import type { AccountInvoiceRow } from '~/domain/account/account-rows';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';

/** The PDF of an invoice (served by the invoices module). */
export function invoicePdfHref(orderId: string): string {
  return `/facture/${orderId}/pdf`;
}

function documentName(row: AccountInvoiceRow): string {
  return row.kind === 'credit-note' ? `l’avoir ${row.number}` : `la facture ${row.number}`;
}

function Actions({ row }: { row: AccountInvoiceRow }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button asChild variant="outline" size="sm">
        <Link to={row.href} aria-label={`Voir ${documentName(row)}`}>
          Voir
        </Link>
      </Button>
      <Button asChild variant="outline" size="sm">
        <a href={row.pdfHref} download aria-label={`Télécharger ${documentName(row)} en PDF`}>
          <DownloadIcon aria-hidden="true" />
          PDF
        </a>
      </Button>
    </div>
  );
}

function Paid({ row }: { row: AccountInvoiceRow }) {
  if (row.kind === 'credit-note') return <Badge variant="info">Avoir</Badge>;
  return <Badge variant={row.isPaid ? 'success' : 'warning'}>{row.isPaid ? 'Payée' : 'En attente'}</Badge>;
}

/** « Facture FA-… » or « Avoir AV-… », with the invoice a credit note credits. */
function Title({ row }: { row: AccountInvoiceRow }) {
  if (row.kind === 'invoice') return <>{row.number}</>;
  return (
    <span className="flex flex-col">
      <span>{row.number}</span>
      {row.invoiceNumber ? (
        <span className="font-normal text-muted-foreground text-xs">sur la facture {row.invoiceNumber}</span>
      ) : null}
    </span>
  );
}

export function InvoicesList({ rows }: { rows: AccountInvoiceRow[] }) {
  if (rows.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-lg border border-border border-dashed px-6 py-12 text-center">
        <ReceiptTextIcon className="size-10 text-muted-foreground" aria-hidden="true" />
        <p className="font-medium">Aucune facture pour le moment.</p>
        <p className="max-w-sm text-muted-foreground text-sm">
          Vos factures apparaissent ici dès le paiement de vos commandes, avec vos avoirs en cas de remboursement.
        </p>
      </div>
    );
  }
  return (
    <>
      <div className="hidden md:block">
        <Table>
          <caption className="sr-only">Vos factures et avoirs, du plus récent au plus ancien</caption>
          <TableHeader>
            <TableRow>
              <TableHead>Document</TableHead>
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
                <TableCell className="whitespace-nowrap font-medium">
                  <Title row={row} />
                </TableCell>
                <TableCell className="whitespace-nowrap">{formatDateFr(row.issuedAt)}</TableCell>
                <TableCell className="whitespace-nowrap">{row.orderNumber}</TableCell>
                <TableCell className="whitespace-nowrap text-right">{formatEurosFromCents(row.amountCents)}</TableCell>
                <TableCell>
                  <Paid row={row} />
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
                <span className="font-semibold">
                  <Title row={row} />
                </span>
                <span className="text-muted-foreground text-sm">
                  {formatDateFr(row.issuedAt)} · commande {row.orderNumber}
                </span>
              </div>
              <Paid row={row} />
            </div>
            <p className="font-semibold">{formatEurosFromCents(row.amountCents)}</p>
            <Actions row={row} />
          </li>
        ))}
      </ul>
    </>
  );
}
