import { data } from 'react-router';
import { requireAdminUser } from '~/server/admin/access.server';
import { getPublicEmailConfig, saveEmailConfig } from '~/server/email/email-config.server';
import { sendTestEmail } from '~/server/email/test-email.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/email-config';

/*
 * GET: the e-mail configuration as a browser may see it (no password). POST intent=save: saves it
 * (specification's rules and messages); intent=test: sends the test e-mail with the form's values.
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminUser(request);
  return data({ config: await getPublicEmailConfig() }, { headers: { 'Cache-Control': 'no-store' } });
}

function configFrom(form: FormData) {
  return {
    enabled: form.get('enabled') === 'on',
    senderEmail: String(form.get('senderEmail') ?? ''),
    senderName: String(form.get('senderName') ?? ''),
    smtpHost: String(form.get('smtpHost') ?? ''),
    smtpPort: String(form.get('smtpPort') ?? ''),
    smtpUsername: String(form.get('smtpUsername') ?? ''),
    smtpPassword: String(form.get('smtpPassword') ?? ''),
  };
}

// Answers a form can correct are 200 with `ok: false`: a 4xx is logged as an error by browsers.
export async function action({ request }: Route.ActionArgs) {
  await requireAdminUser(request);
  const form = await readFormData(request);
  const intent = form.get('intent');
  if (intent === 'test') {
    const to = String(form.get('to') ?? '');
    const result = await sendTestEmail({ to, config: configFrom(form) });
    if (result.success) return { intent: 'test' as const, ok: true as const, to: to.trim() };
    return {
      intent: 'test' as const,
      ok: false as const,
      error: result.error,
      detail: result.detail,
      fieldErrors: result.fieldErrors,
    };
  }
  if (intent !== 'save') return data({ error: 'Action inconnue' }, { status: 400 });
  const result = await saveEmailConfig(configFrom(form));
  if (result.success) {
    return { intent: 'save' as const, ok: true as const, config: result.config, releasedHeld: result.releasedHeld };
  }
  return {
    intent: 'save' as const,
    ok: false as const,
    error: result.error,
    fieldErrors: result.fieldErrors as Record<string, string[]>,
  };
}
