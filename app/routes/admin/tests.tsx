import { data, type ShouldRevalidateFunctionArgs } from 'react-router';
import { PlatformTest, ProductionChecklist } from '~/components/admin/production-checks';
import { TabError } from '~/components/admin/tab-error';
import { requireStaff } from '~/server/admin/access.server';
import { computeChecklist, runPlatformTests } from '~/server/admin/checklist.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/tests';

/*
 * The Tests tab: the production checklist, computed from the shop's state on each visit, and the
 * platform functionality test (POST: the probes run on the server).
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'tests');
  return { checklist: await computeChecklist() };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireStaff(request, 'tests');
  const form = await readFormData(request);
  if (form.get('intent') !== 'platform-test') return data({ error: 'Action inconnue' }, { status: 400 });
  return { results: await runPlatformTests(request, admin) };
}

/** The probes are read-only: the checklist needs no reload after them. */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === 'POST' ? false : defaultShouldRevalidate;
}

export default function TestsTab({ loaderData }: Route.ComponentProps) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <ProductionChecklist items={loaderData.checklist} />
      <PlatformTest />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
