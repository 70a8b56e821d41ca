import { data } from 'react-router';
import { requireStaff } from '~/server/admin/access.server';
import { transmissionFile } from '~/server/e-reporting/transmissions.server';
import type { Route } from './+types/e-reporting-file';

/*
 * GET /admin/e-reporting/{id}/fichier: a transmission's XML file as it was prepared (and sent), for
 * the operator to deposit on the plateforme agréée or to keep.
 */

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, 'accounting');
  const file = await transmissionFile(params.id);
  if (!file) throw data('Transmission introuvable.', { status: 404 });
  return new Response(file.content, {
    headers: {
      'Content-Type': 'application/xml; charset=utf-8',
      'Content-Disposition': `attachment; filename="${file.name}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
