import { parseWithZod } from '@conform-to/zod/v4';
import { data } from 'react-router';
import {
  createEmailConfigSchema,
  createTestEmailFormSchema,
  EMAIL_CONFIG_MESSAGES,
  type PublicEmailConfig,
} from '~/domain/email/email-config';
import { requireStaff } from '~/server/admin/access.server';
import { getPublicEmailConfig, INVALID_EMAIL_CONFIG_ERROR, saveEmailConfig } from '~/server/email/email-config.server';
import { sendTestEmail } from '~/server/email/test-email.server';
import { readFormData } from '~/server/form-data.server';
import type { Route } from './+types/email-config';

/*
 * GET: the e-mail configuration as a browser may see it (no password). POST intent=save: saves it
 * (its rules and French messages); intent=test: sends the test e-mail with the form's values.
 * Both validate the dialog's fields with the domain's schema (parseWithZod); the server functions
 * check again what only they can see safely (the stored password, inside their transaction).
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'settings');
  return data({ config: await getPublicEmailConfig() }, { headers: { 'Cache-Control': 'no-store' } });
}

/** An empty password keeps the stored one, but only for the saved server, port and user. */
function schemaOptions(saved: PublicEmailConfig) {
  return saved.smtpPasswordSet ? { passwordStored: true, savedServer: saved } : {};
}

// Answers a form can correct are 200 with `ok: false`: a 4xx is logged as an error by browsers.
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireStaff(request, 'settings');
  const form = await readFormData(request);
  const intent = form.get('intent');
  if (intent !== 'save' && intent !== 'test') return data({ error: 'Action inconnue' }, { status: 400 });
  const options = schemaOptions(await getPublicEmailConfig());
  // The password is never sent back, even to a form in error.
  const hideFields = ['smtpPassword'];

  if (intent === 'test') {
    const submission = parseWithZod(form, { schema: createTestEmailFormSchema(options) });
    const reply = (fieldErrors?: Record<string, string[]>) => submission.reply({ fieldErrors, hideFields });
    if (submission.status !== 'success') {
      const error = submission.error?.to?.[0] ?? EMAIL_CONFIG_MESSAGES.testFailed;
      return { intent, ok: false as const, error, submission: reply() };
    }
    const { to, ...config } = submission.value;
    const result = await sendTestEmail({ to, config });
    if (result.success) return { intent, ok: true as const, to, submission: reply() };
    return {
      intent,
      ok: false as const,
      error: result.error,
      detail: result.detail,
      submission: reply(result.fieldErrors),
    };
  }

  const submission = parseWithZod(form, { schema: createEmailConfigSchema(options) });
  const reply = (fieldErrors?: Record<string, string[]>) => submission.reply({ fieldErrors, hideFields });
  if (submission.status !== 'success') {
    return { intent, ok: false as const, error: INVALID_EMAIL_CONFIG_ERROR, submission: reply() };
  }
  const result = await saveEmailConfig(submission.value, admin.id);
  if (!result.success) {
    return {
      intent,
      ok: false as const,
      error: result.error,
      submission: reply(result.fieldErrors as Record<string, string[]>),
    };
  }
  return { intent, ok: true as const, config: result.config, releasedHeld: result.releasedHeld, submission: reply() };
}
