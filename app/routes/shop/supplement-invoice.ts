import { data } from 'react-router';
import { issuedDocumentDownload } from '~/server/invoices/factur-x-pdf.server';
import { getOrderDocuments } from '~/server/invoices/invoices.server';
import { getSupplementForViewer } from '~/server/orders/supplements.server';
import type { Route } from './+types/supplement-invoice';

/*
 * GET /supplement/{id}/facture: the invoice of a paid reception supplement, for whoever may see the
 * supplement (the e-mailed link's cookie, kept for /supplement only, the order's owner or guest,
 * administrators): the guest who just paid from the e-mail's link holds no access to the whole order.
 * The same Factur-X as /facture/{orderId}/pdf?facture=…; others get 404.
 */

export async function loader({ request, params }: Route.LoaderArgs) {
  const supplement = await getSupplementForViewer(request, params.id);
  const number = supplement?.invoiceNumber;
  const invoice =
    supplement && number
      ? (await getOrderDocuments(supplement.orderId)).supplementInvoices.find(
          (candidate) => candidate.number === number,
        )
      : undefined;
  if (!invoice) throw data('Facture introuvable', { status: 404 });
  return issuedDocumentDownload(invoice.snapshot);
}
