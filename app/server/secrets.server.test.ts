import { beforeEach, describe, expect, it } from 'vitest';
import { pool } from './db/client.server';
import { AppSecretMismatchError, appSecretFingerprint, checkAppSecretFingerprint } from './secrets.server';

// Several instances on one database must share APP_SECRET: the first records a fingerprint of it,
// any other secret is refused at start, and a rotation moves the fingerprint to the new secret.

const shopSecret = 'la-cle-de-la-boutique-partagee-par-toutes-les-instances';
const otherSecret = 'une-autre-cle-generee-par-une-instance-mal-configuree';
const newSecret = 'la-nouvelle-cle-apres-rotation-de-la-boutique-0123456';

async function stored(): Promise<string | undefined> {
  const { rows } = await pool().query<{ fingerprint: string }>('select fingerprint from app_secret_fingerprint');
  return rows[0]?.fingerprint;
}

describe('the APP_SECRET fingerprint', () => {
  beforeEach(async () => {
    await pool().query('delete from app_secret_fingerprint');
  });

  it('is recorded by the first instance, never as the secret itself, and matched by the next ones', async () => {
    expect(await checkAppSecretFingerprint({ secret: shopSecret })).toBe('recorded');
    const fingerprint = await stored();
    expect(fingerprint).toBe(appSecretFingerprint(shopSecret));
    expect(fingerprint).not.toContain(shopSecret);
    expect(fingerprint).not.toBe(appSecretFingerprint(otherSecret));
    expect(await checkAppSecretFingerprint({ secret: shopSecret })).toBe('matched');
  });

  it('refuses another secret with a French message saying what to do, and keeps the fingerprint', async () => {
    await checkAppSecretFingerprint({ secret: shopSecret });
    const refusal = checkAppSecretFingerprint({ secret: otherSecret });
    await expect(refusal).rejects.toBeInstanceOf(AppSecretMismatchError);
    await expect(checkAppSecretFingerprint({ secret: otherSecret })).rejects.toThrow(
      /ne correspond pas.*[\s\S]*même valeur que sur les autres instances[\s\S]*APP_SECRET_PREVIOUS/,
    );
    expect(await stored()).toBe(appSecretFingerprint(shopSecret));
  });

  it('moves to the new secret when the previous one is the recorded one (rotation)', async () => {
    await checkAppSecretFingerprint({ secret: shopSecret });
    expect(await checkAppSecretFingerprint({ secret: newSecret, previous: shopSecret })).toBe('rotated');
    expect(await stored()).toBe(appSecretFingerprint(newSecret));
    // The other instances restart with the pair too, or with the new secret alone.
    expect(await checkAppSecretFingerprint({ secret: newSecret, previous: shopSecret })).toBe('matched');
    expect(await checkAppSecretFingerprint({ secret: newSecret })).toBe('matched');
    // An instance left on the old secret alone is refused now.
    await expect(checkAppSecretFingerprint({ secret: shopSecret })).rejects.toBeInstanceOf(AppSecretMismatchError);
  });

  it('refuses a rotation whose previous secret is not the recorded one either', async () => {
    await checkAppSecretFingerprint({ secret: shopSecret });
    await expect(checkAppSecretFingerprint({ secret: newSecret, previous: otherSecret })).rejects.toThrow(
      'APP_SECRET_PREVIOUS ne correspond pas non plus',
    );
    expect(await stored()).toBe(appSecretFingerprint(shopSecret));
  });

  it('records one fingerprint when several instances start at once', async () => {
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => checkAppSecretFingerprint({ secret: shopSecret })));
    expect(outcomes.filter((o) => o === 'recorded')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'matched')).toHaveLength(3);
  });
});
