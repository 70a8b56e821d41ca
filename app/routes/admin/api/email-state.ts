import { data } from 'react-router';
import { requireStaff } from '~/server/admin/access.server';
import { outboxStatus } from '~/server/admin/orders.server';
import type { Route } from './+types/email-state';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/*
 * The delivery state of one e-mail: the order dialog's status-change notices follow their e-mail
 * with it. Whoever reads orders may follow it; the outbox itself (routes/admin/api/emails.ts) is a
 * setting. Its own route so that the door decides it from its line, not from a query parameter.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, 'orders.read');
  const headers = { 'Cache-Control': 'no-store' };
  if (!UUID.test(params.id)) return data({ error: 'Identifiant invalide' }, { status: 400, headers });
  const state = await outboxStatus(params.id);
  if (!state) return data({ error: 'Email introuvable' }, { status: 404, headers });
  return data({ id: params.id, ...state }, { headers });
}
