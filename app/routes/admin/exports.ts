import { data } from 'react-router';
import { exportFileName, parseExportRequest } from '~/domain/admin/exports';
import { requireStaff } from '~/server/admin/access.server';
import { exportStream } from '~/server/admin/exports.server';
import type { Route } from './+types/exports';

/*
 * GET /admin/exports/{commandes|factures}?format={csv|xlsx}&from=YYYY-MM-DD&to=YYYY-MM-DD: the
 * orders or invoices of the period as a downloaded file, streamed as it is read.
 */

export async function loader({ request, params }: Route.LoaderArgs) {
  const admin = await requireStaff(request, 'exports');
  const parsed = parseExportRequest(params.dataset, new URL(request.url).searchParams);
  if (!parsed.ok) return data({ error: parsed.error }, { status: 400 });
  const { body, contentType } = exportStream(parsed.request, admin.id);
  return new Response(body, {
    headers: {
      'Content-Type': contentType,
      'Content-Disposition': `attachment; filename="${exportFileName(parsed.request)}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
