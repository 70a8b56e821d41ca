import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { changedFields } from '~/domain/audit/changes';
import {
  createPaymentConfigSchema,
  PAYMENT_CONFIG_DEFAULTS,
  PAYMENT_CONFIG_MESSAGES,
  PAYMENT_CONFIG_OPTION,
  PAYMENT_PROVIDERS,
  PAYMENT_SECRET_FIELDS,
  type PaymentConfig,
  type PaymentProviderName,
  type PaymentSecretField,
  type PublicPaymentConfig,
  toPublicPaymentConfig,
} from '~/domain/payments/payment-config';
import { type AuditActor, recordAudit } from '../audit/audit.server';
import { type Executor, readConfigOption, writeConfigOption } from '../config/config-options.server';
import { decryptSecret, encryptSecret, isEncryptedSecret } from '../crypto.server';
import { db } from '../db/client.server';
import { log } from '../log.server';

/*
 * The payment configuration, stored as JSON in config_options under
 * `payment_config` with apiKey, webhookSecret and secretKey encrypted (crypto.server.ts, each bound
 * to its field). The decrypted secrets only live in this process's memory; what a loader may hand
 * to a browser is getPublicPaymentConfig() (masked).
 */

const context = (field: PaymentSecretField) => `${PAYMENT_CONFIG_OPTION}.${field}`;
/** Serialises saves (read stored secrets, then write) against each other. */
const SAVE_LOCK_KEY = 72023007;

/** The JSON as stored: the same fields, the secrets being ciphertexts (or empty). */
type StoredPaymentConfig = PaymentConfig;

function fromStored(value: unknown): StoredPaymentConfig {
  const v = (value !== null && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const d = PAYMENT_CONFIG_DEFAULTS;
  const str = (key: keyof PaymentConfig) => (typeof v[key] === 'string' ? (v[key] as string) : (d[key] as string));
  return {
    type: (PAYMENT_PROVIDERS as readonly unknown[]).includes(v.type) ? (v.type as PaymentProviderName) : d.type,
    // A missing value falls back to true.
    testMode: typeof v.testMode === 'boolean' ? v.testMode : true,
    apiKey: str('apiKey'),
    webhookSecret: str('webhookSecret'),
    merchantId: str('merchantId'),
    companyCode: str('companyCode'),
    secretKey: str('secretKey'),
  };
}

async function readStored(executor: Executor): Promise<StoredPaymentConfig> {
  return fromStored(await readConfigOption(PAYMENT_CONFIG_OPTION, executor));
}

export interface LoadedPaymentConfig extends PaymentConfig {
  /** Secrets stored but unreadable (APP_SECRET changed, value altered): treated as missing. */
  unreadable: PaymentSecretField[];
}

/** The configuration with its secrets decrypted. Database errors propagate. */
export async function loadPaymentConfig(executor: Executor = db()): Promise<LoadedPaymentConfig> {
  const stored = await readStored(executor);
  const config: LoadedPaymentConfig = { ...stored, unreadable: [] };
  for (const field of PAYMENT_SECRET_FIELDS) {
    const value = stored[field];
    if (value === '') continue;
    if (!isEncryptedSecret(value)) {
      log.error({ field }, 'payment_config: a secret is not encrypted; ignored, save the configuration again');
      config[field] = '';
      config.unreadable.push(field);
      continue;
    }
    try {
      config[field] = decryptSecret(value, context(field));
    } catch (error) {
      log.error({ err: error, field }, 'payment_config: a secret cannot be decrypted (was APP_SECRET changed?)');
      config[field] = '';
      config.unreadable.push(field);
    }
  }
  return config;
}

/** What the back office may show: the settings, with every secret masked. */
export async function getPublicPaymentConfig(executor: Executor = db()): Promise<PublicPaymentConfig> {
  return toPublicPaymentConfig(await loadPaymentConfig(executor));
}

export type SavePaymentConfigResult =
  | { success: true; config: PublicPaymentConfig }
  | { success: false; error: string; fieldErrors: Partial<Record<keyof PaymentConfig, string[]>> };

/**
 * Validates and saves the configuration (upsert on option_name). A secret left empty keeps the
 * stored one; a new one is encrypted before it is written. Errors are logged and reported as
 * `success: false`, never with a secret in them.
 */
export async function savePaymentConfig(
  input: unknown,
  actor: AuditActor = 'system',
): Promise<SavePaymentConfigResult> {
  try {
    return await db().transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SAVE_LOCK_KEY})`);
      const stored = await readStored(tx);
      const parsed = createPaymentConfigSchema({
        stored: {
          apiKey: stored.apiKey !== '',
          webhookSecret: stored.webhookSecret !== '',
          secretKey: stored.secretKey !== '',
        },
      }).safeParse(input);
      if (!parsed.success) {
        return {
          success: false as const,
          error: PAYMENT_CONFIG_MESSAGES.invalid,
          fieldErrors: z.flattenError(parsed.error).fieldErrors as Partial<Record<keyof PaymentConfig, string[]>>,
        };
      }
      const value = parsed.data;
      if (value.type === 'stripe' && value.apiKey === '' && stored.apiKey !== '') {
        // The kept key must suit the (maybe changed) test mode too.
        const current = (await loadPaymentConfig(tx)).apiKey;
        if (current !== '' && value.testMode !== current.includes('_test_')) {
          const message = value.testMode
            ? PAYMENT_CONFIG_MESSAGES.apiKeyTestMode
            : PAYMENT_CONFIG_MESSAGES.apiKeyLiveMode;
          return {
            success: false as const,
            error: PAYMENT_CONFIG_MESSAGES.invalid,
            fieldErrors: { apiKey: [message] },
          };
        }
      }
      const next: StoredPaymentConfig = { ...value };
      if (value.type !== 'monetico') {
        // The form shows only the chosen solution's fields: Monetico's terminal and company code,
        // absent when switching to another solution, are kept so that the returns of payments
        // opened before the switch still verify (real money moved).
        next.merchantId = value.merchantId || stored.merchantId;
        next.companyCode = value.companyCode || stored.companyCode;
      }
      for (const field of PAYMENT_SECRET_FIELDS) {
        next[field] = value[field] === '' ? stored[field] : encryptSecret(value[field], context(field));
      }
      await writeConfigOption(PAYMENT_CONFIG_OPTION, next, tx);
      const change = changedFields(stored, next, { secrets: PAYMENT_SECRET_FIELDS });
      if (change) await recordAudit(tx, { actor, kind: 'settings.payment', subject: PAYMENT_CONFIG_OPTION, ...change });
      log.info({ type: next.type, testMode: next.testMode }, 'payment configuration saved');
      const config = toPublicPaymentConfig(await loadPaymentConfig(tx));
      return { success: true as const, config };
    });
  } catch (error) {
    log.error({ err: error }, 'the payment configuration could not be saved');
    return { success: false, error: PAYMENT_CONFIG_MESSAGES.saveFailed, fieldErrors: {} };
  }
}
