import { describe, expect, it } from 'vitest';
import { PAYMENT_CONFIG_DEFAULTS, type PaymentConfig, type PaymentProviderName } from './payment-config';
import { cardAvailability, isDemoShop, isSandboxAllowed, type PaymentSandboxSetting } from './sandbox-policy';

const KEYS: Record<PaymentProviderName, Partial<PaymentConfig>> = {
  sandbox: {},
  stripe: { apiKey: 'sk_live_0123456789abcdef', webhookSecret: 'whsec_0123456789abcdef' },
  monetico: { merchantId: '1234567', companyCode: 'soovenirs', secretKey: 'a'.repeat(40) },
};

function config(type: PaymentProviderName, withKeys: boolean): PaymentConfig {
  return { ...PAYMENT_CONFIG_DEFAULTS, type, ...(withKeys ? KEYS[type] : {}) };
}

type Row = [
  production: boolean,
  setting: PaymentSandboxSetting | undefined,
  gateway: PaymentProviderName,
  keys: boolean,
  sandboxAllowed: boolean,
  card: true | 'sandbox-disabled' | 'keys-missing',
];

// production × PAYMENT_SANDBOX × configured gateway -> may the sandbox take payments? can customers pay by card?
const TABLE: Row[] = [
  // A fresh production shop: nothing configured, no card.
  [true, undefined, 'sandbox', false, false, 'sandbox-disabled'],
  [true, 'off', 'sandbox', false, false, 'sandbox-disabled'],
  // A demo shop.
  [true, 'on', 'sandbox', false, true, true],
  // A real gateway without its keys, whatever the sandbox.
  [true, undefined, 'stripe', false, false, 'keys-missing'],
  [true, 'on', 'stripe', false, true, 'keys-missing'],
  [true, undefined, 'monetico', false, false, 'keys-missing'],
  // A real gateway with its keys: the card, and the sandbox stays off in production.
  [true, undefined, 'stripe', true, false, true],
  [true, undefined, 'monetico', true, false, true],
  [true, 'on', 'stripe', true, true, true],
  // Development and tests pay through the sandbox unless told otherwise.
  [false, undefined, 'sandbox', false, true, true],
  [false, 'on', 'sandbox', false, true, true],
  [false, 'off', 'sandbox', false, false, 'sandbox-disabled'],
  [false, undefined, 'stripe', false, true, 'keys-missing'],
  [false, 'off', 'stripe', true, false, true],
];

describe('the sandbox and the card, by environment and configuration', () => {
  it.each(TABLE)(
    'production=%s PAYMENT_SANDBOX=%s gateway=%s keys=%s -> sandbox %s, card %s',
    (production, setting, gateway, keys, sandbox, card) => {
      const allowed = isSandboxAllowed({ production, setting });
      expect(allowed).toBe(sandbox);
      const availability = cardAvailability(config(gateway, keys), allowed);
      expect(availability).toEqual(card === true ? { available: true } : { available: false, reason: card });
    },
  );

  it('says « démonstration » only when PAYMENT_SANDBOX=on was asked for', () => {
    expect(isDemoShop('on')).toBe(true);
    expect(isDemoShop('off')).toBe(false);
    expect(isDemoShop(undefined)).toBe(false);
  });
});
