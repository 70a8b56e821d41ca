import { data } from 'react-router';
import { requireStaff } from '~/server/admin/access.server';
import { log } from '~/server/log.server';
import {
  ArchivePeriodError,
  archiveFileName,
  defaultArchivePeriod,
  exportJournalArchive,
} from '~/server/payment-journal/archive.server';
import type { Route } from './+types/payment-journal-archive';

/*
 * GET /admin/journal-paiements/archive?from=YYYY-MM-DD&to=YYYY-MM-DD: the payment journal's signed
 * archive of the period (docs/payment-journal.md, « Archives »), the previous month by default.
 */

export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request, 'exports');
  const params = new URL(request.url).searchParams;
  const period = defaultArchivePeriod(new Date());
  const from = params.get('from') || period.from;
  const to = params.get('to') || period.to;
  let text: string;
  try {
    text = await exportJournalArchive(from, to);
  } catch (error) {
    if (error instanceof ArchivePeriodError) return data({ error: error.message }, { status: 400 });
    throw error;
  }
  log.info({ staffId: staff.id, from, to }, 'payment journal archive exported');
  return new Response(text, {
    headers: {
      'Content-Type': 'application/x-ndjson; charset=utf-8',
      'Content-Disposition': `attachment; filename="${archiveFileName(from, to)}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
