import { data, redirect } from 'react-router';
import { cookieHeaders } from '~/server/account/auth-calls.server';
import { renderGiftCardPdf } from '~/server/documents/gift-card-pdf';
import { pdfResponse } from '~/server/documents/order-documents.server';
import { accessFromLink, getOrderForViewer } from '~/server/orders/access.server';
import { printableGiftCard } from '~/server/vouchers/gift-card-views.server';
import type { Route } from './+types/gift-card-pdf';

/*
 * GET /carte-cadeau/{orderId}/carte.pdf: the printable gift card of a sale order (decision 037),
 * for the buyer who chose to print it and wants it again. For the order's owner, the guest holding
 * its access cookie and the staff who see orders, like the order's other documents; a 404 for
 * anyone else, before the card is issued (unpaid), for a card e-mailed to its recipient (its buyer
 * sees its code masked) and for a card cancelled by a withdrawal.
 */

const NOT_FOUND = 'Carte cadeau introuvable';

export async function loader({ request, params }: Route.LoaderArgs) {
  // A guest's e-mailed link (?token=…): the order's cookie, then the same address without the token.
  const fromLink = await accessFromLink(request, params.orderId);
  if (fromLink) throw redirect(fromLink.cleanUrl, { headers: cookieHeaders(fromLink.setCookie || null) });
  const viewable = await getOrderForViewer(request, params.orderId);
  if (!viewable) throw data(NOT_FOUND, { status: 404 });
  const card = await printableGiftCard(viewable.order.id);
  if (!card) throw data(NOT_FOUND, { status: 404 });
  return pdfResponse(await renderGiftCardPdf(card), `carte-cadeau-${viewable.order.number}.pdf`);
}
