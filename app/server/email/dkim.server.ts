import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { type AuditActor, recordAudit } from '../audit/audit.server';
import { type Executor, readConfigOption, writeConfigOption } from '../config/config-options.server';
import { decryptSecret, encryptSecret, isEncryptedSecret } from '../crypto.server';
import { db } from '../db/client.server';
import { configOptions } from '../db/schema';
import { log } from '../log.server';

/*
 * DKIM signing of the shop's e-mails (docs/operations.md, « E-mail authentication »). The
 * operator generates an RSA 2048 key pair here, or pastes the private key their provider gave,
 * with the signing domain and the selector; the private key is stored encrypted like the SMTP
 * password (crypto.server.ts, its own context), the public key in clear: it is what the DNS
 * record publishes. Nodemailer signs every message with it (transport.server.ts).
 */

export const DKIM_OPTION = 'email_dkim';
const PRIVATE_KEY_CONTEXT = 'email_dkim.privateKey';

/** What nodemailer's `dkim` option takes. */
export interface DkimSigning {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

interface StoredDkim {
  domain: string;
  selector: string;
  /** Encrypted PKCS#8 PEM. */
  privateKey: string;
  /** The public key, base64 DER (SubjectPublicKeyInfo): the record's p= value. */
  publicKey: string;
  bits: number;
  savedAt: string;
}

export interface PublicDkim {
  domain: string;
  selector: string;
  bits: number;
  savedAt: string;
  /** The TXT record to publish: its name and its value. */
  record: { name: string; value: string };
  /** False when the stored key cannot be decrypted (APP_SECRET changed): messages go unsigned. */
  readable: boolean;
}

export const DKIM_MESSAGES = {
  domain: 'Indiquez un nom de domaine valide, par exemple soovenirs.fr (sans « http:// » ni « @ »).',
  selector: 'Indiquez un sélecteur valide\u00a0: lettres minuscules, chiffres et tirets, par exemple soovenirs2026.',
  keyMissing: 'Collez la clé privée (un bloc « -----BEGIN PRIVATE KEY----- » ou « -----BEGIN RSA PRIVATE KEY----- »).',
  keyInvalid:
    'Cette clé privée est illisible\u00a0: collez la clé PEM complète, non chiffrée, lignes BEGIN et END comprises.',
  keyNotRsa: 'Cette clé n’est pas une clé RSA\u00a0: la signature DKIM de la boutique utilise RSA.',
  keyTooShort: (bits: number) =>
    `Cette clé RSA fait ${bits} bits\u00a0: il en faut 1024 au moins (2048 recommandés), sinon les messageries ignorent la signature.`,
  saveFailed: 'La signature DKIM n’a pas pu être enregistrée. Réessayez.',
} as const;

const DOMAIN = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.[a-z]{2,63}$/;
const SELECTOR = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/;

export type DkimField = 'domain' | 'selector' | 'privateKey';
export type DkimResult =
  | { ok: true; dkim: PublicDkim }
  | { ok: false; fieldErrors: Partial<Record<DkimField, string>>; error?: string };

function normaliseDomain(value: string): string {
  return value.trim().toLowerCase().replace(/\.$/, '');
}

/** The record's name and value for a domain, a selector and a public key (base64 DER). */
export function dkimRecord(domain: string, selector: string, publicKey: string): { name: string; value: string } {
  return { name: `${selector}._domainkey.${domain}`, value: `v=DKIM1; k=rsa; p=${publicKey}` };
}

function publicKeyOf(key: KeyObject): string {
  return createPublicKey(key).export({ type: 'spki', format: 'der' }).toString('base64');
}

/** A pasted key, checked: readable, unencrypted, RSA, 1024 bits or more. */
function readPrivateKey(pem: string): { key: KeyObject; bits: number } | { error: string } {
  const text = pem.trim();
  if (!text) return { error: DKIM_MESSAGES.keyMissing };
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text, format: 'pem' });
  } catch {
    return { error: DKIM_MESSAGES.keyInvalid };
  }
  if (key.asymmetricKeyType !== 'rsa') return { error: DKIM_MESSAGES.keyNotRsa };
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < 1024) return { error: DKIM_MESSAGES.keyTooShort(bits) };
  return { key, bits };
}

function toPublic(stored: StoredDkim, readable: boolean): PublicDkim {
  return {
    domain: stored.domain,
    selector: stored.selector,
    bits: stored.bits,
    savedAt: stored.savedAt,
    record: dkimRecord(stored.domain, stored.selector, stored.publicKey),
    readable,
  };
}

function fromStored(value: unknown): StoredDkim | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const fields = ['domain', 'selector', 'privateKey', 'publicKey', 'savedAt'] as const;
  if (!fields.every((f) => typeof v[f] === 'string')) return null;
  return { ...(v as unknown as StoredDkim), bits: typeof v.bits === 'number' ? v.bits : 2048 };
}

/**
 * Saves the signing key: generated here (RSA 2048) when `privateKey` is absent, else the pasted
 * one. Every mistake comes back per field, in French.
 */
export async function saveDkim(
  input: { domain: string; selector: string; privateKey?: string | null },
  actor: AuditActor = 'system',
): Promise<DkimResult> {
  const domain = normaliseDomain(input.domain);
  const selector = input.selector.trim().toLowerCase();
  const fieldErrors: Partial<Record<DkimField, string>> = {};
  if (!DOMAIN.test(domain)) fieldErrors.domain = DKIM_MESSAGES.domain;
  if (!SELECTOR.test(selector)) fieldErrors.selector = DKIM_MESSAGES.selector;
  let key: KeyObject;
  let bits: number;
  if (input.privateKey === undefined || input.privateKey === null) {
    key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    bits = 2048;
  } else {
    const read = readPrivateKey(input.privateKey);
    if ('error' in read) {
      fieldErrors.privateKey = read.error;
      return { ok: false, fieldErrors };
    }
    ({ key, bits } = read);
  }
  if (Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };
  const pem = key.export({ type: 'pkcs8', format: 'pem' }).toString();
  const stored: StoredDkim = {
    domain,
    selector,
    privateKey: encryptSecret(pem, PRIVATE_KEY_CONTEXT),
    publicKey: publicKeyOf(key),
    bits,
    savedAt: new Date().toISOString(),
  };
  try {
    await db().transaction(async (tx) => {
      const before = fromStored(await readConfigOption(DKIM_OPTION, tx));
      await writeConfigOption(DKIM_OPTION, stored, tx);
      await recordAudit(tx, {
        actor,
        kind: 'settings.email',
        subject: DKIM_OPTION,
        before: before ? { dkim: `${before.selector}._domainkey.${before.domain}` } : null,
        after: { dkim: `${selector}._domainkey.${domain}` },
      });
    });
  } catch (error) {
    log.error({ err: error }, 'the DKIM key could not be saved');
    return { ok: false, fieldErrors: {}, error: DKIM_MESSAGES.saveFailed };
  }
  return { ok: true, dkim: toPublic(stored, true) };
}

/** Stops signing (the key is forgotten). */
export async function removeDkim(actor: AuditActor = 'system'): Promise<void> {
  await db().transaction(async (tx) => {
    const removed = await tx
      .delete(configOptions)
      .where(eq(configOptions.optionName, DKIM_OPTION))
      .returning({ name: configOptions.optionName });
    if (removed.length > 0) {
      await recordAudit(tx, {
        actor,
        kind: 'settings.email',
        subject: DKIM_OPTION,
        before: { dkim: 'on' },
        after: { dkim: 'off' },
      });
    }
  });
}

/** The key with what it signs, for nodemailer; null when none is saved or it cannot be decrypted. */
export async function loadDkim(executor: Executor = db()): Promise<DkimSigning | null> {
  const stored = fromStored(await readConfigOption(DKIM_OPTION, executor));
  if (!stored) return null;
  if (!isEncryptedSecret(stored.privateKey)) return null;
  try {
    return {
      domainName: stored.domain,
      keySelector: stored.selector,
      privateKey: decryptSecret(stored.privateKey, PRIVATE_KEY_CONTEXT),
    };
  } catch (error) {
    log.error({ err: error }, 'the stored DKIM key cannot be decrypted (was APP_SECRET changed?): e-mails go unsigned');
    return null;
  }
}

/** What the settings page shows: never the private key. */
export async function getPublicDkim(executor: Executor = db()): Promise<PublicDkim | null> {
  const stored = fromStored(await readConfigOption(DKIM_OPTION, executor));
  if (!stored) return null;
  let readable = isEncryptedSecret(stored.privateKey);
  if (readable) {
    try {
      decryptSecret(stored.privateKey, PRIVATE_KEY_CONTEXT);
    } catch {
      readable = false;
    }
  }
  return toPublic(stored, readable);
}
