import { data } from 'react-router';
import { requireAdminUser } from '~/server/admin/access.server';
import { readFormData } from '~/server/form-data.server';
import { getPublicPaymentConfig, savePaymentConfig } from '~/server/payments/config.server';
import type { Route } from './+types/payment-config';

/*
 * The Configuration Paiement dialog and the Comptabilité tab's payment section. GET: the
 * configuration with its keys masked. POST: saves it (keys encrypted; an empty key keeps the
 * stored one).
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminUser(request);
  return data({ config: await getPublicPaymentConfig() }, { headers: { 'Cache-Control': 'no-store' } });
}

// Answers a form can correct are 200 with `ok: false`: a 4xx is logged as an error by browsers.
export async function action({ request }: Route.ActionArgs) {
  await requireAdminUser(request);
  const form = await readFormData(request);
  const result = await savePaymentConfig({
    type: form.get('type'),
    testMode: form.get('testMode') ?? undefined,
    apiKey: form.get('apiKey') ?? '',
    webhookSecret: form.get('webhookSecret') ?? '',
    merchantId: form.get('merchantId') ?? '',
    companyCode: form.get('companyCode') ?? '',
    secretKey: form.get('secretKey') ?? '',
  });
  if (result.success) return { ok: true as const, config: result.config };
  return { ok: false as const, error: result.error, fieldErrors: result.fieldErrors as Record<string, string[]> };
}
