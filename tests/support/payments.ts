import pg from 'pg';
import { encryptSecret } from '~/server/crypto.server';
import { randomIp } from './auth';

/*
 * The payment configuration of a test server, written straight into its database as the back
 * office would save it (secrets encrypted with the server's APP_SECRET, which the test process
 * must share: set process.env.APP_SECRET and pass the same value to startServer).
 */

export interface TestPaymentConfig {
  type: 'sandbox' | 'stripe' | 'monetico';
  testMode?: boolean;
  apiKey?: string;
  webhookSecret?: string;
  merchantId?: string;
  companyCode?: string;
  secretKey?: string;
}

export async function storePaymentConfig(databaseUrl: string, config: TestPaymentConfig): Promise<void> {
  const secret = (field: 'apiKey' | 'webhookSecret' | 'secretKey') =>
    config[field] ? encryptSecret(config[field] as string, `payment_config.${field}`) : '';
  const value = {
    type: config.type,
    testMode: config.testMode ?? true,
    apiKey: secret('apiKey'),
    webhookSecret: secret('webhookSecret'),
    merchantId: config.merchantId ?? '',
    companyCode: config.companyCode ?? '',
    secretKey: secret('secretKey'),
  };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into config_options (option_name, option_value) values ('payment_config', $1)
       on conflict (option_name) do update set option_value = excluded.option_value, updated_at = now()`,
      [JSON.stringify(value)],
    );
  } finally {
    await client.end();
  }
}

/**
 * Pays a guest's order by card through the sandbox gateway of a demo server (PAYMENT_SANDBOX=on):
 * the checkout's session, then the sandbox's payment page posted as a plain form (as without
 * JavaScript). Its signed notification pays the order before the page redirects.
 */
export async function payBySandboxCard(url: string, order: { id: string; cookie: string | null }, email: string) {
  const session = await fetch(`${url}/api/create-checkout`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: url,
      'x-forwarded-for': randomIp(),
      cookie: order.cookie ?? '',
    },
    body: JSON.stringify({ orderId: order.id, customerEmail: email, returnUrl: '/' }),
  });
  if (session.status !== 200) throw new Error(`create-checkout answered ${session.status}`);
  const { url: payUrl } = (await session.json()) as { url: string };
  const paid = await fetch(payUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
    body: new URLSearchParams({
      intent: 'pay',
      cardHolder: 'Marie Curie',
      cardNumber: '4242424242424242',
      expiryDate: '12/30',
      cvv: '123',
    }),
  });
  if (paid.status !== 302) throw new Error(`the sandbox's payment page answered ${paid.status}`);
}
