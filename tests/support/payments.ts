import pg from 'pg';
import { encryptSecret } from '~/server/crypto.server';

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
