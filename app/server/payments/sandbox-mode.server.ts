import {
  type CardAvailability,
  cardAvailability,
  isDemoShop,
  isSandboxAllowed,
} from '~/domain/payments/sandbox-policy';
import type { Executor } from '../config/config-options.server';
import { db } from '../db/client.server';
import { parseEnv } from '../env.server';
import { type LoadedPaymentConfig, loadPaymentConfig } from './config.server';

/*
 * The sandbox's permission, read from the environment (NODE_ENV, PAYMENT_SANDBOX) on every call
 * rather than from env()'s cache, so that a test can change it for one case. The values were
 * validated at start (server/serve.ts): an invalid PAYMENT_SANDBOX never gets this far.
 */

function sandboxSettings(source: NodeJS.ProcessEnv) {
  const { NODE_ENV, PAYMENT_SANDBOX } = parseEnv({
    NODE_ENV: source.NODE_ENV,
    PAYMENT_SANDBOX: source.PAYMENT_SANDBOX,
  });
  return { production: NODE_ENV === 'production', setting: PAYMENT_SANDBOX };
}

/** May the built-in sandbox take payments on this shop? Off in production unless PAYMENT_SANDBOX=on. */
export function sandboxMayTakePayments(source: NodeJS.ProcessEnv = process.env): boolean {
  return isSandboxAllowed(sandboxSettings(source));
}

/** PAYMENT_SANDBOX=on: every page says « Boutique de démonstration : aucun paiement réel ». */
export function isDemoShopRunning(source: NodeJS.ProcessEnv = process.env): boolean {
  return isDemoShop(sandboxSettings(source).setting);
}

/** Can customers pay by card now, with the back office's configuration and this environment. */
export async function getCardAvailability(
  executor: Executor = db(),
  config?: LoadedPaymentConfig,
): Promise<CardAvailability> {
  return cardAvailability(config ?? (await loadPaymentConfig(executor)), sandboxMayTakePayments());
}
