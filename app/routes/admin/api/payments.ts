import { parseWithZod } from '@conform-to/zod/v4';
import { data } from 'react-router';
import { parsePage, parseSearch } from '~/domain/admin/list-params';
import { paymentDecisionSchema } from '~/domain/admin/payment-decision';
import { requireStaff } from '~/server/admin/access.server';
import { decidePayments, listPendingPayments } from '~/server/admin/payments.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/payments';

/*
 * The Validation Paiements dialog. GET ?q=&page=: payments in "En attente". POST decision=validate
 * or reject (with its `reason`, required), id=... (one or the selection): each payment is handled in
 * its own transaction.
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'payments.validate');
  const url = new URL(request.url);
  const page = await listPendingPayments({
    q: parseSearch(url.searchParams.get('q')),
    page: parsePage(url.searchParams.get('page')),
  });
  return data({ page }, { headers: { 'Cache-Control': 'no-store' } });
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireStaff(request, 'payments.validate');
  const submission = parseWithZod(await readFormData(request), { schema: paymentDecisionSchema });
  // A rejection without its reason is a form to correct: 200, its message under the field.
  if (submission.status !== 'success') {
    const reasonError = submission.error?.reason?.[0];
    return data(
      { error: reasonError ?? 'Demande invalide', submission: submission.reply() },
      { status: reasonError ? 200 : 400 },
    );
  }
  const { decision, id: ids } = submission.value;
  const reason = 'reason' in submission.value ? submission.value.reason : undefined;
  const results = await decidePayments(ids, decision, admin, reason);
  return { decision, results, submission: submission.reply({ resetForm: true }) };
}
