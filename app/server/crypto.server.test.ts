import { afterEach, describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, isEncryptedSecret, SecretDecryptionError } from './crypto.server';

const CONTEXT = 'email_config.smtpPassword';
const originalSecret = process.env.APP_SECRET;

afterEach(() => {
  process.env.APP_SECRET = originalSecret;
  delete process.env.APP_SECRET_PREVIOUS;
});

describe('stored secrets (AES-256-GCM, key from APP_SECRET)', () => {
  it('round-trips, including non-ASCII text and the empty string', () => {
    for (const plaintext of ['S3cret-p@ss', 'mot de passe àéèç ✓', '']) {
      const stored = encryptSecret(plaintext, CONTEXT);
      expect(isEncryptedSecret(stored)).toBe(true);
      expect(stored.startsWith('v1.')).toBe(true);
      expect(decryptSecret(stored, CONTEXT)).toBe(plaintext);
    }
  });

  it('never writes the plaintext and uses a fresh IV each time', () => {
    const a = encryptSecret('S3cret-p@ss', CONTEXT);
    const b = encryptSecret('S3cret-p@ss', CONTEXT);
    expect(a).not.toBe(b);
    expect(a).not.toContain('S3cret');
    expect(Buffer.from(a.split('.')[2] as string, 'base64url').toString('latin1')).not.toContain('S3cret');
  });

  it('refuses an altered value, another context, another key and foreign formats', () => {
    const stored = encryptSecret('S3cret-p@ss', CONTEXT);
    const [v, iv, data, tag] = stored.split('.') as [string, string, string, string];
    const flipped = Buffer.from(data, 'base64url');
    flipped[0] = (flipped[0] as number) ^ 1;
    expect(() => decryptSecret([v, iv, flipped.toString('base64url'), tag].join('.'), CONTEXT)).toThrow(
      SecretDecryptionError,
    );
    expect(() => decryptSecret(stored, 'payment_config.secretKey')).toThrow(SecretDecryptionError);
    expect(() => decryptSecret('S3cret-p@ss', CONTEXT)).toThrow(SecretDecryptionError);
    expect(() => decryptSecret('v2.a.b.c', CONTEXT)).toThrow(SecretDecryptionError);

    process.env.APP_SECRET = 'another-secret-that-is-long-enough-for-the-checks';
    expect(() => decryptSecret(stored, CONTEXT)).toThrow(SecretDecryptionError);
  });

  it('still reads values of the previous APP_SECRET during a rotation', () => {
    const stored = encryptSecret('S3cret-p@ss', CONTEXT);
    process.env.APP_SECRET_PREVIOUS = originalSecret;
    process.env.APP_SECRET = 'the-new-secret-that-is-long-enough-for-the-checks';
    expect(decryptSecret(stored, CONTEXT)).toBe('S3cret-p@ss');
  });
});
