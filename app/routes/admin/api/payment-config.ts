import { parseWithZod } from '@conform-to/zod/v4';
import { data } from 'react-router';
import { createPaymentConfigSchema, PAYMENT_CONFIG_MESSAGES } from '~/domain/payments/payment-config';
import { requireStaff } from '~/server/admin/access.server';
import { readFormData } from '~/server/form-data.server';
import { getPublicPaymentConfig, savePaymentConfig } from '~/server/payments/config.server';
import type { Route } from './+types/payment-config';

/*
 * The Configuration Paiement dialog and the Comptabilité tab's payment section. GET: the
 * configuration with its keys masked. POST: validates the form with the domain's schema
 * (parseWithZod), then saves it (keys encrypted; an empty key keeps the stored one; the save checks
 * again, in its transaction, what only the stored keys can tell).
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'settings');
  return data({ config: await getPublicPaymentConfig() }, { headers: { 'Cache-Control': 'no-store' } });
}

// Answers a form can correct are 200 with `ok: false`: a 4xx is logged as an error by browsers.
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireStaff(request, 'settings');
  const form = await readFormData(request);
  const saved = await getPublicPaymentConfig();
  const stored = { apiKey: saved.apiKeySet, webhookSecret: saved.webhookSecretSet, secretKey: saved.secretKeySet };
  const submission = parseWithZod(form, { schema: createPaymentConfigSchema({ stored }) });
  // Keys are never sent back, even to a form in error.
  const reply = (fieldErrors?: Record<string, string[]>) =>
    submission.reply({ fieldErrors, hideFields: ['apiKey', 'webhookSecret', 'secretKey'] });
  if (submission.status !== 'success') {
    return { ok: false as const, error: PAYMENT_CONFIG_MESSAGES.invalid, submission: reply() };
  }
  const result = await savePaymentConfig(submission.value, admin.id);
  if (!result.success) {
    return {
      ok: false as const,
      error: result.error,
      submission: reply(result.fieldErrors as Record<string, string[]>),
    };
  }
  return { ok: true as const, config: result.config, submission: reply() };
}
