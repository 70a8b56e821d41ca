import { data } from 'react-router';
import { requireStaff } from '~/server/admin/access.server';
import { invalidateContentCache } from '~/server/content/source.server';
import { log } from '~/server/log.server';
import type { Route } from './+types/content-invalidate';

/**
 * POST /api/content/invalidate (staff holding `settings`): forgets the WordPress answers kept for 60 s, all
 * of them or those under `prefix` (e.g. "/posts"), so that a change made in the CMS shows at once.
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== 'POST') throw data({ error: 'Méthode non autorisée' }, { status: 405 });
  const user = await requireStaff(request, 'settings');
  const body = await request.formData().catch(() => null);
  const prefix = body?.get('prefix');
  const removed = await invalidateContentCache(
    typeof prefix === 'string' && prefix.startsWith('/') ? prefix : undefined,
  );
  log.info({ by: user.id, removed }, 'content cache invalidated');
  return data({ removed }, { headers: { 'Cache-Control': 'no-store' } });
}

export function loader() {
  throw data({ error: 'Méthode non autorisée' }, { status: 405 });
}
