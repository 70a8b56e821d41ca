import { z } from 'zod';
import { changedFields } from '~/domain/audit/changes';
import { hasNoForbiddenCharacter } from '~/domain/text-input';
import { type AuditActor, recordAudit } from '../audit/audit.server';
import { readConfigOption, writeConfigOption } from '../config/config-options.server';
import { decryptSecret, encryptSecret, isEncryptedSecret } from '../crypto.server';
import { db } from '../db/client.server';
import { log } from '../log.server';

/*
 * The key of La Poste's tracking service (API « Suivi » v2, the `X-Okapi-Key` header), saved with
 * the other carrier settings in the back office's « Configuration Coliship » dialog: stored in
 * config_options under `laposte_tracking`, encrypted (crypto.server.ts), never sent to a browser.
 * The service's address is LAPOSTE_TRACKING_API_URL (La Poste's production one by default).
 */

export const LAPOSTE_TRACKING_DEFAULT_URL = 'https://api.laposte.fr/suivi/v2';
const OPTION = 'laposte_tracking';
const KEY_CONTEXT = 'laposte_tracking.apiKey';

export const TRACKING_KEY_MESSAGES = {
  saved: 'Clé du suivi des colis enregistrée',
  removed: 'Clé du suivi des colis supprimée. Les événements des colis ne sont plus lus chez La Poste.',
  tooLong: '200 caractères au maximum',
  forbidden: 'Ce champ contient un caractère non autorisé.',
  required: 'Saisissez la clé de l’API Suivi de La Poste',
} as const;

export function trackingApiUrl(): string {
  return (process.env.LAPOSTE_TRACKING_API_URL?.trim() || LAPOSTE_TRACKING_DEFAULT_URL).replace(/\/+$/, '');
}

interface StoredTracking {
  /** Ciphertext. */
  apiKey: string;
}

async function readStored(): Promise<StoredTracking | null> {
  const value = (await readConfigOption(OPTION)) as Partial<StoredTracking> | null;
  if (!value || typeof value !== 'object') return null;
  return { apiKey: typeof value.apiKey === 'string' ? value.apiKey : '' };
}

/** The key, decrypted; null when none is saved (the shop then shows no carrier events). */
export async function loadTrackingKey(): Promise<string | null> {
  const stored = await readStored();
  if (!stored?.apiKey || !isEncryptedSecret(stored.apiKey)) return null;
  try {
    return decryptSecret(stored.apiKey, KEY_CONTEXT);
  } catch (error) {
    log.error({ err: error }, 'the stored La Poste tracking key cannot be decrypted (was APP_SECRET changed?)');
    return null;
  }
}

export async function getPublicTrackingSettings(): Promise<{ keySet: boolean }> {
  const stored = await readStored();
  return { keySet: Boolean(stored?.apiKey) };
}

export const trackingKeySchema = z.object({
  apiKey: z
    .string()
    .trim()
    .max(200, { error: TRACKING_KEY_MESSAGES.tooLong, abort: true })
    .refine(hasNoForbiddenCharacter, { error: TRACKING_KEY_MESSAGES.forbidden })
    .optional()
    .default(''),
  remove: z.literal('on').optional(),
});

export type TrackingKeyResult = { ok: true; message: string; keySet: boolean } | { ok: false; error: string };

/** « Enregistrer »: a typed key replaces the stored one; an empty field keeps it; « Supprimer » removes it. */
export async function saveTrackingKey(
  input: { apiKey?: unknown; remove?: unknown },
  actor: AuditActor,
): Promise<TrackingKeyResult> {
  const parsed = trackingKeySchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? TRACKING_KEY_MESSAGES.required };
  const stored = await readStored();
  const remove = parsed.data.remove === 'on';
  if (!remove && !parsed.data.apiKey) {
    if (stored?.apiKey) return { ok: true, message: TRACKING_KEY_MESSAGES.saved, keySet: true };
    return { ok: false, error: TRACKING_KEY_MESSAGES.required };
  }
  const next: StoredTracking = { apiKey: remove ? '' : encryptSecret(parsed.data.apiKey, KEY_CONTEXT) };
  await db().transaction(async (tx) => {
    await writeConfigOption(OPTION, next, tx);
    const change = changedFields(stored ?? {}, next, { secrets: ['apiKey'] });
    if (change) await recordAudit(tx, { actor, kind: 'settings.shipping', subject: OPTION, ...change });
  });
  return {
    ok: true,
    message: remove ? TRACKING_KEY_MESSAGES.removed : TRACKING_KEY_MESSAGES.saved,
    keySet: !remove,
  };
}
