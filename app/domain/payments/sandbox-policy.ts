import { frenchTypography } from '../format';
import { missingPaymentKeys, type PaymentConfig } from './payment-config';

/*
 * Whether the built-in sandbox may take payments, and whether the checkout can offer the card
 * (docs/payments.md). A fresh production shop must never let a visitor
 * "pay" with a test card and get a real invoice: with NODE_ENV=production the sandbox is off
 * unless PAYMENT_SANDBOX=on (a demo shop). Outside production it stays on, because development
 * and the tests pay through it; PAYMENT_SANDBOX=off turns it off there too (to try the refusal).
 */

export const PAYMENT_SANDBOX_SETTINGS = ['on', 'off'] as const;
export type PaymentSandboxSetting = (typeof PAYMENT_SANDBOX_SETTINGS)[number];

export function isSandboxAllowed({
  production,
  setting,
}: {
  production: boolean;
  setting: PaymentSandboxSetting | undefined;
}): boolean {
  if (setting !== undefined) return setting === 'on';
  return !production;
}

/** A demo shop says so on every page: only when PAYMENT_SANDBOX=on was asked for explicitly. */
export function isDemoShop(setting: PaymentSandboxSetting | undefined): boolean {
  return setting === 'on';
}

export type CardUnavailableReason = 'sandbox-disabled' | 'keys-missing';

export type CardAvailability = { available: true } | { available: false; reason: CardUnavailableReason };

/** Can a customer pay by card now: the chosen gateway has its keys, and is not a forbidden sandbox. */
export function cardAvailability(config: PaymentConfig, sandboxAllowed: boolean): CardAvailability {
  if (config.type === 'sandbox') {
    return sandboxAllowed ? { available: true } : { available: false, reason: 'sandbox-disabled' };
  }
  return missingPaymentKeys(config).length > 0 ? { available: false, reason: 'keys-missing' } : { available: true };
}

export const SANDBOX_POLICY_MESSAGES = {
  /** For customers (checkout, create-checkout's 503, the sandbox's page). */
  cardUnavailable:
    'Le paiement par carte bancaire n’est pas encore disponible. Vous pouvez régler par virement ou par chèque.',
  /** A sandbox notification or payment while the sandbox may not take payments. */
  sandboxRefused: frenchTypography(
    'Le bac à sable de paiement est désactivé sur cette boutique : aucun paiement de test n’est accepté.',
  ),
  demoBanner: frenchTypography('Boutique de démonstration : aucun paiement réel'),
  /** The back office's red banner, by reason. */
  adminBanner: {
    'sandbox-disabled': frenchTypography(
      'Paiement par carte indisponible : le bac à sable est désactivé en production et aucune solution de paiement n’est configurée. Configurez Stripe ou Monetico (Paramètres, Configuration Paiement) ; en attendant, les clients ne peuvent payer que par virement ou par chèque.',
    ),
    'keys-missing': frenchTypography(
      'Paiement par carte indisponible : les clés de la solution de paiement choisie ne sont pas toutes renseignées (Paramètres, Configuration Paiement). En attendant, les clients ne peuvent payer que par virement ou par chèque.',
    ),
  } satisfies Record<CardUnavailableReason, string>,
} as const;
