import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { pool } from './db/client.server';
import { log } from './log.server';

/**
 * APP_SECRET signs sessions and encrypts stored secrets. When the operator did not set one, it is
 * generated once into DATA_DIR/app-secret and reused, so that restarts keep sessions valid.
 */
export async function ensureAppSecret(dataDir: string): Promise<string> {
  if (process.env.APP_SECRET) return process.env.APP_SECRET;
  const file = path.resolve(dataDir, 'app-secret');
  let secret: string;
  try {
    secret = (await fs.readFile(file, 'utf8')).trim();
  } catch {
    await fs.mkdir(path.dirname(file), { recursive: true });
    secret = randomBytes(32).toString('base64url');
    await fs.writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' }).catch(async () => {
      secret = (await fs.readFile(file, 'utf8')).trim(); // another process won the race
    });
  }
  process.env.APP_SECRET = secret;
  return secret;
}

/*
 * Several instances on one database must share APP_SECRET: an instance with another secret cannot
 * read the sessions or the stored secrets (SMTP password, payment keys) of the others. The database
 * therefore keeps a fingerprint of the secret, written by the first instance, and an instance whose
 * secret does not match refuses to start. The fingerprint is an HMAC keyed by the secret: it tells
 * whether two secrets are equal, never the secret itself.
 */

const FINGERPRINT_LABEL = 'soovenirs/app-secret-fingerprint v1';

export function appSecretFingerprint(secret: string): string {
  return createHmac('sha256', secret).update(FINGERPRINT_LABEL).digest('base64url');
}

export class AppSecretMismatchError extends Error {
  constructor(withPrevious: boolean) {
    super(
      'La clé APP_SECRET de cette instance ne correspond pas à celle des autres instances de la base de données ' +
        '(la base garde une empreinte de la clé, écrite par la première instance démarrée). ' +
        'Cette instance ne démarre pas : elle ne pourrait lire ni les sessions ni les mots de passe enregistrés.\n' +
        'Que faire : donnez à APP_SECRET exactement la même valeur que sur les autres instances ' +
        '(sans DATABASE_URL, la clé est lue dans DATA_DIR/app-secret). ' +
        'Pour changer de clé, démarrez avec la nouvelle clé dans APP_SECRET et l’ancienne dans APP_SECRET_PREVIOUS.' +
        (withPrevious ? '\nAPP_SECRET_PREVIOUS ne correspond pas non plus à l’empreinte enregistrée.' : ''),
    );
    this.name = 'AppSecretMismatchError';
  }
}

export type FingerprintCheck = 'recorded' | 'matched' | 'rotated';

/**
 * Compares APP_SECRET with the fingerprint kept in the database: the first instance records it; an
 * instance started with a new APP_SECRET and the recorded one in APP_SECRET_PREVIOUS moves the
 * fingerprint to the new secret (rotation); any other secret throws AppSecretMismatchError.
 */
export async function checkAppSecretFingerprint({
  secret = process.env.APP_SECRET,
  previous = process.env.APP_SECRET_PREVIOUS,
  client = pool(),
}: {
  secret?: string;
  previous?: string;
  client?: Pick<pg.Pool, 'connect'>;
} = {}): Promise<FingerprintCheck> {
  if (!secret) throw new Error('APP_SECRET is not set: call ensureAppSecret first.');
  const current = appSecretFingerprint(secret);
  const connection = await client.connect();
  try {
    await connection.query('begin');
    const inserted = await connection.query(
      'insert into app_secret_fingerprint (id, fingerprint) values (1, $1) on conflict (id) do nothing',
      [current],
    );
    let outcome: FingerprintCheck;
    if (inserted.rowCount === 1) outcome = 'recorded';
    else {
      const { rows } = await connection.query<{ fingerprint: string }>(
        'select fingerprint from app_secret_fingerprint where id = 1 for update',
      );
      const stored = rows[0]?.fingerprint;
      if (stored === current) outcome = 'matched';
      else if (previous && stored === appSecretFingerprint(previous)) {
        await connection.query('update app_secret_fingerprint set fingerprint = $1, updated_at = now() where id = 1', [
          current,
        ]);
        outcome = 'rotated';
      } else throw new AppSecretMismatchError(Boolean(previous));
    }
    await connection.query('commit');
    return outcome;
  } catch (error) {
    await connection.query('rollback').catch(() => {});
    throw error;
  } finally {
    connection.release();
  }
}

/**
 * At start, once the database is open: checks the fingerprint and logs a rotation. Throws
 * AppSecretMismatchError (its message is for the operator) when the secret is not the shop's.
 */
export async function requireSharedAppSecret(): Promise<void> {
  const outcome = await checkAppSecretFingerprint();
  if (outcome === 'recorded') log.info('APP_SECRET fingerprint recorded in the database');
  if (outcome === 'rotated') log.warn('APP_SECRET rotated: the database now expects the new secret');
}
