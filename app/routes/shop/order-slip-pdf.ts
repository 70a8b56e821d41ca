import { data, redirect } from 'react-router';
import { cookieHeaders } from '~/server/account/auth-calls.server';
import { loadDocumentOrder, pdfResponse, renderOrderSlipPdf } from '~/server/documents/order-documents.server';
import { accessFromLink, getOrderForViewer } from '~/server/orders/access.server';
import type { Route } from './+types/order-slip-pdf';

/*
 * GET /commande/{orderId}/bordereau.pdf: the order slip the customer prints and puts in the parcel
 * (order number as text and Code 128 barcode, supports declared, the workshop's address). For the
 * order's owner, the guest holding its access cookie and administrators; others get 404.
 */

export async function loader({ request, params }: Route.LoaderArgs) {
  // A guest's e-mailed link (?token=…): the order's cookie, then the same address without the token.
  const fromLink = await accessFromLink(request, params.orderId);
  if (fromLink) throw redirect(fromLink.cleanUrl, { headers: cookieHeaders(fromLink.setCookie || null) });
  const viewable = await getOrderForViewer(request, params.orderId);
  if (!viewable) throw data('Commande introuvable', { status: 404 });
  const order = await loadDocumentOrder(viewable.order.id);
  if (!order) throw data('Commande introuvable', { status: 404 });
  return pdfResponse(await renderOrderSlipPdf(order), `bordereau-${order.number}.pdf`);
}
