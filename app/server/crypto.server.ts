import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/*
 * Encryption of the secrets we must be able to read back (SMTP password, payment keys, carrier
 * password) before they are written to the database: AES-256-GCM with a key derived from
 * APP_SECRET by HKDF-SHA256. A database dump or backup alone does not reveal them.
 *
 * Format (ASCII, fits a JSON string): `v1.<iv>.<ciphertext>.<tag>`, each part base64url, with a
 * 12-byte random IV and a 16-byte tag. The version names the algorithm and the derivation, so a
 * later change of either can still read what v1 wrote.
 *
 * Each value is bound to a context (e.g. `email_config.smtpPassword`) through GCM's additional
 * data: a ciphertext copied into another field does not decrypt there.
 *
 * Rotation: set the new APP_SECRET and the old one in APP_SECRET_PREVIOUS; values still decrypt
 * with the old key and are written with the new one the next time they are saved.
 */

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SALT = 'soovenirs/stored-secrets';
const INFO = 'aes-256-gcm v1';

const keys = new Map<string, Buffer>();

function deriveKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, SALT, INFO, 32));
    keys.set(secret, key);
  }
  return key;
}

function currentSecret(): string {
  const secret = process.env.APP_SECRET;
  if (!secret) throw new Error('APP_SECRET is not set: stored secrets cannot be encrypted or read.');
  return secret;
}

export class SecretDecryptionError extends Error {
  constructor(reason: string) {
    super(`A stored secret could not be decrypted: ${reason}`);
    this.name = 'SecretDecryptionError';
  }
}

/** Whether a stored value has the shape of something encryptSecret wrote. */
export function isEncryptedSecret(value: unknown): value is string {
  return typeof value === 'string' && /^v1\.[\w-]+\.[\w-]*\.[\w-]+$/.test(value);
}

export function encryptSecret(plaintext: string, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(currentSecret()), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64url'), ciphertext.toString('base64url'), tag.toString('base64url')].join('.');
}

function decryptWith(secret: string, iv: Buffer, ciphertext: Buffer, tag: Buffer, context: string): string {
  const decipher = createDecipheriv('aes-256-gcm', deriveKey(secret), iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
}

/** Throws SecretDecryptionError when the value is malformed, altered, or from another key or context. */
export function decryptSecret(stored: string, context: string): string {
  if (!isEncryptedSecret(stored)) throw new SecretDecryptionError('unknown format');
  const [, ivPart, dataPart, tagPart] = stored.split('.') as [string, string, string, string];
  const iv = Buffer.from(ivPart, 'base64url');
  const tag = Buffer.from(tagPart, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretDecryptionError('malformed value');
  const ciphertext = Buffer.from(dataPart, 'base64url');
  const candidates = [currentSecret(), process.env.APP_SECRET_PREVIOUS].filter((s): s is string => Boolean(s));
  for (const secret of candidates) {
    try {
      return decryptWith(secret, iv, ciphertext, tag, context);
    } catch {
      // wrong key or context: try the previous key, if any
    }
  }
  throw new SecretDecryptionError('wrong key or context, or the value was altered');
}
