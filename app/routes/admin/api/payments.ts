import { data } from 'react-router';
import { parsePage, parseSearch } from '~/domain/admin/list-params';
import { requireAdminUser } from '~/server/admin/access.server';
import { decidePayments, listPendingPayments } from '~/server/admin/payments.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/payments';

/** `p:<payment id>` (a gateway attempt) or `o:<order id>` (a transfer or cheque awaited). */
const KEY = /^[po]:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A selection is a page of the list at most. */
const MAX_SELECTION = 100;

/*
 * The Validation Paiements dialog. GET ?q=&page=: payments in "En attente". POST decision=validate
 * or reject, id=... (one or the selection): each payment is handled in its own transaction.
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminUser(request);
  const url = new URL(request.url);
  const page = await listPendingPayments({
    q: parseSearch(url.searchParams.get('q')),
    page: parsePage(url.searchParams.get('page')),
  });
  return data({ page }, { headers: { 'Cache-Control': 'no-store' } });
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdminUser(request);
  const form = await readFormData(request);
  const decision = form.get('decision');
  const ids = form
    .getAll('id')
    .map(String)
    .filter((id) => KEY.test(id));
  if ((decision !== 'validate' && decision !== 'reject') || ids.length === 0 || ids.length > MAX_SELECTION) {
    return data({ error: 'Demande invalide' }, { status: 400 });
  }
  const results = await decidePayments(ids, decision, admin);
  return { decision, results };
}
