import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeStripe, startFakeStripe } from '../../../tests/support/fake-stripe';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { savePaymentConfig } from '../payments/config.server';
import { computeChecklist } from './checklist.server';

/*
 * The Tests tab's « Clés de paiement en production »: done only once the gateway has accepted the
 * live keys (Stripe answers the probe), never merely because keys were typed.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';

const LIVE_KEY = 'sk_live_AcceptedByStripe0123456789';
const WEBHOOK_SECRET = 'whsec_FakeSigningSecret0123456789';

let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe({ apiKeys: [LIVE_KEY] });
  process.env.STRIPE_API_URL = stripe.url;
});
afterAll(async () => {
  delete process.env.STRIPE_API_URL;
  await stripe.close();
});
beforeEach(async () => {
  await db().execute(sql`delete from config_options`);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

async function paymentKeysItem() {
  return (await computeChecklist()).find((item) => item.id === 'payment-keys');
}

describe('the payment keys item of the Tests checklist', () => {
  it('is done when Stripe accepts the live keys', async () => {
    expect(
      (await savePaymentConfig({ type: 'stripe', testMode: false, apiKey: LIVE_KEY, webhookSecret: WEBHOOK_SECRET }))
        .success,
    ).toBe(true);
    expect(await paymentKeysItem()).toMatchObject({
      state: 'complete',
      detail: 'Stripe a accepté les clés de production.',
    });
    expect(stripe.requests.some((r) => r.path === '/v1/balance' && r.apiKey === LIVE_KEY)).toBe(true);
  });

  it('is still to do when Stripe refuses the live key that was typed', async () => {
    const typed = 'sk_live_TypedButUnknown0123456789';
    expect(
      (await savePaymentConfig({ type: 'stripe', testMode: false, apiKey: typed, webhookSecret: WEBHOOK_SECRET }))
        .success,
    ).toBe(true);
    const item = await paymentKeysItem();
    expect(item?.state).toBe('incomplete');
    expect(item?.detail).toContain('Stripe refuse la clé secrète configurée');
  });

  it('is to do on a production shop left on the disabled sandbox, a warning where the sandbox may take test payments', async () => {
    vi.stubEnv('PAYMENT_SANDBOX', 'off');
    expect((await paymentKeysItem())?.state).toBe('incomplete');
    vi.stubEnv('PAYMENT_SANDBOX', 'on');
    expect((await paymentKeysItem())?.state).toBe('warning');
  });
});
