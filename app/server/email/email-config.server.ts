import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { changedFields } from '~/domain/audit/changes';
import {
  createEmailConfigSchema,
  EMAIL_CONFIG_DEFAULTS,
  EMAIL_CONFIG_OPTION,
  type EmailConfig,
  type PublicEmailConfig,
  type SmtpPort,
} from '~/domain/email/email-config';
import { type AuditActor, recordAudit } from '../audit/audit.server';
import { type Executor, readConfigOption, writeConfigOption } from '../config/config-options.server';
import { decryptSecret, encryptSecret, isEncryptedSecret } from '../crypto.server';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { EMAIL_CONFIG_LOCK_KEY, OUTBOX_CHANNEL } from './constants.server';

/*
 * The e-mail configuration, stored as JSON in config_options under
 * `email_config`, with smtpPassword encrypted (crypto.server.ts). The decrypted password only ever
 * lives in this process's memory: toPublicEmailConfig() is what a loader may hand to a browser.
 */

const PASSWORD_CONTEXT = 'email_config.smtpPassword';

/** The JSON as stored: the same fields, smtpPassword being a ciphertext (or empty). */
interface StoredEmailConfig extends EmailConfig {}

function fromStored(value: unknown): StoredEmailConfig {
  const v = (value !== null && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const d = EMAIL_CONFIG_DEFAULTS;
  const text = (key: keyof EmailConfig, fallback: string) =>
    typeof v[key] === 'string' ? (v[key] as string) : fallback;
  const port = Number(v.smtpPort);
  return {
    enabled: typeof v.enabled === 'boolean' ? v.enabled : d.enabled,
    senderEmail: text('senderEmail', d.senderEmail),
    senderName: text('senderName', d.senderName),
    smtpHost: text('smtpHost', d.smtpHost),
    smtpPort: port === 465 || port === 587 ? (port as SmtpPort) : d.smtpPort,
    smtpUsername: text('smtpUsername', d.smtpUsername),
    smtpPassword: text('smtpPassword', ''),
  };
}

export async function readStoredEmailConfig(executor: Executor = db()): Promise<StoredEmailConfig> {
  return fromStored(await readConfigOption(EMAIL_CONFIG_OPTION, executor));
}

/** Whether the stored configuration has a host, a user name and a (encrypted) password. */
export function storedSmtpIsComplete(stored: StoredEmailConfig): boolean {
  return stored.smtpHost.trim() !== '' && stored.smtpUsername.trim() !== '' && stored.smtpPassword !== '';
}

export interface LoadedEmailConfig extends EmailConfig {
  /** A password is stored but cannot be decrypted (APP_SECRET changed, value altered). */
  passwordUnreadable: boolean;
}

/** The configuration with the password decrypted; database errors propagate (the worker needs to know). */
export async function loadEmailConfig(executor: Executor = db()): Promise<LoadedEmailConfig> {
  const stored = await readStoredEmailConfig(executor);
  if (stored.smtpPassword === '') return { ...stored, passwordUnreadable: false };
  if (!isEncryptedSecret(stored.smtpPassword)) {
    log.error('email_config.smtpPassword is not encrypted: ignored; save the e-mail configuration again');
    return { ...stored, smtpPassword: '', passwordUnreadable: true };
  }
  try {
    return { ...stored, smtpPassword: decryptSecret(stored.smtpPassword, PASSWORD_CONTEXT), passwordUnreadable: false };
  } catch (error) {
    log.error({ err: error }, 'the stored SMTP password cannot be decrypted (was APP_SECRET changed?)');
    return { ...stored, smtpPassword: '', passwordUnreadable: true };
  }
}

/** On error the defaults are used (and the error logged). */
export async function getEmailConfig(): Promise<EmailConfig> {
  try {
    const { passwordUnreadable: _, ...config } = await loadEmailConfig();
    return config;
  } catch (error) {
    log.error({ err: error }, 'the e-mail configuration could not be read: defaults used');
    return { ...EMAIL_CONFIG_DEFAULTS };
  }
}

/** What a browser may see: never the password, only whether one is stored. */
export function toPublicEmailConfig(config: EmailConfig): PublicEmailConfig {
  const { smtpPassword, ...rest } = config;
  return { ...rest, smtpPasswordSet: smtpPassword !== '' };
}

export async function getPublicEmailConfig(): Promise<PublicEmailConfig> {
  return toPublicEmailConfig(await getEmailConfig());
}

export const SAVE_EMAIL_CONFIG_ERROR = "Erreur lors de l'enregistrement de la configuration email";
export const INVALID_EMAIL_CONFIG_ERROR = 'Veuillez corriger les champs signalés';

export type SaveEmailConfigResult =
  | { success: true; config: PublicEmailConfig; releasedHeld: number }
  | { success: false; error: string; fieldErrors: Partial<Record<keyof EmailConfig, string[]>> };

/**
 * Validates and saves the configuration (upsert on option_name). An empty password keeps the
 * stored one. Once SMTP is complete, the held messages are released to the worker, in the same
 * transaction. Database errors are logged and reported as `success: false`.
 */
export async function saveEmailConfig(input: unknown, actor: AuditActor = 'system'): Promise<SaveEmailConfigResult> {
  try {
    return await db().transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${EMAIL_CONFIG_LOCK_KEY})`);
      const stored = await readStoredEmailConfig(tx);
      const passwordStored = stored.smtpPassword !== '';
      // Saving another server with the stored password would send it there at the next e-mail.
      const parsed = createEmailConfigSchema({
        passwordStored,
        ...(passwordStored ? { savedServer: stored } : {}),
      }).safeParse(input);
      if (!parsed.success) {
        return {
          success: false as const,
          error: INVALID_EMAIL_CONFIG_ERROR,
          fieldErrors: z.flattenError(parsed.error).fieldErrors,
        };
      }
      const value = parsed.data;
      const next: StoredEmailConfig = {
        ...value,
        smtpPassword:
          value.smtpPassword === '' ? stored.smtpPassword : encryptSecret(value.smtpPassword, PASSWORD_CONTEXT),
      };
      await writeConfigOption(EMAIL_CONFIG_OPTION, next, tx);
      const change = changedFields(stored, next, { secrets: ['smtpPassword'] });
      if (change) await recordAudit(tx, { actor, kind: 'settings.email', subject: EMAIL_CONFIG_OPTION, ...change });

      let releasedHeld = 0;
      if (storedSmtpIsComplete(next)) {
        // Held messages (no SMTP configuration, or credentials refused) get a fresh set of attempts,
        // now; one never tried yet keeps its own day if that is later (a gift card chosen for
        // Christmas), while a tried one's next_at is only its retry delay.
        const released = await tx.execute(sql`
          update email_outbox set status = 'queued', attempts = 0, last_error = null,
            next_at = case when attempts = 0 then greatest(next_at, now()) else now() end
          where status = 'held'`);
        releasedHeld = released.rowCount ?? 0;
        if (releasedHeld > 0) await tx.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, '')`);
      }
      log.info({ releasedHeld }, 'e-mail configuration saved');
      return {
        success: true as const,
        config: toPublicEmailConfig({ ...value, smtpPassword: next.smtpPassword }),
        releasedHeld,
      };
    });
  } catch (error) {
    log.error({ err: error }, 'the e-mail configuration could not be saved');
    return { success: false, error: SAVE_EMAIL_CONFIG_ERROR, fieldErrors: {} };
  }
}
