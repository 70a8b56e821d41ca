import { data, redirect } from 'react-router';
import { parsePage } from '~/domain/admin/list-params';
import { isOutboxStatus } from '~/domain/admin/views';
import { requireStaff } from '~/server/admin/access.server';
import { listOutbox, outboxCounts, resendEmail } from '~/server/admin/outbox.server';
import { releaseMail } from '~/server/email/mail-hold.server';
import { emailWorkerStatus } from '~/server/email/worker.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/emails';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/*
 * The e-mail outbox (a setting). GET ?status=&page=: a page of messages of one status, the counts,
 * and whether this server's worker sends them (one message's state: routes/admin/api/email-state.ts). POST intent=resend id=: resends a
 * failed or sent message. POST intent=release choice=send|discard-copied: lifts the hold on a
 * restored copy's outgoing e-mail (the layout's banner; a plain form, answered by a redirect back).
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'settings');
  const url = new URL(request.url);
  const headers = { 'Cache-Control': 'no-store' };
  const statusParam = url.searchParams.get('status');
  const status = isOutboxStatus(statusParam) ? statusParam : 'sent';
  const [page, counts] = await Promise.all([
    listOutbox(status, parsePage(url.searchParams.get('page'))),
    outboxCounts(),
  ]);
  return data({ status, page, counts, worker: emailWorkerStatus() }, { headers });
}

// Re-sending a copy of a sent e-mail to its own recipient is the workshop's everyday work (from an
// order's history): orders.write, not the settings (sensitive e-mails are never re-sent).
export async function action({ request }: Route.ActionArgs) {
  const form = await readFormData(request);
  if (form.get('intent') === 'release') {
    const staff = await requireStaff(request, 'settings');
    const choice = form.get('choice') === 'discard-copied' ? 'discard-copied' : 'send';
    await releaseMail(choice, staff.id);
    return redirect('/admin');
  }
  const admin = await requireStaff(request, 'orders.write');
  const id = String(form.get('id') ?? '');
  if (form.get('intent') !== 'resend' || !UUID.test(id)) return data({ ok: false, reason: 'invalid' }, { status: 400 });
  const result = await resendEmail(id, admin.id);
  return result;
}
