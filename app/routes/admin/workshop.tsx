import { data } from 'react-router';
import { TabError } from '~/components/admin/tab-error';
import { AdvanceSummary, WorkshopColumns, WorkshopFilters } from '~/components/admin/workshop-board';
import { Alert } from '~/components/ui/alert';
import { type AdvanceOutcome, parseBoardParams } from '~/domain/admin/workshop-board';
import { requireStaff } from '~/server/admin/access.server';
import { advanceOrders, loadWorkshopBoard } from '~/server/admin/workshop.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/workshop';

/*
 * The workshop board (« Atelier »): the orders in the workshop by stage, late ones first, filtered
 * from the address bar; selected orders move to their next stage through the order lifecycle.
 * Admin role only for now.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** More than a page of cards at once is not a click on the board. */
const MAX_SELECTED = 100;

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'workshop');
  const params = parseBoardParams(new URL(request.url).searchParams);
  return { params, columns: await loadWorkshopBoard(params) };
}

type ActionData = { ok: true; outcomes: AdvanceOutcome[] } | { ok: false; error: string };

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireStaff(request, 'workshop');
  const form = await readFormData(request);
  if (form.get('intent') !== 'advance') return data<ActionData>({ ok: false, error: 'Action inconnue.' }, 400);
  const ids = form.getAll('orderId').map(String);
  if (ids.length === 0) return data<ActionData>({ ok: false, error: 'Sélectionnez au moins une commande.' });
  if (ids.length > MAX_SELECTED) {
    return data<ActionData>({ ok: false, error: `Sélectionnez au plus ${MAX_SELECTED} commandes à la fois.` });
  }
  if (!ids.every((id) => UUID.test(id))) return data<ActionData>({ ok: false, error: 'Commande introuvable.' }, 400);
  return data<ActionData>({ ok: true, outcomes: await advanceOrders(ids, admin.id) });
}

export default function WorkshopTab({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="flex flex-col gap-4">
      {actionData?.ok === false ? <Alert variant="danger">{actionData.error}</Alert> : null}
      {actionData?.ok ? <AdvanceSummary outcomes={actionData.outcomes} /> : null}
      <WorkshopFilters params={loaderData.params} />
      <WorkshopColumns columns={loaderData.columns} params={loaderData.params} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
