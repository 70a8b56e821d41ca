import { data } from 'react-router';
import { loadDocumentOrder, pdfResponse, renderOrderSlipPdf } from '~/server/documents/order-documents.server';
import { getOrderForViewer } from '~/server/orders/access.server';
import type { Route } from './+types/order-slip-pdf';

/*
 * GET /commande/{orderId}/bordereau.pdf: the order slip the customer prints and puts in the parcel
 * (order number as text and Code 128 barcode, supports declared, the workshop's address). For the
 * order's owner, the guest holding its access cookie and administrators; others get 404.
 */

export async function loader({ request, params }: Route.LoaderArgs) {
  const viewable = await getOrderForViewer(request, params.orderId);
  if (!viewable) throw data('Commande introuvable', { status: 404 });
  const order = await loadDocumentOrder(viewable.order.id);
  if (!order) throw data('Commande introuvable', { status: 404 });
  return pdfResponse(await renderOrderSlipPdf(order), `bordereau-${order.number}.pdf`);
}
