import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import {
  createPaymentConfigSchema,
  PAYMENT_CONFIG_MESSAGES as M,
  maskSecret,
  missingPaymentKeys,
  PAYMENT_CONFIG_DEFAULTS,
  toPublicPaymentConfig,
} from './payment-config';

const schema = createPaymentConfigSchema();

function fieldErrors(input: Record<string, unknown>, stored = {}) {
  const result = createPaymentConfigSchema({ stored }).safeParse(input);
  if (result.success) return {};
  const out: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0]);
    out[field] = [...(out[field] ?? []), issue.message];
  }
  return out;
}

const stripe = {
  type: 'stripe',
  testMode: true,
  apiKey: 'sk_test_51Habcdefghijklmnop',
  webhookSecret: 'whsec_abcdefghijklmnop',
};
const monetico = {
  type: 'monetico',
  testMode: true,
  merchantId: '1234567',
  companyCode: 'soovenirs',
  secretKey: '0123456789ABCDEF0123456789ABCDEF01234567',
};

describe('payment configuration form', () => {
  it('defaults to the sandbox in test mode, needing nothing', () => {
    expect(PAYMENT_CONFIG_DEFAULTS).toMatchObject({ type: 'sandbox', testMode: true });
    expect(schema.parse({ type: 'sandbox' })).toMatchObject({ type: 'sandbox', testMode: true, apiKey: '' });
    expect(missingPaymentKeys({ ...PAYMENT_CONFIG_DEFAULTS })).toEqual([]);
  });

  it('accepts a complete Stripe or Monetico configuration', () => {
    expect(fieldErrors(stripe)).toEqual({});
    expect(fieldErrors(monetico)).toEqual({});
    expect(fieldErrors({ ...stripe, testMode: false, apiKey: 'sk_live_51Habcdefghijklmnop' })).toEqual({});
  });

  it('reads a checkbox: "on" is true, a missing value falls back to true', () => {
    expect(schema.parse({ ...monetico, testMode: 'on' }).testMode).toBe(true);
    expect(schema.parse({ ...monetico, testMode: undefined }).testMode).toBe(true);
    expect(schema.parse({ ...monetico, testMode: 'false' }).testMode).toBe(false);
  });

  it.each([
    [{ ...stripe, apiKey: '' }, 'apiKey', M.apiKeyRequired],
    [{ ...stripe, apiKey: 'pk_test_abcdefghijkl' }, 'apiKey', M.apiKeyFormat],
    [{ ...stripe, apiKey: 'sk_live_51Habcdefghijklmnop' }, 'apiKey', M.apiKeyTestMode],
    [{ ...stripe, testMode: false }, 'apiKey', M.apiKeyLiveMode],
    [{ ...stripe, webhookSecret: '' }, 'webhookSecret', M.webhookSecretRequired],
    [{ ...stripe, webhookSecret: 'secret' }, 'webhookSecret', M.webhookSecretFormat],
    [{ ...monetico, merchantId: '' }, 'merchantId', M.merchantIdRequired],
    [{ ...monetico, merchantId: '12345' }, 'merchantId', M.merchantIdFormat],
    [{ ...monetico, companyCode: '' }, 'companyCode', M.companyCodeRequired],
    [{ ...monetico, companyCode: 'a b' }, 'companyCode', M.companyCodeFormat],
    [{ ...monetico, secretKey: '' }, 'secretKey', M.secretKeyRequired],
    [{ ...monetico, secretKey: 'abc' }, 'secretKey', M.secretKeyFormat],
    [{ type: 'paypal' }, 'type', M.type],
  ])('%j: %s', (input, field, message) => {
    expect(fieldErrors(input)[field]).toEqual([message]);
  });

  it('keeps a stored secret when its field is left empty', () => {
    expect(fieldErrors({ ...stripe, apiKey: '', webhookSecret: '' }, { apiKey: true, webhookSecret: true })).toEqual(
      {},
    );
    expect(fieldErrors({ ...monetico, secretKey: '' }, { secretKey: true })).toEqual({});
  });

  it('requires only the chosen solution’s fields', () => {
    expect(fieldErrors({ type: 'stripe', ...{ apiKey: stripe.apiKey, webhookSecret: stripe.webhookSecret } })).toEqual(
      {},
    );
    expect(
      fieldErrors({ type: 'monetico', merchantId: '1234567', companyCode: 'x', secretKey: monetico.secretKey }),
    ).toEqual({});
  });
});

describe('masked secrets', () => {
  it.each([
    ['sk_test_51Habcdefghijklmnop', 'sk_test_••••••••mnop'],
    ['rk_live_51Habcdefghijklmnop', 'rk_live_••••••••mnop'],
    ['whsec_abcdefghijklmnop', 'whsec_••••••••mnop'],
    ['0123456789ABCDEF0123456789ABCDEF01234567', '••••••••4567'],
    ['short', '••••••••'],
    ['', ''],
  ])('%s -> %s', (secret, masked) => {
    expect(maskSecret(secret)).toBe(masked);
  });

  it('gives a browser no secret, only whether one is stored', () => {
    const view = toPublicPaymentConfig({ ...PAYMENT_CONFIG_DEFAULTS, ...stripe, type: 'stripe', secretKey: '' });
    expect(JSON.stringify(view)).not.toContain('51Habcdefghijklmnop');
    expect(JSON.stringify(view)).not.toContain('whsec_abcdefghijklmnop');
    expect(view).toMatchObject({ apiKeySet: true, webhookSecretSet: true, secretKeySet: false, type: 'stripe' });
    expect(Object.keys(view)).not.toContain('apiKey');
  });

  it('lists the missing keys of the chosen solution', () => {
    expect(missingPaymentKeys({ ...PAYMENT_CONFIG_DEFAULTS, type: 'stripe', apiKey: 'sk_test_x' })).toEqual([
      'webhookSecret',
    ]);
    expect(missingPaymentKeys({ ...PAYMENT_CONFIG_DEFAULTS, type: 'monetico' })).toEqual([
      'merchantId',
      'companyCode',
      'secretKey',
    ]);
  });
});

describe('the dialog’s post, read as the action reads it (Conform)', () => {
  const posted = (entries: Record<string, string>) =>
    parseWithZod(new URLSearchParams(entries), { schema: createPaymentConfigSchema() });

  it('takes the fields of the other solutions as empty, and the mode as chosen', () => {
    const sandbox = posted({ type: 'sandbox', testMode: 'false' });
    expect(sandbox.status === 'success' && sandbox.value).toMatchObject({ testMode: false, apiKey: '', secretKey: '' });
    const empty = posted({ ...monetico, testMode: 'true', apiKey: '' });
    expect(empty.status === 'success' && empty.value).toMatchObject({ type: 'monetico', apiKey: '' });
  });

  it('answers a wrong terminal number on its field', () => {
    const refused = posted({ ...monetico, testMode: 'true', merchantId: '12' });
    expect(refused.status !== 'success' && refused.error).toEqual({ merchantId: [M.merchantIdFormat] });
  });
});
