import { data } from 'react-router';
import type { PricingActionData } from '~/components/admin/price-editor';
import { PriceEditor } from '~/components/admin/price-editor';
import { TabError } from '~/components/admin/tab-error';
import { applyPriceForm } from '~/domain/admin/price-form';
import { DEFAULT_PRICE_LIST } from '~/domain/pricing/default-price-list';
import { requireAdminUser } from '~/server/admin/access.server';
import { readFormData } from '~/server/form-data.server';
import { log } from '~/server/log.server';
import { getActivePriceList, InvalidPriceListError, publishPriceList } from '~/server/pricing/price-lists.server';
import type { Route } from './+types/pricing';

/*
 * The Tarifs tab. Update: the form's values over the active list, published as a new version
 * (issue 6's publishPriceList: validated, versioned, active at once). Reset: the defaults, published
 * as a new version (history is kept; orders keep the version they were priced with).
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminUser(request);
  const active = await getActivePriceList();
  return {
    list: active.data,
    version: active.version,
    updatedAt: active.data.lastUpdated || active.createdAt.toISOString(),
  };
}

// Answers a form can correct are 200 with `ok: false`: a 4xx is logged as an error by browsers.
const reply = (body: PricingActionData, status = 200) => data(body, { status });

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdminUser(request);
  const form = await readFormData(request);
  const intent = form.get('intent');
  try {
    if (intent === 'reset') {
      const published = await publishPriceList(DEFAULT_PRICE_LIST, admin.id);
      return reply({ ok: true, intent: 'reset', version: published.version, ignored: [] });
    }
    if (intent !== 'update') return reply({ ok: false, error: 'Action inconnue', errors: {} }, 400);
    const active = await getActivePriceList();
    const entries = Object.fromEntries(
      [...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
    const applied = applyPriceForm(active.data, entries);
    if (Object.keys(applied.errors).length > 0) {
      return reply({ ok: false, error: 'Veuillez corriger les prix signalés', errors: applied.errors });
    }
    const published = await publishPriceList(applied.document, admin.id);
    return reply({ ok: true, intent: 'update', version: published.version, ignored: applied.ignored });
  } catch (error) {
    if (error instanceof InvalidPriceListError) {
      const errors = Object.fromEntries(error.issues.map((issue) => [issue.path, issue.message]));
      return reply({ ok: false, error: 'Veuillez corriger les prix signalés', errors });
    }
    log.error({ err: error }, 'price list publication failed');
    return reply({ ok: false, error: 'Les tarifs n’ont pas pu être publiés', errors: {} }, 500);
  }
}

export default function PricingTab({ loaderData }: Route.ComponentProps) {
  return <PriceEditor list={loaderData.list} version={loaderData.version} updatedAt={loaderData.updatedAt} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
