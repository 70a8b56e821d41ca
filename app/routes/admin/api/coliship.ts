import { data } from 'react-router';
import { requireAdminUser } from '~/server/admin/access.server';
import { getPublicColishipCredentials, saveAndCheckColishipCredentials } from '~/server/admin/coliship.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/coliship';

/*
 * The Configuration Coliship dialog. GET: the stored credentials without the password. POST: stores
 * them (all three fields required) and validates them against Colissimo's web service.
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminUser(request);
  return data({ credentials: await getPublicColishipCredentials() }, { headers: { 'Cache-Control': 'no-store' } });
}

// Answers a form can correct are 200 with `ok: false`: a 4xx is logged as an error by browsers.
export async function action({ request }: Route.ActionArgs) {
  await requireAdminUser(request);
  const form = await readFormData(request);
  const result = await saveAndCheckColishipCredentials({
    username: form.get('username') ?? '',
    password: form.get('password') ?? '',
    contractNumber: form.get('contractNumber') ?? '',
  });
  return result;
}
