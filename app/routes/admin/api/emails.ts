import { data } from 'react-router';
import { parsePage } from '~/domain/admin/list-params';
import { isOutboxStatus } from '~/domain/admin/views';
import { requireCapability, requireStaff } from '~/server/admin/access.server';
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
  const staff = await requireStaff(request, 'orders.read');
  const url = new URL(request.url);
  const id = url.searchParams.get('id');
  // One e-mail's delivery state follows a status change; the outbox itself is a setting.
  if (id === null) requireCapability(request, staff, 'settings');
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

// Re-sending a copy of a sent e-mail to its own recipient is the workshop's everyday work (from an
// order's history): orders.write, not the settings (sensitive e-mails are never re-sent).
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireStaff(request, 'orders.write');
  const form = await readFormData(request);
  const id = String(form.get('id') ?? '');
  if (form.get('intent') !== 'resend' || !UUID.test(id)) return data({ ok: false, reason: 'invalid' }, { status: 400 });
  const result = await resendEmail(id, admin.id);
  return result;
}
