import { parseWithZod } from '@conform-to/zod/v4';
import { data } from 'react-router';
import type { PricingActionData, PricingReview } from '~/components/admin/price-editor';
import { PriceEditor } from '~/components/admin/price-editor';
import { TabError } from '~/components/admin/tab-error';
import {
  CONFIRMATION_FIELDS,
  createPriceFormSchema,
  decidePriceUpdate,
  PRICE_FORM_MESSAGES,
  priceChanges,
  priceTabs,
} from '~/domain/admin/price-form';
import type { PriceListDocument } from '~/domain/pricing/default-price-list';
import { DEFAULT_PRICE_LIST } from '~/domain/pricing/default-price-list';
import { requireStaff } from '~/server/admin/access.server';
import { readFormData } from '~/server/form-data.server';
import { log } from '~/server/log.server';
import {
  getActivePriceList,
  InvalidPriceListError,
  publishPriceList,
  StalePriceListError,
} from '~/server/pricing/price-lists.server';
import type { Route } from './+types/pricing';

/*
 * The Tarifs tab. Update: the form's values over the active list, published as a new version
 * (publishPriceList: validated, versioned, active at once). Reset: the defaults, published
 * as a new version (history is kept; orders keep the version they were priced with).
 * The browser shows a summary and asks for confirmation first; this action does not trust it and
 * decides again from the posted fields: the same schema as the browser's (createPriceFormSchema,
 * parseWithZod), the same ×3 rule (decidePriceUpdate), and the confirmation fields must be there. `baseVersion`, when posted, is the version the summary was
 * computed against: a list published meanwhile by someone else is not overwritten unseen.
 * A post that needs a confirmation gets the changes back with its entries (`review`): without
 * JavaScript the page shows them with the button that posts them again, confirmed.
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'prices');
  const active = await getActivePriceList();
  return {
    list: active.data,
    version: active.version,
    updatedAt: active.data.lastUpdated || active.createdAt.toISOString(),
  };
}

// Answers a form can correct are 200 with `ok: false`: a 4xx is logged as an error by browsers.
const reply = (body: PricingActionData, status = 200) => data(body, { status });

/** The posted price entries (the form's fields only), to post again once confirmed. */
function postedEntries(list: PriceListDocument, form: FormData): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const field of priceTabs(list).flatMap((tab) => tab.fields)) {
    const value = form.get(field.name);
    if (typeof value === 'string') entries[field.name] = value;
  }
  return entries;
}

/** The posted version the summary was computed against; absent or not a version: no check. */
function baseVersion(form: FormData): number | undefined {
  const value = Number(form.get('baseVersion'));
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireStaff(request, 'prices');
  const form = await readFormData(request);
  const intent = form.get('intent');
  const options = { expectedVersion: baseVersion(form) };
  if (intent === 'reset') return resetPrices(form, admin.id, options);
  if (intent !== 'update') return reply({ ok: false, error: 'Action inconnue' }, 400);

  const active = await getActivePriceList();
  const submission = parseWithZod(form, { schema: createPriceFormSchema(active.data), disableAutoCoercion: true });
  const refuse = (error: string, fieldErrors?: Record<string, string[]>, review?: PricingReview) =>
    reply({ ok: false, error, submission: submission.reply({ formErrors: [error], fieldErrors }), review });
  if (submission.status !== 'success') return refuse(PRICE_FORM_MESSAGES.invalid);
  const decision = decidePriceUpdate(active.data, submission.value);
  if (decision.kind === 'unchanged') return refuse(PRICE_FORM_MESSAGES.unchanged);
  if (decision.kind === 'unconfirmed' || decision.kind === 'large-unconfirmed') {
    const review: PricingReview = {
      kind: 'update',
      step: decision.kind === 'unconfirmed' ? 'summary' : 'large',
      changes: decision.changes,
      entries: postedEntries(active.data, form),
      baseVersion: options.expectedVersion ?? active.version,
    };
    const message =
      decision.kind === 'unconfirmed' ? PRICE_FORM_MESSAGES.unconfirmed : PRICE_FORM_MESSAGES.largeUnconfirmed;
    return refuse(message, undefined, review);
  }
  try {
    // Without a posted base, the list just read is the base: the document was computed from it.
    const expectedVersion = options.expectedVersion ?? active.version;
    const published = await publishPriceList(decision.document, admin.id, undefined, { expectedVersion });
    return reply({ ok: true, intent: 'update', version: published.version });
  } catch (error) {
    if (error instanceof StalePriceListError) return refuse(PRICE_FORM_MESSAGES.stale);
    if (error instanceof InvalidPriceListError) {
      const fieldErrors = Object.fromEntries(error.issues.map((issue) => [issue.path, [issue.message]]));
      return refuse(PRICE_FORM_MESSAGES.invalid, fieldErrors);
    }
    return publicationFailed(error);
  }
}

/** « Réinitialiser »: the defaults, once confirmed. No prices are posted, so no field to answer. */
async function resetPrices(form: FormData, adminId: string, options: { expectedVersion?: number }) {
  if (form.get(CONFIRMATION_FIELDS.confirmed) !== '1') {
    const active = await getActivePriceList();
    const review: PricingReview = {
      kind: 'reset',
      step: 'summary',
      changes: priceChanges(active.data, DEFAULT_PRICE_LIST),
      entries: {},
      baseVersion: options.expectedVersion ?? active.version,
    };
    return reply({ ok: false, error: PRICE_FORM_MESSAGES.resetUnconfirmed, review });
  }
  try {
    const published = await publishPriceList(DEFAULT_PRICE_LIST, adminId, undefined, options);
    return reply({ ok: true, intent: 'reset', version: published.version });
  } catch (error) {
    if (error instanceof StalePriceListError) return reply({ ok: false, error: PRICE_FORM_MESSAGES.stale });
    return publicationFailed(error);
  }
}

function publicationFailed(error: unknown) {
  log.error({ err: error }, 'price list publication failed');
  return reply({ ok: false, error: 'Les tarifs n’ont pas pu être publiés' }, 500);
}

export default function PricingTab({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <PriceEditor
      list={loaderData.list}
      version={loaderData.version}
      updatedAt={loaderData.updatedAt}
      pageResult={actionData}
    />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
