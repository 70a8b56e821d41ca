import { parseWithZod } from '@conform-to/zod/v4';
import { data } from 'react-router';
import { invoicingSettingsSchema } from '~/domain/invoices/invoicing-settings';
import { requireStaff } from '~/server/admin/access.server';
import { readFormData } from '~/server/form-data.server';
import { readInvoicingSettings, saveInvoicingSettings } from '~/server/invoices/invoicing-settings.server';
import type { Route } from './+types/invoicing-config';

/*
 * The « Facturation » settings dialog (docs/invoicing.md): GET VAT on debits and the business
 * payment terms, POST saves them (French validation). Staff with the settings capability only.
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'settings');
  return data({ settings: await readInvoicingSettings() }, { headers: { 'Cache-Control': 'no-store' } });
}

// Answers a form can correct are 200 with `ok: false`: a 4xx is logged as an error by browsers.
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireStaff(request, 'settings');
  const form = await readFormData(request);
  const submission = parseWithZod(form, { schema: invoicingSettingsSchema });
  if (submission.status !== 'success') {
    const error = Object.values(submission.error ?? {}).flat()[0] ?? '';
    return { ok: false as const, error, submission: submission.reply() };
  }
  const result = await saveInvoicingSettings(submission.value, admin.id);
  return { ...result, submission: submission.reply() };
}
