import { describe, expect, it } from 'vitest';
import { APP_SECRET_REQUIRED, parseEnv, S3_INCOMPLETE } from './env.server';

// The settings read where they are used are checked at start too: a typo stops the server.
describe('parseEnv', () => {
  it('accepts the settings the tests and operators use', () => {
    const env = parseEnv({
      CHECKOUT_RATE_LIMIT: '30',
      CONTACT_RATE_LIMIT: '5',
      POST_RATE_LIMIT: '300',
      SMTP_CONNECT_PORT: '2525',
      SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
      STRIPE_API_URL: 'http://127.0.0.1:12111',
      COLISSIMO_API_URL: 'http://127.0.0.1:4010/sls-ws',
      APP_SECRET_PREVIOUS: 'x'.repeat(32),
      PAYMENT_SANDBOX: 'on',
    });
    expect(env).toMatchObject({
      CHECKOUT_RATE_LIMIT: 30,
      SMTP_CONNECT_PORT: 2525,
      SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
      PAYMENT_SANDBOX: 'on',
    });
  });

  it.each([
    [{ CHECKOUT_RATE_LIMIT: 'trente' }, 'CHECKOUT_RATE_LIMIT must be a whole number'],
    [{ CONTACT_RATE_LIMIT: '0' }, 'CONTACT_RATE_LIMIT must be greater than 0'],
    [{ POST_RATE_LIMIT: '2.5' }, 'POST_RATE_LIMIT must be a whole number'],
    [{ SMTP_CONNECT_PORT: '70000' }, 'SMTP_CONNECT_PORT must be a port number'],
    [{ SMTP_TLS_REJECT_UNAUTHORIZED: 'no' }, 'SMTP_TLS_REJECT_UNAUTHORIZED must be true or false'],
    [{ STRIPE_API_URL: 'localhost:12111' }, 'STRIPE_API_URL must be an absolute URL'],
    [{ COLISSIMO_API_URL: 'colissimo' }, 'COLISSIMO_API_URL must be an absolute URL'],
    [{ APP_SECRET_PREVIOUS: 'short' }, 'APP_SECRET_PREVIOUS must be at least 32 characters long'],
    [{ PAYMENT_SANDBOX: 'yes' }, 'PAYMENT_SANDBOX doit valoir on ou off (bac à sable de paiement)'],
  ])('refuses %o', (source, message) => {
    expect(() => parseEnv(source)).toThrow(message);
  });

  it('requires APP_SECRET with DATABASE_URL, saying how to generate one', () => {
    const databaseUrl = 'postgres://shop@db.internal/soovenirs';
    expect(() => parseEnv({ DATABASE_URL: databaseUrl })).toThrow(APP_SECRET_REQUIRED);
    expect(APP_SECRET_REQUIRED).toContain('openssl rand -base64 48');
    expect(() => parseEnv({ DATABASE_URL: databaseUrl, APP_SECRET: '' })).toThrow('APP_SECRET est obligatoire');
    expect(parseEnv({ DATABASE_URL: databaseUrl, APP_SECRET: 's'.repeat(32) }).APP_SECRET).toBe('s'.repeat(32));
    // The embedded database generates DATA_DIR/app-secret: nothing to require.
    expect(parseEnv({}).APP_SECRET).toBeUndefined();
  });

  it('takes the object storage whole or not at all, with French messages', () => {
    const s3 = {
      S3_ENDPOINT: 'https://s3.fr-par.scw.cloud',
      S3_BUCKET: 'soovenirs-fichiers',
      S3_ACCESS_KEY_ID: 'SCWKEY',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(parseEnv(s3)).toMatchObject({ S3_BUCKET: 'soovenirs-fichiers', S3_REGION: 'us-east-1' });
    expect(parseEnv({}).S3_BUCKET).toBeUndefined();
    expect(() => parseEnv({ ...s3, S3_SECRET_ACCESS_KEY: '' })).toThrow(`S3_SECRET_ACCESS_KEY: ${S3_INCOMPLETE}`);
    expect(() => parseEnv({ S3_ENDPOINT: s3.S3_ENDPOINT })).toThrow('S3_BUCKET: le stockage objet');
    expect(() => parseEnv({ ...s3, S3_BUCKET: 'Mon Bucket' })).toThrow('S3_BUCKET doit être un nom de compartiment');
    expect(() => parseEnv({ ...s3, S3_ENDPOINT: 'pas une adresse' })).toThrow('S3_ENDPOINT doit être une adresse');
  });

  it('takes the files’ own folder and a reserve written as a size or a share of the disk', () => {
    expect(parseEnv({ FILES_DIR: '/mnt/fichiers', UPLOAD_DISK_RESERVE: '2GiB' })).toMatchObject({
      FILES_DIR: '/mnt/fichiers',
      UPLOAD_DISK_RESERVE: '2GiB',
    });
    expect(parseEnv({ UPLOAD_DISK_RESERVE: '5%' }).UPLOAD_DISK_RESERVE).toBe('5%');
    expect(() => parseEnv({ UPLOAD_DISK_RESERVE: 'beaucoup' })).toThrow(
      'UPLOAD_DISK_RESERVE doit être une taille (« 1GiB », « 500MB », un nombre d’octets) ou une part du disque (« 5% »)',
    );
  });

  it('treats an empty variable as not set', () => {
    expect(parseEnv({ CHECKOUT_RATE_LIMIT: '', STRIPE_API_URL: '' }).CHECKOUT_RATE_LIMIT).toBeUndefined();
  });
});
