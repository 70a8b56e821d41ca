import { parseWithZod } from '@conform-to/zod/v4';
import { data } from 'react-router';
import { createColishipSchema } from '~/domain/admin/coliship';
import { COLISHIP_MESSAGES } from '~/domain/admin/messages';
import { requireStaff } from '~/server/admin/access.server';
import { getPublicColishipCredentials, saveAndCheckColishipCredentials } from '~/server/admin/coliship.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/coliship';

/*
 * The Configuration Coliship dialog. GET: the stored credentials without the password. POST: stores
 * them (all three fields required) and validates them against Colissimo's web service.
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'settings');
  return data({ credentials: await getPublicColishipCredentials() }, { headers: { 'Cache-Control': 'no-store' } });
}

// Answers a form can correct are 200 with `ok: false`: a 4xx is logged as an error by browsers.
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireStaff(request, 'settings');
  const form = await readFormData(request);
  const { passwordSet } = await getPublicColishipCredentials();
  const submission = parseWithZod(form, { schema: createColishipSchema({ passwordStored: passwordSet }) });
  // The password is never sent back, even to a form in error.
  const reply = (fieldErrors?: Record<string, string[]>) => submission.reply({ fieldErrors, hideFields: ['password'] });
  if (submission.status !== 'success') {
    return { ok: false as const, error: COLISHIP_MESSAGES.required, submission: reply() };
  }
  const result = await saveAndCheckColishipCredentials(submission.value, { actor: admin.id });
  if (!result.ok) return { ok: false as const, error: result.error, submission: reply(result.fieldErrors) };
  return { ...result, submission: reply() };
}
