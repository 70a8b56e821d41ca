import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data } from 'react-router';
import { firstFormError } from '~/domain/form-errors';
import {
  countKeys,
  RECEPTION_MESSAGES,
  receptionFormSchema,
  recount,
  remarkGroups,
  SUPPLEMENT_REFUSAL_MESSAGE,
  supplementRefusalSchema,
} from '~/domain/orders/reception';
import { can } from '~/domain/staff/permissions';
import { requireStaff } from '~/server/admin/access.server';
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
const NOT_FOUND = 'Commande introuvable';

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, 'orders.read');
  if (!isOrderId(params.orderId)) throw data({ error: NOT_FOUND }, { status: 404 });
  const order = await loadReceptionOrder(params.orderId);
  if (!order) throw data({ error: NOT_FOUND }, { status: 404 });
  const reception = await loadReception(params.orderId);
  // The form's rows: every ordered line, then the reel sizes that may arrive undeclared.
  const keys = countKeys(order.lines);
  const all = recount(order.list, order.lines, Object.fromEntries(keys.map((key) => [key, 1])));
  const labels = new Map(all.lines.map((line) => [line.key, line.label]));
  // A closed order (cancelled, withdrawn, refunded in full) offers no form: the panel says why.
  const form =
    order.stage === 'awaiting_originals' && !reception && !order.closed
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
  return data({ form, reception, closed: order.closed }, { headers: noStore });
}

export type ReceptionActionData = { submission?: SubmissionResult<string[]> } & (
  | {
      intent: 'receive';
      ok: true;
      outcome: string;
      differenceCents: number;
      refundError: string | null;
      /** The reduction waits for someone with the refund right (« à rembourser »). */
      toApproveCents: number | null;
    }
  | { intent: 'decline'; ok: true }
  | { intent: 'receive' | 'decline'; ok: false; error: string; confirmRefundCents?: number }
);

// Answers a form can correct are 200 with `ok: false` (as the order dialog's other forms).
export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireStaff(request, 'reception');
  if (!isOrderId(params.orderId)) return data({ ok: false, error: NOT_FOUND }, { status: 404 });
  const form = await readFormData(request);
  if (form.get('intent') === 'decline') return declineAction(form, params.orderId, admin.id);
  return receiveAction(form, params.orderId, admin);
}

async function declineAction(form: FormData, orderId: string, actor: string): Promise<ReceptionActionData> {
  const intent = 'decline';
  const submission = parseWithZod(form, { schema: supplementRefusalSchema });
  if (submission.status !== 'success') {
    const error = firstFormError(submission.error, SUPPLEMENT_REFUSAL_MESSAGE);
    return { intent, ok: false, error, submission: submission.reply() };
  }
  const { adjustmentId, decision } = submission.value;
  const result = await declineSupplement({ id: adjustmentId, orderId }, decision, actor);
  if (!result.ok) {
    return { intent, ok: false, error: result.message, submission: submission.reply({ formErrors: [result.message] }) };
  }
  return { intent, ok: true, submission: submission.reply() };
}

async function receiveAction(form: FormData, orderId: string, admin: Awaited<ReturnType<typeof requireStaff>>) {
  const intent = 'receive';
  const order = await loadReceptionOrder(orderId);
  if (!order) return data({ intent, ok: false as const, error: NOT_FOUND }, { status: 404 });
  // The text fields through Conform (their messages under them); the photos stay a multipart part
  // that receiveParcel checks with the rest, in the same call that records the reception.
  const submission = parseWithZod(form, { schema: receptionFormSchema(order.lines, new Date()) });
  if (submission.status !== 'success') {
    const error = firstFormError(submission.error, RECEPTION_MESSAGES.count);
    return data({ intent, ok: false as const, error, submission: submission.reply() });
  }
  const photos: ReceptionPhotoUpload[] = [];
  for (const entry of form.getAll('photos')) {
    if (typeof entry === 'string' || entry.size === 0) continue;
    photos.push({ name: entry.name, type: entry.type, content: Buffer.from(await entry.arrayBuffer()) });
  }
  const fields = Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === 'string'));
  const confirmed = Number(form.get('confirmedRefundCents'));
  const result = await receiveParcel({
    orderId,
    staff: { id: admin.id, name: `${admin.firstName} ${admin.lastName}`.trim() || admin.email },
    canRefund: can(admin.role, 'refunds'),
    confirmedRefundCents: Number.isSafeInteger(confirmed) && confirmed > 0 ? confirmed : null,
    fields,
    photos,
  });
  if (!result.ok) {
    const refusal = submission.reply({ formErrors: [result.message] });
    const preview = result.confirmRefundCents ? { confirmRefundCents: result.confirmRefundCents } : {};
    const body = { intent, ok: false as const, error: result.message, submission: refusal, ...preview };
    return data(body, { status: result.status === 404 ? 404 : 200 });
  }
  const refund = result.refund;
  return data({
    intent,
    ok: true as const,
    outcome: result.outcome,
    differenceCents: result.recount.differenceCents,
    refundError: refund && !refund.ok && 'message' in refund ? refund.message : null,
    toApproveCents: refund && !refund.ok && 'toApprove' in refund ? refund.amountCents : null,
    submission: submission.reply(),
  });
}
