import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { PAYMENT_CONFIG_MESSAGES } from '~/domain/payments/payment-config';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { getPublicPaymentConfig, loadPaymentConfig, savePaymentConfig } from './config.server';

log.level = 'silent';

const API_KEY = 'sk_test_51HsecretStripeKey0123';
const WEBHOOK_SECRET = 'whsec_secretSigningKey0123';
const MONETICO_KEY = '0123456789ABCDEF0123456789ABCDEF01234567';

async function storedJson(): Promise<string | null> {
  const result = await db().execute(sql`select option_value from config_options where option_name = 'payment_config'`);
  return (result.rows[0] as { option_value: string } | undefined)?.option_value ?? null;
}

beforeEach(async () => {
  await db().execute(sql`delete from config_options`);
});

describe('payment configuration', () => {
  it('is the sandbox in test mode until saved', async () => {
    expect(await loadPaymentConfig()).toMatchObject({ type: 'sandbox', testMode: true, apiKey: '', unreadable: [] });
  });

  it('stores secrets encrypted and reads them back', async () => {
    const saved = await savePaymentConfig({
      type: 'stripe',
      testMode: true,
      apiKey: API_KEY,
      webhookSecret: WEBHOOK_SECRET,
      merchantId: '1234567',
      companyCode: 'soovenirs',
      secretKey: MONETICO_KEY,
    });
    expect(saved).toMatchObject({ success: true, config: { type: 'stripe', apiKeySet: true, webhookSecretSet: true } });
    const stored = (await storedJson()) as string;
    for (const secret of [API_KEY, WEBHOOK_SECRET, MONETICO_KEY, '51HsecretStripeKey', 'secretSigningKey']) {
      expect(stored).not.toContain(secret);
    }
    expect(JSON.parse(stored)).toMatchObject({
      type: 'stripe',
      merchantId: '1234567',
      apiKey: expect.stringMatching(/^v1\./),
    });
    expect(await loadPaymentConfig()).toMatchObject({
      apiKey: API_KEY,
      webhookSecret: WEBHOOK_SECRET,
      secretKey: MONETICO_KEY,
    });
  });

  it('shows a browser masked secrets only', async () => {
    await savePaymentConfig({ type: 'stripe', testMode: true, apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET });
    const view = await getPublicPaymentConfig();
    expect(view).toEqual({
      type: 'stripe',
      testMode: true,
      merchantId: '',
      companyCode: '',
      apiKeySet: true,
      apiKeyMasked: 'sk_test_••••••••0123',
      webhookSecretSet: true,
      webhookSecretMasked: 'whsec_••••••••0123',
      secretKeySet: false,
      secretKeyMasked: '',
    });
    expect(JSON.stringify(view)).not.toContain('secretStripeKey');
  });

  it('keeps a stored secret when its field is sent empty, and replaces it when a new one is sent', async () => {
    await savePaymentConfig({ type: 'stripe', testMode: true, apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET });
    const kept = await savePaymentConfig({ type: 'stripe', testMode: true, apiKey: '', webhookSecret: '' });
    expect(kept.success).toBe(true);
    expect((await loadPaymentConfig()).apiKey).toBe(API_KEY);
    await savePaymentConfig({ type: 'stripe', testMode: true, apiKey: 'sk_test_51Hanother0000', webhookSecret: '' });
    expect(await loadPaymentConfig()).toMatchObject({
      apiKey: 'sk_test_51Hanother0000',
      webhookSecret: WEBHOOK_SECRET,
    });
  });

  it('refuses a kept test key when test mode is switched off', async () => {
    await savePaymentConfig({ type: 'stripe', testMode: true, apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET });
    const result = await savePaymentConfig({ type: 'stripe', testMode: false, apiKey: '', webhookSecret: '' });
    expect(result).toEqual({
      success: false,
      error: PAYMENT_CONFIG_MESSAGES.invalid,
      fieldErrors: { apiKey: [PAYMENT_CONFIG_MESSAGES.apiKeyLiveMode] },
    });
    expect((await loadPaymentConfig()).testMode).toBe(true);
  });

  it('reports invalid fields in French and saves nothing', async () => {
    const result = await savePaymentConfig({ type: 'monetico', merchantId: '12', companyCode: '', secretKey: 'x' });
    expect(result).toEqual({
      success: false,
      error: PAYMENT_CONFIG_MESSAGES.invalid,
      fieldErrors: {
        merchantId: [PAYMENT_CONFIG_MESSAGES.merchantIdFormat],
        companyCode: [PAYMENT_CONFIG_MESSAGES.companyCodeRequired],
        secretKey: [PAYMENT_CONFIG_MESSAGES.secretKeyFormat],
      },
    });
    expect(await storedJson()).toBeNull();
  });

  it('treats a secret it cannot decrypt (APP_SECRET changed) as missing', async () => {
    await savePaymentConfig({ type: 'stripe', testMode: true, apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET });
    const secret = process.env.APP_SECRET;
    process.env.APP_SECRET = 'another-secret-that-is-long-enough-for-the-checks';
    try {
      expect(await loadPaymentConfig()).toMatchObject({
        apiKey: '',
        webhookSecret: '',
        unreadable: ['apiKey', 'webhookSecret'],
      });
    } finally {
      process.env.APP_SECRET = secret;
    }
  });
});
