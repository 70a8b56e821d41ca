import { data } from 'react-router';
import { requireStaff } from '~/server/admin/access.server';
import { loadDocumentOrder, pdfResponse, renderJobSheetPdf } from '~/server/documents/order-documents.server';
import type { Route } from './+types/job-sheet-pdf';

/*
 * GET /admin/commandes/{orderId}/fiche-atelier.pdf: the job sheet that travels with the originals
 * through the workshop (order number and barcode, items and options, due date, remarks, return).
 * Staff only.
 */

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, 'workshop');
  const order = await loadDocumentOrder(params.orderId);
  if (!order) throw data('Commande introuvable', { status: 404 });
  return pdfResponse(await renderJobSheetPdf([order]), `fiche-atelier-${order.number}.pdf`);
}
