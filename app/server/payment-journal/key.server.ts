import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { keyFingerprint } from '~/domain/payment-journal/archive';
import { readConfigOption, writeConfigOption } from '../config/config-options.server';
import { decryptSecret, encryptSecret } from '../crypto.server';
import { db } from '../db/client.server';
import { log } from '../log.server';

/*
 * The shop's journal key (docs/payment-journal.md, « Archives »): an Ed25519 pair made on first
 * use, its private half encrypted at rest like the gateways' secrets (crypto.server.ts, its own
 * context), its public half in clear: the back office shows it with its fingerprint, every archive
 * carries it. It is never replaced silently: an unreadable key (APP_SECRET changed without its
 * previous value) stops the export rather than sign with a new key that no earlier archive knows.
 */

const OPTION = 'payment_journal_key';
const PRIVATE_KEY_CONTEXT = 'payment_journal_key.privateKey';

interface StoredKey {
  /** Encrypted PKCS#8 PEM. */
  privateKey: string;
  /** SubjectPublicKeyInfo DER, base64. */
  publicKey: string;
  createdAt: string;
}

export interface JournalPublicKey {
  publicKey: string;
  fingerprint: string;
  createdAt: string;
}

export interface JournalSigningKey extends JournalPublicKey {
  sign: (data: Buffer) => Buffer;
}

function isStoredKey(value: unknown): value is StoredKey {
  const v = value as Partial<StoredKey> | null;
  return typeof v?.privateKey === 'string' && typeof v.publicKey === 'string' && typeof v.createdAt === 'string';
}

/** The key's public half, or null before the first archive. */
export async function readJournalPublicKey(): Promise<JournalPublicKey | null> {
  const stored = await readConfigOption(OPTION);
  if (!isStoredKey(stored)) return null;
  return { publicKey: stored.publicKey, fingerprint: keyFingerprint(stored.publicKey), createdAt: stored.createdAt };
}

/** The signing key, made and stored on first use (one even when two exports start at once). */
export async function journalSigningKey(): Promise<JournalSigningKey> {
  const stored = await db().transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('payment_journal_key', 0))`);
    const existing = await readConfigOption(OPTION, tx);
    if (isStoredKey(existing)) return existing;
    const pair = generateKeyPairSync('ed25519');
    const made: StoredKey = {
      privateKey: encryptSecret(
        pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        PRIVATE_KEY_CONTEXT,
      ),
      publicKey: pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
      createdAt: new Date().toISOString(),
    };
    await writeConfigOption(OPTION, made, tx);
    log.info({ fingerprint: keyFingerprint(made.publicKey) }, 'payment journal signing key created');
    return made;
  });
  const privateKey: KeyObject = createPrivateKey(decryptSecret(stored.privateKey, PRIVATE_KEY_CONTEXT));
  // The stored public half must be the private half's: a swapped public key would sign nothing valid.
  const derived = createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64');
  if (derived !== stored.publicKey)
    throw new Error('payment journal key: the public key stored is not the private key’s');
  return {
    publicKey: stored.publicKey,
    fingerprint: keyFingerprint(stored.publicKey),
    createdAt: stored.createdAt,
    sign: (data) => sign(null, data, privateKey),
  };
}
