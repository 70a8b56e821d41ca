import { z } from 'zod';
import {
  createEmailConfigSchema,
  EMAIL_CONFIG_MESSAGES,
  type EmailConfig,
  isSmtpConfigured,
  testEmailSchema,
} from '~/domain/email/email-config';
import { db } from '../db/client.server';
import { emailOutbox } from '../db/schema';
import { log } from '../log.server';
import { loadDkim } from './dkim.server';
import { loadEmailConfig } from './email-config.server';
import { renderEmail } from './templates/registry';
import { classifySmtpError, type SmtpOverrides, sendOverSmtp } from './transport.server';

/*
 * The test e-mail of the configuration dialog: sent at once (not through the worker), because the
 * administrator is waiting to know whether the settings work. It is still recorded in the outbox,
 * as sent or failed, so that the history of what the shop sent is complete.
 */

export const INCOMPLETE_SMTP_DETAIL = 'La configuration SMTP est incomplète (serveur, utilisateur et mot de passe).';

export type TestEmailResult =
  | { success: true; messageId: string; outboxId: string }
  | { success: false; error: string; detail?: string; fieldErrors?: Record<string, string[]> };

export interface TestEmailInput {
  to: unknown;
  /**
   * The dialog's current fields, to try them before saving; an empty password means the stored
   * one. Without it the stored configuration is used.
   */
  config?: unknown;
}

async function configToTest(input: TestEmailInput): Promise<EmailConfig | { fieldErrors: Record<string, string[]> }> {
  const stored = await loadEmailConfig();
  if (input.config === undefined) return stored;
  // The stored password goes only to the saved server: another host, port or user needs it typed.
  const parsed = createEmailConfigSchema({
    passwordStored: stored.smtpPassword !== '',
    ...(stored.smtpPassword !== '' ? { savedServer: stored } : {}),
  }).safeParse(input.config);
  if (!parsed.success) return { fieldErrors: z.flattenError(parsed.error).fieldErrors };
  return { ...parsed.data, smtpPassword: parsed.data.smtpPassword || stored.smtpPassword };
}

export async function sendTestEmail(
  input: TestEmailInput,
  options: { smtp?: SmtpOverrides } = {},
): Promise<TestEmailResult> {
  const recipient = testEmailSchema.safeParse({ to: input.to });
  if (!recipient.success) {
    const message = recipient.error.issues[0]?.message ?? EMAIL_CONFIG_MESSAGES.testRecipient;
    return { success: false, error: message, fieldErrors: { to: [message] } };
  }
  const to = recipient.data.to;

  let config: EmailConfig;
  try {
    const candidate = await configToTest(input);
    if ('fieldErrors' in candidate) {
      return { success: false, error: EMAIL_CONFIG_MESSAGES.testFailed, fieldErrors: candidate.fieldErrors };
    }
    config = candidate;
  } catch (error) {
    log.error({ err: error }, 'test e-mail: the configuration could not be read');
    return { success: false, error: EMAIL_CONFIG_MESSAGES.testFailed };
  }
  if (!isSmtpConfigured(config)) {
    return { success: false, error: EMAIL_CONFIG_MESSAGES.testFailed, detail: INCOMPLETE_SMTP_DETAIL };
  }

  const data = { sentAt: new Date().toISOString(), smtpHost: config.smtpHost, smtpPort: config.smtpPort };
  const id = crypto.randomUUID();
  try {
    const rendered = await renderEmail('test-email', data);
    // Signed like every message when a DKIM key is saved: the test shows the signature passes.
    const dkim = await loadDkim();
    const result = await sendOverSmtp(config, { ...rendered, to, messageKey: id, dkim }, options.smtp);
    await db()
      .insert(emailOutbox)
      .values({
        id,
        to,
        template: 'test-email',
        data,
        status: 'sent',
        attempts: 1,
        sentAt: new Date(),
        providerMessageId: result.messageId,
      })
      .catch((error) => log.error({ err: error }, 'test e-mail sent but not recorded'));
    return { success: true, messageId: result.messageId, outboxId: id };
  } catch (error) {
    const { reason } = classifySmtpError(error);
    log.warn({ reason }, 'test e-mail failed');
    await db()
      .insert(emailOutbox)
      .values({ id, to, template: 'test-email', data, status: 'failed', attempts: 1, lastError: reason })
      .catch((dbError) => log.error({ err: dbError }, 'failed test e-mail not recorded'));
    return { success: false, error: EMAIL_CONFIG_MESSAGES.testFailed, detail: reason };
  }
}
