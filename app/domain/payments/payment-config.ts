import { z } from 'zod';
import '../zod-config';
import { FORBIDDEN_CHARACTER_MESSAGE, hasNoForbiddenCharacter } from '../text-input';
import { isMoneticoKey } from './monetico-key';

/*
 * The payment configuration of the back office: the payment
 * solution and its credentials, stored as JSON in config_options under `payment_config`, the
 * secrets encrypted (server/payments/config.server.ts). The gateways are `stripe` and
 * `monetico`; `sandbox` is ours, the built-in test gateway and the default, which needs nothing.
 *
 * Stripe needs, besides its apiKey, the signing secret of its webhook endpoint
 * (`whsec_...`): without it a notification cannot be verified. Monetico needs, besides the
 * terminal (merchantId, "TPE") and its key (secretKey), the company code (`societe`) of the form.
 */

export const PAYMENT_PROVIDERS = ['sandbox', 'stripe', 'monetico'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

export const PAYMENT_PROVIDER_LABELS: Readonly<Record<PaymentProviderName, string>> = {
  sandbox: 'Bac à sable (paiements de test)',
  stripe: 'Stripe',
  monetico: 'Monetico',
};

export const PAYMENT_CONFIG_OPTION = 'payment_config';

/** The secret fields: encrypted at rest, never sent to a browser. */
export const PAYMENT_SECRET_FIELDS = ['apiKey', 'webhookSecret', 'secretKey'] as const;
export type PaymentSecretField = (typeof PAYMENT_SECRET_FIELDS)[number];

export interface PaymentConfig {
  type: PaymentProviderName;
  /** Test mode is effectively always on: a missing value falls back to true. */
  testMode: boolean;
  /** Stripe secret key (sk_test_... / sk_live_..., or a restricted rk_ key). */
  apiKey: string;
  /** Stripe webhook signing secret (whsec_...). */
  webhookSecret: string;
  /** Monetico terminal number (TPE). */
  merchantId: string;
  /** Monetico company code (`societe`). */
  companyCode: string;
  /** Monetico key: 40 hexadecimal characters. */
  secretKey: string;
}

export const PAYMENT_CONFIG_DEFAULTS: Readonly<PaymentConfig> = Object.freeze({
  type: 'sandbox',
  testMode: true,
  apiKey: '',
  webhookSecret: '',
  merchantId: '',
  companyCode: '',
  secretKey: '',
});

/** What a browser may see: no secret, only whether one is stored and a masked hint of it. */
export interface PublicPaymentConfig {
  type: PaymentProviderName;
  testMode: boolean;
  merchantId: string;
  companyCode: string;
  apiKeySet: boolean;
  apiKeyMasked: string;
  webhookSecretSet: boolean;
  webhookSecretMasked: string;
  secretKeySet: boolean;
  secretKeyMasked: string;
}

const BULLETS = '••••••••';

/** "sk_test_51H...x7Qa" -> "sk_test_••••••••x7Qa"; "" -> "". Never more than the prefix and 4 characters. */
export function maskSecret(value: string): string {
  if (value === '') return '';
  const prefix = /^((?:sk|rk|pk)_(?:test|live)_|whsec_)/.exec(value)?.[1] ?? '';
  const rest = value.slice(prefix.length);
  const tail = rest.length > 8 ? rest.slice(-4) : '';
  return `${prefix}${BULLETS}${tail}`;
}

export function toPublicPaymentConfig(config: PaymentConfig): PublicPaymentConfig {
  return {
    type: config.type,
    testMode: config.testMode,
    merchantId: config.merchantId,
    companyCode: config.companyCode,
    apiKeySet: config.apiKey !== '',
    apiKeyMasked: maskSecret(config.apiKey),
    webhookSecretSet: config.webhookSecret !== '',
    webhookSecretMasked: maskSecret(config.webhookSecret),
    secretKeySet: config.secretKey !== '',
    secretKeyMasked: maskSecret(config.secretKey),
  };
}

/** Whether the configuration has what its payment solution needs to take a payment. */
export function missingPaymentKeys(config: PaymentConfig): (keyof PaymentConfig)[] {
  const required: Record<PaymentProviderName, (keyof PaymentConfig)[]> = {
    sandbox: [],
    stripe: ['apiKey', 'webhookSecret'],
    monetico: ['merchantId', 'companyCode', 'secretKey'],
  };
  return required[config.type].filter((field) => config[field] === '');
}

export const PAYMENT_CONFIG_MESSAGES = {
  type: 'Choisissez une solution de paiement',
  apiKeyRequired: 'La clé secrète Stripe est requise',
  apiKeyFormat: 'La clé secrète Stripe commence par sk_test_, sk_live_, rk_test_ ou rk_live_',
  apiKeyTestMode: 'En mode test, utilisez une clé de test (sk_test_… ou rk_test_…)',
  apiKeyLiveMode: 'Hors mode test, utilisez une clé de production (sk_live_… ou rk_live_…)',
  webhookSecretRequired: 'Le secret de signature du webhook Stripe est requis',
  webhookSecretFormat: 'Le secret de signature du webhook Stripe commence par whsec_',
  merchantIdRequired: 'Le numéro de TPE est requis',
  merchantIdFormat: 'Le numéro de TPE contient 7 chiffres',
  companyCodeRequired: 'Le code société est requis',
  companyCodeFormat: 'Le code société ne contient que des lettres, des chiffres, des tirets et des points',
  secretKeyRequired: 'La clé de sécurité Monetico est requise',
  secretKeyFormat: 'La clé de sécurité Monetico contient 40 caractères hexadécimaux',
  notConfigured: 'Les clés de paiement ne sont pas configurées',
  saveFailed: 'Erreur lors de l’enregistrement de la configuration de paiement',
  invalid: 'Veuillez corriger les champs signalés',
  tooLong: (max: number) => `${max} caractères au maximum`,
} as const;

const M = PAYMENT_CONFIG_MESSAGES;
// Every field is stored, even those of the solution not chosen: bounded, and without NUL (PostgreSQL
// refuses it). Missing is empty. One chain, no preprocess: Conform reads an empty field as missing
// in every string schema, a preprocess's output included.
const text = z
  .string()
  .trim()
  .max(500, { error: M.tooLong(500), abort: true })
  .refine(hasNoForbiddenCharacter, { error: FORBIDDEN_CHARACTER_MESSAGE })
  .default('');

/**
 * The form's schema. A secret left empty keeps the stored one (a stored secret never comes back to
 * the browser, so the form shows an empty field): `stored` says which secrets are already stored.
 * Only the chosen solution's fields are required; the others are kept as they are.
 */
export function createPaymentConfigSchema({ stored = {} }: { stored?: StoredSecrets } = {}) {
  return z
    .object({
      type: z.enum(PAYMENT_PROVIDERS, { error: M.type }),
      // A checkbox: absent when unticked. The fallback is true, for a missing value only.
      testMode: z.preprocess(
        (v) => (v === 'on' || v === 'true' ? true : v === 'false' ? false : v),
        z.boolean().default(true),
      ),
      apiKey: text,
      webhookSecret: text,
      merchantId: text,
      companyCode: text,
      secretKey: text,
    })
    .superRefine((value, ctx) => {
      const issue: Issue = (path, message) => ctx.addIssue({ code: 'custom', path: [path], message });
      if (value.type === 'stripe') stripeIssues(value, stored, issue);
      if (value.type === 'monetico') moneticoIssues(value, stored, issue);
    });
}

type Issue = (path: keyof PaymentConfig, message: string) => void;
type StoredSecrets = Partial<Record<PaymentSecretField, boolean>>;

/** Stripe's keys: a secret or restricted key of the chosen mode, and the webhook's signing secret. */
function stripeIssues(
  value: Pick<PaymentConfig, 'testMode' | 'apiKey' | 'webhookSecret'>,
  stored: StoredSecrets,
  issue: Issue,
): void {
  if (value.apiKey === '') {
    if (!stored.apiKey) issue('apiKey', M.apiKeyRequired);
  } else if (!/^(sk|rk)_(test|live)_[0-9A-Za-z]{8,}$/.test(value.apiKey)) issue('apiKey', M.apiKeyFormat);
  else if (value.testMode && !/_test_/.test(value.apiKey)) issue('apiKey', M.apiKeyTestMode);
  else if (!value.testMode && !/_live_/.test(value.apiKey)) issue('apiKey', M.apiKeyLiveMode);
  if (value.webhookSecret === '') {
    if (!stored.webhookSecret) issue('webhookSecret', M.webhookSecretRequired);
  } else if (!/^whsec_[0-9A-Za-z+/=]{8,}$/.test(value.webhookSecret)) {
    issue('webhookSecret', M.webhookSecretFormat);
  }
}

/** Monetico's terminal: its 7-digit number, the company code and the 40-hex-digit security key. */
function moneticoIssues(
  value: Pick<PaymentConfig, 'merchantId' | 'companyCode' | 'secretKey'>,
  stored: StoredSecrets,
  issue: Issue,
): void {
  if (value.merchantId === '') issue('merchantId', M.merchantIdRequired);
  else if (!/^\d{7}$/.test(value.merchantId)) issue('merchantId', M.merchantIdFormat);
  if (value.companyCode === '') issue('companyCode', M.companyCodeRequired);
  else if (!/^[0-9A-Za-z._-]{1,40}$/.test(value.companyCode)) issue('companyCode', M.companyCodeFormat);
  if (value.secretKey === '') {
    if (!stored.secretKey) issue('secretKey', M.secretKeyRequired);
  } else if (!isMoneticoKey(value.secretKey)) issue('secretKey', M.secretKeyFormat);
}

export type PaymentConfigInput = z.output<ReturnType<typeof createPaymentConfigSchema>>;

/** The dialog's fields as the browser's form holds them: test mode is a choice of two, as text. */
export type PaymentConfigFormInput = Omit<PaymentConfig, 'testMode'> & { testMode: 'true' | 'false' };

/** The two modes, as the dialog offers them: a missing value means test mode. */
export const PAYMENT_MODE_OPTIONS: ReadonlyArray<{ value: PaymentConfigFormInput['testMode']; label: string }> = [
  { value: 'true', label: 'Mode test (aucun paiement réel)' },
  { value: 'false', label: 'Production (paiements réels encaissés)' },
];
