import { data, redirect } from 'react-router';
import { cookieHeaders } from '~/server/account/auth-calls.server';
import { issuedDocumentDownload } from '~/server/invoices/factur-x-pdf.server';
import { getOrderDocuments } from '~/server/invoices/invoices.server';
import { accessFromLink, getOrderForViewer } from '~/server/orders/access.server';
import type { Route } from './+types/invoice-pdf';

/*
 * GET /facture/{orderId}/pdf: the invoice as a PDF download, drawn from the same frozen snapshot as
 * the /facture page, a Factur-X (docs/factur-x.md). `?avoir=AV-2026-000001` gives one of the order's credit notes instead
 * (its number, or its id), `?facture=FA-…` a reception supplement's invoice. For the
 * order's owner, the guest holding its access cookie and administrators; others get 404.
 */

export async function loader({ request, params }: Route.LoaderArgs) {
  // A guest's e-mailed link (?token=…): the order's cookie, then the same address without the token.
  const fromLink = await accessFromLink(request, params.orderId);
  if (fromLink) throw redirect(fromLink.cleanUrl, { headers: cookieHeaders(fromLink.setCookie || null) });
  const viewable = await getOrderForViewer(request, params.orderId);
  if (!viewable) throw data('Facture introuvable', { status: 404 });
  const documents = await getOrderDocuments(viewable.order.id);
  const search = new URL(request.url).searchParams;
  const creditNote = search.get('avoir');
  const supplement = search.get('facture');
  const document = creditNote
    ? documents.creditNotes.find((note) => note.number === creditNote || note.id === creditNote)
    : supplement
      ? documents.supplementInvoices.find((invoice) => invoice.number === supplement || invoice.id === supplement)
      : (documents.invoice ?? undefined);
  if (!document) throw data('Facture introuvable', { status: 404 });
  // The Factur-X (PDF/A-3 with its XML): the one file of the document, for people and machines.
  return issuedDocumentDownload(document.snapshot);
}
