import { data } from 'react-router';
import { requireStaff } from '~/server/admin/access.server';
import { readFormData } from '~/server/form-data.server';
import { getPublicTrackingSettings, saveTrackingKey } from '~/server/shipping/tracking-settings.server';
import type { Route } from './+types/tracking-key';

/*
 * The key of La Poste's tracking service, in the Configuration Coliship dialog. GET: whether one is
 * saved (never the key). POST: saves it encrypted (an empty field keeps it; `remove` deletes it).
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'settings');
  return data(await getPublicTrackingSettings(), { headers: { 'Cache-Control': 'no-store' } });
}

// A refusal the form can correct is 200 with `ok: false`, as the other settings forms answer.
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireStaff(request, 'settings');
  const form = await readFormData(request);
  return saveTrackingKey({ apiKey: form.get('apiKey') ?? '', remove: form.get('remove') ?? undefined }, admin.id);
}
