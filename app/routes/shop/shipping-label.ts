import { redirect } from 'react-router';
import { safeRedirect } from '~/domain/redirect';
import { LABEL_FAILED_PARAM, labelFileName, prepaidLabelPath } from '~/domain/shipping/labels';
import { cookieHeaders } from '~/server/account/auth-calls.server';
import { readFormData } from '~/server/form-data.server';
import { accessFromLink, getOrderForViewer } from '~/server/orders/access.server';
import { ensureInboundLabel, labelResponse, shipmentLabel } from '~/server/shipping/labels.server';
import type { Route } from './+types/shipping-label';

/*
 * /commande/{orderId}/etiquette.pdf: the prepaid Colissimo label of the customer's originals.
 * GET serves the label already made (a GET never creates one); POST (« Générer mon étiquette »,
 * when Colissimo failed at payment time) makes it, then sends the browser to the GET, or back to
 * the page it came from with the failure to show. For the order's owner, the guest holding its
 * access cookie and administrators; anyone else gets 404, in words (never a JSON string).
 * A link followed before the label exists (the order is not paid yet, or Colissimo failed) leads to
 * the order's page, which says when the label comes or offers to make it.
 */

function notFound(): Response {
  return new Response('Étiquette introuvable.', {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-store' },
  });
}

export async function loader({ request, params }: Route.LoaderArgs) {
  // A guest's e-mailed link (?token=…): the order's cookie, then the same address without the token.
  const fromLink = await accessFromLink(request, params.orderId);
  if (fromLink) throw redirect(fromLink.cleanUrl, { headers: cookieHeaders(fromLink.setCookie || null) });
  const viewable = await getOrderForViewer(request, params.orderId);
  if (!viewable) throw notFound();
  const label = await shipmentLabel(viewable.order.id, 'inbound');
  if (!label) throw redirect(`/confirmation?orderId=${viewable.order.id}`);
  return labelResponse(label, labelFileName(viewable.order.number, 'inbound'));
}

export async function action({ request, params }: Route.ActionArgs) {
  const viewable = await getOrderForViewer(request, params.orderId);
  if (!viewable) throw notFound();
  const form = await readFormData(request);
  const back = safeRedirect(form.get('back'), `/confirmation?orderId=${viewable.order.id}`);
  const actor = viewable.viewer === 'guest' ? 'customer' : (viewable.user?.id ?? 'customer');
  const result = await ensureInboundLabel(viewable.order.id, actor);
  if (result.ok) throw redirect(prepaidLabelPath(viewable.order.id), 303);
  const url = new URL(back, 'http://soovenirs.invalid');
  url.searchParams.set(LABEL_FAILED_PARAM, '1');
  throw redirect(`${url.pathname}${url.search}`, 303);
}
