import { data } from 'react-router';
import { BULK_MESSAGES, parseSelectedIds } from '~/domain/admin/bulk-orders';
import { requireStaff } from '~/server/admin/access.server';
import { loadDocumentOrder, pdfResponse, renderJobSheetPdf } from '~/server/documents/order-documents.server';
import type { Route } from './+types/job-sheets-pdf';

/*
 * GET /admin/commandes/fiches-atelier.pdf?ids=…&ids=…: the job sheets of the orders selected in the
 * Commandes tab, one page each, in one PDF to print at once. Staff only.
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'workshop');
  const selection = parseSelectedIds(new URL(request.url).searchParams.getAll('ids'));
  if (!selection.ok) throw data(selection.error, { status: 400 });
  const orders = [];
  for (const id of selection.ids) {
    const order = await loadDocumentOrder(id);
    if (!order) throw data(BULK_MESSAGES.unknownOrder, { status: 404 });
    orders.push(order);
  }
  return pdfResponse(await renderJobSheetPdf(orders), 'fiches-atelier.pdf');
}
