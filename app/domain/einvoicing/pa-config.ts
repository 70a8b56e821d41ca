import { z } from 'zod';
import '../zod-config';
import { maskSecret } from '../payments/payment-config';

/*
 * The plateforme agréée's settings (docs/plateforme-agreee.md): where its AFNOR XP Z12-013
 * services answer, the OAuth2 client credentials the shop signs in with (the secret stored
 * encrypted, never sent back to a browser), the shop's own SIREN and routing code, enabled or not,
 * test or production. Pure: the form's schema and what a page may show.
 */

export const PA_CONFIG_OPTION = 'pa_config';
export const PA_SECRET_FIELDS = ['clientSecret'] as const;

export interface PaConfig {
  enabled: boolean;
  /** A PA's test environment: the only one demonstration (sandbox) invoices are deposited on. */
  testMode: boolean;
  /** The Flow Service's base address, e.g. https://api.pa.example/flow-service (its paths start with /v1). */
  flowUrl: string;
  /** The Directory Service's base address; the Flow Service's when empty. */
  directoryUrl: string;
  /** The OAuth2 token endpoint (client credentials). */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** The scope some PAs ask for in the token request; empty when none. */
  scope: string;
  /** The shop's SIREN (the seller of its invoices) and, when its PA asks for one, its routing code. */
  sellerSiren: string;
  sellerRoutingCode: string;
}

export const PA_CONFIG_DEFAULTS: Readonly<PaConfig> = Object.freeze({
  enabled: false,
  testMode: true,
  flowUrl: '',
  directoryUrl: '',
  tokenUrl: '',
  clientId: '',
  clientSecret: '',
  scope: '',
  sellerSiren: '',
  sellerRoutingCode: '',
});

export interface PublicPaConfig extends Omit<PaConfig, 'clientSecret'> {
  clientSecretSet: boolean;
  clientSecretMasked: string;
}

export function toPublicPaConfig(config: PaConfig): PublicPaConfig {
  const { clientSecret, ...rest } = config;
  return { ...rest, clientSecretSet: clientSecret !== '', clientSecretMasked: maskSecret(clientSecret) };
}

/** Whether the shop can talk to its PA: enabled, with every address and credential. */
export function isPaUsable(config: PaConfig): boolean {
  return (
    config.enabled &&
    config.flowUrl !== '' &&
    config.tokenUrl !== '' &&
    config.clientId !== '' &&
    config.clientSecret !== ''
  );
}

export const PA_CONFIG_MESSAGES = {
  invalid: 'Veuillez corriger les champs signalés.',
  url: 'Adresse https:// attendue (http:// seulement vers cette machine).',
  siren: 'Le SIREN compte 9 chiffres.',
  required: 'Champ obligatoire pour activer la plateforme.',
  secretRequired: 'Le secret du client est obligatoire pour activer la plateforme.',
  saveFailed: 'La configuration n’a pas pu être enregistrée. Réessayez.',
} as const;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An https address; http only to this machine (a local PA in development and tests). */
export function isAcceptableUrl(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.username || url.password) return false;
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname));
  } catch {
    return false;
  }
}

const url = z
  .string()
  .trim()
  .max(500)
  .refine((value) => value === '' || isAcceptableUrl(value), PA_CONFIG_MESSAGES.url)
  .transform((value) => value.replace(/\/+$/, ''));
const checkbox = z
  .union([z.literal('on'), z.literal('true'), z.literal('false'), z.literal(''), z.boolean()])
  .optional()
  .transform((value) => value === true || value === 'on' || value === 'true');

/** The form: a secret left empty keeps the stored one (`stored.clientSecret`). */
export function createPaConfigSchema({ stored }: { stored: { clientSecret: boolean } }) {
  return z
    .object({
      enabled: checkbox,
      testMode: checkbox,
      flowUrl: url,
      directoryUrl: url,
      tokenUrl: url,
      clientId: z.string().trim().max(300),
      clientSecret: z.string().max(1000).optional().default(''),
      scope: z.string().trim().max(300).default(''),
      sellerSiren: z
        .string()
        .trim()
        .transform((value) => value.replace(/\s+/g, ''))
        .refine((value) => value === '' || /^\d{9}$/.test(value), PA_CONFIG_MESSAGES.siren),
      sellerRoutingCode: z.string().trim().max(100).default(''),
    })
    .superRefine((value, ctx) => {
      if (!value.enabled) return;
      for (const field of ['flowUrl', 'tokenUrl', 'clientId', 'sellerSiren'] as const) {
        if (value[field] === '') ctx.addIssue({ code: 'custom', path: [field], message: PA_CONFIG_MESSAGES.required });
      }
      if (value.clientSecret === '' && !stored.clientSecret) {
        ctx.addIssue({ code: 'custom', path: ['clientSecret'], message: PA_CONFIG_MESSAGES.secretRequired });
      }
    });
}
