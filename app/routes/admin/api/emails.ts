import { data } from 'react-router';
import { parsePage } from '~/domain/admin/list-params';
import { isOutboxStatus } from '~/domain/admin/views';
import { requireAdminUser } from '~/server/admin/access.server';
import { outboxStatus } from '~/server/admin/orders.server';
import { listOutbox, outboxCounts, resendEmail } from '~/server/admin/outbox.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/emails';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/*
 * The e-mail outbox. GET ?status=&page=: a page of messages of one status and the counts; GET ?id=:
 * the delivery state of one message (the status-change notices follow their e-mail with it).
 * POST intent=resend id=: resends a failed or sent message.
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminUser(request);
  const url = new URL(request.url);
  const id = url.searchParams.get('id');
  const headers = { 'Cache-Control': 'no-store' };
  if (id !== null) {
    if (!UUID.test(id)) return data({ error: 'Identifiant invalide' }, { status: 400, headers });
    const state = await outboxStatus(id);
    if (!state) return data({ error: 'Email introuvable' }, { status: 404, headers });
    return data({ id, ...state }, { headers });
  }
  const statusParam = url.searchParams.get('status');
  const status = isOutboxStatus(statusParam) ? statusParam : 'sent';
  const [page, counts] = await Promise.all([
    listOutbox(status, parsePage(url.searchParams.get('page'))),
    outboxCounts(),
  ]);
  return data({ status, page, counts }, { headers });
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdminUser(request);
  const form = await readFormData(request);
  const id = String(form.get('id') ?? '');
  if (form.get('intent') !== 'resend' || !UUID.test(id)) return data({ ok: false, reason: 'invalid' }, { status: 400 });
  const result = await resendEmail(id);
  return result;
}
