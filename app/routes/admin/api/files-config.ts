import { parseWithZod } from '@conform-to/zod/v4';
import { data } from 'react-router';
import { filesConfigSchema, RETENTION_MESSAGES } from '~/domain/files/retention';
import { requireStaff } from '~/server/admin/access.server';
import { readFilesConfig, saveFilesConfig } from '~/server/files/retention-settings.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/files-config';

/*
 * The « Fichiers livrés » settings dialog (decision 011): GET the retention period, POST saves it
 * (French validation). Staff only.
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'settings');
  return data({ config: await readFilesConfig() }, { headers: { 'Cache-Control': 'no-store' } });
}

// Answers a form can correct are 200 with `ok: false`: a 4xx is logged as an error by browsers.
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireStaff(request, 'settings');
  const form = await readFormData(request);
  const submission = parseWithZod(form, { schema: filesConfigSchema });
  if (submission.status !== 'success') {
    return { ok: false as const, error: RETENTION_MESSAGES.daysInvalid, submission: submission.reply() };
  }
  const result = await saveFilesConfig(submission.value, admin.id);
  return { ...result, submission: submission.reply() };
}
