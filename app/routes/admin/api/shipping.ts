import { data } from 'react-router';
import { labelFileName } from '~/domain/shipping/labels';
import { requireAdminUser } from '~/server/admin/access.server';
import { readFormData } from '~/server/form-data.server';
import { isOrderId } from '~/server/orders/access.server';
import { labelResponse, shipmentLabel } from '~/server/shipping/labels.server';
import { shipInputSchema, shipOrder, shippingFacts } from '~/server/shipping/shipping.server';
import type { Route } from './+types/shipping';

/*
 * The « Expédier » dialog of an order. GET ?orderId=: its parcels, the insured value and whether it
 * can be shipped now; GET ?orderId=&etiquette=envoi|retour: a label's PDF. POST: ships the order
 * with a Colissimo return label (mode=colissimo) or a typed tracking number (mode=other).
 */

const DIRECTIONS = { envoi: 'inbound', retour: 'outbound' } as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminUser(request);
  const params = new URL(request.url).searchParams;
  const orderId = params.get('orderId') ?? '';
  if (!isOrderId(orderId)) throw data('Commande introuvable', { status: 404 });
  const facts = await shippingFacts(orderId);
  if (!facts) throw data('Commande introuvable', { status: 404 });
  const which = params.get('etiquette');
  if (which !== null) {
    const direction = which === 'envoi' || which === 'retour' ? DIRECTIONS[which] : null;
    const label = direction ? await shipmentLabel(orderId, direction) : null;
    if (!label || !direction) throw data('Étiquette introuvable', { status: 404 });
    return labelResponse(label, labelFileName(facts.orderNumber, direction));
  }
  return data(facts, { headers: { 'Cache-Control': 'no-store' } });
}

// Refusals are 200 with `ok: false`: the dialog shows them (a 4xx is logged as an error by browsers).
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdminUser(request);
  const form = await readFormData(request);
  const orderId = String(form.get('orderId') ?? '');
  if (!isOrderId(orderId)) return { ok: false as const, message: 'Commande introuvable' };
  const mode = form.get('mode');
  if (mode !== 'colissimo' && mode !== 'other')
    return { ok: false as const, message: 'Choisissez le mode d’expédition' };
  const parsed = shipInputSchema.safeParse({ mode, parcelNumber: form.get('parcelNumber') ?? '' });
  if (!parsed.success) return { ok: false as const, message: parsed.error.issues[0]?.message ?? 'Saisie invalide' };
  return shipOrder(orderId, parsed.data, admin.id);
}
