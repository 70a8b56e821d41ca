import { parseWithZod } from '@conform-to/zod/v4';
import { data } from 'react-router';
import { deleteFilterSchema, SAVED_FILTER_MESSAGES, saveFilterSchema } from '~/domain/admin/saved-filters';
import { requireStaff } from '~/server/admin/access.server';
import { deleteFilter, saveFilter } from '~/server/admin/saved-filters.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/saved-filters';

/*
 * POST /admin/api/filtres-commandes: « Enregistrer ce filtre » (intent=save: name and the list's
 * search string) and the deletion of a saved filter (intent=delete), always the signed-in staff
 * member's own. Staff only.
 */

/** Nothing to read here: a GET is refused, after the same access check as every admin resource. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'orders.read');
  throw data('Méthode non autorisée', { status: 405, headers: { Allow: 'POST' } });
}

// Answers a form can correct are 200 with `ok: false`: a 4xx is logged as an error by browsers.
export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request, 'orders.read');
  const form = await readFormData(request);
  if (form.get('intent') === 'delete') {
    const submission = parseWithZod(form, { schema: deleteFilterSchema });
    const name = submission.status === 'success' ? await deleteFilter(staff.id, submission.value.id) : null;
    return name === null
      ? { ok: false as const, intent: 'delete' as const, error: SAVED_FILTER_MESSAGES.notFound }
      : { ok: true as const, intent: 'delete' as const, message: SAVED_FILTER_MESSAGES.deleted(name) };
  }
  const submission = parseWithZod(form, { schema: saveFilterSchema });
  if (submission.status !== 'success')
    return { ok: false as const, intent: 'save' as const, submission: submission.reply() };
  const { name, query } = submission.value;
  const result = await saveFilter(staff.id, { name, query });
  if (!result.ok) {
    const error = result.reason === 'duplicate' ? SAVED_FILTER_MESSAGES.duplicate(name) : SAVED_FILTER_MESSAGES.tooMany;
    return {
      ok: false as const,
      intent: 'save' as const,
      submission: submission.reply({ fieldErrors: { name: [error] } }),
    };
  }
  return {
    ok: true as const,
    intent: 'save' as const,
    message: SAVED_FILTER_MESSAGES.saved(name),
    submission: submission.reply({ resetForm: true }),
  };
}
