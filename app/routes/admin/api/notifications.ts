import { data } from 'react-router';
import { requireStaff } from '~/server/admin/access.server';
import { getNotificationFeed, markNotificationsRead } from '~/server/admin/notifications.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/notifications';

/*
 * GET: the administrator's notification feed (latest, unread count). POST intent=read-all, or
 * intent=read with id=...: marks them read for this administrator only.
 */

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireStaff(request, 'dashboard');
  return data(await getNotificationFeed(admin.id), { headers: { 'Cache-Control': 'no-store' } });
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireStaff(request, 'dashboard');
  const form = await readFormData(request);
  const intent = form.get('intent');
  if (intent === 'read-all') return { marked: await markNotificationsRead(admin.id, 'all') };
  if (intent === 'read') {
    const ids = form
      .getAll('id')
      .map(Number)
      .filter((id) => Number.isSafeInteger(id) && id > 0)
      .slice(0, 500);
    return { marked: await markNotificationsRead(admin.id, ids) };
  }
  return data({ error: 'Action inconnue' }, { status: 400 });
}
