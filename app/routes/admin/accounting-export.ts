import { redirect } from 'react-router';
import { parseAccountingExportRequest } from '~/domain/accounting/export-request';
import { exportErrorCookie } from '~/server/account/cookies.server';
import { readAccountingSettings } from '~/server/accounting/accounting-settings.server';
import { chorusExport } from '~/server/accounting/chorus.server';
import { accountingExport } from '~/server/accounting/journal.server';
import { requireStaff } from '~/server/admin/access.server';
import type { Route } from './+types/accounting-export';

/*
 * GET /admin/export-comptable?fichier={fec|ecritures|chorus}&periode={mois|annee|dates}&mois=…:
 * the FEC or the journal in entries of the period, streamed as it is read, or the Chorus Pro ZIP.
 * A wrong request or a refused export goes back to « Exports comptables » with its French message
 * (the form works without JavaScript).
 */

const PAGE = '/admin/exports-comptables';

/** Back to the form, its French message carried by a cookie the page reads once. */
function refused(message: string): Response {
  return redirect(PAGE, { headers: { 'Set-Cookie': exportErrorCookie(message) } });
}

export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request, 'exports');
  const parsed = parseAccountingExportRequest(new URL(request.url).searchParams);
  if (!parsed.ok) throw refused(parsed.error);
  const headers = { 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' };
  if (parsed.file === 'chorus') {
    const zip = await chorusExport(parsed.period, staff.id);
    if (!zip.ok) throw refused(zip.error);
    return new Response(new Uint8Array(zip.bytes), {
      headers: {
        ...headers,
        'Content-Type': 'application/zip',
        'Content-Length': String(zip.bytes.length),
        'Content-Disposition': `attachment; filename="${zip.fileName}"`,
      },
    });
  }
  const settings = await readAccountingSettings();
  const exported = await accountingExport(parsed.period, settings, parsed.file === 'fec' ? 'fec' : 'csv', staff.id);
  if (!exported.ok) throw refused(exported.error);
  const { file } = exported;
  return new Response(file.body, {
    headers: {
      ...headers,
      'Content-Type': file.contentType,
      'Content-Disposition': `attachment; filename="${file.fileName}"`,
    },
  });
}
