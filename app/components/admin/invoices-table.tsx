import { ExternalLinkIcon, FileDownIcon } from 'lucide-react';
import { ToneBadge } from '~/components/account/status-badges';
import { Button } from '~/components/ui/button';
import { Pagination } from '~/components/ui/pagination';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table';
import { countLabel, type ListPage } from '~/domain/admin/paging';
import {
  type CreditNoteListRow,
  DEMO_DOCUMENT_LABEL,
  INVOICE_STATE_LABELS,
  type InvoiceListRow,
} from '~/domain/admin/views';
import { formatDateFr, formatEurosFromCents } from '~/domain/format';
import { creditNoteHref, creditNotePdfHref } from '~/domain/invoices/links';
import { usePageHref } from './use-page-href';

const STATE_TONES = { paid: 'success', unpaid: 'warning', partially_credited: 'info', credited: 'neutral' } as const;

/** Marks a demonstration document (TEST-…): it has no accounting value. */
function DemoBadge({ demo }: { demo: boolean }) {
  return demo ? <ToneBadge tone="warning">{DEMO_DOCUMENT_LABEL}</ToneBadge> : null;
}

/** Invoices: number, order number, customer, date, amount, status, Voir (/facture/{orderId}) and PDF. */
export function InvoicesTable({ page, q }: { page: ListPage<InvoiceListRow>; q: string }) {
  const pageHref = usePageHref();
  return (
    <section aria-labelledby="liste-factures" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="liste-factures" className="font-heading font-semibold text-xl">
          Factures
        </h2>
        <p className="text-muted-foreground text-sm" aria-live="polite">
          {countLabel(page, { one: 'facture', many: 'factures', none: 'Aucune facture' })}
          {q ? ` pour « ${q} »` : ''}
        </p>
      </div>
      <div className="rounded-lg border border-border bg-card">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>N° facture</TableHead>
              <TableHead>N° commande</TableHead>
              <TableHead>Client</TableHead>
              <TableHead>Date</TableHead>
              <TableHead className="text-right">Montant</TableHead>
              <TableHead>Statut</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {page.rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={7} className="py-8 text-center text-muted-foreground">
                  Aucune facture ne correspond.
                </TableCell>
              </TableRow>
            ) : (
              page.rows.map((invoice) => (
                <TableRow key={invoice.id}>
                  <TableCell className="whitespace-nowrap font-medium">
                    <div className="flex flex-col items-start gap-1">
                      {invoice.number}
                      <DemoBadge demo={invoice.isDemo} />
                    </div>
                  </TableCell>
                  <TableCell className="whitespace-nowrap">{invoice.orderNumber}</TableCell>
                  <TableCell>{invoice.customer || '—'}</TableCell>
                  <TableCell className="whitespace-nowrap">{formatDateFr(invoice.issuedAt)}</TableCell>
                  <TableCell className="whitespace-nowrap text-right tabular-nums">
                    {formatEurosFromCents(invoice.amountCents)}
                  </TableCell>
                  <TableCell>
                    <ToneBadge tone={STATE_TONES[invoice.state]}>{INVOICE_STATE_LABELS[invoice.state]}</ToneBadge>
                  </TableCell>
                  <TableCell>
                    <div className="flex justify-end gap-1">
                      <Button asChild size="sm" variant="outline">
                        <a href={`/facture/${invoice.orderId}`}>
                          <ExternalLinkIcon aria-hidden="true" />
                          <span>
                            Voir<span className="sr-only"> la facture {invoice.number}</span>
                          </span>
                        </a>
                      </Button>
                      <Button asChild size="sm" variant="outline">
                        <a href={`/facture/${invoice.orderId}/pdf`} download>
                          <FileDownIcon aria-hidden="true" />
                          <span>
                            PDF<span className="sr-only"> de la facture {invoice.number}</span>
                          </span>
                        </a>
                      </Button>
                    </div>
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </div>
      <Pagination page={page.page} pageCount={page.pageCount} hrefFor={pageHref} label="Pages des factures" />
    </section>
  );
}

export function CreditNotesTable({ page }: { page: ListPage<CreditNoteListRow> }) {
  const pageHref = usePageHref('apage');
  return (
    <section aria-labelledby="liste-avoirs" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="liste-avoirs" className="font-heading font-semibold text-xl">
          Avoirs
        </h2>
        <p className="text-muted-foreground text-sm">
          {countLabel(page, { one: 'avoir', many: 'avoirs', none: 'Aucun avoir' })}
        </p>
      </div>
      {page.rows.length > 0 ? (
        <div className="rounded-lg border border-border bg-card">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>N° avoir</TableHead>
                <TableHead>Facture</TableHead>
                <TableHead>N° commande</TableHead>
                <TableHead>Client</TableHead>
                <TableHead>Date</TableHead>
                <TableHead className="text-right">Montant</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {page.rows.map((note) => (
                <TableRow key={note.id}>
                  <TableCell className="whitespace-nowrap font-medium">
                    <div className="flex flex-col items-start gap-1">
                      {note.number}
                      <DemoBadge demo={note.isDemo} />
                    </div>
                  </TableCell>
                  <TableCell className="whitespace-nowrap">{note.invoiceNumber}</TableCell>
                  <TableCell className="whitespace-nowrap">{note.orderNumber}</TableCell>
                  <TableCell>{note.customer || '—'}</TableCell>
                  <TableCell className="whitespace-nowrap">{formatDateFr(note.issuedAt)}</TableCell>
                  <TableCell className="whitespace-nowrap text-right tabular-nums">
                    −{formatEurosFromCents(note.amountCents)}
                  </TableCell>
                  <TableCell>
                    <div className="flex justify-end gap-1">
                      <Button asChild size="sm" variant="outline">
                        <a href={creditNoteHref(note.orderId, note.number)}>
                          <ExternalLinkIcon aria-hidden="true" />
                          <span>
                            Voir<span className="sr-only"> l’avoir {note.number}</span>
                          </span>
                        </a>
                      </Button>
                      <Button asChild size="sm" variant="outline">
                        <a href={creditNotePdfHref(note.orderId, note.number)} download>
                          <FileDownIcon aria-hidden="true" />
                          <span>
                            PDF<span className="sr-only"> de l’avoir {note.number}</span>
                          </span>
                        </a>
                      </Button>
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      ) : null}
      <Pagination page={page.page} pageCount={page.pageCount} hrefFor={pageHref} label="Pages des avoirs" />
    </section>
  );
}
