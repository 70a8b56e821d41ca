import { data } from 'react-router';
import { countKeys, recount, remarkGroups } from '~/domain/orders/reception';
import { requireAdminUser } from '~/server/admin/access.server';
import { readFormData } from '~/server/form-data.server';
import { isOrderId } from '~/server/orders/access.server';
import {
  loadReception,
  loadReceptionOrder,
  type ReceptionPhotoUpload,
  receiveParcel,
} from '~/server/orders/reception.server';
import { declineSupplement } from '~/server/orders/supplements.server';
import type { Route } from './+types/reception';

/*
 * The « Colis reçu » panel of the order dialog. GET: the form's lines (prefilled with what was
 * ordered) or the reception already recorded with its photos and adjustments. POST (multipart,
 * its own body limit in server/body-limits.ts): intent=receive records the reception; intent=decline
 * records the customer's refusal of the open supplement with their choice.
 */

const noStore = { 'Cache-Control': 'no-store' };

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdminUser(request);
  if (!isOrderId(params.orderId)) throw data({ error: 'Commande introuvable' }, { status: 404 });
  const order = await loadReceptionOrder(params.orderId);
  if (!order) throw data({ error: 'Commande introuvable' }, { status: 404 });
  const reception = await loadReception(params.orderId);
  // The form's rows: every ordered line, then the reel sizes that may arrive undeclared.
  const keys = countKeys(order.lines);
  const all = recount(order.list, order.lines, Object.fromEntries(keys.map((key) => [key, 1])));
  const labels = new Map(all.lines.map((line) => [line.key, line.label]));
  const form =
    order.stage === 'awaiting_originals' && !reception
      ? {
          lines: keys.map((key) => ({
            key,
            label: labels.get(key) ?? key,
            ordered: order.lines.find((line) => `line-${line.position}` === key)?.quantity ?? 0,
          })),
          groups: remarkGroups(order.lines).map((group) => ({
            group,
            label: order.list.supports[group]?.title ?? group,
          })),
        }
      : null;
  return data({ form, reception }, { headers: noStore });
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdminUser(request);
  if (!isOrderId(params.orderId)) return data({ ok: false, error: 'Commande introuvable' }, { status: 404 });
  const form = await readFormData(request);
  if (form.get('intent') === 'decline') {
    const decision = form.get('decision') === 'return_extra' ? 'return_extra' : 'digitise_paid';
    const result = await declineSupplement(
      { id: String(form.get('adjustmentId') ?? ''), orderId: params.orderId },
      decision,
      admin.id,
    );
    return result.ok ? { ok: true as const } : { ok: false as const, error: result.message };
  }
  const photos: ReceptionPhotoUpload[] = [];
  for (const entry of form.getAll('photos')) {
    if (typeof entry === 'string' || entry.size === 0) continue;
    photos.push({ name: entry.name, type: entry.type, content: Buffer.from(await entry.arrayBuffer()) });
  }
  const fields = Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === 'string'));
  const result = await receiveParcel({
    orderId: params.orderId,
    staff: { id: admin.id, name: `${admin.firstName} ${admin.lastName}`.trim() || admin.email },
    fields,
    photos,
  });
  // Answers a form can correct are 200 with `ok: false` (as the order dialog's other forms).
  if (!result.ok)
    return data({ ok: false as const, error: result.message }, { status: result.status === 404 ? 404 : 200 });
  return {
    ok: true as const,
    outcome: result.outcome,
    differenceCents: result.recount.differenceCents,
    refundError: result.refund && !result.refund.ok ? result.refund.message : null,
  };
}
