import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { changedFields } from '~/domain/audit/changes';
import {
  createPaConfigSchema,
  PA_CONFIG_DEFAULTS,
  PA_CONFIG_MESSAGES,
  PA_CONFIG_OPTION,
  PA_SECRET_FIELDS,
  type PaConfig,
  type PublicPaConfig,
  toPublicPaConfig,
} from '~/domain/einvoicing/pa-config';
import { type AuditActor, recordAudit } from '../audit/audit.server';
import { type Executor, readConfigOption, writeConfigOption } from '../config/config-options.server';
import { decryptSecret, encryptSecret, isEncryptedSecret } from '../crypto.server';
import { db } from '../db/client.server';
import { log } from '../log.server';

/*
 * The plateforme agréée's settings, stored as JSON in config_options under `pa_config` like the
 * payment gateways' (payments/config.server.ts): the client secret encrypted (crypto.server.ts,
 * bound to its field), decrypted only in this process's memory; a page gets getPublicPaConfig().
 */

const SECRET_CONTEXT = `${PA_CONFIG_OPTION}.clientSecret`;
/** Serialises saves (read the stored secret, then write). */
const SAVE_LOCK_KEY = 72023047;

function fromStored(value: unknown): PaConfig {
  const v = (value !== null && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const d = PA_CONFIG_DEFAULTS;
  const str = (key: keyof PaConfig) => (typeof v[key] === 'string' ? (v[key] as string) : (d[key] as string));
  return {
    enabled: v.enabled === true,
    testMode: typeof v.testMode === 'boolean' ? v.testMode : true,
    flowUrl: str('flowUrl'),
    directoryUrl: str('directoryUrl'),
    tokenUrl: str('tokenUrl'),
    clientId: str('clientId'),
    clientSecret: str('clientSecret'),
    scope: str('scope'),
    sellerSiren: str('sellerSiren'),
    sellerRoutingCode: str('sellerRoutingCode'),
  };
}

export interface LoadedPaConfig extends PaConfig {
  /** The stored secret could not be read (APP_SECRET changed?): treated as missing. */
  secretUnreadable: boolean;
}

/** The settings with the secret decrypted. Database errors propagate. */
export async function loadPaConfig(executor: Executor = db()): Promise<LoadedPaConfig> {
  const stored = fromStored(await readConfigOption(PA_CONFIG_OPTION, executor));
  const config: LoadedPaConfig = { ...stored, secretUnreadable: false };
  if (stored.clientSecret === '') return config;
  try {
    if (!isEncryptedSecret(stored.clientSecret)) throw new Error('not encrypted');
    config.clientSecret = decryptSecret(stored.clientSecret, SECRET_CONTEXT);
  } catch (error) {
    log.error({ err: error }, 'pa_config: the client secret cannot be read; save the configuration again');
    config.clientSecret = '';
    config.secretUnreadable = true;
  }
  return config;
}

export async function getPublicPaConfig(executor: Executor = db()): Promise<PublicPaConfig> {
  return toPublicPaConfig(await loadPaConfig(executor));
}

export type PaConfigField = keyof PaConfig;
export type SavePaConfigResult =
  | { ok: true; config: PublicPaConfig }
  | { ok: false; error: string; fieldErrors: Partial<Record<PaConfigField, string>> };

/**
 * Validates and saves the settings (the secret encrypted; left empty, the stored one is kept),
 * journaled in the audit log (the secret as « modifié », never its value).
 */
export async function savePaConfig(input: unknown, actor: AuditActor = 'system'): Promise<SavePaConfigResult> {
  try {
    return await db().transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SAVE_LOCK_KEY})`);
      const stored = fromStored(await readConfigOption(PA_CONFIG_OPTION, tx));
      const parsed = createPaConfigSchema({ stored: { clientSecret: stored.clientSecret !== '' } }).safeParse(input);
      if (!parsed.success) {
        const flat = z.flattenError(parsed.error).fieldErrors as Record<string, string[] | undefined>;
        const fieldErrors = Object.fromEntries(
          Object.entries(flat).map(([field, messages]) => [field, messages?.[0] ?? PA_CONFIG_MESSAGES.invalid]),
        );
        return { ok: false as const, error: PA_CONFIG_MESSAGES.invalid, fieldErrors };
      }
      const value = parsed.data;
      const next: PaConfig = {
        ...value,
        clientSecret:
          value.clientSecret === '' ? stored.clientSecret : encryptSecret(value.clientSecret, SECRET_CONTEXT),
      };
      await writeConfigOption(PA_CONFIG_OPTION, next, tx);
      const change = changedFields(stored, next, { secrets: PA_SECRET_FIELDS });
      if (change) await recordAudit(tx, { actor, kind: 'settings.pa', subject: PA_CONFIG_OPTION, ...change });
      log.info({ enabled: next.enabled, testMode: next.testMode }, 'plateforme agréée configuration saved');
      return { ok: true as const, config: toPublicPaConfig(await loadPaConfig(tx)) };
    });
  } catch (error) {
    log.error({ err: error }, 'the plateforme agréée configuration could not be saved');
    return { ok: false, error: PA_CONFIG_MESSAGES.saveFailed, fieldErrors: {} };
  }
}
