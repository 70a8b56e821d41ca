import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data } from 'react-router';
import { firstFormError } from '~/domain/form-errors';
import { labelFileName } from '~/domain/shipping/labels';
import { parcelCorrectionSchema, SHIP_MODE_REQUIRED, shipInputSchema } from '~/domain/shipping/ship-form';
import { requireStaff } from '~/server/admin/access.server';
import { readFormData } from '~/server/form-data.server';
import { isOrderId } from '~/server/orders/access.server';
import { labelResponse, shipmentLabel } from '~/server/shipping/labels.server';
import { correctParcelNumber, shipOrder, shippingFacts } from '~/server/shipping/shipping.server';
import type { Route } from './+types/shipping';

/*
 * The « Expédier » dialog of an order. GET ?orderId=: its parcels, the insured value and whether it
 * can be shipped now; GET ?orderId=&etiquette=envoi|retour: a label's PDF. POST: ships the order
 * with a Colissimo return label (mode=colissimo) or a typed tracking number checked for its carrier
 * (mode=laposte|other); intent=correct replaces a typed number after shipping.
 */

const DIRECTIONS = { envoi: 'inbound', retour: 'outbound' } as const;
const NOT_FOUND = 'Commande introuvable';

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'orders.read');
  const params = new URL(request.url).searchParams;
  const orderId = params.get('orderId') ?? '';
  if (!isOrderId(orderId)) throw data(NOT_FOUND, { status: 404 });
  const facts = await shippingFacts(orderId);
  if (!facts) throw data(NOT_FOUND, { status: 404 });
  const which = params.get('etiquette');
  if (which !== null) {
    const direction = which === 'envoi' || which === 'retour' ? DIRECTIONS[which] : null;
    const label = direction ? await shipmentLabel(orderId, direction) : null;
    if (!label || !direction) throw data('Étiquette introuvable', { status: 404 });
    return labelResponse(label, labelFileName(facts.orderNumber, direction));
  }
  return data(facts, { headers: { 'Cache-Control': 'no-store' } });
}

export type ShipAnswer = { submission: SubmissionResult<string[]>; intent?: 'ship' | 'correct' } & (
  | { ok: true; parcelNumber: string; orderNumber: string }
  | { ok: false; message: string }
);

// Refusals are 200 with `ok: false`: the dialog shows them (a 4xx is logged as an error by browsers).
export async function action({ request }: Route.ActionArgs): Promise<ShipAnswer> {
  const admin = await requireStaff(request, 'shipping');
  const form = await readFormData(request);
  if (form.get('intent') === 'correct') return correct(form, admin.id);
  const submission = parseWithZod(form, { schema: shipInputSchema });
  const orderId = String(form.get('orderId') ?? '');
  if (!isOrderId(orderId)) {
    return { ok: false, message: NOT_FOUND, submission: submission.reply({ formErrors: [NOT_FOUND] }) };
  }
  if (submission.status !== 'success') {
    return { ok: false, message: firstFormError(submission.error, SHIP_MODE_REQUIRED), submission: submission.reply() };
  }
  const result = await shipOrder(orderId, submission.value, admin.id);
  if (!result.ok) return { ...result, submission: submission.reply({ formErrors: [result.message] }) };
  return { ...result, submission: submission.reply() };
}

/** « Corriger le numéro de suivi » of a parcel already shipped with a typed number. */
async function correct(form: FormData, actor: string): Promise<ShipAnswer> {
  const intent = 'correct';
  const submission = parseWithZod(form, { schema: parcelCorrectionSchema });
  const orderId = String(form.get('orderId') ?? '');
  if (!isOrderId(orderId)) {
    return { intent, ok: false, message: NOT_FOUND, submission: submission.reply({ formErrors: [NOT_FOUND] }) };
  }
  if (submission.status !== 'success') {
    const message = firstFormError(submission.error, SHIP_MODE_REQUIRED);
    return { intent, ok: false, message, submission: submission.reply() };
  }
  const result = await correctParcelNumber(orderId, submission.value, actor);
  if (!result.ok) return { intent, ...result, submission: submission.reply({ formErrors: [result.message] }) };
  return { intent, ...result, submission: submission.reply() };
}
