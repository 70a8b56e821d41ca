import { data } from 'react-router';
import { requireStaff } from '~/server/admin/access.server';
import { getReports } from '~/server/admin/reports.server';
import type { Route } from './+types/reports';

/* GET: the Rapports tab's chart data (computed in SQL, kept a few minutes). */

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'reports');
  return data(await getReports(), { headers: { 'Cache-Control': 'no-store' } });
}
