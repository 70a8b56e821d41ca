import { data } from 'react-router';
import { parseSearch } from '~/domain/admin/list-params';
import { requireStaff } from '~/server/admin/access.server';
import { searchEverything } from '~/server/admin/search.server';
import type { Route } from './+types/search';

/* GET ?q=: the first orders, customers and invoices matching the term (the dashboard's search box). */

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'orders.read');
  const q = parseSearch(new URL(request.url).searchParams.get('q'));
  return data(await searchEverything(q), { headers: { 'Cache-Control': 'no-store' } });
}
