import { parseWithZod } from '@conform-to/zod/v4';
import { data } from 'react-router';
import { type BulkActionData, bulkOrdersSchema, previewHeadline, resultHeadline } from '~/domain/admin/bulk-orders';
import { requireStaff } from '~/server/admin/access.server';
import { applyBulkChange, previewBulkChange } from '~/server/admin/bulk-orders.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/orders-bulk';

/*
 * POST /admin/api/commandes/lot: the Commandes tab's bulk status or stage change. `intent=preview`
 * answers what would happen (the confirmation dialog), `intent=apply` does it, order by order,
 * through the order lifecycle. Staff only; at most 100 orders per post.
 */

/** Nothing to read here: a GET is refused, after the same access check as every admin resource. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'orders.read');
  throw data('Méthode non autorisée', { status: 405, headers: { Allow: 'POST' } });
}

// Answers a form can correct are 200 with `ok: false`: a 4xx is logged as an error by browsers.
export async function action({ request }: Route.ActionArgs): Promise<BulkActionData> {
  const staff = await requireStaff(request, 'orders.write');
  const submission = parseWithZod(await readFormData(request), { schema: bulkOrdersSchema });
  if (submission.status !== 'success') {
    const errors = Object.values(submission.error ?? {}).flat();
    return { ok: false, error: errors[0] ?? 'Requête invalide.' };
  }
  const change = submission.value;
  if (change.intent === 'preview') {
    const outcome = await previewBulkChange(change);
    return { ok: true, intent: 'preview', headline: previewHeadline(outcome, change), outcome };
  }
  const outcome = await applyBulkChange(change, staff.id);
  return { ok: true, intent: 'apply', headline: resultHeadline(outcome, change), outcome };
}
